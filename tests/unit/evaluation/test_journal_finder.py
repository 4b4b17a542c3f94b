"""The journals task (issue 17): ranks, metrics, the held-out split, and the three methods on known cases."""

from __future__ import annotations

import numpy as np
import pytest

from core.errors import MireadError
from core.evaluation.journal_finder import head_ranks, journal_finder, rank_metrics, split_queries, true_ranks


def test_ranks_by_hand_with_ties_sharing_their_ranks() -> None:
    scores = np.array([[0.9, 0.5, 0.1, 0.0],    # true 0: first
                       [0.2, 0.2, 0.2, 0.9],    # true 1: behind one, tied with two others -> 2 + 1 = 3
                       [0.0, 0.0, 0.0, 0.0]])   # true 3: all tied -> (1 + 4) / 2 = 2.5
    assert true_ranks(scores, np.array([0, 1, 3])).tolist() == [1.0, 3.0, 2.5]
    assert rank_metrics(np.array([1, 3, 6, 12])) == {"top-1": 25.0, "top-5": 50.0, "top-10": 75.0, "mean rank": 5.5}


def test_the_split_is_by_paper_seeded_and_keeps_only_journals_the_reference_has() -> None:
    labels = [f"J{i % 7}" for i in range(60)] + ["Lonely", None, None]
    reference, queries = split_queries(labels, seed=3)
    again = split_queries(labels, seed=3)
    assert reference.tolist() == again[0].tolist() and queries.tolist() == again[1].tolist()
    assert not set(reference) & set(queries)
    assert {labels[i] for i in queries} <= {labels[i] for i in reference}
    assert 60 not in queries.tolist() or "Lonely" in {labels[i] for i in reference}
    assert 61 not in set(reference) | set(queries)  # no journal: in neither
    with pytest.raises(MireadError, match="at least 10 papers"):
        split_queries(["A"] * 5, seed=0)


def test_on_separable_papers_the_vote_and_bm25_find_the_journal_and_a_head_is_scored() -> None:
    rng = np.random.default_rng(0)
    journals = ["Cell", "Nature Physics", "Journal of Algebra"]
    words = {"Cell": "protein gene cell enzyme", "Nature Physics": "quantum photon laser spin",
             "Journal of Algebra": "group ring module ideal"}
    labels, titles, abstracts, vectors = [], [], [], []
    for i in range(90):
        journal = journals[i % 3]
        labels.append(journal)
        titles.append(f"On {words[journal].split()[i % 4]} {i}")
        abstracts.append(f"We study {words[journal]} and more {words[journal]} {i}.")
        centre = np.eye(3)[i % 3] * 5
        vectors.append(np.concatenate([centre, rng.normal(size=5)]))
    X = np.array(vectors)

    def predict(pairs):  # a head that always says Cell
        return np.tile([0.8, 0.15, 0.05], (len(pairs), 1))

    results = journal_finder(X, labels, titles, abstracts, model="m", seed=1, predict=predict, head_labels=journals)
    values = {(r.method, r.metric): r.value for r in results}
    assert values[("knn", "top-1")] == 100.0 and values[("bm25", "top-1")] == 100.0
    assert values[("knn", "mean rank")] == 1.0
    share_of_cell = np.mean([labels[i] == "Cell" for i in split_queries(labels, 1)[1]]) * 100
    assert values[("head", "top-1")] == pytest.approx(share_of_cell)
    assert {r.task for r in results} == {"journals"} and {r.method for r in results} == {"head", "knn", "bm25"}
    assert results[0].to_dict()["method"] == "head" and "18 held-out papers" in results[0].note


def test_a_journal_the_head_never_learnt_ranks_last() -> None:
    ranks = head_ranks(lambda pairs: np.array([[0.6, 0.4]] * len(pairs)), ["A", "B"], [("t", "a")] * 3,
                       ["B", "Unknown", "A"])
    assert ranks.tolist() == [2.0, 3.0, 1.0]


def test_evaluate_journals_from_the_cli_gives_method_rows_and_a_table(tiny_store, capsys) -> None:
    from core.cli import main

    assert main(["--workspace", str(tiny_store.root), "evaluate", "--corpus", "c", "--label", "journal",
                 "--models", "tiny", "--tasks", "journals", "--json"]) == 0
    doc = __import__("json").loads(capsys.readouterr().out)
    rows = [r for r in doc["results"] if r["task"] == "journals"]
    assert {(r["method"], r["metric"]) for r in rows} == {
        (m, k) for m in ("knn", "bm25") for k in ("top-1", "top-5", "top-10", "mean rank")}
    assert all(0 <= r["value"] <= 100 for r in rows if r["metric"] != "mean rank")
    assert "journals:knn:top-5" in doc["table"][0] and doc["best"] == {}  # one model: no winner to mark


def test_held_out_papers_whose_journal_no_reference_paper_has_are_counted_and_said() -> None:
    """A walk: 'on N held-out papers' left out the held-out papers of journals the reference lacks, silently."""
    from core.evaluation.journal_finder import held_out_phrase, split_held_out

    labels = [f"J{i % 3}" for i in range(40)] + [f"Lonely {i}" for i in range(10)]  # each lonely journal: 1 paper
    reference, queries, left_out = split_held_out(labels, seed=1)
    held = int(round(len(labels) * 0.2))
    assert len(queries) + left_out == held and left_out >= 1  # every held-out paper: measured or counted out
    assert split_queries(labels, seed=1)[1].tolist() == queries.tolist()
    rng = np.random.default_rng(0)
    rows = journal_finder(rng.normal(size=(len(labels), 8)), labels, [f"t{i}" for i in range(len(labels))],
                          [f"a{i}" for i in range(len(labels))], model="m", seed=1)
    top5 = next(r for r in rows if r.method == "knn" and r.metric == "top-5")
    assert top5.n == len(queries) and top5.left_out == left_out and top5.to_dict()["left_out"] == left_out
    said = held_out_phrase(len(queries), left_out)
    assert said.startswith(f"{len(queries)} held-out papers") and f"{left_out} more" in said
    assert "no reference paper" in said and said in top5.note
    assert held_out_phrase(7, 0) == "7 held-out papers"


def test_the_title_task_queries_each_held_out_paper_by_its_title_alone() -> None:
    """journals-title: the same split and reference papers, each query embedded from its title with no abstract;
    BM25 matches the title's words only. Here the titles carry no journal's words and the abstracts all of them."""
    journals = ["Cell", "Nature Physics", "Journal of Algebra"]
    words = {"Cell": "protein gene cell enzyme", "Nature Physics": "quantum photon laser spin",
             "Journal of Algebra": "group ring module ideal"}
    labels = [journals[i % 3] for i in range(90)]
    titles = [f"A study number {i}" for i in range(90)]
    abstracts = [f"We study {words[labels[i]]} {i}." for i in range(90)]
    X = np.array([np.eye(3)[i % 3] * 5 for i in range(90)], dtype=float)
    asked: list = []

    def title_encode(pairs):  # the model's encoder: every title alone lands at the same place, far from any journal
        asked.extend(pairs)
        return np.tile([1.0, 1.0, 1.0], (len(pairs), 1))

    full = journal_finder(X, labels, titles, abstracts, model="m", seed=1)
    short = journal_finder(X, labels, titles, abstracts, model="m", seed=1, title_encode=title_encode)
    queries = split_queries(labels, 1)[1]
    assert asked == [(titles[i], "") for i in queries]  # the held-out titles, no abstract
    values = {(r.method, r.metric): r.value for r in short}
    assert {r.task for r in short} == {"journals-title"} and {r.task for r in full} == {"journals"}
    assert {(r.method, r.metric): r.value for r in full}[("bm25", "top-1")] == 100.0
    assert values[("bm25", "top-1")] < 50.0  # the title's words name no journal
    assert values[("knn", "top-1")] < 50.0  # all titles tie: the prior decides, one journal in three is right
    assert all(r.n == len(queries) and "each queried by its title alone" in r.note for r in short)
    assert all("queried by" not in r.note for r in full)
