"""Ovid's tagged text: the export Ovid writes for MEDLINE, Embase, PsycINFO, Journals@Ovid and its other databases.

Each record starts with its number in angle brackets (``<53. >``) and holds tags ``VN - Ovid Technologies``,
``DB - PsycINFO``, ``TI - …``, ``AU - …`` (one author a tag), ``AB - …``; some versions write two spaces before the
dash (``TI  - …``), some indent every line by one space; a value wraps onto lines indented further, with empty
lines between an address list's entries. There is often no journal tag: the journal is the head of the source
(``SO - Behavioural and Cognitive Psychotherapy. Vol.43(5), Sep 2015, pp. 623-634.``, ``SO - Acta Biochimica et
Biophysica Sinica August 2011;43(8):647-653``), and a book's source names its editors instead (then no journal).

Saved as text with field labels instead of tags (Ovid's "Complete Reference" display), a record starts ``<8>``, each
label stands alone on its line (``Title``, ``Author``, ``Source``, ``Abstract``, ``DOI Number``, ``References``) and
its value follows indented by two spaces; the authors are one line joined by ";" with their institutions' marks
("Kohler, Lars 1", "Verbeek, Jan MD *"), the title ends with the document type ("….[Article]"), and each cited
reference is a line of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from core.io.cut_short import record_cut_error
from core.io.rows import NumberedRow, Row
from core.io.safety import _open_text
from core.records import bare_doi

__all__ = ["LIST_TAGS", "looks_like_ovid", "ovid_rows", "tags_row"]

_RECORD = re.compile(r"^\s?<\d+(?:\.\s*)?>\s*$")
_TAG = re.compile(r"^\s?([A-Z][A-Z0-9]) {1,2}- ?(.*)$")
_NAMES = {"TI": "title", "AB": "abstract", "AU": "authors", "JN": "journal", "JT": "journal", "YR": "year",
          "DO": "doi", "DI": "doi", "UI": "pmid", "DB": "database", "AN": "accession_number", "SO": "source",
          "IS": "issn", "LG": "language", "PT": "publication_type", "DT": "document_type", "PU": "publisher",
          "DP": "date", "IN": "institution", "VN": "vendor"}
_LISTS = frozenset(("AU", "KW", "DE", "MH", "ST", "ID", "PT"))
LIST_TAGS = _LISTS | {"FA"}  # the tags whose values are lists (one a tag here, one a line in Ovid's CSV)
_KEYWORDS = ("KW", "DE", "MH", "ST")
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?"
# where a source's journal name ends: ". Vol.43", ". 201(2-3)", " August 2011;", " January/February 2010;",
# ", 2013(1)", " 12, Winter 2007"
_JOURNAL_END = re.compile(rf"^(?P<journal>.+?)(?:\.\s*(?:Vol\.|\d)|\s+{_MONTH}(?:[/-]{_MONTH})?\s+\d|,\s*\d{{4}}\(|"
                          r"\s+\d+,\s|\s+\d{4}\s*;)")
_YEAR = re.compile(r"\b(?:1[5-9]|20)\d\d\b")
_ROLE = re.compile(r"\s*\[[^\]]*\]$")  # "Walsdorf, Neill B. [Inventor, Reprint Author]"
# the labelled text: a label alone on its line, its value indented; each label as the tag it stands for
_LABEL = re.compile(r"^([A-Z][A-Za-z0-9 ()/&'.-]{1,60})\s*$")
_LABELS = {"title": "TI", "abstract": "AB", "author": "AU", "authors": "AU", "authors full name": "FA",
           "source": "SO", "year of publication": "YR", "publication year": "YR", "doi number": "DO",
           "digital object identifier": "DO", "digital object identifier (doi)": "DO", "doi": "DO",
           "unique identifier": "UI", "accession number": "AN", "issn": "IS", "language": "LG",
           "document type": "DT", "publication type": "PT", "author keywords": "KW", "keywords": "KW",
           "keyword heading": "KW", "mesh subject headings": "MH", "subject headings": "MH", "institution": "IN",
           "database": "DB", "journal name": "JN", "references": "CR", "cited references": "CR"}
_SKIPPED_LABELS = frozenset(("score",))  # Ovid's relevance stars
_AFFILIATION_MARK = re.compile(r"\s+[\d*+\u2020\u2021\u00a7,]+$")  # "Kohler, Lars 1", "Verbeek, Jan MD *"
_DOCUMENT_TYPE = re.compile(r"(?<=[.?!])\[[A-Za-z][A-Za-z ,:-]{1,40}\]$")  # "….[Article]", "….[Review]"


def looks_like_ovid(head: str) -> bool:
    """Ovid tagged text: its first line a record number in angle brackets, a tagged line next (or a label alone
    on its line and an indented value after it)."""
    lines = [line for line in head.lstrip("\ufeff").splitlines()[:8] if line.strip()]
    if len(lines) < 2 or not _RECORD.match(lines[0]):
        return False
    return bool(_TAG.match(lines[1])) or (
        len(lines) >= 3 and bool(_LABEL.match(lines[1])) and lines[2].startswith("  "))


def _journal(source: str) -> str | None:
    """A journal's name from the head of a source; None for a book's source (it names editors: "[Ed]")."""
    if "[Ed" in source:
        return None
    match = _JOURNAL_END.match(source)
    if match:
        return match["journal"].strip(" .,;")
    # ahead of print, the source is the journal alone ("Journal of Orthopaedic Trauma. ")
    if any(character.isdigit() for character in source):
        return None
    return source.strip(" .") or None


def tags_row(tags: dict[str, list[str]]) -> Row:
    """A record's tags (each with its values) as a row: names for the known tags, authors and keywords as lists,
    the journal and year from the source when no tag gives them."""
    row: Row = {}
    for tag, values in tags.items():
        values = [value.strip() for value in values if value.strip()]
        if not values or tag in _KEYWORDS:
            continue
        name = _NAMES.get(tag, tag.lower())
        if tag == "AU" and "FA" in tags:
            continue  # the full names stand for the authors
        if tag in ("AU", "FA"):
            row["authors"] = [_ROLE.sub("", value) for value in values]
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
    tag, labelled, raw = "", False, ""
    with _open_text(path) as handle:
        for raw in handle:
            line = raw.rstrip("\r\n").lstrip("\ufeff")
            if _RECORD.match(line):
                if tags:
                    number += 1
                    yield number, _labelled_row(tags) if labelled else tags_row(tags)
                tags, tag = {}, ""
                continue
            match = _TAG.match(line)
            if match:
                tag = match.group(1)
                tags.setdefault(tag, []).append(match.group(2))
            elif (label := _LABEL.match(line)) and not line.startswith(" "):
                labelled = True
                name = label.group(1).strip().lower()
                tag = "" if name in _SKIPPED_LABELS else _LABELS.get(name, name.replace(" ", "_"))
                if tag:
                    tags.setdefault(tag, []).append("")
            elif line.strip() and tag:
                if labelled and tag in ("CR", "IN"):  # each reference, each institution a line of its own
                    tags[tag].append(line.strip())
                else:  # a wrapped value, indented
                    tags[tag][-1] = f"{tags[tag][-1]} {line.strip()}".strip()
    if tags and number and not raw.endswith(("\n", "\r")) and not tags.get("TI", [""])[0].strip():
        # cut short: its last line unended, no title yet
        yield number + 1, record_cut_error(number + 1, "in the middle of a line")
    elif tags:
        yield number + 1, _labelled_row(tags) if labelled else tags_row(tags)


def _labelled_row(tags: dict[str, list[str]]) -> Row:
    """A record of the labelled text as a row: authors split at ";" without their institutions' marks, the title
    without its document type, the references and institutions as lists (one a line)."""
    for tag in ("AU", "FA"):
        if tag in tags:
            tags[tag] = [_AFFILIATION_MARK.sub("", name.strip()) for value in tags[tag] for name in value.split(";")
                         if name.strip()]
    if "TI" in tags:
        tags["TI"] = [_DOCUMENT_TYPE.sub("", value.strip()) for value in tags["TI"]]
    for tag in ("KW", "MH", "LG"):  # "…;  pelvic fracture.", "English."
        if tag in tags:
            tags[tag] = [value.strip().removesuffix(".") for value in tags[tag]]
    references = [value for value in tags.pop("CR", []) if value]
    institutions = [value for value in tags.pop("IN", []) if value]
    row = tags_row(tags)
    if references:
        row["cited_references"] = references
    if institutions:
        row["institution"] = " ".join(institutions)
    return row
