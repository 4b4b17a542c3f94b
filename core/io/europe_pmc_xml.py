"""Europe PMC's REST answer as XML: ``format=xml`` (the API's default, ``resultType`` lite or core) and ``format=dc``
(Dublin Core). Both open with ``<responseWrapper>``; the first holds ``<resultList><result>`` records, the second
``<rdf:RDF><rdf:Description>`` ones.

A ``result`` is read into the shape of the JSON answer (each child element a key, a repeated one a list) and so into
the product's fields by `core.io.europe_pmc.europe_pmc_row`, as the JSON answer is. A Dublin Core record: ``dc:title``,
``dc:creator`` (one author each), ``dcterms:abstract``, ``dc:date`` (the year), the ``doi.org`` and ``/MED/``
``dc:identifier`` URLs (DOI, PMID), the journal, volume, issue and pages from the OpenURL
``dcterms:bibliographicCitation`` (``rft.jtitle=…``), ISSNs from ``dcterms:isPartOf`` (``urn:ISSN:…``),
``dc:description`` (the publication type) and ``dc:contributor`` (affiliations) kept under their own names.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from core.io.europe_pmc import europe_pmc_row
from core.io.rows import NumberedRow, Row, _year
from core.io.xml_records import local, stream_records, text_of
from core.records import bare_doi

__all__ = ["europe_pmc_xml_rows", "looks_like_europe_pmc_xml"]

_RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"


def looks_like_europe_pmc_xml(head: str) -> bool:
    """Europe PMC's answer: a ``<responseWrapper>`` root with its results (or its own address) near the start."""
    start = head[:4000]
    return "<responseWrapper" in start and any(mark in head[:20000] for mark in ("<resultList", "<rdf:RDF",
                                                                                 "europepmc"))


def _mixed(node: Any) -> bool:
    return bool((node.text or "").strip()) or any((child.tail or "").strip() for child in node)


def _as_json(node: Any) -> Any:
    """An element as the JSON answer has it: its text, or an object of its children, each a list."""
    children = [child for child in node if isinstance(child.tag, str)]
    if not children or _mixed(node):
        return "".join(node.itertext()).strip()
    out: dict[str, list] = {}
    for child in children:
        out.setdefault(local(child), []).append(_as_json(child))
    return out


def _dc_row(node: Any) -> Row:
    values: dict[str, list[str]] = {}
    for child in node:
        if isinstance(child.tag, str) and (text := text_of(child)):
            values.setdefault(local(child), []).append(text)

    def first(name: str) -> str | None:
        return next(iter(values.get(name, [])), None)

    ids = values.get("identifier", [])
    openurl = next((c for c in values.get("bibliographicCitation", []) if "rft." in c), "")
    query = {key: found[0] for key, found in parse_qs(openurl.lstrip("&")).items()}
    return {
        "title": first("title"), "abstract": first("abstract"), "authors": values.get("creator", []),
        "year": _year(first("date")), "doi": next((bare_doi(i) for i in ids if "doi.org/10." in i), None),
        "pmid": next((i.rsplit("/", 1)[-1] for i in ids if "/MED/" in i), None),
        "journal": query.get("rft.jtitle"), "journal_abbreviation": query.get("rft.stitle"),
        "volume": query.get("rft.volume"), "issue": query.get("rft.issue"), "pages": query.get("rft.pages"),
        "issn": [p[9:] for p in values.get("isPartOf", []) if p.startswith("urn:ISSN:")],
        "publication_type": first("description"), "language": first("language"),
        "affiliations": values.get("contributor", []), "url": node.get(f"{{{_RDF}}}about"),
    }


def europe_pmc_xml_rows(path: Path) -> Iterator[NumberedRow]:
    """The records of a Europe PMC XML answer, numbered from 1."""
    for number, node in enumerate(stream_records(path, ["{}result", f"{{{_RDF}}}Description"]), start=1):
        yield number, europe_pmc_row(_as_json(node)) if local(node) == "result" else _dc_row(node)
