"""Pair retrieval's AP and ROC-AUC come with a 95 % interval from a bootstrap over papers (pairs are not independent:
one paper is in many pairs), and with n as papers and pairs, on every surface: the result rows, JSON, the CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

from core.cli import main
from core.evaluation import evaluate_models, protocols
from core.evaluation.report import Result, figure_table, interval_of, result_from_row
from core.evaluation.verdict import floor_half_width


def test_weighted_ap_and_auc_equal_sklearn_with_the_same_sample_weights():
    from core.evaluation.pair_bootstrap import weighted_ap_auc

    rng = np.random.default_rng(0)
    scores = np.round(rng.normal(size=400), 1)  # rounded: many tied scores
    relevant = rng.random(400) < 0.3
    weights = rng.integers(0, 4, size=(3, 400)).astype(float)
    ap, auc = weighted_ap_auc(scores, relevant, weights)
    for row, w in enumerate(weights):
        assert ap[row] == pytest.approx(average_precision_score(relevant, scores, sample_weight=w))
        assert auc[row] == pytest.approx(roc_auc_score(relevant, scores, sample_weight=w))


def test_retrieval_has_a_paper_bootstrap_interval_and_counts_papers_and_pairs():
    rng = np.random.default_rng(1)
    y = rng.choice(["a", "b", "c"], size=60).tolist()
    centres = {"a": [1.0, 0, 0, 0], "b": [0, 1.0, 0, 0], "c": [0, 0, 1.0, 0]}
    X = np.array([centres[v] for v in y]) + rng.normal(scale=0.8, size=(60, 4))
    r = protocols.retrieval_scores(X, y)
    assert (r["n"], r["pairs"]) == (60, 60 * 59 // 2)
    for metric in ("ap", "auc"):
        low, high = r[f"{metric}_low"], r[f"{metric}_high"]
        assert low < r[metric] < high and high - low > 0.02  # 60 papers cannot pin AP or AUC to a hair
    assert r == protocols.retrieval_scores(X, y)  # seeded


def test_a_perfect_ranking_is_never_certain_on_a_few_papers():
    X = np.array([[1, 2, 3, 4], [1, 2, 3, 5], [4, 3, 2, 1], [5, 3, 2, 1]], dtype=float)
    r = protocols.retrieval_scores(X, ["a", "a", "b", "b"])
    assert r["auc"] == pytest.approx(1.0) and r["auc_high"] == pytest.approx(1.0)
    assert r["auc_low"] <= 1.0 - floor_half_width(4) + 1e-9  # not 1.0–1.0 on 4 papers


def test_retrieval_rows_carry_the_interval_papers_and_pairs_into_the_table():
    row = Result("m", "retrieval", "auc", 0.833, None, 2999, low=0.82, high=0.845, pairs=200_000).to_dict()
    assert (row["low"], row["high"], row["pairs"]) == (0.82, 0.845, 200_000)
    back = result_from_row(json.loads(json.dumps(row)))
    assert interval_of(back) == (0.82, 0.845)
    table, _ = figure_table([back])
    assert table.loc["Pair retrieval ROC-AUC", "m"] == "0.833 (0.820–0.845)"
    assert table.loc["Pair retrieval ROC-AUC", "n"] == "2,999 papers, 200,000 pairs"
    assert "low" not in Result("m", "knn", "knn_accuracy", 0.5, None, 10).to_dict()  # other rows as before


def test_evaluate_json_and_text_show_the_retrieval_interval_and_n(tiny_store, capsys):
    doc = evaluate_models(tiny_store, "c", "journal", ["tiny"], ["retrieval"], sample=30)
    rows = {r["metric"]: r for r in doc["results"]}
    for metric in ("ap", "auc"):
        assert rows[metric]["low"] <= rows[metric]["value"] <= rows[metric]["high"]
        assert (rows[metric]["n"], rows[metric]["pairs"]) == (30, 435)
    argv = ["--workspace", str(tiny_store.root), "evaluate", "--corpus", "c", "--label", "journal",
            "--models", "tiny", "--tasks", "retrieval", "--sample", "30"]
    assert main(argv + ["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {r["metric"]: (r["low"], r["high"]) for r in out["results"]} == {
        m: (rows[m]["low"], rows[m]["high"]) for m in ("ap", "auc")}
    assert main(argv) == 0
    text = capsys.readouterr().out
    auc = rows["auc"]
    assert f"{auc['value']:.3f} ({auc['low']:.3f}–{auc['high']:.3f})" in text
    assert "30 papers, 435 pairs" in text


@pytest.mark.parametrize("decimals", [None, 1])
def test_the_fast_path_equals_the_general_one_with_and_without_ties(decimals):
    """Sampled pairs repeat a pair (tied scores): the fast path took the general one's time, 8 s at 200,000 pairs."""
    from core.evaluation.pair_bootstrap import fast_ap_auc, ranking, weighted_ap_auc

    rng = np.random.default_rng(4)
    first = rng.integers(0, 50, 900)
    second = (first + rng.integers(1, 50, 900)) % 50
    scores, relevant = rng.normal(size=900), rng.random(900) < 0.2
    scores = scores if decimals is None else np.round(scores, decimals)
    counts = np.stack([np.bincount(rng.integers(0, 50, 50), minlength=50) for _ in range(5)])
    order, ends = ranking(scores)
    assert (ends is None) == (decimals is None)
    fast = fast_ap_auc(relevant[order], counts, first[order], second[order], ends)
    slow = weighted_ap_auc(scores, relevant, counts[:, first] * counts[:, second])
    assert np.allclose(fast, slow)


def test_sampled_pairs_of_a_large_corpus_take_the_fast_path(monkeypatch):
    from core.evaluation import pair_bootstrap

    monkeypatch.setattr(pair_bootstrap, "ranked_ap_auc", None)  # the slow general path must not be needed
    rng = np.random.default_rng(5)
    X, y = rng.normal(size=(400, 8)), rng.choice(["a", "b", "c"], size=400).tolist()
    r = protocols.retrieval_scores(X, y, n_pairs=20_000)  # 20,000 of 79,800 pairs, drawn with repeats
    assert r["pairs"] == 20_000 and r["auc_low"] < r["auc"] < r["auc_high"]
