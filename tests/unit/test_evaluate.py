"""The evaluation protocols against hand-counted or independently computed answers."""

import math
import string

import numpy as np
import pytest
from sklearn.datasets import make_blobs
from sklearn.feature_extraction.text import HashingVectorizer
from sklearn.metrics import average_precision_score, roc_auc_score

from core.evaluation import protocols as evaluate
from core.errors import CorpusError, MireadError
from core.evaluation import Result


def unit(degrees: float, scale: float = 1.0) -> np.ndarray:
    """A 2-D vector at the given angle: cosine similarity of two of them is cos(angle difference)."""
    r = math.radians(degrees)
    return scale * np.array([math.cos(r), math.sin(r)])


def angles(*degrees: float) -> np.ndarray:
    return np.stack([unit(d) for d in degrees])


# ---------------------------------------------------------------- Result


def test_result_to_dict_has_the_json_keys():
    d = Result("m", "probe", "macro_f1", 0.5, 0.1, 10, "x").to_dict()
    assert d == {"model": "m", "task": "probe", "metric": "macro_f1", "value": 0.5, "std": 0.1, "n": 10, "note": "x"}


# ---------------------------------------------------------------- linear probe


def test_linear_probe_is_near_perfect_on_separable_blobs():
    X, y = make_blobs(n_samples=200, centers=3, n_features=8, cluster_std=0.5, random_state=0)
    r = evaluate.linear_probe(X, [f"c{v}" for v in y])
    assert r["macro_f1"][0] > 0.97 and r["accuracy"][0] > 0.97
    assert r["n"] == 200 and r["classes"] == 3 and r["dropped_classes"] == 0
    assert r["macro_f1"][1] >= 0


def test_linear_probe_is_near_chance_on_random_labels():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(240, 8))
    y = rng.choice(["a", "b", "c", "d"], size=240).tolist()
    r = evaluate.linear_probe(X, y)
    assert 0.1 < r["accuracy"][0] < 0.42


def test_linear_probe_drops_rare_classes_and_missing_labels_and_samples_large_inputs():
    X, y = make_blobs(n_samples=120, centers=2, n_features=4, random_state=1)
    labels = [f"c{v}" for v in y]
    labels[0], labels[1], labels[2] = "rare", "rare", None
    r = evaluate.linear_probe(X, labels)
    assert r["dropped_classes"] == 1 and r["dropped_papers"] == 2 and r["n"] == 117
    assert evaluate.linear_probe(X, [f"c{v}" for v in y], max_samples=60)["n"] == 60


def test_linear_probe_is_reproducible_with_a_seed():
    X, y = make_blobs(n_samples=100, centers=3, n_features=4, cluster_std=3.0, random_state=2)
    assert evaluate.linear_probe(X, list(y), seed=5) == evaluate.linear_probe(X, list(y), seed=5)


def test_linear_probe_rejects_mismatched_or_single_labels():
    X = np.zeros((10, 3))
    with pytest.raises(CorpusError, match="9 labels for 10 embeddings"):
        evaluate.linear_probe(X, ["a"] * 9)
    with pytest.raises(CorpusError, match="at least two labels"):
        evaluate.linear_probe(X, ["a"] * 10)
    with pytest.raises(CorpusError, match="2-D"):
        evaluate.linear_probe(np.zeros(10), ["a"] * 10)
    with pytest.raises(CorpusError, match="must be numbers"):
        evaluate.linear_probe([["x", "y"]] * 10, ["a"] * 10)
    with pytest.raises(CorpusError, match="NaN or infinite"):
        evaluate.linear_probe(np.full((10, 2), np.nan), ["a"] * 10)


# ---------------------------------------------------------------- purity


def test_purity_counts_majority_labels_per_cluster():
    assert evaluate.purity(["a", "a", "b", "b", "b", "c"], [0, 0, 0, 1, 1, 1]) == pytest.approx(4 / 6)


def test_clustering_purity_matches_a_hand_count_and_skips_k_above_n():
    rng = np.random.default_rng(0)
    centres = [(0, 0), (10, 0), (0, 10)]
    groups = [["a", "a", "a", "b"], ["b", "b", "c"], ["c", "c", "c"]]
    X = np.concatenate([np.array(c) + rng.normal(scale=0.1, size=(len(g), 2)) for c, g in zip(centres, groups)])
    y = [label for g in groups for label in g]
    # Majorities: 3 of cluster 1, 2 of cluster 2, 3 of cluster 3 -> 8 of 10 papers.
    assert evaluate.clustering_purity(X, y, ks=(3, 20)) == {3: pytest.approx(0.8)}


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
    r = evaluate.retrieval_scores(X, sets)
    assert r["pairs"] == 21 and r["relevant"] == sum(relevant)
    assert r["ap"] == pytest.approx(average_precision_score(relevant, scores))
    assert r["auc"] == pytest.approx(roc_auc_score(relevant, scores))


def test_retrieval_scores_are_perfect_when_related_pairs_correlate_most():
    X = np.array([[1, 2, 3, 4], [1, 2, 3, 5], [4, 3, 2, 1], [5, 3, 2, 1]], dtype=float)
    r = evaluate.retrieval_scores(X, ["a", "a", "b", "b"])
    assert r["ap"] == pytest.approx(1.0) and r["auc"] == pytest.approx(1.0)


def test_retrieval_scores_sample_pairs_on_large_corpora_reproducibly():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 6))
    y = rng.choice(["a", "b", "c"], size=300).tolist()
    first = evaluate.retrieval_scores(X, y, n_pairs=1000, seed=1)
    assert first["pairs"] == 1000
    assert first == evaluate.retrieval_scores(X, y, n_pairs=1000, seed=1)
    assert 0.35 < first["auc"] < 0.65  # random embeddings rank pairs at chance


def test_retrieval_scores_need_related_and_unrelated_pairs():
    with pytest.raises(CorpusError, match="every sampled pair"):
        evaluate.retrieval_scores(np.eye(3), ["a", "a", "a"])
    with pytest.raises(CorpusError, match="no sampled pair"):
        evaluate.retrieval_scores(np.eye(3), ["a", "b", "c"])


# ---------------------------------------------------------------- kNN


def test_knn_quality_matches_a_hand_count():
    # A at 0, 4, 10 degrees; B at 90, 95, 101; one A paper (A3) sits at 93, among the Bs.
    X = np.stack([unit(0), unit(4, 3.0), unit(10), unit(90), unit(95, 0.2), unit(101), unit(93)])
    y = ["A", "A", "A", "B", "B", "B", "A"]
    r = evaluate.knn_quality(X, y, k=2)
    # Same-label shares: 1, 1, 1, 1/2, 1/2, 1/2, 0. Votes (ties to the nearer): A A A A A B B -> 4 right.
    assert r["precision_at_k"] == pytest.approx(4.5 / 7)
    assert r["knn_accuracy"] == pytest.approx(4 / 7)
    assert r["k"] == 2 and r["n"] == 7


# ---------------------------------------------------------------- alternative self


def fixed_encoder(table: dict[tuple[str, str], np.ndarray]):
    def encode(pairs):
        return np.stack([table[p] for p in pairs])

    return encode


def test_alternative_self_mrr_on_a_known_ranking():
    titles, abstracts = ["t0", "t1", "t2"], ["a0", "a1", "a2"]
    table = {
        ("t0", "a0"): unit(0), ("t1", "a1"): unit(40), ("t2", "a2"): unit(80),
        ("t0", ""): unit(5), ("t1", ""): unit(85), ("t2", ""): unit(-15),
    }
    # Task I ranks of the own paper: 1, 2 (t1 is nearer a2), 3.
    # Task II adds the other titles: t2 (-15) ends behind a0 and title t0, so rank 4.
    r = evaluate.alternative_self(fixed_encoder(table), titles, abstracts)
    assert r["task1"]["mrr"] == pytest.approx((1 + 1 / 2 + 1 / 3) / 3)
    assert r["task2"]["mrr"] == pytest.approx((1 + 1 / 2 + 1 / 4) / 3)
    assert r["task1"]["t100"] == 1.0 and r["n"] == 3 and r["distractors"] == 2
    given = np.stack([table[p] for p in zip(titles, abstracts)])
    assert evaluate.alternative_self(fixed_encoder(table), titles, abstracts, doc_embeddings=given) == r


def test_alternative_self_samples_queries():
    titles = [f"t{i}" for i in range(30)]
    abstracts = [f"a{i}" for i in range(30)]
    rng = np.random.default_rng(0)
    table = {p: rng.normal(size=4) for p in zip(titles, abstracts)} | {(t, ""): rng.normal(size=4) for t in titles}
    assert evaluate.alternative_self(fixed_encoder(table), titles, abstracts, max_queries=10)["n"] == 10


# ---------------------------------------------------------------- textual neighbours


def test_neighbour_scores_match_a_hand_count():
    D = angles(0, 20, 50, 90, 140)
    Q = angles(12, 200, 90)  # perturbed versions of papers 0, 2 and 3
    r = evaluate.neighbour_scores(Q, D, [0, 2, 3], k=2)
    # Q0: d1 then d0 -> not first, in top 2, same neighbours {1, 2}.
    # Q1: d4, d3 -> lost; its neighbours {4, 3} vs the original's {1, 3}: overlap 1/2.
    # Q2: identical to d3.
    assert r == {"nn1_ret": pytest.approx(1 / 3), "nn10_ret": pytest.approx(2 / 3), "aop10": pytest.approx(5 / 6), "n": 3}


def test_neighbour_scores_do_not_count_a_duplicate_of_the_original_as_a_miss():
    D = np.stack([unit(30), unit(30) + 1e-9, unit(100), unit(170)])  # papers 0 and 1 are the same text
    r = evaluate.neighbour_scores(D[[0, 1]], D, [0, 1], k=2)
    assert r["nn1_ret"] == 1.0 and r["nn10_ret"] == 1.0


def random_word(rng) -> str:
    return "".join(rng.choice(list(string.ascii_lowercase), size=6))


def synthetic_corpus(n: int = 40):
    rng = np.random.default_rng(0)
    vocab = [random_word(rng) for _ in range(600)]
    titles, abstracts = [], []
    for i in range(n):
        own = rng.choice(vocab, size=25, replace=False)
        titles.append(" ".join(rng.choice(own, size=5)).capitalize())
        abstracts.append(" ".join(" ".join(rng.choice(own, size=8)).capitalize() + "." for _ in range(4)))
    return titles, abstracts


def bag_of_words(pairs):
    vectoriser = HashingVectorizer(n_features=2**12, alternate_sign=False, lowercase=True)
    return vectoriser.transform([f"{t} {a}" for t, a in pairs]).toarray()


def test_textual_neighbours_with_a_bag_of_words_encoder():
    titles, abstracts = synthetic_corpus()
    families = ["whitespace_noise", "lowercase", "sentence_shuffle", "numbers_deleted", "word_shuffle", "swap_abstract"]
    rows = evaluate.textual_neighbours(bag_of_words, titles, abstracts, families=families, max_papers=20)
    by = {r["family"]: r for r in rows}
    assert [r["family"] for r in rows] == families
    for name in ("whitespace_noise", "lowercase", "sentence_shuffle", "word_shuffle"):
        assert by[name]["nn1_ret"] == 1.0 and by[name]["aop10"] == 1.0 and by[name]["n"] == 20
    assert by["numbers_deleted"]["n"] == 0 and math.isnan(by["numbers_deleted"]["nn1_ret"])  # no digits anywhere
    assert by["swap_abstract"]["nn1_ret"] < 0.3
    assert by["whitespace_noise"]["category"] == "LL-HS" and by["whitespace_noise"]["expect_keep"]
    assert by["word_shuffle"]["category"] == "LO-DS" and not by["word_shuffle"]["expect_keep"]
    summary = evaluate.neighbours_summary(rows)
    assert "word_shuffle (LO-DS)" in summary and "surface words" in summary
    assert "swap_abstract (LO-DS)" in summary and "as expected" in summary


def test_textual_neighbours_rejects_unknown_families_before_encoding():
    titles, abstracts = synthetic_corpus(5)
    with pytest.raises(MireadError, match="Unknown perturbation family"):
        evaluate.textual_neighbours(lambda pairs: pytest.fail("encoded"), titles, abstracts, families=["nouns"])


# ---------------------------------------------------------------- run_protocols and tables


def test_run_protocols_flattens_every_task_into_results():
    titles, abstracts = synthetic_corpus()
    X = bag_of_words(list(zip(titles, abstracts)))
    labels = [f"c{i % 2}" for i in range(40)]
    seen = []
    results = evaluate.run_protocols(
        X, labels, evaluate.TASKS, model="bow", encode=bag_of_words, titles=titles, abstracts=abstracts,
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
        evaluate.run_protocols(X, list("aabb"), ["speed"], model="m")
    with pytest.raises(MireadError, match="'self' task needs the model's encoder"):
        evaluate.run_protocols(X, list("aabb"), ["self"], model="m")


def test_results_table_best_per_column_and_markdown():
    results = [
        Result("a", "probe", "macro_f1", 0.5), Result("b", "probe", "macro_f1", 0.7),
        Result("a", "neighbours", "word_shuffle:nn1_ret", 0.9), Result("b", "neighbours", "word_shuffle:nn1_ret", 0.2),
        Result("a", "purity", "purity@10", 0.4),
    ]
    table = evaluate.results_table(results)
    assert list(table.index) == ["a", "b"]
    assert list(table.columns) == ["probe:macro_f1", "neighbours:word_shuffle:nn1_ret", "purity:purity@10"]
    assert math.isnan(table.loc["b", "purity:purity@10"])
    best = evaluate.best_per_column(table)
    assert best == {"probe:macro_f1": "b", "neighbours:word_shuffle:nn1_ret": "b", "purity:purity@10": "a"}
    markdown = evaluate.to_markdown(table).splitlines()
    assert markdown[0] == "| model | probe:macro_f1 | neighbours:word_shuffle:nn1_ret | purity:purity@10 |"
    assert markdown[2] == "| a | 0.500 | 0.900 | **0.400** |"
    assert markdown[3] == "| b | **0.700** | **0.200** | – |"
