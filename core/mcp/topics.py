"""The MCP tools on topics: the two-level topic hierarchy of a corpus (the Domain map's topics: same k, same tags,
same keywords, the names users gave on the map) and the papers of one topic, most central first."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.errors import MireadError
from core.mcp.workspace import DEFAULT_TOPICS, Workspace, jsonable

if TYPE_CHECKING:
    from core.explore.topics.view import TopicView


def topic_view(ws: Workspace, corpus: str, model: str | None = None, k: int = DEFAULT_TOPICS) -> TopicView:
    """The corpus's topics under the call's model (core.explore.topics.view, which the CLI shares)."""
    from core.explore.topics.view import topic_view as view_of

    return view_of(ws.store, corpus, ws.spec(model), k)


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


def papers_in_topic(ws: Workspace, topic: str, corpus: str | None = None, model: str | None = None,
                    k: int = DEFAULT_TOPICS, limit: int = 20, offset: int = 0) -> dict[str, Any]:
    """The papers of one topic, most central first (cosine to the topic's mean vector), with their label columns."""
    from core.explore.topics.view import central_rows
    from core.labels import plain_value

    if not 1 <= int(limit) <= 500 or int(offset) < 0:
        raise MireadError(f"limit must be between 1 and 500 and offset at least 0, got {limit} and {offset}")
    name = ws.corpus_name(corpus)
    view = topic_view(ws, name, model, k)
    level, cluster = view.find(topic)
    rows, scores = central_rows(ws.store, view, ws.spec(view.model), level, cluster)
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
