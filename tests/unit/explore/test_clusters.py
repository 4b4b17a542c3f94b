"""Tests for k-means clustering and cluster keyword labels."""

import numpy as np
import pytest

from core.errors import MireadError
from core.explore import cluster_keywords, kmeans
from core.plots import cluster_centres_2d


def _purity(labels: np.ndarray, truth: np.ndarray) -> float:
    return sum(np.bincount(truth[labels == c]).max() for c in np.unique(labels)) / len(truth)


def test_kmeans_recovers_well_separated_blobs():
    rng = np.random.default_rng(0)
    truth = np.repeat(np.arange(4), 50)
    X = rng.standard_normal((4, 16))[truth] * 10 + rng.standard_normal((200, 16))
    labels = kmeans(X, 4)
    assert labels.shape == (200,)
    assert np.issubdtype(labels.dtype, np.integer)
    assert _purity(labels, truth) == 1.0
    assert len(np.unique(labels)) == 4


def test_kmeans_clips_k_to_the_number_of_rows():
    labels = kmeans(np.eye(3), 10)
    assert sorted(labels.tolist()) == [0, 1, 2]


def test_kmeans_uses_minibatch_for_large_inputs(monkeypatch):
    from core.explore.topics import clusters as clusters

    monkeypatch.setattr(clusters, "MINIBATCH_ABOVE", 100)
    rng = np.random.default_rng(1)
    truth = np.repeat(np.arange(3), 100)
    X = rng.standard_normal((3, 8))[truth] * 10 + rng.standard_normal((300, 8))
    assert _purity(kmeans(X, 3), truth) == 1.0


def test_kmeans_rejects_bad_k():
    with pytest.raises(MireadError, match="at least 1"):
        kmeans(np.eye(3), 0)


TEXTS = {
    0: [
        "Quantum entanglement of photons in optical cavities.",
        "Photon entanglement and quantum teleportation experiments.",
        "Measuring quantum entanglement with single photons.",
    ],
    1: [
        "Protein folding dynamics studied with molecular simulation.",
        "Molecular dynamics of protein folding in water.",
        "Protein misfolding and molecular chaperones.",
    ],
    2: [
        "Graph neural networks for traffic forecasting.",
        "Training graph neural networks on large citation graphs.",
        "Scalable graph neural networks with sampling.",
    ],
}


def test_cluster_keywords_picks_the_distinctive_words_of_each_cluster():
    texts = [t for c in TEXTS for t in TEXTS[c]]
    labels = np.repeat(list(TEXTS), 3)
    words = cluster_keywords(texts, labels, top_n=3)
    assert set(words) == {0, 1, 2}
    assert all(len(terms) <= 3 for terms in words.values())
    assert any("entanglement" in t for t in words[0]) and any("photon" in t for t in words[0])
    assert any("protein" in t for t in words[1])
    assert any("graph" in t for t in words[2])
    assert not any("protein" in t for t in words[0] + words[2])


def test_cluster_keywords_skips_stop_words_numbers_and_repeats():
    texts = ["the 2019 results of the deep learning model", "deep learning of the 2020 model"]
    words = cluster_keywords(texts, np.array([5, 5]), top_n=4)[5]
    assert "the" not in words and "2019" not in words
    assert "deep learning" in words
    assert "deep" not in words and "learning" not in words


def test_cluster_keywords_handles_empty_and_missing_texts():
    assert cluster_keywords(["", None, "the and of"], np.array([0, 1, 1])) == {0: [], 1: []}


def test_cluster_keywords_rejects_mismatched_lengths():
    with pytest.raises(MireadError, match="2 texts but 3"):
        cluster_keywords(["a", "b"], np.array([0, 1, 2]))


def test_cluster_centres_are_medians_per_cluster():
    coords = np.array([[0, 0], [1, 1], [100, 100], [5, 5], [6, 6]], dtype=np.float32)
    centres = cluster_centres_2d(coords, np.array([0, 0, 0, 1, 1]))
    assert centres == {0: (1.0, 1.0), 1: (5.5, 5.5)}
    assert all(isinstance(k, int) for k in centres)
