"""The result tables: Result rows, the best model per column, markdown."""

import math

import numpy as np
import pytest

from core.evaluation import Result, best_per_column, results_table, to_markdown

# ---------------------------------------------------------------- Result


def test_result_to_dict_has_the_json_keys():
    d = Result("m", "probe", "macro_f1", 0.5, 0.1, 10, "x").to_dict()
    assert d == {"model": "m", "task": "probe", "metric": "macro_f1", "value": 0.5, "std": 0.1, "n": 10, "note": "x"}


def test_results_table_best_per_column_and_markdown():
    results = [
        Result("a", "probe", "macro_f1", 0.5), Result("b", "probe", "macro_f1", 0.7),
        Result("a", "neighbours", "word_shuffle:nn1_ret", 0.9), Result("b", "neighbours", "word_shuffle:nn1_ret", 0.2),
        Result("a", "purity", "purity@10", 0.4),
    ]
    table = results_table(results)
    assert list(table.index) == ["a", "b"]
    assert list(table.columns) == ["probe:macro_f1", "neighbours:word_shuffle:nn1_ret", "purity:purity@10"]
    assert math.isnan(table.loc["b", "purity:purity@10"])
    best = best_per_column(table)
    assert best == {"probe:macro_f1": "b", "neighbours:word_shuffle:nn1_ret": "b", "purity:purity@10": "a"}
    markdown = to_markdown(table).splitlines()
    assert markdown[0] == "| model | probe:macro_f1 | neighbours:word_shuffle:nn1_ret | purity:purity@10 |"
    assert markdown[2] == "| a | 0.500 | 0.900 | **0.400** |"
    assert markdown[3] == "| b | **0.700** | **0.200** | – |"


def test_figures_have_readable_names_n_and_a_95_percent_interval_where_one_follows():
    from core.evaluation.report import figure_table, interval_of, readable

    assert readable("probe:macro_f1") == "Linear probe macro-F1"
    assert readable("purity:purity@10") == "Cluster purity (k = 10)"
    assert readable("journals:knn:top-5") == "Journal finder, neighbour vote: top-5 (%)"
    probe = Result("m", "probe", "macro_f1", 0.5, 0.02, 2000)
    assert interval_of(probe) == pytest.approx((0.5 - 3.182 * 0.01, 0.5 + 3.182 * 0.01))
    knn = Result("m", "knn", "knn_accuracy", 0.36, None, 100)
    assert interval_of(knn) == pytest.approx((0.2727, 0.4576), abs=1e-3)  # Wilson
    top5 = interval_of(Result("m", "journals", "top-5", 36.0, None, 100, method="knn"))
    assert top5 == pytest.approx((27.27, 45.76), abs=0.1)
    assert interval_of(Result("m", "retrieval", "ap", 0.4, None, 5000)) is None
    table, best = figure_table([probe, knn, Result("b", "probe", "macro_f1", 0.6, 0.02, 2000),
                                Result("b", "knn", "knn_accuracy", 0.3, None, 100)])
    assert list(table.columns) == ["m", "b", "n"]
    assert table.loc["Linear probe macro-F1", "m"] == "0.500 (0.468–0.532)"
    assert table.loc["kNN accuracy (k = 10 vote)", "n"] == "100"
    # knn 0.36 (0.27–0.46) against 0.30 (0.22–0.40) on 100 papers: higher, but not measurably: not marked
    assert best == {"Linear probe macro-F1": "b"}


def test_overlapping_intervals_mark_no_winner_issue_44():
    """'0.077 (0.057–0.097) vs 0.075 (0.039–0.111)' was bolded; without per-paper scores overlap marks nothing."""
    from core.evaluation.report import figure_table, winners

    a = Result("a", "probe", "macro_f1", 0.077, 0.0126, 2000)  # t interval 0.057–0.097
    b = Result("b", "probe", "macro_f1", 0.075, 0.0226, 2000)  # 0.039–0.111
    assert winners([a, b]) == {} and figure_table([a, b])[1] == {}
    assert winners([a]) == {}  # one model beats nobody


def test_a_winner_by_paired_per_paper_scores_only_when_the_difference_excludes_0():
    from core.evaluation.report import winners

    rng = np.random.default_rng(0)
    base = (rng.random(400) < 0.4).astype(float)
    better = np.where(rng.random(400) < 0.2, 1.0, base)  # right wherever base is, and on 20 % more
    tiny = base.copy()
    tiny[np.flatnonzero(base == 0)[:2]] = 1.0  # 2 of 400 papers more: within chance
    rows = lambda other: [Result("base", "knn", "knn_accuracy", base.mean(), None, 400, per_paper=base.tolist()),  # noqa: E731
                          Result("new", "knn", "knn_accuracy", other.mean(), None, 400, per_paper=other.tolist())]
    assert winners(rows(better)) == {"knn:knn_accuracy": "new"}
    assert winners(rows(tiny)) == {}
    ranks_a, ranks_b = np.full(300, 2.0), np.full(300, 6.0)  # mean rank: lower is better
    assert winners([Result("a", "journals", "mean rank", 2.0, None, 300, method="knn", per_paper=ranks_a.tolist()),
                    Result("b", "journals", "mean rank", 6.0, None, 300, method="knn",
                           per_paper=ranks_b.tolist())]) == {"journals:knn:mean rank": "a"}


def test_the_figures_export_keeps_each_figure_with_its_interval_and_n():
    """The Evaluate page's CSV held the bare values (model x metric): no interval, no n, unlike the page above it."""
    from core.evaluation.report import figure_rows

    rows = figure_rows([Result("m", "probe", "macro_f1", 0.5, 0.02, 2000),
                        Result("m", "retrieval", "auc", 0.833, None, 2999, low=0.82, high=0.845, pairs=200_000),
                        Result("m", "self", "task1_mrr", 0.4, None, 50)])
    assert list(rows.columns) == ["model", "measure", "value", "low", "high", "n", "pairs"]
    probe, auc, mrr = rows.to_dict("records")
    assert probe["measure"] == "Linear probe macro-F1" and probe["low"] == pytest.approx(0.5 - 3.182 * 0.01)
    assert (auc["low"], auc["high"], auc["n"], auc["pairs"]) == (0.82, 0.845, 2999, 200_000)
    assert math.isnan(mrr["low"]) and mrr["n"] == 50  # no interval follows: an empty cell, never a made-up one


def test_the_cli_report_says_when_its_papers_are_a_models_held_out_test_papers():
    """`evaluate --held-out` printed '112 of 112 labelled papers sampled', where the page says they are a fine-tuned
    model's held-out test papers."""
    from core.evaluation.report import markdown_report

    doc = {"corpus": "c", "label": "journal", "sample": 112, "labelled": 112, "seed": 0, "tasks": ["knn"],
           "results": [Result("m", "knn", "knn_accuracy", 0.3, None, 112).to_dict()], "errors": [], "notes": []}
    assert "held-out" not in markdown_report(doc).splitlines()[0]
    first = markdown_report({**doc, "held_out": True}).splitlines()[0]
    assert first.endswith("112 of 112 labelled papers sampled (seed 0), all of them held-out test papers of a "
                          "fine-tuned model.")


def test_a_mean_rank_whose_papers_all_ranked_first_is_never_placed_below_rank_1():
    """Compare showed the journal finder's BM25 mean rank as '1.0 (0.3–1.0)': ranks that were all 1 looked like
    scores within 0–1, so the interval was clipped to 0–1, not kept from rank 1."""
    from core.evaluation.report import interval_of

    low, high = interval_of(Result("m", "journals", "mean rank", 1.0, None, 3, method="bm25", per_paper=[1.0] * 3))
    assert low >= 1.0 and high >= 1.0
    low, high = interval_of(Result("m", "journals", "mean rank", 2.0, None, 4, method="knn",
                                   per_paper=[1.0, 1.0, 3.0, 3.0]))
    assert 1.0 <= low < 2.0 < high
