"""The Zotero RDF reader: Zotero's "Zotero RDF" export (``Exported Items.rdf``), RDF/XML in Zotero's vocabulary.

Each item is a child of ``<rdf:RDF>`` with a ``<z:itemType>`` (attachments and notes are not papers and are passed
over). Its journal is a ``<bib:Journal>`` it names with ``dcterms:isPartOf rdf:resource`` (or holds inside that
element); the journal carries the DOI (``<dc:identifier>DOI 10.…``), volume and issue. Authors are
``bib:authors/rdf:Seq/rdf:li/foaf:Person`` (surname, given name) and stay a list. Parsed with lxml, entities, DTDs
and the network refused as for the other XML readers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.io.rows import NumberedRow, Row, _year
from core.io.safety import xml_root
from core.records import RowError

NS = {"rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "z": "http://www.zotero.org/namespaces/export#",
      "dc": "http://purl.org/dc/elements/1.1/", "dcterms": "http://purl.org/dc/terms/",
      "bib": "http://purl.org/net/biblio#", "foaf": "http://xmlns.com/foaf/0.1/",
      "prism": "http://prismstandard.org/namespaces/1.2/basic/"}
_ABOUT = f"{{{NS['rdf']}}}about"
_RESOURCE = f"{{{NS['rdf']}}}resource"
_NOT_PAPERS = frozenset(("attachment", "note"))
_DOI = re.compile(r"\b(10\.\d{4,9}/\S+)", re.I)


def looks_like_zotero_rdf(head: str) -> bool:
    """Zotero RDF: an ``<rdf:RDF>`` document declaring Zotero's export namespace."""
    start = head[:4000]
    return "<rdf:RDF" in start and NS["z"] in start


def _text(node: Any) -> str | None:
    if node is None:
        return None
    text = " ".join("".join(node.itertext()).split())
    return text or None


def _first(node: Any, path: str) -> str | None:
    for found in node.iterfind(path, NS):
        text = _text(found)
        if text:
            return text
    return None


def _authors(item: Any) -> list[str]:
    """"Surname, Given" per person (an organisation's one name as it is), in the export's order."""
    names = []
    for person in item.iterfind("bib:authors/rdf:Seq/rdf:li/*", NS):
        surname, given = _first(person, "foaf:surname"), _first(person, "foaf:givenName")
        name = ", ".join(p for p in (surname, given) if p) or _first(person, "foaf:name")
        if name:
            names.append(name)
    return names


def _container(item: Any, by_about: dict[str, Any]) -> Any:
    """The journal (or book, proceedings) the item is part of: named by its rdf:resource, or held inside."""
    part = item.find("dcterms:isPartOf", NS)
    if part is None:
        return None
    named = part.get(_RESOURCE)
    if named:
        return by_about.get(named)
    return next(iter(part), None)


def _doi(*nodes: Any) -> str | None:
    """The DOI a node names: ``<dc:identifier>DOI 10.…</dc:identifier>`` or a doi.org address."""
    for node in nodes:
        if node is None:
            continue
        for identifier in node.iterfind("dc:identifier", NS):
            text = _text(identifier) or ""
            found = _DOI.search(text)
            if found and ("doi" in text.lower() or text.lstrip().startswith("10.")):
                return found.group(1).rstrip(".;,")
    return None


def _subjects(item: Any) -> list[str]:
    out = []
    for subject in item.iterfind("dc:subject", NS):
        text = _first(subject, ".//rdf:value") or _text(subject)
        if text:
            out.append(text)
    return out


def _zotero_row(item: Any, by_about: dict[str, Any]) -> Row:
    container = _container(item, by_about)
    row: Row = {  # no id: Zotero's item numbers and addresses are local to one library (the DOI identifies)
        "title": _first(item, "dc:title"),
        "abstract": _first(item, "dcterms:abstract"),
        "journal": _first(container, "dc:title") if container is not None else None,
        "short_journal": _first(container, "dcterms:alternative") if container is not None else None,
        "year": _year(_first(item, "dc:date") or ""),
        "authors": _authors(item),
        "doi": _doi(item, container),
        "volume": _first(container, "prism:volume") if container is not None else None,
        "issue": _first(container, "prism:number") if container is not None else None,
        "pages": _first(item, "bib:pages"),
        "language": _first(item, "z:language"),
        "type": _first(item, "z:itemType"),
        "keywords": _subjects(item),
        "url": _first(item, "dc:identifier/dcterms:URI/rdf:value"),
    }
    return row


def zotero_rdf_rows(path: Path) -> Iterator[NumberedRow]:
    """One row per Zotero item that is a paper (not an attachment or a note), numbered in the file's order."""
    root = xml_root(path)
    children = [child for child in root if isinstance(child.tag, str)]
    by_about = {child.get(_ABOUT): child for child in children if child.get(_ABOUT)}
    number = 0
    for child in children:
        kind = _first(child, "z:itemType")
        if kind is None or kind in _NOT_PAPERS:
            continue
        number += 1
        try:
            row: Row | RowError = _zotero_row(child, by_about)
        except (AttributeError, TypeError, ValueError):
            row = RowError(number, f"row {number}: Zotero RDF item could not be read")
        yield number, row
