"""Embase.com's plain-text export (``.txt``): records opened by ``RECORD 1``, each field a heading line in capitals
(``TITLE``, ``AUTHOR NAMES``, ``SOURCE TITLE``, ``ABSTRACT``, ``MEDLINE PMID``…) and its value below, the value's
first line indented by two spaces and its wrapped lines (at about 78 columns) not indented.

A heading is a known one, or a line in capitals whose next line is indented (a value's wrapped lines never are).
Names and index terms are joined by "; " (a trailing one too); ``MEDLINE PMID`` is written ``41712675 (http://…)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from core.io.rows import NumberedRow, Row, _year
from core.io.safety import _open_text

__all__ = ["embase_text_rows", "looks_like_embase_text"]

_RECORD = re.compile(r"^RECORD \d+\s*$")
_CAPS = re.compile(r"^[A-Z][A-Za-z0-9 /()&,.-]{1,60}$")
_NAMES = {"TITLE": "title", "ABSTRACT": "abstract", "AUTHOR NAMES": "authors", "SOURCE TITLE": "journal",
          "PUBLICATION YEAR": "year", "DOI": "doi", "MEDLINE PMID": "pmid", "AUTHOR KEYWORDS": "keywords",
          "LANGUAGE OF ARTICLE": "language", "ORIGINAL (NON-ENGLISH) TITLE": "original_title",
          "FIRST PAGE": "first_page", "LAST PAGE": "last_page", "EMBASE ACCESSION NUMBER": "embase_id"}
_KNOWN = frozenset((*_NAMES, "AUTHOR ADDRESSES", "SOURCE", "DATE OF PUBLICATION", "PUBLICATION TYPE", "ISSN",
                    "VOLUME", "ISSUE", "PUI", "FULL TEXT LINK", "EMBASE LINK", "COPYRIGHT", "CORRESPONDENCE ADDRESS",
                    "LANGUAGE OF SUMMARY", "EMTREE MEDICAL INDEX TERMS", "EMTREE MEDICAL INDEX TERMS (MAJOR FOCUS)",
                    "EMTREE DRUG INDEX TERMS", "EMTREE DRUG INDEX TERMS (MAJOR FOCUS)", "EMBASE CLASSIFICATIONS",
                    "CAS REGISTRY NUMBERS", "CONFERENCE NAME", "CONFERENCE LOCATION", "CONFERENCE DATE",
                    "BOOK PUBLISHER", "FULL RECORD ENTRY DATE", "AiP/IP ENTRY DATE"))
_LISTS = frozenset(("authors", "keywords", "emtree_medical_index_terms", "emtree_medical_index_terms_major_focus",
                    "emtree_drug_index_terms", "emtree_drug_index_terms_major_focus", "embase_classifications"))


def looks_like_embase_text(head: str) -> bool:
    """Embase text: the first line is ``RECORD 1``, then a heading and an indented value."""
    lines = [line.rstrip() for line in head.lstrip("\ufeff").splitlines() if line.strip()][:3]
    return (len(lines) == 3 and lines[0].strip() == "RECORD 1" and _CAPS.match(lines[1]) is not None
            and lines[2].startswith("  "))


def _is_heading(line: str, following: str) -> bool:
    text = line.rstrip()
    if not text or line.startswith(" "):
        return False
    return text in _KNOWN or (following.startswith("  ") and _CAPS.match(text) is not None
                              and sum(c.isupper() for c in text) > sum(c.islower() for c in text))


def _row(lines: list[str]) -> Row:
    fields: list[tuple[str, list[str]]] = []
    for k, line in enumerate(lines):
        following = lines[k + 1] if k + 1 < len(lines) else ""
        if _is_heading(line, following):
            fields.append((line.strip(), []))
        elif fields and line.strip():
            fields[-1][1].append(line.strip())
    row: Row = {}
    for heading, values in fields:
        key = _NAMES.get(heading) or re.sub(r"[^a-z0-9]+", "_", heading.lower()).strip("_")
        text = " ".join(values).strip()
        if key in _LISTS:
            row[key] = [part.strip() for part in text.split(";") if part.strip()]
        elif key == "author_addresses":
            row[key] = "\n".join(values)
        elif text:
            row[key] = f"{row[key]}; {text}" if key in row else text
    if isinstance(row.get("pmid"), str):
        row["pmid"] = row["pmid"].split()[0]
    row["year"] = _year(row.get("year"))
    row.setdefault("abstract", None)
    return row


def embase_text_rows(path: Path) -> Iterator[NumberedRow]:
    """The records of an Embase plain-text export, numbered from 1."""
    number, lines = 0, []
    with _open_text(path) as handle:
        for raw in handle:
            line = raw.rstrip("\r\n").lstrip("\ufeff")
            if _RECORD.match(line):
                if any(text.strip() for text in lines):
                    number += 1
                    yield number, _row(lines)
                lines = []
            else:
                lines.append(line)
    if any(text.strip() for text in lines):
        yield number + 1, _row(lines)
