"""The MEDLINE reader: PubMed's "PubMed format" (``.nbib``/``.txt``, tagged text) via Biopython's ``Bio.Medline``.

Records start with ``PMID- ``; tags are up to four characters padded to ``TAG - ``; continuation lines are
indented by six spaces (joined here before Biopython reads them: `_joined`). Rows carry the same keys as the PubMed
XML reader, so one search saved both ways gives the same papers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.errors import CorpusError
from core.io.cut_short import record_cut_warning
from core.io.rows import NumberedRow, Row, _year
from core.io.safety import _name, _open_text
from core.records import RowError

SIGNATURE = re.compile(r"^PMID- ?\d", re.MULTILINE)
_TAGGED = re.compile(r"^[A-Z][A-Z0-9]{1,3} {0,3}- ")


def looks_like_medline(head: str) -> bool:
    """Whether a text's first lines are MEDLINE tagged records (a ``PMID- `` line among tagged lines)."""
    lines = [line for line in head.lstrip("\ufeff").splitlines()[:40] if line.strip()]
    return bool(lines) and bool(SIGNATURE.search("\n".join(lines))) and _TAGGED.match(lines[0]) is not None


_DISPLAY_FIRST = re.compile(r"^1\. \S")  # PubMed's text displays number their records: "1. Phytomedicine. 2018 …"
_DISPLAY_PMID = re.compile(r"^PMID: \d+", re.MULTILINE)


def looks_like_pubmed_display(head: str) -> bool:
    """Whether a text is PubMed's "Abstract (text)" or "Summary (text)" display: numbered records with "PMID: n"
    lines and no tags (a page for reading, not an export: title, authors and abstract are told apart by layout)."""
    lines = [line for line in head.lstrip("\ufeff").splitlines()[:200] if line.strip()]
    return bool(lines) and _DISPLAY_FIRST.match(lines[0]) is not None and bool(_DISPLAY_PMID.search(head))


def pubmed_display_error(name: str) -> CorpusError:
    """The refusal of a PubMed text display, naming the export of the same search that imports."""
    return CorpusError(f"file '{name}' is PubMed's 'Abstract (text)' or 'Summary (text)' display, a page for reading "
                       "whose fields are not tagged, so its records cannot be read reliably; in PubMed choose Save > "
                       "Format: PubMed (or Send to > Citation manager) and import that file")


def _listed(record: dict[str, Any], tag: str) -> list[str]:
    value = record.get(tag)
    if value is None:
        return []
    return [str(v).strip() for v in (value if isinstance(value, list) else [value]) if str(v).strip()]


def _doi(record: dict[str, Any]) -> str | None:
    for value in _listed(record, "AID") + _listed(record, "LID"):
        for part in re.split(r"(?<=\])\s+", value):
            if part.endswith("[doi]"):
                return part[: -len("[doi]")].strip()
    return None


def _issn(record: dict[str, Any]) -> list[str]:
    """Every ISSN of the ``IS`` lines, each once, the Linking one first (as the PubMed XML reader gives them): NLM's
    Linking ISSN may be an old title's ("0006-3231 (Linking)") beside the publisher's print and electronic ones
    ("1469-185X (Electronic)", "1464-7931 (Print)"), which join NLM's spelling to the publisher's."""
    found = re.findall(r"(\d{4}-\d{3}[\dXx])(?:\s*\(([^)]*)\))?", " ".join(_listed(record, "IS")))
    linking = [issn.upper() for issn, kind in found if kind == "Linking"]
    return list(dict.fromkeys([*linking, *(issn.upper() for issn, _ in found)]))


def _text(record: dict[str, Any], *tags: str) -> str | None:
    for tag in tags:
        value = record.get(tag)
        if isinstance(value, list):
            value = " ".join(value)
        if value and str(value).strip():
            return re.sub(r"[ \t]+", " ", str(value)).strip()
    return None


def _authors(record: dict[str, Any]) -> list[str]:
    """The authors in the fullest form read: ``FAU`` ("Neilen, Amanda D") when it names every author ``AU`` names,
    else ``AU`` ("Neilen AD"); then any group author (``CN  - ISPOR Task Force``), as PubMed XML lists a
    ``CollectiveName`` among the authors."""
    full, short = _listed(record, "FAU"), _listed(record, "AU")
    people = full if full and len(full) >= len(short) else short or full
    return people + [group for group in _listed(record, "CN") if group not in people]


def medline_row(record: dict[str, Any]) -> Row:
    """One MEDLINE record as a row with the PubMed XML reader's keys."""
    return {
        "pmid": _text(record, "PMID"),
        "title": _text(record, "TI", "BTI", "TT"),
        "abstract": _text(record, "AB"),
        # a chapter's venue is its book, as BibTeX's booktitle is (core.io.bibtex); a whole book has no venue
        "journal": _text(record, "JT", "TA") or (_text(record, "BTI") if _text(record, "TI") else None),
        "journal_abbrev": _text(record, "TA"),
        "year": _year(_text(record, "DP")),
        "pubdate": _text(record, "DP"),
        "doi": _doi(record),
        "authors": _authors(record),
        "mesh": _listed(record, "MH"),
        "keywords": _listed(record, "OT"),
        "publication_types": _listed(record, "PT"),
        "language": _text(record, "LA"),
        "issue": _text(record, "IP"),
        "pages": _text(record, "PG"),
        "issn": _issn(record),
        "pmc": _text(record, "PMC"),
    }


def _joined(lines: Iterator[str]) -> Iterator[str]:
    """The lines with each continuation line joined to its tag's line: Biopython makes a continuation of a list tag
    (``CN``, ``OT``, ``RN``, ``GR`` …) a new item ("Cancer Research" a second group author); text tags it joins with
    a space, as here. A blank continuation line passes as it is (Biopython keeps it as a line break)."""
    held: str | None = None
    for line in lines:
        if held is not None and line.startswith("      ") and line.strip() and held.strip():
            held = f"{held.rstrip()} {line.strip()}\n"
            continue
        if held is not None:
            yield held
        held = line
    if held is not None:
        yield held


def _medline_rows(path: Path) -> Iterator[NumberedRow]:
    from Bio import Medline

    number = 0
    record: dict[str, Any] = {}
    ends_with_source = False  # PubMed writes SO last in every record: a last record without it was cut short
    whole = [True]  # the last line ended with a line break (a file cut short ends inside a line)

    def lines(handle: Any) -> Iterator[str]:
        for line in handle:
            whole[0] = line.endswith(("\n", "\r"))
            yield line.lstrip("\ufeff")

    with _open_text(path) as handle:
        records = Medline.parse(_joined(lines(handle)))
        while True:
            try:
                record = next(records)
            except StopIteration:
                # one record PubMed wrote (OWN) has no earlier SO to compare with: without SO, ending inside a line
                alone = number == 1 and bool(record.get("OWN")) and not whole[0]
                if (ends_with_source and number > 1 or alone) and not record.get("SO"):
                    yield number, record_cut_warning(number, list(record)[-1] if record else "",
                                                     "before its SO line, which ends every record")
                return
            except (KeyError, IndexError, ValueError):
                raise CorpusError(f"file '{_name(path)}' record {number + 1} is not valid MEDLINE text "
                                  "(a continuation line before any tag)") from None
            number += 1
            ends_with_source = ends_with_source or (number == 1 and bool(record.get("SO")))
            if not record.get("PMID") and not record.get("TI"):
                yield number, RowError(number, f"row {number}: MEDLINE record has neither PMID nor TI")
                continue
            yield number, medline_row(record)
