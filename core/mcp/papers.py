"""The MCP tools on papers: the corpora, search by text (in a collection, if named), one paper (fields, abstract,
figures, citations, topic, collections), papers like a paper, and the journals that fit a text or a paper. Each is a
plain function of the Workspace that returns the JSON document (the same one the CLI's --json prints, where the CLI
has the command)."""

from __future__ import annotations

from typing import Any

from core.errors import MireadError
from core.explore.search.lookup import row_of
from core.mcp.workspace import Workspace, jsonable

MAX_K = 200


def _k(k: int, most: int = MAX_K) -> int:
    if not 1 <= int(k) <= most:
        raise MireadError(f"k must be between 1 and {most}, got {k}")
    return int(k)


def list_corpora(ws: Workspace) -> dict[str, Any]:
    """Every corpus of the workspace (the `corpora --json` document)."""
    from core.explore.documents import corpora_document

    return jsonable(corpora_document(ws.store))


def search_papers(ws: Workspace, text: str, title: str = "", corpus: str | None = None, k: int = 10,
                  model: str | None = None, labels: dict[str, list[str]] | None = None,
                  year_from: int | None = None, year_to: int | None = None,
                  collection: str | None = None) -> dict[str, Any]:
    """The corpus papers nearest to a text (the `search --json` document for --title TITLE --abstract TEXT), among
    the papers of one collection when it is named."""
    from core.explore.documents import search_document, search_filters, year_bounds

    if not (text or "").strip() and not (title or "").strip():
        raise MireadError("the query is empty: give a text (an abstract, a question or a few sentences)")
    name, spec = ws.corpus_name(corpus), ws.spec(model)
    doc = search_document(ws.store, name, spec, title=title, abstract=text, k=_k(k),
                          filters=search_filters(ws.store, name, labels, collection),
                          year_range=year_bounds(year_from, year_to),
                          encoder=ws.encoder(spec), frame=ws.frame(name))
    return jsonable({"corpus": name, **({"collection": collection} if collection else {}), **doc})


def similar_to_paper(ws: Workspace, paper_id: str, corpus: str | None = None, k: int = 10, model: str | None = None,
                     labels: dict[str, list[str]] | None = None, year_from: int | None = None,
                     year_to: int | None = None) -> dict[str, Any]:
    """The corpus papers nearest to one of its papers, which is left out (the `search --paper ID --json` document)."""
    from core.explore.documents import search_document, search_filters, year_bounds

    name, spec = ws.corpus_name(corpus), ws.spec(model)
    doc = search_document(ws.store, name, spec, paper_id=str(paper_id), k=_k(k),
                          filters=search_filters(ws.store, name, labels), year_range=year_bounds(year_from, year_to),
                          frame=ws.frame(name))
    return jsonable({"corpus": name, **doc})


def _row(ws: Workspace, corpus: str, paper_id: str) -> int:
    frame = ws.frame(corpus)
    row = row_of(frame, str(paper_id))
    if row is None:
        raise MireadError(f"corpus {corpus!r} has no paper with id {paper_id!r}")
    return row


def get_paper(ws: Workspace, paper_id: str, corpus: str | None = None, model: str | None = None,
              with_topic: bool = True) -> dict[str, Any]:
    """One paper: title, abstract, every field, its figures, its references and citing papers, and its topic."""
    from core.explore import paper_citations
    from core.labels import plain_value

    name = ws.corpus_name(corpus)
    paper = ws.store.paper(name, str(paper_id))
    figures = [{"label": f["label"], "caption": f["caption"], "position": f["position"], "image": f["image"]}
               for f in ws.store.figures(name, [paper.id]).get(paper.id, [])]
    cites = paper_citations(ws.store, name, paper.id, frame=ws.frame(name))
    drop = ("row",)
    doc: dict[str, Any] = {
        "corpus": name, "id": paper.id, "title": paper.title, "abstract": paper.abstract,
        "fields": {key: plain_value(value) for key, value in paper.fields.items()}, "figures": figures,
        "references": [{k: v for k, v in r.items() if k not in drop} for r in cites["references"]],
        "cited_by": [{k: v for k, v in r.items() if k not in drop} for r in cites["cited_by"]],
        "uri": f"paper://{name}/{paper.id}", "collections": ws.store.collection_membership(name).get(paper.id, []),
    }
    if with_topic:
        from core.mcp.topics import paper_topic

        try:
            doc["topic"] = paper_topic(ws, name, _row(ws, name, paper.id), model)
        except MireadError as exc:  # not embedded with the model yet: the paper itself is still there
            doc["topic"] = None
            doc["topic_note"] = str(exc)
    return jsonable(doc)


def journal_accuracy_document(ws: Workspace, corpus: str, model: str | None, column: str,
                              method: str, title_only: bool = False) -> dict[str, Any] | None:
    """How often the suggestions are right on held-out papers, as the Journals page shows it (None: not measurable,
    e.g. the corpus is not embedded with the model); `title_only`: for a query asked like a title, measured with
    held-out papers queried by their titles alone."""
    from core.evaluation import head_and_vote, journal_accuracy, method_summary, proportion_interval
    from core.evaluation.journal_finder import held_out_phrase

    spec = ws.spec(model)
    measured = (head_and_vote(ws.store, corpus, spec, column)
                if spec.has_head and column == spec.label_column and not title_only else None)
    if measured:
        return {"source": "head and vote measured on the same held-out papers", "best": measured["best"],
                "papers": measured["papers"], "head": measured["head"], "knn": measured["knn"],
                "sentence": method_summary(measured, method)}
    found = journal_accuracy(ws.store, corpus, spec.name, column, method, title_only=title_only)
    if not found:
        return None
    if "unmeasured" in found:
        return {"source": "the Evaluate page's journals task", "method": method, "unmeasured": found["unmeasured"],
                "sentence": f"not measured on {corpus}: {found['unmeasured']}"}
    band = proportion_interval(found["top5"] / 100 * found["papers"], int(found["papers"]))
    interval = f" (95 % interval {100 * band[0]:.0f}–{100 * band[1]:.0f} %)" if band else ""
    where = held_out_phrase(int(found["papers"]), found.get("left_out", 0), f" of {corpus}")
    bm25 = (f"; a BM25 text search, as JANE-style finders use, {found['bm25']:.0f} %"
            if found["bm25"] is not None else "")
    return {"source": f"the Evaluate page's {found['task']} task", "method": method, "top5": found["top5"],
            "top5_interval": [100 * band[0], 100 * band[1]] if band else None, "bm25_top5": found["bm25"],
            "papers": found["papers"], "left_out": found.get("left_out", 0),
            "queried_by": found["queried_by"],
            "sentence": f"on {where}, each queried by {found['queried_by']}, the true {column} is among the top 5 "
                        f"suggestions {found['top5']:.0f} % of the time{interval}{bm25}"}


def suggest_journals(ws: Workspace, text: str = "", title: str = "", paper_id: str | None = None,
                     corpus: str | None = None, label: str | None = None, k: int = 5, model: str | None = None,
                     accuracy: bool = True) -> dict[str, Any]:
    """Journals that fit a text or a corpus paper (the `predict --json` document) and how often they are right."""
    from core.explore.documents import predict_document
    from core.explore.search.similar import asked_like_a_title

    name, spec = ws.corpus_name(corpus), ws.spec(model)
    if paper_id is not None:
        if (text or "").strip() or (title or "").strip():
            raise MireadError("give either a paper_id or a text, not both")
        paper = ws.store.paper(name, str(paper_id))
        title, text = paper.title, paper.abstract
    doc = predict_document(ws.store, spec, title=title, abstract=text, corpus=name, label=label, k=_k(k, 50),
                           encoder=ws.encoder(spec), frame=ws.frame(name))
    doc = {"corpus": name, **doc}
    if paper_id is not None:
        doc["paper_id"] = str(paper_id)
        doc["true_label"] = ws.store.paper(name, str(paper_id)).fields.get(doc["label_column"])
    if accuracy and doc.get("label_column"):
        doc["accuracy"] = journal_accuracy_document(ws, name, model, doc["label_column"], doc["method"],
                                                    title_only=asked_like_a_title(title or "", text or ""))
    return jsonable(doc)

