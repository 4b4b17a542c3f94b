"""Means over papers (MRR, the journals' mean rank) and alternative self's top-100 share came without an interval: the
table said '0.614' or '28.7' beside n = 500 or 22, as sure of one as of the other. Now each has a 95 % interval: a
bootstrap over papers of the mean (never narrower than n allows), Wilson for the share."""

from __future__ import annotations

import numpy as np
import pytest

from core.evaluation import protocols
from core.evaluation.report import Result, figure_table, interval_of
from core.evaluation.verdict import floor_half_width
from tests.unit.evaluation.support import bag_of_words


def test_a_mean_over_papers_has_a_bootstrap_interval_that_narrows_with_n():
    rng = np.random.default_rng(0)
    wide = rng.random(20).tolist()
    narrow = rng.random(2000).tolist()
    small = interval_of(Result("m", "short", "title MRR", float(np.mean(wide)), None, 20, method="dense",
                               per_paper=wide))
    large = interval_of(Result("m", "short", "title MRR", float(np.mean(narrow)), None, 2000, method="dense",
                               per_paper=narrow))
    assert small[0] < np.mean(wide) < small[1] and large[0] < np.mean(narrow) < large[1]
    assert (small[1] - small[0]) > 4 * (large[1] - large[0])
    same = interval_of(Result("m", "short", "title MRR", 1.0, None, 30, method="dense", per_paper=[1.0] * 30))
    assert same[0] <= 1.0 - floor_half_width(30) + 1e-9  # every paper at rank 1 is not certainty on 30 papers


def test_the_journals_mean_rank_shows_its_interval_in_the_table():
    ranks = [1.0, 3.0, 2.0, 40.0, 1.0, 7.0, 2.0, 1.0, 12.0, 5.0]
    result = Result("m", "journals", "mean rank", float(np.mean(ranks)), None, 10, method="knn", per_paper=ranks)
    low, high = interval_of(result)
    assert low < 7.4 < high
    table, _ = figure_table([result])
    assert table.loc["Journal finder, neighbour vote: mean rank", "m"] == f"7.4 ({low:.1f}–{high:.1f})" and low >= 1


def test_alternative_self_has_an_interval_for_its_share_and_its_mrr():
    titles = [f"paper about topic {i} and words w{i}" for i in range(30)]
    abstracts = [f"topic {i} is studied with words w{i} at length" for i in range(30)]
    encode = bag_of_words
    X = encode(list(zip(titles, abstracts)))
    rows = protocols.run_protocols(X, ["a"] * 30, ["self"], model="m", encode=encode, titles=titles,
                                   abstracts=abstracts)
    for row in rows:
        assert row.per_paper is not None and len(row.per_paper) == row.n == 30
        low, high = interval_of(row)
        assert low <= row.value <= high and high - low > 0
    t100 = next(r for r in rows if r.metric == "task1_t100")
    assert interval_of(t100) == pytest.approx(interval_of(Result("m", "knn", "knn_accuracy", t100.value, None, 30)))
