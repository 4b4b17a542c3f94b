"""The topic hierarchy: fine k-means clusters nest in coarse Ward topics; both levels get keyword labels."""

from __future__ import annotations

import numpy as np
import pytest

from core.errors import MireadError
from core.explore.topics.hierarchy import clustering_key, coarse_count, topic_hierarchy, topic_names
from tests.unit.explore.test_keywords import real_groups


def grouped_vectors(labels: np.ndarray, sub: int = 3, seed: int = 0) -> np.ndarray:
    """Vectors with a centre per group and `sub` tighter sub-centres inside each (a two-level structure)."""
    rng = np.random.default_rng(seed)
    groups = rng.standard_normal((labels.max() + 1, 24)) * 20
    offsets = rng.standard_normal((labels.max() + 1, sub, 24)) * 4
    which = np.arange(len(labels)) % sub
    return (groups[labels] + offsets[labels, which] + rng.standard_normal((len(labels), 24)) * 0.3).astype(np.float32)


def test_fine_clusters_nest_in_coarse_topics_that_follow_the_real_fields():
    texts, truth, groups = real_groups()
    topics = topic_hierarchy(grouped_vectors(truth), texts, fine_k=12, coarse_k=4)
    assert len(np.unique(topics.fine)) == 12 and len(np.unique(topics.coarse)) == 4
    for c in np.unique(topics.fine):  # each fine cluster belongs to one coarse topic
        assert len(np.unique(topics.coarse[topics.fine == c])) == 1
        assert topics.coarse[topics.fine == c][0] == topics.parent[c]
    for c in np.unique(topics.coarse):  # and the coarse topics are the four fields
        assert len(np.unique(truth[topics.coarse == c])) == 1
    astro = topics.coarse[truth == groups.index("astro-ph.CO")][0]
    assert "dark matter" in topics.keywords["coarse"][astro]
    assert set(topics.keywords["fine"]) == set(range(12))


def test_names_carry_the_users_name_or_the_keywords():
    texts, truth, _ = real_groups()
    topics = topic_hierarchy(grouped_vectors(truth), texts, fine_k=8, coarse_k=4)
    names = topic_names(topics, "coarse", {1: "My topic"})
    assert names[1] == "1: My topic"
    assert names[0].startswith("0: ") and len(names[0]) > 5
    assert len(topic_names(topics, "fine")) == 8
    with pytest.raises(MireadError, match="topic level"):
        topics.labels("medium")


def test_coarse_count_and_clustering_key():
    assert coarse_count(12) == 3 and coarse_count(4) == 2 and coarse_count(200) == 50
    assert clustering_key(3, 12, 3) == "v3-k12-c3-s0"


def test_a_tiny_corpus_still_gets_levels():
    topics = topic_hierarchy(np.eye(3, dtype=np.float32), ["a cell", "cells", "stars"], fine_k=12)
    assert len(np.unique(topics.fine)) == 3
    assert all(len(np.unique(topics.coarse[topics.fine == c])) == 1 for c in range(3))
