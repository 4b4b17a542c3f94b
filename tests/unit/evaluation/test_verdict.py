"""Verdicts with their sample size and interval, and temperature scaling of a head's probabilities."""

from __future__ import annotations

import numpy as np
import pytest

from core.evaluation import (
    Verdict,
    calibration_figures,
    enough_papers,
    expected_calibration_error,
    fit_temperature,
    interval_text,
    log_loss,
    paired_verdict,
    proportion_interval,
    softmax,
)
from core.evaluation.verdict import MIN_PAPERS, floor_half_width


def test_a_clear_gain_on_many_papers_beats_the_base_and_says_n_and_the_interval():
    rng = np.random.default_rng(0)
    base = (rng.random(600) < 0.35).astype(float)
    new = np.where(rng.random(600) < 0.15, 1.0, base)  # right wherever the base was, and on 15 % more
    verdict = paired_verdict(new, base, seed=1)
    assert verdict.kind == "better" and verdict.beats_base and 0 < verdict.low < verdict.change < verdict.high
    sentence = verdict.sentence("its base minilm")
    assert sentence.startswith("The new model beats its base minilm on 600 held-out test papers: test accuracy ")
    assert "95 % interval +" in sentence


def test_two_papers_out_of_thirty_is_no_measurable_change():
    """The issue's case: 'beats its base by 6.7 points' was 2 of ~30 papers."""
    base = np.array([1.0] * 10 + [0.0] * 20)
    new = base.copy()
    new[[10, 11]] = 1.0
    verdict = paired_verdict(new, base, groups=[0, 1] * 15)
    assert verdict.change == pytest.approx(2 / 30) and verdict.low <= 0 < verdict.high
    assert verdict.kind == "no measurable change" and not verdict.beats_base
    sentence = verdict.sentence("its base minilm")
    assert sentence.startswith(f"The new model: no measurable change against its base minilm (±{verdict.margin:.1f} "
                               "points on 30 held-out test papers): test accuracy 40.0% against 33.3%")
    assert "beats" not in sentence


def test_unchanged_predictions_on_105_papers_give_the_exact_binomial_interval_not_zero_width():
    """Issue 44: '±0.0 points on 105 papers (95 % interval +0.0 to +0.0)' when no prediction changed."""
    scores = np.array([1.0] * 40 + [0.0] * 65)
    verdict = paired_verdict(scores, scores.copy(), groups=np.arange(105) % 5)
    bound = 1 - 0.025 ** (1 / 105)  # Clopper-Pearson: 0 changed of 105, upper 97.5 %
    assert bound == pytest.approx(0.0345, abs=1e-4)
    assert verdict.low == pytest.approx(-bound) and verdict.high == pytest.approx(bound)
    assert verdict.kind == "no measurable change" and "±3.5 points on 105 held-out test papers" in verdict.sentence()
    assert "+0.0 to +0.0" not in verdict.sentence()


@pytest.mark.parametrize("n", [10, 30, 105, 600])
def test_no_interval_is_narrower_than_n_allows(n):
    rng = np.random.default_rng(n)
    base = (rng.random(n) < 0.5).astype(float)
    new = base.copy()
    new[0] = 1 - new[0]  # one changed prediction
    verdict = paired_verdict(new, base)
    assert verdict.high - verdict.change >= floor_half_width(n) - 1e-12
    assert verdict.change - verdict.low >= floor_half_width(n) - 1e-12


def test_too_few_test_papers_are_not_judged_and_the_sentence_says_how_many():
    base = np.zeros(12)
    new = np.ones(12)  # right on every paper where the base was wrong: still only 12 papers
    verdict = paired_verdict(new, base, groups=[0, 1, 2] * 4)
    assert verdict.kind == "too few test papers to judge" and not verdict.beats_base and not verdict.judgeable
    sentence = verdict.sentence("its base minilm")
    assert sentence.startswith("The new model: too few test papers to judge (12 in 3 classes of 2 or more): a verdict "
                               f"needs at least {MIN_PAPERS} test papers, in 2 classes of 2 or more")
    assert "beats" not in sentence and "worse" not in sentence


def test_many_papers_of_one_class_are_too_few_to_judge():
    rng = np.random.default_rng(0)
    base = (rng.random(200) < 0.3).astype(float)
    verdict = paired_verdict(np.ones(200), base, groups=[7] * 199 + [8])
    assert verdict.classes == 1 and verdict.kind == "too few test papers to judge"
    assert paired_verdict(np.ones(200), base, groups=[7] * 198 + [8, 8]).kind == "better"


def test_a_verdict_on_validation_papers_is_never_a_verdict():
    verdict = Verdict(105, 0.4, 0.4, -0.03, 0.03, split="validation")
    assert verdict.kind == "too few test papers to judge" and not verdict.beats_base
    assert "not on held-out test papers" in verdict.sentence()


def test_enough_papers_is_the_stated_rule():
    assert MIN_PAPERS == 30 and not enough_papers(29, 5) and enough_papers(30, 2) and not enough_papers(30, 1)
    assert enough_papers(30, None)  # verdicts stored before classes were counted


def test_a_clear_loss_is_worse_than_the_base():
    base = np.ones(400)
    new = np.where(np.arange(400) < 80, 0.0, 1.0)
    verdict = paired_verdict(new, base)
    assert verdict.kind == "worse" and verdict.high < 0
    assert verdict.sentence().startswith("The new model is worse than its base on 400 held-out test papers")


def test_a_verdict_round_trips_through_its_stored_dict_and_none_stays_none():
    verdict = paired_verdict([1, 0, 1, 1], [0, 0, 1, 0], seed=3)
    stored = verdict.to_dict()
    assert stored["kind"] == verdict.kind and stored["n"] == 4 and stored["beats_base"] is verdict.beats_base
    assert Verdict.from_dict(stored) == verdict
    grouped = paired_verdict([1, 0, 1, 1], [0, 0, 1, 0], groups=[0, 0, 1, 1])
    assert Verdict.from_dict(grouped.to_dict()) == grouped and grouped.classes == 2
    assert Verdict.from_dict(None) is None and Verdict.from_dict({}) is None
    assert paired_verdict([], []) is None


def test_the_bootstrap_is_seeded():
    new, base = np.r_[np.ones(30), np.zeros(30)], np.r_[np.ones(25), np.zeros(35)]
    assert paired_verdict(new, base, seed=5) == paired_verdict(new, base, seed=5)


def test_wilson_interval_of_a_proportion():
    low, high = proportion_interval(36, 100)
    assert low == pytest.approx(0.2727, abs=1e-3) and high == pytest.approx(0.4576, abs=1e-3)
    assert proportion_interval(0, 0) is None
    assert proportion_interval(0, 10)[0] == pytest.approx(0.0) and proportion_interval(10, 10)[1] == pytest.approx(1.0)
    assert interval_text(0.36, low, high) == "36.0 % (27.3–45.8)"
    assert interval_text(0.5, None, None, percent=False) == "0.500"


def test_temperature_scaling_of_overconfident_logits_lowers_log_loss_and_ece_on_other_held_out_papers():
    rng = np.random.default_rng(0)

    def draw(n: int) -> tuple[np.ndarray, np.ndarray]:
        calibrated = rng.normal(size=(n, 8)) * 1.5
        target = np.array([rng.choice(8, p=p) for p in softmax(calibrated)])
        return calibrated * 4.0, target  # a head four times too sure of itself

    fit_on, held_out = draw(800), draw(800)
    temperature = fit_temperature(*fit_on)
    assert temperature == pytest.approx(4.0, rel=0.2)
    figures = calibration_figures(*held_out, temperature)
    assert figures["nll"] < figures["nll_raw"] and figures["ece"] < figures["ece_raw"] / 2
    assert figures["nll"] == pytest.approx(log_loss(softmax(held_out[0], temperature), held_out[1]))


def test_ece_is_zero_when_confidence_matches_accuracy():
    probs = np.array([[0.5, 0.5, 0.0]] * 4 + [[1.0, 0.0, 0.0]] * 2)
    target = np.array([0, 1, 0, 1, 0, 0])  # 50 % right at confidence 0.5, 100 % at 1.0
    assert expected_calibration_error(probs, target) == pytest.approx(0.0)
    assert fit_temperature(np.zeros((0, 3)), np.zeros(0, dtype=int)) == 1.0
