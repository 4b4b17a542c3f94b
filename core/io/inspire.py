"""INSPIRE-HEP's JSON: its REST API's answers unwrapped and its literature records in the product's field names.

The shapes read, as researchers save them from a browser, ``curl`` or a client library:

- a **search answer** (``inspirehep.net/api/literature?q=…``): ``{"hits": {"hits": [{"metadata": {...}, "id",
  "links", "created", "updated"}], "total": N}, "links": {...}}``;
- **one record's answer** (``/api/literature/<id>``): ``{"metadata": {...}, "id": "…", ...}``;
- a **record** as INSPIRE stores it and its JSON dumps hold it, one per line: the metadata alone.

A record (schema ``hep.json``): ``titles`` and ``abstracts`` lists of objects (the first of each), ``authors`` with
``full_name`` ("Family, Given") and ``affiliations``, ``dois``, ``arxiv_eprints`` (the arXiv id, the id kind the dedup
knows, and its categories), ``publication_info`` (the journal's abbreviated title, volume, pages and year: a paper's
year is its journal's, else its preprint's), ``keywords``, ``control_number`` (the INSPIRE id).
"""

from __future__ import annotations

from typing import Any

from core.io.rows import Row, _year

__all__ = ["inspire_records", "inspire_row"]

_YEAR_FIELDS = ("preprint_date", "earliest_date", "legacy_creation_date")


def inspire_records(value: Any) -> list | None:
    """The hits of an INSPIRE search answer (``{"hits": {"hits": [...], "total"}}``); None for anything else."""
    hits = value.get("hits") if isinstance(value, dict) else None
    if isinstance(hits, dict) and isinstance(hits.get("hits"), list) and "total" in hits:
        return hits["hits"]
    return None


def _metadata(row: Row) -> dict | None:
    """The literature record in an INSPIRE hit or record answer, or the record itself; None for any other row."""
    metadata = row.get("metadata")
    record = metadata if isinstance(metadata, dict) else row
    titles = record.get("titles")
    if isinstance(titles, list) and titles and all(isinstance(t, dict) for t in titles) and (
            "control_number" in record or "arxiv_eprints" in record or "inspire" in str(record.get("$schema"))):
        return record
    return None


def _values(items: Any, key: str = "value") -> list[str]:
    """The non-empty texts under ``key`` of a list of objects, whitespace collapsed."""
    texts = (item.get(key) for item in items if isinstance(item, dict)) if isinstance(items, list) else ()
    return [" ".join(text.split()) for text in texts if isinstance(text, str) and text.strip()]


def _first(items: Any, key: str = "value") -> str | None:
    return next(iter(_values(items, key)), None)


def _publication(record: dict) -> dict:
    """The journal publication of a record (the first ``publication_info`` naming a journal), else the first."""
    infos = [info for info in record.get("publication_info") or [] if isinstance(info, dict)]
    return next((info for info in infos if info.get("journal_title")), infos[0] if infos else {})


def _pages(publication: dict) -> str | None:
    start, end = publication.get("page_start"), publication.get("page_end")
    if start and end:
        return f"{start}-{end}"
    return start or publication.get("artid") or None


def _affiliations(authors: list) -> list[str]:
    return list(dict.fromkeys(name for author in authors if isinstance(author, dict)
                              for name in _values(author.get("affiliations"))))


def inspire_row(row: Row) -> Row | None:
    """An INSPIRE hit, record answer or record as a row under the product's names; None for any other row."""
    record = _metadata(row)
    if record is None:
        return None
    publication = _publication(record)
    eprints = [e for e in record.get("arxiv_eprints") or [] if isinstance(e, dict)]
    categories = [c for e in eprints for c in e.get("categories") or [] if isinstance(c, str)]
    authors = [a for a in record.get("authors") or [] if isinstance(a, dict)]
    dates = [publication.get("year"), *(record.get(name) for name in _YEAR_FIELDS), _first(record.get("imprints"),
                                                                                          "date")]
    control = record.get("control_number") or row.get("id")
    fields: Row = {
        "title": _first(record.get("titles"), "title"),
        "abstract": _first(record.get("abstracts")),
        "authors": _values(authors, "full_name"),
        "affiliations": _affiliations(authors),
        "year": next((year for date in dates if date and (year := _year(date))), None),
        "doi": _first(record.get("dois")),
        "arxiv": _first(eprints),
        "journal": publication.get("journal_title") or None,
        "volume": publication.get("journal_volume") or None,
        "issue": publication.get("journal_issue") or None,
        "pages": _pages(publication),
        "keywords": list(dict.fromkeys([*_values(record.get("keywords")), *categories])),
        "inspire_categories": _values(record.get("inspire_categories"), "term"),
        "document_type": [t for t in record.get("document_type") or [] if isinstance(t, str)],
        "inspire": str(control) if control else None,
        "texkey": next(iter(record.get("texkeys") or []), None),
        "cited_by_count": record.get("citation_count"),
        "database": "INSPIRE-HEP",
    }
    return {key: value for key, value in fields.items() if value not in (None, [], "")} | {
        "title": fields["title"], "abstract": fields["abstract"]}
