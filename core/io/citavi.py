"""Citavi's XML (``<CitaviExchangeData>``): a Citavi project exported or backed up as XML (``.xml``, a ``.ctv6`` kept
as XML), or a ``.ctv6bak`` backup, a zip holding one such file.

A Citavi project is relational: its ``<References>`` name their journal by ``PeriodicalID`` (a ``<Periodical>`` with
``Name``, ``StandardAbbreviation``, ``ISSN``) and a contribution its book by ``ParentReferenceID``; authors, editors,
keywords and publishers are linked in ``<ReferenceAuthors>``, ``<ReferenceEditors>``, ``<ReferenceKeywords>``,
``<ReferencePublishers>`` as ``<OnetoN>reference id;id;id…</OnetoN>`` (in order) to ``<Persons>`` (``LastName``,
``FirstName``, ``MiddleName``), ``<Keywords>`` and ``<Publishers>``. Each reference is one record: ``Title`` (with
``Subtitle`` after ": "), ``Abstract``, ``Year`` (else ``Date``), ``Volume``, ``Number`` (the issue), ``PageRange``
(Citavi's own markup in CDATA, its whole range ``<os>176-188</os>``), ``DOI``, ``PubMedID``, ``PMCID``, ``ISBN``,
``Language``, ``OnlineAddress``, ``ReferenceType``. The project's quotations, tasks and settings are no papers.
Parsed with lxml, entities, DTDs and the network refused; a backup's one member is read from the zip in memory, no
larger than the limit below.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.errors import CorpusError
from core.io.cut_short import ZIP_MAGIC, zip_cut_short
from core.io.rows import NumberedRow, Row, _year
from core.io.safety import _name, xml_root
from core.io.xml_records import kid, kids, root_element, text_of
from core.records import RowError, bare_doi

__all__ = ["citavi_rows", "looks_like_citavi", "looks_like_citavi_backup"]

_MAX_MEMBER = 512 * 1024 * 1024  # a backup's project file read into memory, at most
_WHOLE_RANGE = re.compile(r"<os>([^<]*)</os>\s*$")  # PageRange's last <os>: the range as the user sees it
_ALWAYS = frozenset(("title", "abstract", "authors"))  # kept when empty: a record without one is skipped saying so


def looks_like_citavi(head: str) -> bool:
    """Citavi's XML: a ``<CitaviExchangeData>`` root."""
    root = root_element(head[:8000])
    return root is not None and root[1] == "CitaviExchangeData"


def looks_like_citavi_backup(path: Path) -> bool:
    """A Citavi backup (``.ctv6bak``, ``.ctv5bak``): a zip whose one member is a Citavi project file."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = [info.filename for info in archive.infolist() if not info.is_dir()]
    except (zipfile.BadZipFile, OSError):
        return False
    return len(names) == 1 and names[0].lower().endswith((".ctv6", ".ctv5", ".ctv4", ".xml"))


def _root(path: Path) -> Any:
    """The project's root element: the file's, or that of the one member of a backup."""
    if not zipfile.is_zipfile(path):
        with open(path, "rb") as stream:
            head = stream.read(16)
            if head.startswith(ZIP_MAGIC):
                raise zip_cut_short(_name(path))
            if head == b"SQLite format 3\x00":
                raise CorpusError(f"file '{_name(path)}' is a Citavi project database, not an export; in Citavi "
                                  "choose File > Export, export the references as RIS, and import that file")
        return xml_root(path)
    from lxml import etree

    with zipfile.ZipFile(path) as archive:
        member = archive.infolist()[0]
        if member.file_size > _MAX_MEMBER:
            raise CorpusError(f"file '{_name(path)}' holds a Citavi project of {member.file_size:,} bytes, more than "
                              f"the {_MAX_MEMBER:,} read here; export the references as RIS instead")
        data = archive.read(member)
    if b"<!ENTITY" in data[:65536]:
        raise CorpusError(f"file '{_name(path)}' declares XML entities, which are refused for safety")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as error:
        raise CorpusError(f"file '{_name(path)}' holds a Citavi project that is not valid XML (line {error.lineno}); "
                          "it may be a Citavi 6 database rather than XML: export the references as RIS") from None
    if root.tag != "CitaviExchangeData":
        raise CorpusError(f"file '{_name(path)}' is a zip that holds no Citavi project XML")
    return root


def _by_id(root: Any, group: str, item: str) -> dict[str, Any]:
    return {node.get("id"): node for node in kids(kid(root, group), item) if node.get("id")}


def _links(root: Any, group: str) -> dict[str, list[str]]:
    """A link table's ``<OnetoN>ref;a;b</OnetoN>`` rows: reference id -> the linked ids in order."""
    links: dict[str, list[str]] = {}
    for row in kids(kid(root, group), "OnetoN"):
        ids = [part.strip() for part in (text_of(row) or "").split(";") if part.strip()]
        if len(ids) > 1:
            links.setdefault(ids[0], []).extend(ids[1:])
    return links


def _person(node: Any) -> str | None:
    last = " ".join(t for t in (text_of(kid(node, "Prefix")), text_of(kid(node, "LastName"))) if t)
    first = " ".join(t for t in (text_of(kid(node, "FirstName")), text_of(kid(node, "MiddleName"))) if t)
    suffix = text_of(kid(node, "Suffix"))
    name = ", ".join(t for t in (last, first, suffix) if t)
    return name or None


def _pages(node: Any) -> str | None:
    raw = "".join(node.itertext()) if node is not None else ""
    found = _WHOLE_RANGE.search(raw.strip())
    return found.group(1).strip() or None if found else (text_of(node) if raw and "<" not in raw else None)


class _Project:
    """A Citavi project's lists and link tables, by id."""

    def __init__(self, root: Any) -> None:
        self.persons = {key: name for key, node in _by_id(root, "Persons", "Person").items() if (name := _person(node))}
        self.periodicals = _by_id(root, "Periodicals", "Periodical")
        self.keywords = {k: t for k, n in _by_id(root, "Keywords", "Keyword").items() if (t := text_of(kid(n, "Name")))}
        self.publishers = {k: t for k, n in _by_id(root, "Publishers", "Publisher").items()
                           if (t := text_of(kid(n, "Name")))}
        self.references = kids(kid(root, "References"), "Reference")
        self.by_id = {node.get("id"): node for node in self.references}
        self.authors, self.editors = _links(root, "ReferenceAuthors"), _links(root, "ReferenceEditors")
        self.keyword_links = _links(root, "ReferenceKeywords")
        self.publisher_links = _links(root, "ReferencePublishers")
        # a contribution's book or special issue: ParentReferenceID (Citavi 5), <ReferenceReferences> "parent;child…"
        self.parents = {child: parent for parent, children in _links(root, "ReferenceReferences").items()
                        for child in children}

    def row(self, ref: Any) -> Row:
        key = ref.get("id") or ""

        def field(name: str, node: Any = ref) -> str | None:
            return text_of(kid(node, name)) if node is not None else None

        title, subtitle = field("Title"), field("Subtitle")
        parent = self.by_id.get(field("ParentReferenceID") or self.parents.get(key, ""))
        periodical = self.periodicals.get(field("PeriodicalID") or field("PeriodicalID", parent) or "")
        doi = field("DOI")
        row: Row = {
            "title": f"{title.rstrip(' :')}: {subtitle}" if title and subtitle else title or subtitle,
            "abstract": field("Abstract"),
            "authors": [self.persons[i] for i in self.authors.get(key, []) if i in self.persons],
            "editors": [self.persons[i] for i in self.editors.get(key, []) if i in self.persons],
            "journal": field("Name", periodical) or field("Title", parent),  # a book's contribution: the book
            "journal_abbrev": field("StandardAbbreviation", periodical),
            "issn": field("ISSN", periodical),
            "year": next((y for text in (field("Year"), field("Date"), field("Year", parent), field("DateForSorting"))
                          if text and (y := _year(text))), None),
            "volume": field("Volume"),
            "issue": field("Number"),
            "pages": _pages(kid(ref, "PageRange")),
            "doi": bare_doi(doi) if doi else None,
            "pmid": field("PubMedID"),
            "pmcid": field("PMCID"),
            "isbn": field("ISBN") or field("ISBN", parent),
            "language": field("Language"),
            "url": field("OnlineAddress"),
            "type": field("ReferenceType"),
            "keywords": [self.keywords[i] for i in self.keyword_links.get(key, []) if i in self.keywords],
            "publisher": next((self.publishers[i] for i in self.publisher_links.get(key, []) if i in self.publishers),
                              None),
        }
        return {name: value for name, value in row.items() if name in _ALWAYS or value not in (None, [])}


def citavi_rows(path: Path) -> Iterator[NumberedRow]:
    """The references of a Citavi project, numbered from 1 in its order."""
    project = _Project(_root(path))
    for number, ref in enumerate(project.references, 1):
        try:
            row: Row | RowError = project.row(ref)
        except (AttributeError, TypeError, ValueError):
            row = RowError(number, f"row {number}: Citavi reference could not be read")
        yield number, row
