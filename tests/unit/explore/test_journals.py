"""The calibrated kNN journal vote, its evidence counts, the corpus-wide balance check and the short-query warning."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from core.explore.journals import (
    KNN_PRIOR_STRENGTH,
    knn_vote,
    knn_vote_details,
    label_prior,
    predict_journals,
    prediction_balance,
    vote_matrix,
)

MANY = {f"J{i}": 1 / 200 for i in range(200)}  # a corpus of 200 equally sized journals


def test_one_neighbour_cannot_make_a_journal_near_certain_with_the_prior():
    alone = knn_vote([0.95], ["J7"], prior=MANY)
    bound = (1 + KNN_PRIOR_STRENGTH * MANY["J7"]) / (1 + KNN_PRIOR_STRENGTH)
    assert alone["J7"] == pytest.approx(bound) and alone["J7"] < 0.35
    assert knn_vote([0.95], ["J7"]) == {"J7": 1.0}  # without a prior the old overconfidence


def test_one_close_paper_among_far_ones_stays_below_the_bound():
    scores = [0.9] + [0.5] * 49
    labels = ["J7"] + [f"J{100 + i % 40}" for i in range(49)]
    probs = knn_vote(scores, labels, prior=MANY)
    assert probs["J7"] < (1 + KNN_PRIOR_STRENGTH * MANY["J7"]) / (1 + KNN_PRIOR_STRENGTH)
    assert next(iter(probs)) == "J7"


@pytest.mark.parametrize("prior", [None, MANY, {"J1": 0.5, "J2": 0.5}])
def test_probabilities_sum_to_one(prior):
    probs = knn_vote([0.9, 0.85, 0.8, 0.4], ["J1", "J2", "J1", "J3"], prior=prior)
    assert math.isclose(sum(probs.values()), 1.0, abs_tol=1e-9)
    assert all(0 <= p <= 1 for p in probs.values())


def test_labels_are_ordered_by_their_summed_weight():
    probs = knn_vote([0.9, 0.6, 0.55, 0.5], ["far", "near", "near", "far"], temperature=0.1)
    assert list(probs) == ["far", "near"]  # one close paper outweighs two farther ones
    probs = knn_vote([0.9, 0.89, 0.88, 0.3], ["b", "a", "a", "b"], temperature=0.1)
    assert list(probs) == ["a", "b"]


def test_the_prior_gives_every_corpus_journal_a_little_and_orders_them_by_size():
    probs = knn_vote([0.9], ["small"], prior={"small": 0.1, "big": 0.6, "mid": 0.3})
    assert list(probs) == ["small", "big", "mid"] and probs["big"] > probs["mid"] > 0


def test_missing_labels_are_ignored():
    assert knn_vote([0.99, 0.8], [None, "A"]) == {"A": 1.0}
    assert knn_vote([0.9, 0.8, 0.7, 0.6], [float("nan"), "", pd.NA, "B"], prior={"B": 0.5, "C": 0.5})["B"] > 0.3
    assert knn_vote([0.9], [None]) == {} and knn_vote([], []) == {}


def test_year_labels_read_as_2019_not_2019_0():
    probs = knn_vote([0.9, 0.8, 0.7], [2019.0, np.float64(2019), 2020], prior={2019.0: 0.5, "2020": 0.5})
    assert set(probs) == {"2019", "2020"}
    shares = label_prior(pd.Series([2019.0, 2019, None, 2020.0]))
    assert shares == {"2019": pytest.approx(2 / 3), "2020": pytest.approx(1 / 3)}


def test_details_count_neighbours_and_their_weight_share():
    details = knn_vote_details([0.9, 0.9, 0.9, 0.9], ["A", "A", "A", "B"], prior={"A": 0.5, "B": 0.25, "C": 0.25})
    assert (details["A"].neighbours, details["B"].neighbours, details["C"].neighbours) == (3, 1, 0)
    assert details["A"].weight_share == pytest.approx(0.75) and details["C"].weight_share == 0
    assert details["A"].probability == pytest.approx((3 + KNN_PRIOR_STRENGTH * 0.5) / (4 + KNN_PRIOR_STRENGTH))


def test_the_matrix_vote_is_the_single_vote_row_by_row():
    rng = np.random.default_rng(0)
    scores = np.sort(rng.uniform(0.2, 0.9, size=(5, 8)), axis=1)[:, ::-1]
    codes = rng.integers(-1, 4, size=(5, 8))
    prior = np.array([0.4, 0.3, 0.2, 0.1])
    probs, counts, _ = vote_matrix(scores, codes, 4, prior=prior)
    names = ["a", "b", "c", "d"]
    for q in range(5):
        single = knn_vote(scores[q], [names[c] if c >= 0 else None for c in codes[q]], prior=dict(zip(names, prior)))
        assert [single.get(n, 0.0) for n in names] == pytest.approx(probs[q].tolist())
        assert counts[q].sum() == (codes[q] >= 0).sum()


def test_balance_compares_predicted_and_actual_shares_on_a_tiny_corpus(embedded):
    table = prediction_balance(embedded, "c", "tiny", "journal")
    assert set(table["label"]) == {"J. Astro", "J. Bio", "J. Econ"}
    assert table["actual_share"].sum() == pytest.approx(1.0)
    assert table["predicted_share"].sum() == pytest.approx(1.0)
    assert list(table["predicted_share"]) == sorted(table["predicted_share"], reverse=True)


def test_balance_over_a_year_column_reads_years_without_decimals(embedded):
    table = prediction_balance(embedded, "c", "tiny", "year")
    assert set(table["label"]) <= {str(y) for y in range(2000, 2005)} and len(table) > 0


def test_predictions_carry_neighbour_counts_and_weight_shares(embedded):
    paper = embedded.papers_frame("c").iloc[0]
    pred = predict_journals(embedded, "tiny", title=paper["title"], abstract=paper["abstract"], corpus="c",
                            label_column="journal")
    assert pred.method == "knn" and pred.nearest == 15  # the whole tiny corpus
    assert sum(p["neighbours"] for p in pred.predictions) == 15
    assert sum(p["weight_share"] for p in pred.predictions) == pytest.approx(1.0, abs=1e-3)
    assert sum(p["probability"] for p in pred.predictions) == pytest.approx(1.0, abs=1e-3)
    assert pred.predictions[0]["evidence"][0] == paper["id"]
    assert {"label", "probability", "neighbours", "evidence", "evidence_papers"} <= set(pred.predictions[0])


def test_a_short_query_is_warned_about_and_a_full_abstract_is_not(embedded):
    short = predict_journals(embedded, "tiny", title="galaxy redshift", abstract="", corpus="c")
    assert short.warning and "only 2 words" in short.warning
    assert short.to_dict()["warning"] == short.warning
    paper = embedded.papers_frame("c").iloc[0]
    full = predict_journals(embedded, "tiny", title=paper["title"], abstract=paper["abstract"], corpus="c")
    assert full.warning is None
    # three times the abstract is more than twice what the tiny model reads (128 tokens): said, not "too short"
    long = predict_journals(embedded, "tiny", title=paper["title"], abstract=paper["abstract"] * 3, corpus="c")
    assert long.warning and "reads only its first 128 tokens" in long.warning and "only" not in long.warning[:20]
