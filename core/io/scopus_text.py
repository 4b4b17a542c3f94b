"""Scopus' "Plain text" export (``.txt``): a ``Scopus`` / ``EXPORT DATE: …`` preamble (``# Scopus`` / ``# EXPORT
DATE:…`` before 2023), then one block a record, each ending with the line ``SOURCE: Scopus``.

A record opens with its citation lines: the authors (``Hawkins D.S., Spunt S.L.``; ``Ivanov, V.L., Fedotovich, G.V.``
before 2023; ``[No author name available]``), ``AUTHOR FULL NAMES: …`` (from 2023), the Scopus author ids
(``7202029617; 6603780566``), the title, ``(2013) Pediatric Blood and Cancer, 60 (6), pp. 1001 - 1008, Cited 123
times.``, ``DOI: …`` (from 2023) and the record's Scopus link (its EID). Then, after an empty line, fields written
``NAME: value`` (``ABSTRACT``, ``AUTHOR KEYWORDS``, ``DOCUMENT TYPE``, ``PUBMED ID``…); ``REFERENCES`` holds one
reference a line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from core.io.cut_short import no_end_line, record_cut_error, record_cut_warning
from core.io.rows import NumberedRow, Row
from core.io.safety import _open_text

__all__ = ["looks_like_scopus_text", "scopus_text_rows"]

_END = "SOURCE: Scopus"
_FIELD = re.compile(r"^([A-Z][A-Z0-9 ()/-]{1,40}): ?(.*)$")
_KNOWN = frozenset(("AUTHOR FULL NAMES", "DOI", "AFFILIATIONS", "ABSTRACT", "AUTHOR KEYWORDS", "INDEX KEYWORDS",
                    "REFERENCES", "CORRESPONDENCE ADDRESS", "EDITORS", "PUBLISHER", "SPONSORS", "CONFERENCE NAME",
                    "CONFERENCE DATE", "CONFERENCE LOCATION", "CONFERENCE CODE", "ISSN", "ISBN", "CODEN", "PUBMED ID",
                    "LANGUAGE OF ORIGINAL DOCUMENT", "ABBREVIATED SOURCE TITLE", "DOCUMENT TYPE", "PUBLICATION STAGE",
                    "OPEN ACCESS", "SOURCE", "FUNDING DETAILS", "TRADENAMES", "MANUFACTURERS",
                    "MOLECULAR SEQUENCE NUMBERS", "CHEMICALS/CAS", "ORIGINAL TITLE", "FUNDING TEXT",
                    *(f"FUNDING TEXT {n}" for n in range(1, 10))))
_NAMES = {"AUTHOR KEYWORDS": "keywords", "PUBMED ID": "pmid", "LANGUAGE OF ORIGINAL DOCUMENT": "language",
          "AUTHOR FULL NAMES": "author_full_names", "INDEX KEYWORDS": "index_keywords"}
_LISTS = frozenset(("keywords", "index_keywords"))
_CITATION = re.compile(r"^\((\d{4})\) (.*)$")  # "(2013) Pediatric Blood and Cancer, 60 (6), pp. 1001 - 1008, …"
_SOURCE_END = re.compile(r", (?=\d|pp\. |art\. no\. |Cited \d|\.)")  # where the source title ends ("…, 60 (6)")
_AUTHOR_IDS = re.compile(r"^\d+(?:; ?\d+)*;?$")
_EID = re.compile(r"eid=(2-s2\.0-\d+)|/publications/(\d+)")
_AUTHOR_ID = re.compile(r"\s*\(\d+\)$")  # "Hawkins, Douglas S. (7202029617)"


def looks_like_scopus_text(head: str) -> bool:
    """Scopus plain text: its first two lines are ``Scopus`` and ``EXPORT DATE: …`` (``#``-prefixed before 2023)."""
    lines = [line.strip().lstrip("#").strip() for line in head.lstrip("\ufeff").splitlines() if line.strip()][:2]
    return len(lines) == 2 and lines[0] == "Scopus" and lines[1].startswith("EXPORT DATE:")


def _authors(line: str) -> list[str]:
    """The authors line as names: split after each initial's full stop ("Ivanov, V.L., Fedotovich, G.V.")."""
    if line.startswith("[No author"):
        return []
    return [name.strip() for name in re.split(r"(?<=\.), ", line) if name.strip()]


def _citation(row: Row, year: str, rest: str) -> None:
    """Year, source title, volume, issue and pages from the citation line."""
    row["year"] = int(year)
    parts = _SOURCE_END.split(rest, maxsplit=1)
    row["journal"] = parts[0].strip().rstrip(".") or None
    tail = parts[1] if len(parts) > 1 else ""
    if found := re.match(r"([^,(]+?)(?: \(([^)]+)\))?(?:,|$)", tail):
        if found.group(1)[:1].isdigit():
            row["volume"], row["issue"] = found.group(1), found.group(2)
    if found := re.search(r"pp\. (\S+) - (\S+?),", tail + ","):
        row["pages"] = f"{found.group(1)}-{found.group(2)}"
    if found := re.search(r"art\. no\. ([^,]+)", tail):
        row["article_number"] = found.group(1).strip()
    row["citation"] = f"({year}) {rest}"


def _head(row: Row, lines: list[str]) -> None:
    """The citation lines: authors, ids, title, the citation, the DOI and the link."""
    at = next((k for k, line in enumerate(lines) if _CITATION.match(line)), None)
    names = lines[:at] if at is not None else lines
    kept = [line for line in names if not _AUTHOR_IDS.match(line)]
    if len(kept) > 1:
        row["authors"] = _authors(kept[0])
        kept = kept[1:]
    row["title"] = " ".join(kept).strip() or None
    for line in lines[at:] if at is not None else []:
        if found := _CITATION.match(line):
            _citation(row, found.group(1), found.group(2))
        elif found := _EID.search(line):
            row["eid"] = found.group(1) or f"2-s2.0-{found.group(2)}"
            row["url"] = line


def _row(lines: list[str]) -> Row:
    row: Row = {}
    while lines and not lines[0].strip():
        lines = lines[1:]
    blank = next((k for k, line in enumerate(lines) if not line.strip()), len(lines))
    head: list[str] = []
    fields: list[tuple[str, list[str]]] = []
    for line in lines[:blank]:  # the citation lines; "AUTHOR FULL NAMES:" and "DOI:" among them from 2023
        found = _FIELD.match(line)
        if found and found.group(1) in ("AUTHOR FULL NAMES", "DOI"):
            fields.append((found.group(1), [found.group(2)]))
        else:
            head.append(line.strip())
    for line in lines[blank:]:
        found = _FIELD.match(line)
        if found and found.group(1) in _KNOWN:
            fields.append((found.group(1), [found.group(2)]))
        elif fields and line.strip():
            fields[-1][1].append(line)  # a value over several lines: references, one a line
    _head(row, head)
    for name, values in fields:
        key = _NAMES.get(name) or name.lower().replace(" ", "_").replace("/", "_")
        if key == "author_full_names":
            row[key] = [_AUTHOR_ID.sub("", part).strip() for part in values[0].split(";") if part.strip()]
        elif key == "references":
            row[key] = [value.strip() for value in values if value.strip()]
        elif key in _LISTS:
            row[key] = [part.strip() for part in " ".join(values).split(";") if part.strip()]
        else:
            row[key] = "\n".join(value.strip() for value in values).strip() or None
    row.setdefault("authors", [])
    row.setdefault("abstract", None)
    return row


def scopus_text_rows(path: Path) -> Iterator[NumberedRow]:
    """The records of a Scopus plain-text export, numbered from 1."""
    number, lines, preamble = 0, [], True
    with _open_text(path) as handle:
        for raw in handle:
            line = raw.rstrip("\r\n").lstrip("\ufeff")
            bare = line.strip().lstrip("#").strip()
            if preamble and (not bare or bare == "Scopus" or bare.startswith("EXPORT DATE:")):
                continue
            preamble = False
            if line.strip() == _END:
                number += 1
                yield number, _row(lines)
                lines = []
            else:
                lines.append(line)
    if any(line.strip() for line in lines):  # after records that ended with SOURCE: the file cut short
        row, end = _row(lines), f"'{_END}'"
        if number and not row.get("title"):
            yield number + 1, record_cut_error(number + 1, no_end_line(end))
            return
        yield number + 1, row
        if number:
            last = next(line for line in reversed(lines) if line.strip()).split(":", 1)[0].strip()
            yield number + 1, record_cut_warning(number + 1, last if last.isupper() else "text", no_end_line(end))
