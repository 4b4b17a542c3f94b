"""Topics of a corpus: k-means clusters and their centres (`clusters`), keyword names from class-based TF-IDF
(`keywords`), the coarse/fine hierarchy (`hierarchy`), its cache on disk (`cache`) and the tags and names shown on a
map (`labels`); a corpus's topics as the Domain map shows them, a topic by its tag and its most central papers
(`view`).

Public names load lazily (PEP 562).
"""

from __future__ import annotations

from core.lazy import exporter

_EXPORTS = {
    "cluster_keywords": "clusters",
    "cluster_names": "clusters",
    "kmeans": "clusters",
    "LEVELS": "hierarchy",
    "Topics": "hierarchy",
    "topic_hierarchy": "hierarchy",
    "topic_names": "hierarchy",
    "corpus_topics": "cache",
    "given_names": "labels",
    "nested_names": "labels",
    "paper_labels": "labels",
    "tag_order": "hierarchy",
    "topic_tags": "hierarchy",
    "DEFAULT_TOPICS": "view",
    "TopicView": "view",
    "central_rows": "view",
    "topic_view": "view",
}
__all__ = sorted(_EXPORTS)
__getattr__ = exporter(__name__, _EXPORTS)
