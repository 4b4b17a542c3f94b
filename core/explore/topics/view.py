"""One corpus's topic hierarchy as the Domain map shows it (same k, tags, keywords and the names users gave), a topic
found by its tag, and its papers most central first: what the MCP topic tools and the CLI's `collect --from-topic`
share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.errors import MireadError

if TYPE_CHECKING:
    import numpy as np

    from core.embedding import ModelSpec
    from core.explore.topics.hierarchy import Topics
    from core.store import Store

DEFAULT_TOPICS = 12  # the Domain map's "Clusters (k)" default, so every reader shows the same topics and names
MAX_TOPICS = 200


@dataclass
class TopicView:
    """One corpus's hierarchy under a model and k, with each cluster's tag, label and given name."""

    corpus: str
    model: str
    k: int
    clustering: str
    topics: Topics
    tags: dict[str, dict[int, str]]
    names: dict[str, dict[int, str]]
    renamed: dict[str, dict[int, str]]

    def entry(self, level: str, cluster: int) -> dict[str, Any]:
        """A topic as the tools list it: tag, name, keywords, the user's name, size, parent or children."""
        tag = self.tags[level][cluster]
        out: dict[str, Any] = {
            "id": tag, "level": level, "name": self.names[level][cluster],
            "keywords": list(self.topics.keywords.get(level, {}).get(cluster, [])),
            "renamed": self.renamed[level].get(cluster), "papers": int((self.topics.labels(level) == cluster).sum()),
            "uri": f"topic://{self.corpus}/{tag}",
        }
        if level == "fine":
            out["parent"] = self.tags["coarse"][int(self.topics.parent[cluster])]
        return out

    def find(self, ref: str) -> tuple[str, int]:
        """(level, cluster) of a tag such as "B" (a coarse topic) or "B2" (a fine topic in B); any case."""
        wanted = str(ref or "").strip().upper()
        for level in ("coarse", "fine"):
            for cluster, tag in self.tags[level].items():
                if tag == wanted:
                    return level, cluster
        raise MireadError(f"corpus {self.corpus!r} has no topic {ref!r} at k={self.k}; its topics are "
                          f"{', '.join(self.tags['coarse'].values())} (coarse) and "
                          f"{', '.join(self.tags['fine'].values())} (fine)")


def topic_view(store: Store, corpus: str, spec: ModelSpec, k: int = DEFAULT_TOPICS) -> TopicView:
    """The corpus's topics, computed on first use and stored in the workspace as the Domain map stores them."""
    from core.explore.topics import corpus_topics, given_names, nested_names, topic_tags

    if not 2 <= int(k) <= MAX_TOPICS:
        raise MireadError(f"k (the number of fine topics) must be between 2 and {MAX_TOPICS}, got {k}")
    topics, clustering = corpus_topics(store, corpus, spec, int(k))
    renamed = given_names(store, corpus, spec.name, clustering)
    return TopicView(corpus=corpus, model=spec.name, k=int(k), clustering=clustering, topics=topics,
                     tags=topic_tags(topics), names=nested_names(topics, renamed), renamed=renamed)


def central_rows(store: Store, view: TopicView, spec: ModelSpec, level: str,
                 cluster: int) -> tuple[np.ndarray, np.ndarray]:
    """A topic's papers (rows of the corpus's papers frame) and their cosine to the topic's centre, most central
    first."""
    import numpy as np

    from core.embedding import vectors_fingerprint

    rows = np.flatnonzero(view.topics.labels(level) == cluster)
    vectors = np.asarray(store.embeddings(view.corpus, vectors_fingerprint(spec))[rows], dtype=np.float32)
    centre = vectors.mean(axis=0)
    centre /= max(float(np.linalg.norm(centre)), 1e-12)
    scores = vectors @ centre
    order = np.argsort(-scores, kind="stable")
    return rows[order], scores[order]
