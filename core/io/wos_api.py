"""The Web of Science Starter API's answer (Clarivate's ``api.clarivate.com/apis/wos-starter/v1/documents``).

``{"metadata": {"total", "page", "limit"}, "hits": [...]}``; a hit has ``uid`` ("WOS:…", the record's accession
number, its id here as in the tagged export's UT), ``title``, ``types``, ``source`` (``sourceTitle``,
``publishYear``, ``publishMonth``, ``volume``, ``issue``, ``articleNumber``, ``pages.range``), ``names.authors``
(``displayName`` "Family, Given"; ``wosStandard``, ``researcherId``), ``identifiers`` (``doi``, ``issn``,
``eissn``, ``pmid``), ``keywords.authorKeywords`` and ``links``. The Starter API gives no abstract: its hits are
title-only papers ("Titles only").
"""

from __future__ import annotations

from typing import Any

from core.io.rows import Row, _year


def wos_api_records(value: Any) -> list | None:
    """The hits of a Web of Science Starter API answer; None for any other JSON document."""
    if not isinstance(value, dict) or not isinstance(value.get("metadata"), dict):
        return None
    hits = value.get("hits")
    if isinstance(hits, list) and "total" in value["metadata"] and all(
            isinstance(hit, dict) and looks_like_wos_hit(hit) for hit in hits[:20]):
        return hits
    return None


def looks_like_wos_hit(row: Row) -> bool:
    """A Starter API hit: a "WOS:…" (or other Clarivate collection's) ``uid`` with ``source`` and ``names``."""
    return isinstance(row.get("uid"), str) and ":" in row["uid"] and isinstance(row.get("source"), dict) and \
        isinstance(row.get("names", {}), dict)


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def wos_api_row(hit: Row) -> Row:
    """A Starter API hit as a row under the product's names (the hit's other keys kept as they are)."""
    source, names = hit.get("source") or {}, hit.get("names") or {}
    identifiers = hit.get("identifiers") if isinstance(hit.get("identifiers"), dict) else {}
    keywords = hit.get("keywords") if isinstance(hit.get("keywords"), dict) else {}
    pages = source.get("pages") if isinstance(source.get("pages"), dict) else {}
    authors = [person.get("displayName") or person.get("wosStandard") for person in _list(names.get("authors"))
               if isinstance(person, dict)]
    row: Row = {
        "id": hit.get("uid"), "title": hit.get("title"), "abstract": None,
        "authors": [name for name in authors if isinstance(name, str) and name.strip()],
        "journal": source.get("sourceTitle"), "year": _year(source.get("publishYear")),
        "month": source.get("publishMonth"), "volume": source.get("volume"), "issue": source.get("issue"),
        "article_number": source.get("articleNumber"), "pages": pages.get("range"),
        "doi": identifiers.get("doi"), "issn": identifiers.get("issn"), "eissn": identifiers.get("eissn"),
        "pmid": identifiers.get("pmid"), "keywords": _list(keywords.get("authorKeywords")),
        "document_types": _list(hit.get("types")), "url": (hit.get("links") or {}).get("record"),
        "database": "Web of Science",
    }
    kept = {key: value for key, value in row.items() if value not in (None, [], "")}
    return kept | {"title": row["title"], "abstract": None, "authors": row["authors"]}
