"""The cite / cocite tasks: the split by paper, the metrics against hand computations, and the runner."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from core.evaluation import evaluate_models
from core.evaluation.citations import candidate_sets, cocited, ranking_metrics, retrieval_metrics, task_metrics
from core.io import read_papers
from core.store.links import citation_graph, citation_split
from tests.helpers import register_tiny

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "citations" / "arxiv_150.jsonl"


def test_ranking_metrics_match_a_hand_computation():
    # query 0; candidates 1..4 with cosine 0.9, 0.8, 0.7, 0.6; candidates 1 and 3 are cited
    X = np.array([[1.0, 0.0], [0.9, math.sqrt(1 - 0.81)], [0.8, 0.6], [0.7, math.sqrt(1 - 0.49)],
                  [0.6, 0.8]])
    sets = [(0, np.array([1, 2, 3, 4]), np.array([1.0, 0.0, 1.0, 0.0]))]
    got = ranking_metrics(X, sets)
    assert got["MAP"][0] == pytest.approx((1 / 1 + 2 / 3) / 2)
    assert got["nDCG"][0] == pytest.approx((1 + 1 / math.log2(4)) / (1 + 1 / math.log2(3)))
    retrieved = retrieval_metrics(X, {0: {1, 3}}, [0], k=2)
    assert retrieved["recall@10"][0] == pytest.approx(0.5)  # top 2 are 1 and 2: one of the two cited


def test_candidates_hold_up_to_five_positives_and_25_others():
    cites = {0: list(range(1, 9)), 1: [2]}
    positives = {0: set(range(1, 9))}
    (q, cand, rel), = candidate_sets(positives, [0], 100, seed=3)
    assert q == 0 and rel.sum() == 5 and len(cand) == 30 and len(set(cand.tolist())) == 30
    assert set(cand[rel == 0].tolist()).isdisjoint(set(range(0, 9)))
    assert cocited(cites, 100)[1] == set(range(2, 9))


def test_split_is_reproducible_and_depends_on_the_seed():
    ids = [f"p{i}" for i in range(400)]
    cites = {i: [(i + 1) % 400] for i in range(400)}
    train, held = citation_split(ids, cites, seed=0)
    assert (train, held) == citation_split(list(ids), dict(cites), seed=0)
    assert set(train).isdisjoint(held) and len(train) + len(held) == 400
    assert 40 < len(held) < 120  # about 20%
    assert held != citation_split(ids, cites, seed=1)[1]


def test_a_perfect_embedding_scores_one_and_random_less():
    ids = [f"p{i}" for i in range(200)]
    pairs = [(f"p{i}", f"p{i + 100}") for i in range(100)]
    cites = citation_graph(ids, pairs)
    held = citation_split(ids, cites, 0, fraction=0.5)[1]
    X = np.zeros((200, 100))
    for i in range(100):
        X[i, i] = X[i + 100, i] = 1.0
    values, n = task_metrics(X, "cite", cites, held, seed=0)
    assert n == len(held) and np.all(values["MAP"] == 1.0) and np.all(values["recall@10"] == 1.0)
    noise, _ = task_metrics(np.random.default_rng(0).standard_normal((200, 8)), "cite", cites, held, seed=0)
    assert noise["MAP"].mean() < 0.6


def test_evaluate_runs_cite_and_cocite_without_a_label(store, tiny_model_dir):
    register_tiny(store, tiny_model_dir)
    store.import_papers("arxiv", read_papers(FIXTURE))
    doc = evaluate_models(store, "arxiv", "", ["tiny"], ["cite", "cocite"], seed=0)
    rows = [r for r in doc["results"] if r["model"] == "tiny"]
    assert {(r["task"], r["metric"]) for r in rows} == {
        (t, m) for t in ("cite", "cocite") for m in ("MAP", "nDCG", "recall@10", "nDCG@10")}
    assert all(0 <= r["value"] <= 1 and r["std"] is not None and r["n"] > 0 for r in rows)
    assert any(r["model"] == "random (baseline)" for r in doc["results"])
    again = evaluate_models(store, "arxiv", "", ["tiny"], ["cite"], seed=0)
    assert [r["value"] for r in again["results"] if r["model"] == "tiny"] == [
        r["value"] for r in rows if r["task"] == "cite"]


def test_cite_figures_carry_a_95_interval_from_their_query_papers(store, tiny_model_dir):
    """Every cite / cocite figure on Evaluate says n and a 95 % interval (a bootstrap over query papers), as the
    other means over papers do; before, the rows had a std but no interval, so the table showed bare figures and no
    model could ever be bold."""
    from core.evaluation.intervals import interval_of
    from core.evaluation.report import figure_table, result_from_row

    register_tiny(store, tiny_model_dir)
    store.import_papers("arxiv", read_papers(FIXTURE))
    doc = evaluate_models(store, "arxiv", "", ["tiny"], ["cite", "cocite"], seed=0)
    results = [result_from_row(r) for r in doc["results"]]
    for r in results:
        interval = interval_of(r)
        assert interval is not None, (r.model, r.task, r.metric)
        assert interval[0] <= r.value <= interval[1] and interval[1] - interval[0] > 0
    table, _ = figure_table(results)
    assert all("(" in table.loc[name, "tiny"] for name in table.index)


def test_cite_queries_are_papers_the_specter_model_held_out_too(store, tiny_model_dir, tmp_path):
    """A model trained with `--cite-held-out 0.1` drew triplets from the links of every citing paper outside its
    10 %: Evaluate's default split (20 %, same seed) took those papers as query papers too and said nothing. The
    queries are now only papers that every evaluated model held out."""
    import json
    import shutil

    from core.store.links import is_cite_query

    folder = tmp_path / "spec10"
    shutil.copytree(tiny_model_dir, folder)
    (folder / "mired.json").write_text(json.dumps({"config": {
        "objective": "specter", "seed": 0, "cite_split_seed": 0, "cite_held_out": 0.1}}), encoding="utf-8")
    register_tiny(store, folder, "spec10")
    papers = read_papers(FIXTURE)
    store.import_papers("arxiv", papers)
    ids = store.papers_frame("arxiv", with_abstract=False)["id"].astype(str).tolist()
    cites = citation_graph(ids, store.links("arxiv"))
    own = [q for q in citation_split(ids, cites, 0, 0.1)[1] if set(cites[q]) - {q}]
    assert own and all(is_cite_query(ids[q], 0, 0.2) for q in own)  # its held-out papers are a part of the 20 %
    doc = evaluate_models(store, "arxiv", "", ["spec10"], ["cite"], seed=0)
    ns = {r["n"] for r in doc["results"] if r["task"] == "cite"}
    assert ns == {len(own)}
