"""The MCP tools on topics: the two-level topic hierarchy of a corpus (the Domain map's topics: same k, same tags,
same keywords, the names users gave on the map) and the papers of one topic, most central first."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from core.errors import MireadError
from core.mcp.workspace import DEFAULT_TOPICS, Workspace, jsonable

if TYPE_CHECKING:
    from core.explore import Topics

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


def topic_view(ws: Workspace, corpus: str, model: str | None = None, k: int = DEFAULT_TOPICS) -> TopicView:
    """The corpus's topics, computed on first use and stored in the workspace as the Domain map stores them."""
    from core.explore.topics import corpus_topics, given_names, nested_names, topic_tags

    if not 2 <= int(k) <= MAX_TOPICS:
        raise MireadError(f"k (the number of fine topics) must be between 2 and {MAX_TOPICS}, got {k}")
    spec = ws.spec(model)
    topics, clustering = corpus_topics(ws.store, corpus, spec, int(k))
    renamed = given_names(ws.store, corpus, spec.name, clustering)
    return TopicView(corpus=corpus, model=spec.name, k=int(k), clustering=clustering, topics=topics,
                     tags=topic_tags(topics), names=nested_names(topics, renamed), renamed=renamed)


def list_topics(ws: Workspace, corpus: str | None = None, model: str | None = None,
                k: int = DEFAULT_TOPICS) -> dict[str, Any]:
    """The coarse topics in tag order, each with its fine topics: names, keywords, given names and sizes."""
    view = topic_view(ws, ws.corpus_name(corpus), model, k)
    coarse = []
    for cluster in view.tags["coarse"]:
        entry = view.entry("coarse", cluster)
        entry["children"] = [view.entry("fine", f) for f in view.tags["fine"]
                             if int(view.topics.parent[f]) == cluster]
        coarse.append(entry)
    return jsonable({"corpus": view.corpus, "model": view.model, "k": view.k, "clustering": view.clustering,
                     "papers": int(len(view.topics.fine)), "topics": coarse})


def _central_rows(ws: Workspace, view: TopicView, level: str, cluster: int) -> tuple[np.ndarray, np.ndarray]:
    """The topic's papers (frame rows) and their cosine to the topic's centre, most central first."""
    from core.embedding import vectors_fingerprint

    rows = np.flatnonzero(view.topics.labels(level) == cluster)
    vectors = np.asarray(ws.store.embeddings(view.corpus, vectors_fingerprint(ws.spec(view.model)))[rows],
                         dtype=np.float32)
    centre = vectors.mean(axis=0)
    centre /= max(float(np.linalg.norm(centre)), 1e-12)
    scores = vectors @ centre
    order = np.argsort(-scores, kind="stable")
    return rows[order], scores[order]


def papers_in_topic(ws: Workspace, topic: str, corpus: str | None = None, model: str | None = None,
                    k: int = DEFAULT_TOPICS, limit: int = 20, offset: int = 0) -> dict[str, Any]:
    """The papers of one topic, most central first (cosine to the topic's mean vector), with their label columns."""
    from core.labels import plain_value

    if not 1 <= int(limit) <= 500 or int(offset) < 0:
        raise MireadError(f"limit must be between 1 and 500 and offset at least 0, got {limit} and {offset}")
    name = ws.corpus_name(corpus)
    view = topic_view(ws, name, model, k)
    level, cluster = view.find(topic)
    rows, scores = _central_rows(ws, view, level, cluster)
    frame = ws.frame(name)
    columns = [c for c in frame.columns if c not in ("id", "title", "abstract")]
    papers = []
    for rank in range(int(offset), min(len(rows), int(offset) + int(limit))):
        record = frame.iloc[int(rows[rank])]
        papers.append({"rank": rank + 1, "id": str(record["id"]), "title": record["title"],
                       "score": round(float(scores[rank]), 4), **{c: plain_value(record[c]) for c in columns}})
    return jsonable({"corpus": name, "model": view.model, "k": view.k, "topic": view.entry(level, cluster),
                     "total": int(len(rows)), "papers": papers})


def paper_topic(ws: Workspace, corpus: str, row: int, model: str | None = None,
                k: int = DEFAULT_TOPICS) -> dict[str, Any]:
    """The coarse and fine topic of one paper (by its frame row)."""
    view = topic_view(ws, corpus, model, k)
    fine = int(view.topics.fine[row])
    return {"model": view.model, "k": view.k, "coarse": view.entry("coarse", int(view.topics.parent[fine])),
            "fine": view.entry("fine", fine)}


def topic_text(ws: Workspace, corpus: str, topic: str, papers: int = 10) -> str:
    """A topic as plain text for the topic:// resource: its name, keywords, size, place and central papers."""
    doc = papers_in_topic(ws, topic, corpus, limit=papers)
    entry = doc["topic"]
    lines = [f"Topic {entry['name']}", f"Corpus: {doc['corpus']} (model {doc['model']}, {doc['k']} fine topics)",
             f"Level: {entry['level']}", f"Keywords: {', '.join(entry['keywords']) or '-'}",
             f"Papers: {entry['papers']}"]
    if entry.get("renamed"):
        lines.append(f"Named by a user: {entry['renamed']}")
    if entry.get("parent"):
        lines.append(f"Inside coarse topic: {entry['parent']} (topic://{doc['corpus']}/{entry['parent']})")
    if entry["level"] == "coarse":
        listed = list_topics(ws, doc["corpus"], k=doc["k"])["topics"]
        children = next(t["children"] for t in listed if t["id"] == entry["id"])
        lines.append("Fine topics: " + "; ".join(f"{c['name']} ({c['papers']})" for c in children))
    lines.append("Most central papers:")
    lines += [f"{p['rank']}. {p['title']} (paper://{doc['corpus']}/{p['id']}, cosine {p['score']:.3f})"
              for p in doc["papers"]]
    return "\n".join(lines)
