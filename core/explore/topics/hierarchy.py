"""A two-level topic hierarchy of a corpus: k-means into fine clusters, Ward clustering of their centroids into
coarse topics, each level named by class TF-IDF keywords (core/explore/topics/keywords.py).

Clustering the centroids, not the papers, keeps it fast at 200k papers: Ward runs on at most a few hundred points.
Every fine cluster belongs to exactly one coarse topic, so the levels nest.
"""

from __future__ import annotations

import string
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from core.errors import MireadError
from core.lazy import heavy

LEVELS = ("coarse", "fine")


@dataclass
class Topics:
    """Each paper's fine cluster and coarse topic, the coarse topic of each fine cluster, keywords per level."""

    fine: np.ndarray
    coarse: np.ndarray
    parent: np.ndarray
    keywords: dict[str, dict[int, list[str]]] = field(default_factory=dict)

    def labels(self, level: str) -> np.ndarray:
        """Each paper's cluster at a level ("coarse" or "fine")."""
        if level not in LEVELS:
            raise MireadError(f"the topic level must be one of {', '.join(LEVELS)}, got {level!r}")
        return self.coarse if level == "coarse" else self.fine

    def tags(self) -> dict[str, dict[int, str]]:
        """Per level, each cluster's tag (A, B, … and A1, A2, …), in tag order (`topic_tags`)."""
        return topic_tags(self)


def coarse_count(fine_k: int) -> int:
    """How many coarse topics over fine_k clusters: about a quarter, at least 2."""
    return max(2, round(int(fine_k) / 4))


def clustering_key(version: int, fine_k: int, coarse_k: int, seed: int = 0) -> str:
    """Names which clustering a topic name belongs to (a new corpus version or k is another clustering)."""
    return f"v{int(version)}-k{int(fine_k)}-c{int(coarse_k)}-s{int(seed)}"


def coarse_topics(vectors: np.ndarray, fine: np.ndarray, coarse_k: int) -> np.ndarray:
    """The coarse topic of each fine cluster: Ward clustering of the fine clusters' centroids."""
    AgglomerativeClustering = heavy("sklearn.cluster").AgglomerativeClustering

    classes = np.unique(fine)
    if len(classes) and classes[-1] != len(classes) - 1:
        raise MireadError("fine cluster labels must be 0..k-1")
    if len(classes) <= coarse_k:
        return np.arange(len(classes), dtype=np.int64)
    sums = np.zeros((len(classes), vectors.shape[1]), dtype=np.float64)
    np.add.at(sums, fine, vectors)
    centroids = sums / np.bincount(fine, minlength=len(classes))[:, None]
    parent = AgglomerativeClustering(n_clusters=int(coarse_k), linkage="ward").fit_predict(centroids)
    order = {old: new for new, old in enumerate(dict.fromkeys(parent[np.argsort(-np.bincount(fine))]))}
    return np.array([order[p] for p in parent], dtype=np.int64)  # topic 0 holds the biggest cluster


def topic_hierarchy(vectors: np.ndarray, texts: Sequence[str | None], fine_k: int, coarse_k: int | None = None,
                    seed: int = 0, top_n: int = 4) -> Topics:
    """Fine k-means clusters, coarse Ward topics over them, and c-TF-IDF keywords of both levels."""
    from core.explore.topics.clusters import kmeans, sample_rows
    from core.explore.topics.keywords import class_keywords, term_matrix

    vectors = np.asarray(vectors, dtype=np.float32)
    if len(texts) != len(vectors):
        raise MireadError(f"got {len(texts)} texts for {len(vectors)} vectors")
    fine = kmeans(vectors, fine_k, seed=seed)
    _, fine = np.unique(fine, return_inverse=True)  # 0..k-1 even when k-means left a cluster empty
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parent = coarse_topics(vectors, fine, coarse_k or coarse_count(fine_k)) if len(fine) else fine
    coarse = parent[fine] if len(fine) else fine
    rows = sample_rows(fine, seed=seed)
    terms = term_matrix([texts[i] for i in rows])
    keywords = {"fine": class_keywords(terms, fine[rows], top_n),
                "coarse": class_keywords(terms, coarse[rows], top_n)}
    return Topics(fine=fine.astype(np.int64), coarse=coarse.astype(np.int64), parent=parent, keywords=keywords)


def topic_names(topics: Topics, level: str, renamed: Mapping[int, str] | None = None, terms: int = 3) -> dict[int, str]:
    """A label per cluster of a level: its number and the user's name, or its number and keywords."""
    renamed = renamed or {}
    words = topics.keywords.get(level, {})
    return {int(c): f"{int(c)}: " + (renamed.get(int(c)) or ", ".join(words.get(int(c), [])[:terms]))
            for c in np.unique(topics.labels(level))}


def letter_tag(index: int) -> str:
    """A, B, …, Z, AA, AB, … for the 0-based index of a coarse topic."""
    letters = string.ascii_uppercase
    index, tag = int(index), ""
    while True:
        tag = letters[index % 26] + tag
        index = index // 26 - 1
        if index < 0:
            return tag


def tag_order(tag: str) -> tuple[int, str, int]:
    """Sort key of a tag: A < B < … < Z < AA, and A1 < A2 < … < A10."""
    letters = tag.rstrip("0123456789")
    return len(letters), letters, int(tag[len(letters):] or 0)


def topic_tags(topics: Topics) -> dict[str, dict[int, str]]:
    """Per level, each cluster's tag: the coarse topic's letter; for a fine cluster that letter and its rank by size
    inside the coarse topic (1 = largest). Both dicts are in tag order (coarse A, B, …; fine A1, A2, B1, …)."""
    sizes = np.bincount(topics.fine, minlength=len(topics.parent)) if len(topics.fine) else np.zeros(0, int)
    coarse = {int(c): letter_tag(c) for c in np.unique(topics.parent)}
    fine: dict[int, str] = {}
    for c, tag in coarse.items():
        members = np.flatnonzero(topics.parent == c)
        for rank, f in enumerate(sorted(members, key=lambda m: (-sizes[m], m)), start=1):
            fine[int(f)] = f"{tag}{rank}"
    return {"coarse": coarse, "fine": fine}

