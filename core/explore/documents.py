"""The JSON documents that the CLI prints with --json and the MCP server returns (corpora, search, predict): one
function per answer, so both give the same ids, order and scores."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from core.embedding import Encoder, ModelSpec
    from core.store import Store


def corpora_document(store: Store) -> dict[str, Any]:
    """`corpora --json`: each corpus with its size, links, label columns, columns and the models it is embedded with."""
    from core.embedding import list_models, model_names_by_vectors_fingerprint

    names = model_names_by_vectors_fingerprint(list_models(store))
    items = []
    for c in store.corpora():
        models = [names.get(fp, fp) for fp in store.embedded_models(c.name)]
        items.append({"name": c.name, "papers": c.papers, "links": c.links, "labels": c.labels,
                      "columns": c.columns, "models": models, "source": c.source})
    return {"corpora": items}


def search_document(
    store: Store, corpus: str, model: str | ModelSpec, *, title: str = "", abstract: str = "",
    paper_id: str | None = None, k: int = 10, filters: dict[str, list[Any]] | None = None,
    year_range: tuple[int, int] | None = None, encoder: Encoder | None = None, frame: pd.DataFrame | None = None,
) -> dict[str, Any]:
    """`search --json`: the papers that best answer a text (words and meaning fused, each result's `why`), or the
    nearest papers to a corpus paper: rank, id, title, score (similarity in meaning), labels..."""
    from core.explore import hybrid_search, similar_papers

    if paper_id is not None:
        result: Any = similar_papers(store, corpus, model, paper_id=paper_id, k=k, filters=filters,
                                     year_range=year_range, encoder=encoder, frame=frame)
    else:
        result = hybrid_search(store, corpus, model, abstract or "", title=title or "", k=k, filters=filters,
                               year_range=year_range, encoder=encoder, frame=frame)
    for item in result.results:
        item.pop("abstract", None)
        item.pop("row", None)
    return result.to_dict()


def predict_document(
    store: Store, model: str | ModelSpec, *, title: str, abstract: str, corpus: str | None = None,
    label: str | None = None, k: int = 5, encoder: Encoder | None = None, frame: pd.DataFrame | None = None,
) -> dict[str, Any]:
    """`predict --json`: the journals (or label values) that fit a title + abstract, with probabilities and evidence."""
    from core.explore import clip_query, predict_journals

    pred = predict_journals(store, model, title=clip_query(title), abstract=clip_query(abstract), corpus=corpus,
                            label_column=label, k=k, encoder=encoder, frame=frame)
    doc = pred.to_dict()
    for item in doc["predictions"]:
        item.pop("evidence_papers", None)
    return doc

