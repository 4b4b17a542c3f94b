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


def year_bounds(year_from: int | None, year_to: int | None) -> tuple[int, int] | None:
    """A search's year range from its two optional ends (None: no range); an end before its start is an error."""
    from core.errors import MireadError

    if year_from is None and year_to is None:
        return None
    low, high = -10**6 if year_from is None else int(year_from), 10**6 if year_to is None else int(year_to)
    if low > high:
        raise MireadError(f"year_from ({low}) is after year_to ({high})")
    return low, high


def search_filters(store: Store, corpus: str, labels: dict[str, list[str]] | None,
                   collection: str | None = None) -> dict[str, list[Any]] | None:
    """A search's filters (`search --filter`, MCP `search_papers`'s labels and collection): every column must be one
    of the corpus's (a list column such as authors keeps papers holding any of the values); a journal may be named
    by any of its spellings (core.journal_identity); a collection keeps its papers (by id)."""
    from core.errors import MireadError

    filters: dict[str, list[Any]] | None = None
    if labels:
        info = store.corpus(corpus)
        unknown = [c for c in labels if c not in info.columns]
        if unknown:
            raise MireadError(f"corpus {corpus!r} has no column {unknown[0]!r}; its columns are "
                              f"{', '.join(info.columns)}")
        filters = {c: [str(v) for v in values] for c, values in labels.items()}
        if info.journal in filters:  # a journal by any spelling the corpus has: the one name the papers carry
            journals = store.journal_identities(corpus, names=False)
            filters[info.journal] = [journals.name_of(v) or v for v in filters[info.journal]]
    if not (collection or "").strip():
        return filters
    ids = store.collection_ids(corpus, collection)
    if not ids:
        found = store.collection(corpus, collection)
        raise MireadError(f"collection {found.name!r} holds no paper of corpus {corpus!r} now "
                          f"({found.missing:,} of its papers are missing from it)")
    return {**(filters or {}), "id": ids}


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

