"""The resources and the prompt of the MCP server: `paper://CORPUS/ID` (a paper as text: title, abstract and its
fields), `topic://CORPUS/ID` (a topic: name, keywords, size, place in the hierarchy, central papers), and the
"literature review of a topic" prompt, which chains a topic (named or found by its text) to its papers."""

from __future__ import annotations

from collections import Counter
from typing import Annotated

from mcp.server.mcpserver import MCPServer, ResourceSecurity
from mcp.server.mcpserver.exceptions import ResourceError
from pydantic import Field

from core.errors import MireadError
from core.mcp.workspace import Workspace

# ids are not file paths here (arXiv's "hep-th/9301001" holds a slash): the path checks have nothing to protect
OPEN = ResourceSecurity(exempt_params={"corpus", "paper_id", "topic_id"})
REVIEW_SEARCH = 30  # papers searched for a topic given as text; the topic holding most of them is reviewed


def paper_text(ws: Workspace, corpus: str, paper_id: str) -> str:
    """A paper as plain text: title, abstract, each field on its own line, figures and citation counts."""
    from core.mcp.papers import get_paper

    doc = get_paper(ws, paper_id, corpus, with_topic=False)
    lines = [f"Title: {doc['title']}", f"Corpus: {doc['corpus']}", f"Id: {doc['id']}"]
    lines += [f"{key}: {value}" for key, value in doc["fields"].items() if value not in (None, "", [])]
    if doc["figures"]:
        lines.append(f"Figures: {len(doc['figures'])}")
        lines += [f"  {f['label'] or 'Figure'}: {f['caption']}" for f in doc["figures"]]
    if doc["references"] or doc["cited_by"]:
        lines.append(f"Cites {len(doc['references'])} and is cited by {len(doc['cited_by'])} papers of the corpus")
    lines += ["", "Abstract:", doc["abstract"] or "(no abstract)"]
    return "\n".join(lines)


def review_prompt(ws: Workspace, topic: str, corpus: str | None = None, papers: int = 12) -> str:
    """The literature-review request: the topic (a topic id, or the topic holding most papers about a text), its
    keywords and place, and its most central papers, with the tools to read further."""
    from core.mcp.papers import search_papers
    from core.mcp.topics import papers_in_topic, topic_view

    name = ws.corpus_name(corpus)
    view = topic_view(ws, name)
    try:
        view.find(topic)
        tag, found = str(topic).strip().upper(), f"topic {str(topic).strip().upper()}"
    except MireadError:
        hits = search_papers(ws, topic, corpus=name, k=REVIEW_SEARCH)["results"]
        if not hits:
            raise MireadError(f"no paper of corpus {name!r} is near {topic!r}") from None
        frame = ws.frame(name)
        position = {pid: i for i, pid in enumerate(frame["id"].astype(str))}
        fine = Counter(view.tags["fine"][int(view.topics.fine[position[h["id"]]])] for h in hits)
        tag = fine.most_common(1)[0][0]
        found = (f"the fine topic {tag}, which holds {fine[tag]} of the {len(hits)} papers nearest to "
                 f"\u201c{topic}\u201d")
    doc = papers_in_topic(ws, tag, name, limit=papers)
    entry = doc["topic"]
    listed = "\n".join(f"- {p['title']} (id {p['id']}" + (f", {p['year']}" if p.get("year") else "")
                       + f"; paper://{name}/{p['id']})" for p in doc["papers"])
    return (
        f"Write a literature review of {found} in the corpus {name}: {entry['name']} "
        f"({entry['papers']} papers; keywords: {', '.join(entry['keywords'])}"
        + (f"; inside coarse topic {entry['parent']}" if entry.get("parent") else "") + ").\n\n"
        f"Its {len(doc['papers'])} most central papers:\n{listed}\n\n"
        "Read each paper with the get_paper tool (or its paper:// resource), widen the set with similar_to_paper and "
        "papers_in_topic (offset for more), and use list_topics for the neighbouring topics. Then write the review: "
        "the questions the field asks, the main lines of work and their methods, how they relate, and what is open. "
        "Cite papers by title and id, and only papers you have read through the tools."
    )


def register_resources(mcp: MCPServer, ws: Workspace) -> None:
    """Register the paper:// and topic:// resource templates and the literature-review prompt."""

    @mcp.resource("paper://{corpus}/{+paper_id}", name="paper", mime_type="text/plain", security=OPEN,
                  description="A paper of a corpus as text: title, abstract and metadata.")
    def paper(corpus: str, paper_id: str) -> str:
        try:
            return paper_text(ws, corpus, paper_id)
        except MireadError as exc:
            raise ResourceError(str(exc)) from None

    @mcp.resource("topic://{corpus}/{topic_id}", name="topic", mime_type="text/plain", security=OPEN,
                  description="A topic of a corpus (default model, k=12): name, keywords, size, central papers.")
    def topic(corpus: str, topic_id: str) -> str:
        from core.mcp.topics import topic_text

        try:
            return topic_text(ws, ws.corpus_name(corpus), topic_id)
        except MireadError as exc:
            raise ResourceError(str(exc)) from None

    @mcp.prompt(name="literature_review", title="Literature review of a topic")
    def literature_review(
        topic: Annotated[str, Field(description='a topic id from list_topics ("B2") or words naming the topic')],
        corpus: Annotated[str | None, Field(description="the corpus (default: the server's)")] = None,
        papers: Annotated[int, Field(description="how many central papers to start from")] = 12,
    ) -> str:
        """A literature review of a topic: the topic, its keywords and its most central papers, to read and review."""
        return review_prompt(ws, topic, corpus, int(papers))
