"""Readers of tagged-text exports without a maintained Python parser: Web of Science, Cochrane CENTRAL, Refer.

Web of Science "plain text" (``FN Clarivate ...``, ``VR 1.0``, records ``PT J`` .. ``ER``, file end ``EF``): a
two-character tag, a space, the value; continuation lines are indented by three spaces and are further items of
list tags (authors, addresses, cited references) or wrapped text otherwise. Cochrane CENTRAL exports
(``Record #1 of 12``, then ``TAG: value`` lines). Both are line formats of a few dozen lines of code, and the
Python parsers that exist (metaknowledge, wostools) have not been maintained since 2020, so they are read here.
EndNote's tagged text, the Refer format (``%0 Journal Article``, ``%T`` title, ``%A`` one author a line, ``%X``
abstract; a blank line ends a record): what Google Scholar's "EndNote" link (``.enw``), the AIS eLibrary and CNKI
export and EndNote's "Refer/BibIX" style write; no Python package reads it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from core.io.cut_short import no_end_line, record_cut_error, record_cut_warning
from core.io.rows import NumberedRow, Row, _year
from core.io.safety import _open_text
from core.records import RowError, bare_doi

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


_REFER_LINE = re.compile(r"^%([0-9A-Z@!#$&()*+^~<>=?|\[\]])(?: (.*))?$")
_REFER_NAMES = {"0": "publication_type", "T": "title", "X": "abstract", "A": "authors", "E": "editors",
                "Y": "tertiary_authors", "J": "journal", "B": "secondary_title", "D": "year", "8": "date",
                "V": "volume", "N": "issue", "P": "pages", "R": "doi", "@": "issn", "U": "url", "K": "keywords",
                "I": "publisher", "C": "place", "M": "accession_number", "G": "language", "S": "series",
                "7": "edition", "9": "type_of_work", "!": "short_title", "F": "label", "L": "call_number",
                "Z": "notes", "W": "database_provider", "~": "database"}
_REFER_LISTS = frozenset("AEYK")


def looks_like_refer(head: str) -> bool:
    """EndNote tagged / Refer text: its first lines are ``%T title``-style tags (two of the first five)."""
    lines = [line for line in head.lstrip("\ufeff").splitlines()[:5] if line.strip()]
    tagged = [bool(_REFER_LINE.match(line) and len(line) > 3) for line in lines]
    return bool(tagged) and tagged[0] and sum(tagged) >= min(2, len(tagged))


def _refer_row(tags: dict[str, list[str]]) -> Row:
    row: Row = {}
    for tag, values in tags.items():
        name = _REFER_NAMES.get(tag)
        if name is None:
            continue
        if tag in _REFER_LISTS:  # one name or keyword a line, or several joined with ";" (CNKI: "%A Jaeyoung
            # Choi;Geunho Jeong", "%K 黄芪多糖;复合酶")
            row[name] = [part.strip() for v in values for part in re.split("[;；]", v) if part.strip()]
        else:
            row[name] = " ".join(v.strip() for v in values if v.strip())
    if row.get("doi"):
        row["doi"] = bare_doi(row["doi"])  # %R: the electronic resource number, a DOI as "10.x/y" or "doi:10.x/y"
    if not row.get("journal") and row.get("secondary_title"):
        row["journal"] = row["secondary_title"]  # %B: the journal (AIS eLibrary), the book of a chapter, the meeting
    return _with_year(row)


def _refer_rows(path: Path) -> Iterator[NumberedRow]:
    number = 0
    tags: dict[str, list[str]] = {}
    tag = ""
    after_blank = False
    for line in _lines(path):
        match = _REFER_LINE.match(line)
        if not line.strip():
            after_blank = bool(tags)
            continue
        # an empty line ends a record where a tag follows it that begins one: %0, a tag the record already has, or
        # any tag in a record without %0 (CNKI leaves empty lines between an abstract's paragraphs and before the
        # %W after them); so does a second %0 where an exporter left no empty line between records (not a second
        # type line right after the first: "%0 Serial", "%0 Audio")
        if tags and match and ((after_blank and (match.group(1) in tags or "0" not in tags or match.group(1) == "0"))
                               or (match.group(1) == "0" and "0" in tags and set(tags) != {"0"})):
            number += 1
            yield number, _refer_row(tags)
            tags, tag = {}, ""
        if match:
            tag = match.group(1)
            tags.setdefault(tag, []).append(match.group(2) or "")
        elif not tag:
            continue
        elif tag in _REFER_LISTS:  # a wrapped line: the next keyword or author of a list tag
            tags[tag].append(line)
        else:  # ... or more of the same text: a new paragraph after an empty line
            joint = "\n" if after_blank else " "
            tags[tag][-1] = f"{tags[tag][-1]}{joint}{line.strip()}"
        after_blank = False
    if tags:
        number += 1
        yield number, _refer_row(tags)


def _lines(path: Path) -> Iterator[str]:
    """A text file's lines without their line ends or a byte order mark (the tagged formats are line formats)."""
    with _open_text(path) as handle:
        for raw in handle:
            yield raw.rstrip("\r\n").lstrip("\ufeff")


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
    full, short = row.get("author_full_names"), row.get("authors")
    if isinstance(full, list) and isinstance(short, list) and len(full) == len(short) and full != short:
        # the fullest form read is the authors' ("Li, Wei", not "Li, W"); the short forms stay as exported
        row["authors"], row["author_short_names"] = row.pop("author_full_names"), short
    groups = row.get("ca")  # group authors ("CA Centers for Disease Control and Prevention (CDC)"): authors too,
    if isinstance(groups, list) and groups:  # as PubMed XML lists a CollectiveName; the only ones of some records
        people = row.get("authors") if isinstance(row.get("authors"), list) else []
        row["authors"] = people + [group for group in groups if group not in people]
    if str(row.get("ut") or "").upper().startswith("SCIELO:"):  # SciELO: "ABSTRACT Introduction: …", "RESUMEN La…"
        for name in ("abstract", "x4", "y4", "z4"):
            if isinstance(row.get(name), str):
                row[name] = _SCIELO_HEADING.sub("", row[name], count=1)
    return _with_year(row)


# the heading SciELO's abstracts open with, glued to the text; removed only before a capital letter
_SCIELO_HEADING = re.compile(r"^(?:ABSTRACT|SUMMARY|RESUMEN|RESUMO|RÉSUMÉ|Abstract|Summary|Resumen|Resumo)[:.]?\s+"
                             r"(?=[A-ZÁÉÍÓÚÑ¿¡])")


def _wos_rows(path: Path) -> Iterator[NumberedRow]:
    number = 0
    tags: dict[str, list[str]] = {}
    tag = ""
    for line in _lines(path):
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
    if tags:  # the file ended inside a record: cut short, where the records before it ended with ER
        number += 1
        if number > 1 and not tags.get("TI"):
            yield number, record_cut_error(number, no_end_line())
        else:
            yield number, _wos_row(tags)
            if number > 1:
                yield number, record_cut_warning(number, tag, no_end_line())


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
    for line in _lines(path):
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
