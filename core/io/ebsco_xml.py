"""EBSCOhost's XML export (Export > "XML": APA PsycInfo, CINAHL, MEDLINE, Academic Search, Business Source…).

A file is ``<records>`` of ``<rec resultID="n">``, each holding one ``<header shortDbName longDbName uiTerm>`` with
its ``controlInfo`` (and a ``displayInfo`` link). Read from ``controlInfo``: ``artinfo/tig/atl`` the title (the book
title ``bkinfo/btl`` when it has none; a chapter's book title kept as ``booktitle`` when it differs), ``artinfo/aug/au``
the authors (``bkinfo/aug/au`` the book's editors), ``artinfo/ab`` the abstract — a record may hold several (another
language's, an "Impact Statement"): the first is the abstract, the others are kept together as ``abstract_alt`` —,
``artinfo/ui`` by its type (doi, pmid), ``jinfo/jtl`` the journal and its ``issn``s (as exported), ``pubinfo`` the
date (its ``year`` attribute, else the text), volume (``vid``), issue (``iid``) and publisher (``pub``),
``artinfo/pages`` (CINAHL: the first page ``ppf``; the page count ``ppct`` kept), a PMC id (``ui type="other"``),
``sug/subj`` the subjects (major, minor or untyped ones as keywords; typed classifiers — age group, gender,
population — as ``classification`` "type: value"), ``pubtype``/``doctype``, ``language``; the header's ``uiTerm`` as
``accession_number`` and ``longDbName`` as ``database``; ``displayInfo/pLink/url`` as ``url``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.io.rows import NumberedRow, Row, _year
from core.io.xml_records import kid, kids, root_element, stream_records, text_of
from core.records import RowError, bare_doi

__all__ = ["ebsco_xml_rows", "looks_like_ebsco_xml"]

_ALWAYS = frozenset(("title", "abstract", "authors"))  # kept when empty: a record without one is skipped saying so
_KEYWORD_SUBJECTS = frozenset(("", "major", "minor", "keyword", "subject"))


def looks_like_ebsco_xml(head: str) -> bool:
    """EBSCOhost's XML: a ``<records>`` root whose records are ``<rec>`` with a ``<header … shortDbName=…>``."""
    root = root_element(head[:8000])
    return root is not None and root[1] == "records" and "<rec " in head[:20000] and "shortDbName=" in head[:20000]


def _path(node: Any, *names: str) -> Any:
    for name in names:
        if node is None:
            return None
        node = kid(node, name)
    return node


def _texts(nodes: list[Any]) -> list[str]:
    return [t for node in nodes if (t := text_of(node))]


def _subjects(artinfo: Any) -> tuple[list[str], list[str]]:
    keywords: list[str] = []
    classification: list[str] = []
    for subj in kids(_path(artinfo, "sug"), "subj"):
        text = text_of(subj)
        if not text:
            continue
        kind = (subj.get("type") or "").strip().lower()
        if kind in _KEYWORD_SUBJECTS:
            keywords.append(text)
        else:
            classification.append(f"{kind}: {text}")
    return list(dict.fromkeys(keywords)), list(dict.fromkeys(classification))


def _ebsco_row(rec: Any) -> Row:
    header = kid(rec, "header")
    info = kid(header, "controlInfo")
    artinfo, bkinfo, jinfo, pubinfo = (kid(info, name) for name in ("artinfo", "bkinfo", "jinfo", "pubinfo"))
    title = text_of(_path(artinfo, "tig", "atl"))
    book_title = text_of(kid(bkinfo, "btl"))
    ids = {(ui.get("type") or "").lower(): text for ui in kids(artinfo, "ui") if (text := text_of(ui))}
    abstracts = _texts(kids(artinfo, "ab"))
    date = kid(pubinfo, "dt")
    year = _year(date.get("year")) if date is not None and date.get("year") else None
    keywords, classification = _subjects(artinfo)
    journal = text_of(kid(jinfo, "jtl"))
    row: Row = {
        "title": title or book_title,
        "abstract": abstracts[0] if abstracts else None,
        "authors": _texts(kids(kid(artinfo, "aug"), "au")),
        "editors": _texts(kids(kid(bkinfo, "aug"), "au")),
        "journal": journal,
        "booktitle": book_title if book_title and title and book_title != title and not journal else None,
        "year": year or _year(text_of(date)),
        "date": text_of(date),
        "volume": text_of(kid(pubinfo, "vid")),
        "issue": text_of(kid(pubinfo, "iid")),
        "pages": text_of(kid(artinfo, "pages")) or text_of(kid(artinfo, "ppf")),  # CINAHL: the first page alone
        "page_count": text_of(kid(artinfo, "ppct")),
        "doi": bare_doi(ids["doi"]) if "doi" in ids else None,
        "pmid": ids.get("pmid"),
        "pmcid": ids["other"] if ids.get("other", "").upper().startswith("PMC") else None,
        "issn": _texts(kids(jinfo, "issn")),
        "isbn": _texts(kids(bkinfo, "isbn")),
        "keywords": keywords,
        "classification": classification,
        "type": text_of(kid(artinfo, "doctype")),
        "publication_type": _texts(kids(artinfo, "pubtype")),
        "language": text_of(kid(info, "language")),
        "publisher": text_of(kid(pubinfo, "pub")),
        "accession_number": header.get("uiTerm") if header is not None else None,
        "database": header.get("longDbName") or header.get("shortDbName") if header is not None else None,
        "url": text_of(_path(header, "displayInfo", "pLink", "url")),
    }
    if len(abstracts) > 1:
        row["abstract_alt"] = "\n\n".join(abstracts[1:])
    return {key: value for key, value in row.items() if key in _ALWAYS or value not in (None, [], "")}


def ebsco_xml_rows(path: Path) -> Iterator[NumberedRow]:
    """The records of an EBSCOhost XML export, numbered from 1 in its order."""
    for number, rec in enumerate(stream_records(path, ("{*}rec",)), 1):
        try:
            row: Row | RowError = _ebsco_row(rec)
        except (AttributeError, TypeError, ValueError):
            row = RowError(number, f"row {number}: EBSCOhost record could not be read")
        yield number, row
