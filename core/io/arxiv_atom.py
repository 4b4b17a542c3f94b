"""The arXiv API's answer (``export.arxiv.org/api/query``), an Atom feed, as researchers save it (``.xml``, ``.atom``).

Each ``<entry>`` is a paper: ``id`` ``http://arxiv.org/abs/2308.13875v1`` gives the arXiv id without its version
(``2308.13875``, ``astro-ph/0412305``: the id kind the dedup knows); ``title`` and ``summary`` (the abstract), their
line wraps collapsed; ``author/name`` as the authors, a list (``arxiv:affiliation`` kept as ``affiliations``);
``published`` (the first version's date) as the year; ``arxiv:doi`` as the DOI; ``arxiv:journal_ref``'s journal name
(its volume and pages left out, the reference kept whole as ``journal_ref``) as the journal where the authors gave
one (a preprint has none: arXiv is no journal); the categories, primary first, as keywords.
Both layouts read: the one before 2025 (``xmlns:arxiv`` on each element) and the current one (namespaces on the
feed); the daily listing of rss.arxiv.org/atom too (``oai:arXiv.org:`` ids, the authors in one ``dc:creator``, the
abstract after "arXiv:… Announce Type: new Abstract:"). A failed query is answered with one entry titled "Error"
whose summary says why, a query that found nothing with ``totalResults`` 0: each such file is refused saying so.
Parsed with lxml, entities, DTDs and the network refused (``safety.xml_root``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.errors import CorpusError
from core.io.rows import NumberedRow, Row, _year
from core.io.safety import _name, _shown, xml_root
from core.records import bare_doi

__all__ = ["looks_like_arxiv_atom", "arxiv_atom_rows"]

NS = {"atom": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom",
      "opensearch": "http://a9.com/-/spec/opensearch/1.1/", "dc": "http://purl.org/dc/elements/1.1/"}
_ARXIV_ID = re.compile(r"(?:arxiv\.org/abs/|^oai:arxiv\.org:)(.+?)(?:v\d+)?$", re.IGNORECASE)
_ANNOUNCED = re.compile(r"^arXiv:\S+\s+Announce Type:\s*\S+\s+Abstract:\s*", re.IGNORECASE)  # the RSS feed's lead
_ERROR_ID = "arxiv.org/api/errors"
_MARKS = ("arxiv.org/api", "arxiv.org/schemas/atom", "arxiv.org/abs/")


def looks_like_arxiv_atom(head: str) -> bool:
    """An arXiv API answer: an Atom ``<feed>`` that names arXiv's API, its schema or its abstract pages."""
    start = head[:4000]
    return "<feed" in start and NS["atom"] in start and any(mark in start for mark in _MARKS)


def _text(node: Any) -> str | None:
    if node is None:
        return None
    return " ".join("".join(node.itertext()).split()) or None


def _first(entry: Any, path: str) -> str | None:
    return next((text for node in entry.iterfind(path, NS) if (text := _text(node))), None)


def _all(entry: Any, path: str) -> list[str]:
    return [text for node in entry.iterfind(path, NS) if (text := _text(node))]


def _keywords(entry: Any) -> list[str]:
    primary = entry.find("arxiv:primary_category", NS)
    terms = [primary.get("term")] if primary is not None else []
    terms += [node.get("term") for node in entry.iterfind("atom:category", NS)]
    return list(dict.fromkeys(term.strip() for term in terms if term and term.strip()))


def _creators(entry: Any) -> list[str]:
    """The authors of an entry of arXiv's RSS feed (rss.arxiv.org/atom): one ``dc:creator``, names joined by ", "."""
    return [name.strip() for text in _all(entry, "dc:creator") for name in text.split(", ") if name.strip()]


# "Phys. Rev. D 76, 013009 (2007)", "JHEP 0805:001,2008", "J. Topol. 14 (2021) 1-40": a name, then volume and pages
_CITED = re.compile(r"^(?P<name>[^\d]*?[A-Za-z.)])[\s,]*(?:vol\.?\s*)?\d{1,5}[A-Z]?(?![A-Za-z])[\s\d,:;()\-\u2013.p]*$")


def journal_of(ref: str | None) -> str | None:
    """The journal's name in an arXiv ``journal_ref``: without its volume, pages and year where the rest is only
    those; a reference of another shape (proceedings, a numbered workshop) whole."""
    if not ref:
        return None
    found = _CITED.match(ref)
    name = found["name"].strip(" ,;:-") if found else ""
    return name if sum(ch.isalpha() for ch in name) >= 2 else ref


def _row(entry: Any) -> Row:
    link = _first(entry, "atom:id") or ""
    found = _ARXIV_ID.search(link)
    doi = _first(entry, "arxiv:doi")
    affiliations = _all(entry, "atom:author/arxiv:affiliation")
    row: Row = {
        "title": _first(entry, "atom:title"),
        "abstract": _ANNOUNCED.sub("", _first(entry, "atom:summary") or "") or None,
        "authors": _all(entry, "atom:author/atom:name") or _creators(entry),
        "year": _year(_first(entry, "atom:published") or _first(entry, "atom:updated")),
        "arxiv": found.group(1) if found else None,
        "doi": bare_doi(doi.split()[0]) if doi else None,  # a few entries list several DOIs, space-separated
        "journal": journal_of(_first(entry, "arxiv:journal_ref")),  # the reference whole in journal_ref
        "journal_ref": _first(entry, "arxiv:journal_ref"),
        "keywords": _keywords(entry),
        "url": link or None,
        "comment": _first(entry, "arxiv:comment"),
        "database": "arXiv",  # the import's overlap between databases names it, whatever the file is called
    }
    if affiliations:
        row["affiliations"] = list(dict.fromkeys(affiliations))
    return row


def _error(path: Path, entries: list[Any]) -> CorpusError | None:
    """The refusal of arXiv's answer to a failed query (one entry titled "Error"), naming what arXiv said."""
    if len(entries) != 1 or _first(entries[0], "atom:title") != "Error":
        return None
    if _ERROR_ID not in (_first(entries[0], "atom:id") or ""):
        return None
    said = _first(entries[0], "atom:summary") or "no reason given"
    return CorpusError(f"file '{_name(path)}' is arXiv's answer to a query that failed (\"{_shown(said, 200)}\"), "
                       "so it holds no papers; correct the query, run it again and import its answer")


def arxiv_atom_rows(path: Path) -> Iterator[NumberedRow]:
    """The entries of an arXiv API answer, numbered from 1 in the feed's order."""
    root = xml_root(path)
    entries = list(root.iterfind("atom:entry", NS))
    if refusal := _error(path, entries):
        raise refusal
    if not entries and _first(root, "opensearch:totalResults") == "0":
        raise CorpusError(f"file '{_name(path)}' is arXiv's answer to a query that found no papers (totalResults "
                          "0); widen the query, run it again and import its answer")
    for number, entry in enumerate(entries, 1):
        yield number, _row(entry)
