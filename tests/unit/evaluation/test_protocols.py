"""The MIReAD protocols and run_protocols against hand-counted or independently computed answers."""

import numpy as np
import pytest
from sklearn.datasets import make_blobs
from sklearn.metrics import average_precision_score, roc_auc_score

from core.errors import CorpusError, MireadError
from core.evaluation import protocols
from tests.unit.evaluation.support import bag_of_words, synthetic_corpus, unit

# ---------------------------------------------------------------- linear probe


def test_linear_probe_is_near_perfect_on_separable_blobs():
    X, y = make_blobs(n_samples=200, centers=3, n_features=8, cluster_std=0.5, random_state=0)
    r = protocols.linear_probe(X, [f"c{v}" for v in y])
    assert r["macro_f1"][0] > 0.97 and r["accuracy"][0] > 0.97
    assert r["n"] == 200 and r["classes"] == 3 and r["dropped_classes"] == 0
    assert r["macro_f1"][1] >= 0


def test_linear_probe_is_near_chance_on_random_labels():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(240, 8))
    y = rng.choice(["a", "b", "c", "d"], size=240).tolist()
    r = protocols.linear_probe(X, y)
    assert 0.1 < r["accuracy"][0] < 0.42


def test_linear_probe_drops_rare_classes_and_missing_labels_and_samples_large_inputs():
    X, y = make_blobs(n_samples=120, centers=2, n_features=4, random_state=1)
    labels = [f"c{v}" for v in y]
    labels[0], labels[1], labels[2] = "rare", "rare", None
    r = protocols.linear_probe(X, labels)
    assert r["dropped_classes"] == 1 and r["dropped_papers"] == 2 and r["n"] == 117
    assert protocols.linear_probe(X, [f"c{v}" for v in y], max_samples=60)["n"] == 60


def test_linear_probe_is_reproducible_with_a_seed():
    X, y = make_blobs(n_samples=100, centers=3, n_features=4, cluster_std=3.0, random_state=2)
    assert protocols.linear_probe(X, list(y), seed=5) == protocols.linear_probe(X, list(y), seed=5)


def test_linear_probe_rejects_mismatched_or_single_labels():
    X = np.zeros((10, 3))
    with pytest.raises(CorpusError, match="9 labels for 10 embeddings"):
        protocols.linear_probe(X, ["a"] * 9)
    with pytest.raises(CorpusError, match="at least two labels"):
        protocols.linear_probe(X, ["a"] * 10)
    with pytest.raises(CorpusError, match="2-D"):
        protocols.linear_probe(np.zeros(10), ["a"] * 10)
    with pytest.raises(CorpusError, match="must be numbers"):
        protocols.linear_probe([["x", "y"]] * 10, ["a"] * 10)
    with pytest.raises(CorpusError, match="NaN or infinite"):
        protocols.linear_probe(np.full((10, 2), np.nan), ["a"] * 10)


# ---------------------------------------------------------------- purity


def test_purity_counts_majority_labels_per_cluster():
    assert protocols.purity(["a", "a", "b", "b", "b", "c"], [0, 0, 0, 1, 1, 1]) == pytest.approx(4 / 6)


def test_clustering_purity_matches_a_hand_count_and_skips_k_above_n():
    rng = np.random.default_rng(0)
    centres = [(0, 0), (10, 0), (0, 10)]
    groups = [["a", "a", "a", "b"], ["b", "b", "c"], ["c", "c", "c"]]
    X = np.concatenate([np.array(c) + rng.normal(scale=0.1, size=(len(g), 2)) for c, g in zip(centres, groups)])
    y = [label for g in groups for label in g]
    # Majorities: 3 of cluster 1, 2 of cluster 2, 3 of cluster 3 -> 8 of 10 papers.
    assert protocols.clustering_purity(X, y, ks=(3, 20)) == {3: pytest.approx(0.8)}


# ---------------------------------------------------------------- retrieval


def test_retrieval_scores_match_brute_force_pearson_ranking():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(7, 5))
    sets = ["x", {"x", "y"}, "y", "z", {"z"}, ["y", "w"], "w"]
    as_sets = [{s} if isinstance(s, str) else set(s) for s in sets]
    scores, relevant = [], []
    for i in range(7):
        for j in range(i + 1, 7):
            scores.append(np.corrcoef(X[i], X[j])[0, 1])
            relevant.append(bool(as_sets[i] & as_sets[j]))
    r = protocols.retrieval_scores(X, sets)
    assert r["pairs"] == 21 and r["relevant"] == sum(relevant)
    assert r["ap"] == pytest.approx(average_precision_score(relevant, scores))
    assert r["auc"] == pytest.approx(roc_auc_score(relevant, scores))


def test_retrieval_scores_are_perfect_when_related_pairs_correlate_most():
    X = np.array([[1, 2, 3, 4], [1, 2, 3, 5], [4, 3, 2, 1], [5, 3, 2, 1]], dtype=float)
    r = protocols.retrieval_scores(X, ["a", "a", "b", "b"])
    assert r["ap"] == pytest.approx(1.0) and r["auc"] == pytest.approx(1.0)


def test_retrieval_scores_sample_pairs_on_large_corpora_reproducibly():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 6))
    y = rng.choice(["a", "b", "c"], size=300).tolist()
    first = protocols.retrieval_scores(X, y, n_pairs=1000, seed=1)
    assert first["pairs"] == 1000
    assert first == protocols.retrieval_scores(X, y, n_pairs=1000, seed=1)
    assert 0.35 < first["auc"] < 0.65  # random embeddings rank pairs at chance


def test_retrieval_scores_need_related_and_unrelated_pairs():
    with pytest.raises(CorpusError, match="every sampled pair"):
        protocols.retrieval_scores(np.eye(3), ["a", "a", "a"])
    with pytest.raises(CorpusError, match="no sampled pair"):
        protocols.retrieval_scores(np.eye(3), ["a", "b", "c"])


# ---------------------------------------------------------------- kNN


def test_knn_quality_matches_a_hand_count():
    # A at 0, 4, 10 degrees; B at 90, 95, 101; one A paper (A3) sits at 93, among the Bs.
    X = np.stack([unit(0), unit(4, 3.0), unit(10), unit(90), unit(95, 0.2), unit(101), unit(93)])
    y = ["A", "A", "A", "B", "B", "B", "A"]
    r = protocols.knn_quality(X, y, k=2)
    # Same-label shares: 1, 1, 1, 1/2, 1/2, 1/2, 0. Votes (ties to the nearer): A A A A A B B -> 4 right.
    assert r["precision_at_k"] == pytest.approx(4.5 / 7)
    assert r["knn_accuracy"] == pytest.approx(4 / 7)
    assert r["k"] == 2 and r["n"] == 7


# ---------------------------------------------------------------- run_protocols


def test_run_protocols_flattens_every_task_into_results():
    titles, abstracts = synthetic_corpus()
    X = bag_of_words(list(zip(titles, abstracts)))
    labels = [f"c{i % 2}" for i in range(40)]
    seen = []
    results = protocols.run_protocols(
        X, labels, protocols.TASKS, model="bow", encode=bag_of_words, titles=titles, abstracts=abstracts,
        progress=lambda f, m: seen.append(f),
    )
    metrics = {(r.task, r.metric) for r in results}
    assert {("probe", "macro_f1"), ("probe", "accuracy"), ("purity", "purity@10"), ("purity", "purity@20")} <= metrics
    assert {("retrieval", "ap"), ("retrieval", "auc"), ("knn", "knn_accuracy"), ("knn", "precision@10")} <= metrics
    assert {("self", "task1_mrr"), ("self", "task2_t100"), ("neighbours", "swap_abstract:nn1_ret")} <= metrics
    assert ("purity", "purity@50") not in metrics
    assert all(r.model == "bow" for r in results)
    probe = next(r for r in results if r.metric == "macro_f1")
    assert probe.std is not None and probe.n == 40
    assert seen[-1] == 1.0 and seen == sorted(seen)


def test_run_protocols_explains_missing_inputs_and_unknown_tasks():
    X = np.eye(4)
    with pytest.raises(MireadError, match="Unknown evaluation task 'speed'"):
        protocols.run_protocols(X, list("aabb"), ["speed"], model="m")
    with pytest.raises(MireadError, match="'self' task needs the model's encoder"):
        protocols.run_protocols(X, list("aabb"), ["self"], model="m")
