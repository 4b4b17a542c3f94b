"""Readers of tagged-text exports without a maintained Python parser: Web of Science and Cochrane CENTRAL.

Web of Science "plain text" (``FN Clarivate ...``, ``VR 1.0``, records ``PT J`` .. ``ER``, file end ``EF``): a
two-character tag, a space, the value; continuation lines are indented by three spaces and are further items of
list tags (authors, addresses, cited references) or wrapped text otherwise. Cochrane CENTRAL exports
(``Record #1 of 12``, then ``TAG: value`` lines). Both are line formats of a few dozen lines of code, and the
Python parsers that exist (metaknowledge, wostools) have not been maintained since 2020, so they are read here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from core.io.rows import NumberedRow, Row, _year
from core.io.safety import _open_text
from core.records import RowError

_WOS_LIST_TAGS = frozenset(("AU", "AF", "BA", "BF", "CA", "GP", "BE", "C1", "C3", "CR", "EM", "RI", "OI", "FU",
                            "SE", "BS", "HO", "WC", "SC"))
_WOS_SPLIT_TAGS = {"DE": "; ", "ID": "; ", "WC": "; ", "SC": "; "}
_WOS_NAMES = {"TI": "title", "AB": "abstract", "SO": "journal", "PY": "year", "DI": "doi", "UT": "ut",
              "AU": "authors", "AF": "author_full_names", "DE": "keywords", "ID": "keywords_plus",
              "PT": "publication_type", "DT": "document_type", "LA": "language", "J9": "journal_abbrev",
              "VL": "volume", "IS": "issue", "BP": "start_page", "EP": "end_page", "PD": "publication_date",
              "SN": "issn", "PM": "pmid", "CR": "cited_references", "TC": "times_cited", "WC": "categories",
              "SC": "research_areas", "C1": "addresses"}
_COCHRANE_RECORD = re.compile(r"^Record #\d+ of \d+")
_COCHRANE_LINE = re.compile(r"^([A-Z]{2,3}):\s?(.*)$")
_COCHRANE_NAMES = {"ID": "id", "TI": "title", "AB": "abstract", "SO": "journal", "YR": "year", "DOI": "doi",
                   "AU": "authors", "KY": "keywords", "PT": "publication_type", "PM": "pmid", "VL": "volume",
                   "NO": "issue", "PG": "pages", "XR": "embase_id", "US": "url", "CC": "cochrane_groups"}


def _with_year(row: Row) -> Row:
    if "year" in row:
        row["year"] = _year(row["year"]) or row["year"]
    return row


def looks_like_wos(head: str) -> bool:
    """Web of Science plain text: ``FN`` on the first line, or a record starting ``PT J``."""
    lines = [line for line in head.lstrip("\ufeff").splitlines()[:5] if line.strip()]
    return bool(lines) and (lines[0].startswith("FN ") or re.match(r"^PT [A-Z]\s*$", lines[0]) is not None)


def looks_like_cochrane(head: str) -> bool:
    """A Cochrane CENTRAL export: records headed ``Record #1 of N``."""
    lines = [line for line in head.lstrip("\ufeff").splitlines()[:10] if line.strip()]
    return any(_COCHRANE_RECORD.match(line) for line in lines)


def _wos_row(tags: dict[str, list[str]]) -> Row:
    row: Row = {}
    for tag, values in tags.items():
        name = _WOS_NAMES.get(tag, tag.lower())
        if tag in _WOS_SPLIT_TAGS:
            value: object = [v.strip() for v in " ".join(values).split(_WOS_SPLIT_TAGS[tag]) if v.strip()]
        elif tag in _WOS_LIST_TAGS:
            value = values
        else:
            value = " ".join(values).strip()
        row[name] = value
    return _with_year(row)


def _wos_rows(path: Path) -> Iterator[NumberedRow]:
    number = 0
    tags: dict[str, list[str]] = {}
    tag = ""
    with _open_text(path) as handle:
        for raw in handle:
            line = raw.rstrip("\r\n").lstrip("\ufeff")
            if line.startswith("   ") and tag:
                tags[tag].append(line.strip())
                continue
            head, _, value = line.partition(" ")
            if head in ("FN", "VR", "EF") and not tags:
                continue
            if head == "ER":
                number += 1
                yield number, (_wos_row(tags) if tags.get("TI") or tags.get("UT")
                               else RowError(number, f"row {number}: Web of Science record has no TI or UT tag"))
                tags, tag = {}, ""
                continue
            if len(head) == 2 and head.isalnum() and head.isupper():
                tag = head
                tags.setdefault(tag, []).append(value.strip())
    if tags:
        number += 1
        yield number, _wos_row(tags)


def _cochrane_row(fields: dict[str, list[str]]) -> Row:
    row: Row = {}
    for tag, values in fields.items():
        name = _COCHRANE_NAMES.get(tag, tag.lower())
        if tag in ("AU", "KY"):
            row[name] = [v.strip() for v in "; ".join(values).split(";") if v.strip()]
        else:
            row[name] = " ".join(values).strip()
    return _with_year(row)


def _cochrane_rows(path: Path) -> Iterator[NumberedRow]:
    number = 0
    fields: dict[str, list[str]] = {}
    tag = ""
    with _open_text(path) as handle:
        for raw in handle:
            line = raw.rstrip("\r\n").lstrip("\ufeff")
            if _COCHRANE_RECORD.match(line):
                if fields:
                    number += 1
                    yield number, _cochrane_row(fields)
                fields, tag = {}, ""
                continue
            match = _COCHRANE_LINE.match(line)
            if match:
                tag = match.group(1)
                fields.setdefault(tag, []).append(match.group(2))
            elif line.strip() and tag:
                fields[tag].append(line.strip())
    if fields:
        number += 1
        yield number, _cochrane_row(fields)
