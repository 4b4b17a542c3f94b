"""The short-query task: titles and keywords as queries, dense vs lexical vs fused, with n and intervals."""

import numpy as np

from core.evaluation import evaluate_models
from core.evaluation.short_queries import keyword_lists, keyword_query, per_query, queries, summary, target_ranks
from core.explore.search.lexical import LexicalIndex


def test_queries_are_titles_and_two_to_four_own_keywords():
    titles, abstracts = ["A b", "C d", "E f", "No abstract"], ["x", "y", "z", ""]
    keywords = [["k1", "k2", "k3", "k4", "k5"], ["only"], ["k1", "k2"], ["k1", "k2"]]
    sets = queries(titles, abstracts, keywords, seed=0)
    assert sorted(sets["title"][0]) == ["A b", "C d", "E f"]  # a paper without an abstract is no target
    texts, targets = sets["keywords"]
    assert sorted(targets.tolist()) == [0, 2]
    assert all(2 <= len(t.split()) <= 4 for t in texts)
    rng = np.random.default_rng(1)
    assert keyword_query(["a"], rng) is None and keyword_query(["a", "a", "b"], rng) in ("a b",)


def test_keyword_lists_read_list_and_semicolon_columns():
    import pandas as pd

    frame = pd.DataFrame({"kw": [["a", "b"], "c; d", None], "mesh": [["m"], [], ["n"]]})
    assert keyword_lists(frame, {"kw": "keywords", "mesh": "keywords"}) == [["a", "b", "m"], ["c", "d"], ["n"]]
    assert keyword_lists(frame[["kw"]].rename(columns={"kw": "x"}), {}) is None


def test_ranks_and_metrics_for_each_method():
    texts = ["dark matter halo", "error correction codes", "graph colouring"]
    X = np.eye(3, dtype=np.float32)
    Q = np.array([[0, 1, 0], [0, 1, 0], [0, 0, 1]], dtype=np.float32)  # dense gets query 0 wrong
    index = LexicalIndex.build(texts)
    ranks = target_ranks(X, Q, texts, np.arange(3), index, depth=3)
    assert ranks["lexical"].tolist() == [1, 1, 1] and ranks["dense"].tolist() == [2, 1, 1]
    assert ranks["fused"][0] == 1  # the words fix what meaning missed
    scores = per_query(np.array([1, 4, np.inf]))
    assert scores["recall@1"].tolist() == [1, 0, 0] and scores["MRR"].tolist() == [1, 0.25, 0]
    rows = summary("m", "title", ranks)
    fused = next(r for r in rows if r.method == "fused" and r.metric == "title recall@1")
    assert fused.value == 1 and fused.n == 3 and "fused − dense +0.333" in fused.note and "interval" in fused.note


def test_evaluate_runs_the_short_task(embedded):
    doc = evaluate_models(embedded, "c", "journal", ["tiny"], ["short"], sample=50)
    rows = [r for r in doc["results"] if r["task"] == "short"]
    assert {r["method"] for r in rows} == {"dense", "lexical", "fused"}
    assert {r["metric"] for r in rows} == {"title recall@1", "title recall@10", "title MRR"}  # no keywords column
    assert all(r["n"] == 15 for r in rows) and not doc["errors"]


def test_the_sample_size_caps_the_short_queries(embedded):
    """'Sample 10' drew 10 papers for the other tasks but 15 (up to 500) short queries: the page then showed a
    short-query n above the sample the user chose (the walk-through's leftover)."""
    doc = evaluate_models(embedded, "c", "journal", ["tiny"], ["short"], sample=10)
    rows = [r for r in doc["results"] if r["task"] == "short"]
    assert rows and all(r["n"] == 10 for r in rows)
