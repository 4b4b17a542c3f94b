"""MODS XML (the Library of Congress' Metadata Object Description Schema): Zotero's and refbase's "MODS" export,
library catalogues' and repositories' records.

A file is a ``<modsCollection>`` of ``<mods>`` records, or one ``<mods>`` record, in the MODS namespace with or
without a prefix (``<mods:mods>``). Read from each record's own elements (not from those of a related item):
``titleInfo`` (the first that is not an abbreviated, translated, alternative or uniform title: ``nonSort``,
``title``, then ``subTitle`` after ": ") as the title; ``abstract`` (the first; another as ``abstract_alt``);
``name`` as "Family, Given" from its typed ``namePart``s, else its parts as written, with its ``roleTerm`` deciding:
author/creator (or no role) an author, editor an editor, any other role (an addressee, a photographer) neither;
``identifier`` by its type (doi, pmid, pmcid, isbn, issn, arxiv; a doi.org ``uri`` is the DOI); ``subject/topic`` as
keywords; the first ``genre`` as the type; ``originInfo`` for the year (a ``keyDate`` date first, then ``dateIssued``,
``dateCreated``, ``copyrightDate``) and the publisher; ``location/url``. The journal is the host (``relatedItem
type="host"``): its title (its abbreviated title as ``journal_abbrev``), its ISSN, and its ``part`` (volume, issue or
number, the page extent, the date when the record has none).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.io.rows import NumberedRow, Row, _year
from core.io.xml_records import kid, kids, local, root_element, stream_records, text_of
from core.records import RowError, bare_doi

__all__ = ["looks_like_mods", "mods_rows"]

_OTHER_TITLES = frozenset(("abbreviated", "translated", "alternative", "uniform"))
_AUTHORS = frozenset(("author", "aut", "creator", "cre", "verfasser"))
_EDITORS = frozenset(("editor", "edt", "herausgeber"))
_NOT_NAMES = frozenset(("date", "termsofaddress"))
_DATES = ("dateIssued", "dateCreated", "copyrightDate", "dateOther")
_DOI = re.compile(r"\b(10\.\d{4,9}/\S+)")
_ALWAYS = frozenset(("title", "abstract", "authors"))  # kept when empty: a record without one is skipped saying so


def looks_like_mods(head: str) -> bool:
    """MODS: a ``<modsCollection>`` or ``<mods>`` root element (any prefix)."""
    root = root_element(head[:8000])
    return root is not None and root[1] in ("modsCollection", "mods")


def _title(info: Any) -> str | None:
    title = " ".join(t for t in (text_of(kid(info, "nonSort")), text_of(kid(info, "title"))) if t) or None
    sub = text_of(kid(info, "subTitle"))
    if title and sub:
        title = f"{title.rstrip(' :')}: {sub}"
    parts = [t for t in (text_of(kid(info, "partNumber")), text_of(kid(info, "partName"))) if t]
    return ". ".join([title, *parts]) if title and parts else title or sub


def _titles(node: Any) -> tuple[str | None, str | None]:
    """A record's (or host's) title and its abbreviated title."""
    infos = kids(node, "titleInfo")
    main = next((i for i in infos if (i.get("type") or "") not in _OTHER_TITLES), infos[0] if infos else None)
    short = next((i for i in infos if i.get("type") == "abbreviated"), None)
    return (_title(main) if main is not None else None), (_title(short) if short is not None else None)


def _name(node: Any) -> str | None:
    """"Family, Given" from typed name parts, else the untyped parts as written (a trailing comma dropped)."""
    parts = kids(node, "namePart")
    family = " ".join(t for p in parts if p.get("type") == "family" and (t := text_of(p)))
    given = " ".join(t for p in parts if p.get("type") == "given" and (t := text_of(p)))
    if family or given:
        return ", ".join(t for t in (family, given) if t)
    plain = " ".join(t for p in parts if (p.get("type") or "").lower() not in _NOT_NAMES and p.get("type") not in
                     ("family", "given") and (t := text_of(p)))
    name = plain or text_of(kid(node, "displayForm"))
    return name.rstrip(" ,") or None if name else None


def _people(mods: Any) -> tuple[list[str], list[str]]:
    """The record's authors and editors, in its order."""
    authors: list[str] = []
    editors: list[str] = []
    for node in kids(mods, "name"):
        roles = {(text_of(term) or "").lower().rstrip(".") for role in kids(node, "role")
                 for term in kids(role, "roleTerm")} - {""}
        name = _name(node)
        if not name:
            continue
        if roles & _EDITORS:
            editors.append(name)
        elif not roles or roles & _AUTHORS:
            authors.append(name)
    return authors, editors


def _part(part: Any) -> dict[str, str | None]:
    """Volume, issue, pages and date of a ``<part>``."""
    out: dict[str, str | None] = {"volume": None, "issue": None, "pages": None, "date": text_of(kid(part, "date"))}
    for detail in kids(part, "detail"):
        kind = (detail.get("type") or "").lower()
        value = text_of(kid(detail, "number")) or text_of(kid(detail, "title"))
        if kind == "volume":
            out["volume"] = out["volume"] or value
        elif kind in ("issue", "number"):
            out["issue"] = out["issue"] or value
    for extent in kids(part, "extent"):
        if (extent.get("unit") or "page").lower() in ("page", "pages", "pp", "p"):
            start, end = text_of(kid(extent, "start")), text_of(kid(extent, "end"))
            out["pages"] = f"{start}-{end}" if start and end else start or text_of(kid(extent, "list"))
    return out


def _identifiers(node: Any) -> dict[str, str]:
    found: dict[str, str] = {}
    for identifier in kids(node, "identifier"):
        kind, value = (identifier.get("type") or "").lower(), text_of(identifier)
        if not value or kind in found:
            continue
        if kind == "doi" or (kind in ("uri", "url") and "doi.org/10." in value):
            match = _DOI.search(value)
            if match and "doi" not in found:
                found["doi"] = bare_doi(match.group(1))
        elif kind in ("pmid", "pmcid", "isbn", "issn", "arxiv", "uri"):
            found[kind] = value
    return found


def _year_of(mods: Any, host: Any, part: dict[str, str | None]) -> int | None:
    origins = kids(mods, "originInfo")
    dates = [d for origin in origins for d in origin if local(d) in _DATES]
    ordered = [d for d in dates if d.get("keyDate") == "yes"]
    ordered += [d for name in _DATES for d in dates if local(d) == name]
    texts = [text_of(d) for d in ordered]
    texts.append(part["date"])  # Zotero writes an article's (or a chapter's) date in its host's originInfo
    texts += [text_of(d) for name in _DATES for o in kids(host, "originInfo") for d in kids(o, name)]
    return next((year for text in texts if text and (year := _year(text))), None)


def _language(mods: Any) -> str | None:
    for language in kids(mods, "language"):
        terms = kids(language, "languageTerm")
        value = next((t for term in terms if (t := text_of(term))), None) if terms else text_of(language)
        if value:
            return value
    return None


def _mods_row(mods: Any) -> Row:
    host = next((r for r in kids(mods, "relatedItem") if r.get("type") == "host"), None)
    part_node = kid(host, "part") if host is not None else None
    part = _part(part_node if part_node is not None else kid(mods, "part"))
    title, _ = _titles(mods)
    journal, journal_abbrev = _titles(host) if host is not None else (None, None)
    ids, host_ids = _identifiers(mods), _identifiers(host)
    authors, editors = _people(mods)
    abstracts = [t for node in kids(mods, "abstract") if (t := text_of(node))]
    urls = [t for location in kids(mods, "location") for url in kids(location, "url") if (t := text_of(url))]
    origin = kids(mods, "originInfo")
    row: Row = {
        "title": title,
        "abstract": abstracts[0] if abstracts else None,
        "authors": authors,
        "editors": editors,
        "journal": journal,
        "journal_abbrev": journal_abbrev,
        "year": _year_of(mods, host, part),
        "volume": part["volume"],
        "issue": part["issue"],
        "pages": part["pages"],
        "doi": ids.get("doi"),
        "pmid": ids.get("pmid"),
        "pmcid": ids.get("pmcid"),
        "arxiv": ids.get("arxiv"),
        "isbn": ids.get("isbn") or host_ids.get("isbn"),  # a chapter's: its book's
        "issn": ids.get("issn") or host_ids.get("issn"),
        "keywords": list(dict.fromkeys(t for subject in kids(mods, "subject") for topic in kids(subject, "topic")
                                       if (t := text_of(topic)))),
        "type": next((t for genre in kids(mods, "genre") if (t := text_of(genre))), None),
        "language": _language(mods),
        "publisher": next((t for o in origin for p in kids(o, "publisher") if (t := text_of(p))), None),
        "url": urls[0] if urls else ids.get("uri"),
    }
    if len(abstracts) > 1:
        row["abstract_alt"] = abstracts[1]
    return {key: value for key, value in row.items() if key in _ALWAYS or value not in (None, [])}


def mods_rows(path: Path) -> Iterator[NumberedRow]:
    """The records of a MODS file, numbered from 1 in its order."""
    for number, mods in enumerate(stream_records(path, ("{*}mods",)), 1):  # any namespace (MODS 2, 3) or none
        try:
            row: Row | RowError = _mods_row(mods)
        except (AttributeError, TypeError, ValueError):
            row = RowError(number, f"row {number}: MODS record could not be read")
        yield number, row
