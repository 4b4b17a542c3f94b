"""DSpace Dublin Core (``dublin_core.xml``, ``metadata_<schema>.xml``): one repository item.

DSpace exports items in its Simple Archive Format, one folder per item, each with its own ``dublin_core.xml``:
``<dublin_core schema="dc">`` holding ``<dcvalue element="title" qualifier="none">`` lines. So one file is one
record, and a folder of them (dropped together) is a collection. Read: ``title``; ``description.abstract`` (the
first; another language's ``abstractalt`` kept as ``abstract_alt``); ``contributor.author`` and ``creator`` as the
authors, a list; ``date.issued`` (else any date) as the year; ``identifier.doi`` or a doi.org ``identifier.uri``
as the DOI; ``relation.ispartof`` / ``citation.journaltitle`` / ``source`` as the journal; ``subject`` as keywords;
every other value under ``element_qualifier``. Parsed with lxml, entities, DTDs and the network refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from core.io.rows import NumberedRow, Row, _year
from core.io.safety import xml_root
from core.records import bare_doi

__all__ = ["looks_like_dspace", "dspace_rows"]

_JOURNAL = ("relation_ispartof", "citation_journaltitle", "relation_ispartofseries", "source")


def looks_like_dspace(head: str) -> bool:
    """DSpace Dublin Core: a ``<dublin_core>`` root holding ``<dcvalue element=…>`` lines."""
    start = head[:4000]
    return "<dublin_core" in start and "<dcvalue" in start


def _values(root: object) -> dict[str, list[str]]:
    values: dict[str, list[str]] = {}
    for node in root.iter("dcvalue"):  # type: ignore[attr-defined]
        text = " ".join("".join(node.itertext()).split())
        element = (node.get("element") or "").strip().lower()
        qualifier = (node.get("qualifier") or "none").strip().lower()
        if text and element:
            name = element if qualifier in ("none", "") else f"{element}_{qualifier}"
            values.setdefault(name, []).append(text)
    return values


def _row(values: dict[str, list[str]], schema: str) -> Row:
    def first(*names: str) -> str | None:
        return next((values[name][0] for name in names if values.get(name)), None)

    uris = [uri for name in ("identifier_uri", "identifier") for uri in values.get(name, [])]
    doi = first("identifier_doi") or next((uri for uri in uris if "doi.org/10." in uri), None)
    dates = [first("date_issued"), first("date"), *(d for k, vs in values.items() if k.startswith("date_") for d in vs)]
    keyword_names = [k for k in values if k.split("_")[0] == "subject" and k != "subject_classification"]
    row: Row = {
        "title": first("title"),
        "abstract": first("description_abstract", "abstract"),
        "authors": [*values.get("contributor_author", []), *values.get("creator", [])],
        "year": next((year for date in dates if (year := _year(date))), None),
        "doi": bare_doi(doi) if doi else None,
        "journal": first(*_JOURNAL),
        "keywords": list(dict.fromkeys(v for k in keyword_names for v in values[k])),
        "schema": schema,
    }
    if values.get("description_abstractalt"):
        row["abstract_alt"] = values["description_abstractalt"][0]
    mapped = {"title", "description_abstract", "description_abstractalt", "contributor_author", "creator",
              "identifier_doi", *keyword_names}
    for name, items in values.items():
        if name not in mapped and name not in row:
            row[name] = items[0] if len(items) == 1 else items
    return row


def dspace_rows(path: Path) -> Iterator[NumberedRow]:
    """The one item of a DSpace Dublin Core file, numbered 1."""
    root = xml_root(path)
    values = _values(root)
    if values:
        yield 1, _row(values, root.get("schema") or "dc")
