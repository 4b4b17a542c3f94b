"""k-means clusters of embeddings and c-TF-IDF keyword labels for them."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np

from core.errors import MireadError
from core.lazy import heavy

MINIBATCH_ABOVE = 20_000
MAX_DOCS_PER_CLUSTER = 2_000


def kmeans(X: np.ndarray, k: int, seed: int = 0) -> np.ndarray:
    """Return int64 cluster labels for the rows of X (k clipped to the number of rows)."""
    KMeans = heavy("sklearn.cluster").KMeans
    MiniBatchKMeans = heavy("sklearn.cluster").MiniBatchKMeans

    arr = np.asarray(X, dtype=np.float32)
    if arr.ndim != 2:
        raise MireadError(f"embeddings must be a 2-D array of shape [papers, dims], got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise MireadError("embeddings contain NaN or infinite values")
    if int(k) < 1:
        raise MireadError(f"the number of clusters must be at least 1, got {k}")
    n = arr.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    k = min(int(k), n)
    if k == 1:
        return np.zeros(n, dtype=np.int64)
    if n > MINIBATCH_ABOVE:
        model = MiniBatchKMeans(n_clusters=k, random_state=seed, batch_size=4096, n_init=3)
    else:
        model = KMeans(n_clusters=k, random_state=seed, n_init="auto")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit_predict(arr).astype(np.int64)


def sample_rows(labels: np.ndarray, per_class: int = MAX_DOCS_PER_CLUSTER, seed: int = 0) -> np.ndarray:
    """Sorted rows of a seeded sample of at most ``per_class`` papers of each class (keywords read these)."""
    rng = np.random.default_rng(seed)
    keep = []
    for c in np.unique(labels):
        rows = np.flatnonzero(labels == c)
        if len(rows) > per_class:
            rows = rng.choice(rows, per_class, replace=False)
        keep.append(rows)
    return np.sort(np.concatenate(keep)) if keep else np.zeros(0, dtype=np.int64)


def cluster_keywords(
    texts: Sequence[str], labels: np.ndarray, top_n: int = 4, seed: int = 0
) -> dict[int, list[str]]:
    """Return the top_n most distinctive lemmatised words or bigrams of each cluster (c-TF-IDF, keywords.py)."""
    from core.explore.topics.keywords import class_keywords, term_matrix

    labels = np.asarray(labels)
    if len(texts) != len(labels):
        raise MireadError(f"got {len(texts)} texts but {len(labels)} cluster labels")
    rows = sample_rows(labels, seed=seed)
    return class_keywords(term_matrix([texts[i] for i in rows]), labels[rows], top_n)


def cluster_names(texts: Sequence[str], labels: np.ndarray, terms: int = 3) -> dict[int, str]:
    """A readable name per cluster: its number and its most distinctive keywords ("3: malaria, bed nets")."""
    keywords = cluster_keywords(texts, labels)
    return {int(c): f"{int(c)}: " + ", ".join(keywords.get(int(c), [])[:terms]) for c in np.unique(labels)}
