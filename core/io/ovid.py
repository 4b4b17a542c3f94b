"""Ovid's tagged text: the export Ovid writes for MEDLINE, Embase, PsycINFO, Journals@Ovid and its other databases.

Each record starts with its number in angle brackets (``<53. >``) and holds tags ``VN - Ovid Technologies``,
``DB - PsycINFO``, ``TI - …``, ``AU - …`` (one author a tag), ``AB - …``; some versions write two spaces before the
dash (``TI  - …``), some indent every line by one space; a value wraps onto lines indented further, with empty
lines between an address list's entries. There is often no journal tag: the journal is the head of the source
(``SO - Behavioural and Cognitive Psychotherapy. Vol.43(5), Sep 2015, pp. 623-634.``, ``SO - Acta Biochimica et
Biophysica Sinica August 2011;43(8):647-653``), and a book's source names its editors instead (then no journal).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from core.io.rows import NumberedRow, Row
from core.io.safety import _open_text
from core.records import bare_doi

__all__ = ["looks_like_ovid", "ovid_rows"]

_RECORD = re.compile(r"^\s?<\d+\.\s*>\s*$")
_TAG = re.compile(r"^\s?([A-Z][A-Z0-9]) {1,2}- ?(.*)$")
_NAMES = {"TI": "title", "AB": "abstract", "AU": "authors", "JN": "journal", "JT": "journal", "YR": "year",
          "DO": "doi", "DI": "doi", "UI": "pmid", "DB": "database", "AN": "accession_number", "SO": "source",
          "IS": "issn", "LG": "language", "PT": "publication_type", "DT": "document_type", "PU": "publisher",
          "DP": "date", "IN": "institution", "VN": "vendor"}
_LISTS = frozenset(("AU", "KW", "DE", "MH", "ST", "ID", "PT"))
_KEYWORDS = ("KW", "DE", "MH", "ST")
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?"
# where a source's journal name ends: ". Vol.43", ". 201(2-3)", " August 2011;", " January/February 2010;",
# ", 2013(1)", " 12, Winter 2007"
_JOURNAL_END = re.compile(rf"^(?P<journal>.+?)(?:\.\s*(?:Vol\.|\d)|\s+{_MONTH}(?:[/-]{_MONTH})?\s+\d|,\s*\d{{4}}\(|"
                          r"\s+\d+,\s|\s+\d{4}\s*;)")
_YEAR = re.compile(r"\b(?:1[5-9]|20)\d\d\b")
_ROLE = re.compile(r"\s*\[[^\]]*\]$")  # "Walsdorf, Neill B. [Inventor, Reprint Author]"


def looks_like_ovid(head: str) -> bool:
    """Ovid tagged text: its first line a record number in angle brackets, a tagged line next."""
    lines = [line for line in head.lstrip("\ufeff").splitlines()[:6] if line.strip()]
    return len(lines) >= 2 and bool(_RECORD.match(lines[0])) and bool(_TAG.match(lines[1]))


def _journal(source: str) -> str | None:
    """A journal's name from the head of a source; None for a book's source (it names editors: "[Ed]")."""
    if "[Ed" in source:
        return None
    match = _JOURNAL_END.match(source)
    return match["journal"].strip(" .,;") if match else None


def _row(tags: dict[str, list[str]]) -> Row:
    row: Row = {}
    for tag, values in tags.items():
        values = [value.strip() for value in values if value.strip()]
        if not values or tag in _KEYWORDS:
            continue
        name = _NAMES.get(tag, tag.lower())
        if tag == "AU":
            row[name] = [_ROLE.sub("", value) for value in values]
        else:
            row[name] = values if tag in _LISTS else " ".join(values)
    keywords = [part.strip() for tag in _KEYWORDS for value in tags.get(tag, ())
                for part in value.split(";") if part.strip()]
    if keywords:
        row["keywords"] = keywords
    if row.get("doi"):
        row["doi"] = bare_doi(str(row["doi"]))
    source = row.get("source")
    if isinstance(source, str):
        if not row.get("journal"):
            row["journal"] = _journal(source)
        year = _YEAR.search(source)
        if not row.get("year") and year:  # Journals@Ovid writes no YR: "… August 2011;43(8):647-653"
            row["year"] = year.group(0)
    return row


def ovid_rows(path: Path) -> Iterator[NumberedRow]:
    """The records of an Ovid tagged text, numbered from 1."""
    number = 0
    tags: dict[str, list[str]] = {}
    tag = ""
    with _open_text(path) as handle:
        for raw in handle:
            line = raw.rstrip("\r\n").lstrip("\ufeff")
            if _RECORD.match(line):
                if tags:
                    number += 1
                    yield number, _row(tags)
                tags, tag = {}, ""
                continue
            match = _TAG.match(line)
            if match:
                tag = match.group(1)
                tags.setdefault(tag, []).append(match.group(2))
            elif line.strip() and tag:  # a wrapped value, indented
                tags[tag][-1] = f"{tags[tag][-1]} {line.strip()}"
    if tags:
        yield number + 1, _row(tags)
