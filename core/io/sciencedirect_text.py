"""ScienceDirect's "Export citation to text" (.txt): each record a block of lines, each ended by a comma, in the
order of a printed reference, then its links, abstract and keywords::

    Meltem Özmutlu, Derin Atay, Barış Erdoğan,          (authors; absent for an untitled supplement)
    Collaboration and engagement based coding training …,   (title)
    Editor(s): J.R. Sabin, E. Brändas,                   (a book chapter: the editors, then the book, the publisher)
    Thinking Skills and Creativity,                      (journal or book)
    Volume 40, Issue 2,                                  (or "Volume 52, Part A", "Volume 38, Supplement 2")
    2021,
    100833,                                              (an article number, or "Pages 42-43,")
    ISSN 1871-1871,                                      (and/or "ISBN 9780120348497,")
    https://doi.org/10.1016/j.tsc.2021.100833.
    (https://www.sciencedirect.com/science/article/pii/S1871187121000481)
    Abstract: Although there are …                     (may run over several lines: a structured abstract)
    Keywords: Computational thinking; Algorithm; Programming

Records are separated by a blank line. The line of the ScienceDirect link ends a record's citation: a block
without it is the file cut short (its last record) or a paragraph of the record before it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from core.io.cut_short import record_cut_error
from core.io.rows import NumberedRow, Row
from core.io.safety import _open_text

__all__ = ["looks_like_sciencedirect_text", "sciencedirect_text_rows"]

_LINK = re.compile(r"^\((https?://(?:www\.)?sciencedirect\.com/science/article/\S+)\)\s*$")
_DOI = re.compile(r"^https?://(?:dx\.)?doi\.org/(10\.\S+?)\.?\s*$")
_YEAR = re.compile(r"^(1[5-9]\d\d|20\d\d),$")
_VOLUME = re.compile(r"^Volume\s+(\S+?)(?:,\s*(.*))?,$")
_ISSUE = re.compile(r"\bIssues?\s+([^,]+)")
_EDITORS = "Editor(s):"


def looks_like_sciencedirect_text(head: str) -> bool:
    """A ScienceDirect text export: among its first lines a ScienceDirect article link in parentheses, after a line
    ending in a comma (the citation's lines) and before no other format's tags."""
    lines = [line.strip() for line in head.lstrip("\ufeff").splitlines()[:40]]
    for index, line in enumerate(lines):
        if _LINK.match(line):
            before = [text for text in lines[:index] if text]
            return len(before) >= 3 and all(text.endswith((",", ".")) for text in before)
    return False


def _split_names(line: str) -> list[str]:
    return [name.strip() for name in line.split(", ") if name.strip()]


def _head_fields(lines: list[str]) -> Row:
    """The fields of a record's citation lines (each without its closing comma), the DOI and link lines taken."""
    row: Row = {}
    year_at = next((i for i, line in enumerate(lines) if _YEAR.match(line + ",")), None)
    if year_at is None:
        front, back = lines, []
    else:
        row["year"] = lines[year_at]
        front, back = lines[:year_at], lines[year_at + 1:]
    if front and (volume := _VOLUME.match(front[-1] + ",")):
        row["volume"] = volume.group(1)
        if volume.group(2) and (issue := _ISSUE.search(volume.group(2))):
            row["issue"] = issue.group(1).strip()
        elif volume.group(2):
            row["volume_part"] = volume.group(2).strip()
        front = front[:-1]
    for line in back:
        if line.startswith("ISSN "):
            row["issn"] = line[5:].strip()
        elif line.startswith("ISBN "):
            row["isbn"] = line[5:].strip()
        elif line.startswith("Pages "):
            row["pages"] = line[6:].strip()
        elif line:
            row["article_number"] = line
    editors_at = next((i for i, line in enumerate(front) if line.startswith(_EDITORS)), None)
    if editors_at is not None:
        row["editors"] = _split_names(front[editors_at][len(_EDITORS):])
        people, rest = front[:editors_at], front[editors_at + 1:]
        if rest:
            row["journal"] = rest[0]
        if len(rest) > 1:
            row["publisher"] = ", ".join(rest[1:])
    else:
        people, rest = front[:-1], front[-1:]
        if len(front) >= 4:  # a book without editors: authors, title, book, publisher
            people, rest = front[:2], front[2:3]
            row["publisher"] = ", ".join(front[3:])
        if rest:
            row["journal"] = rest[0]
    if len(people) >= 2:
        row["authors"] = _split_names(people[0])
        row["title"] = ", ".join(people[1:])
    elif people:
        row["title"] = people[0]
    return row


def _record(block: list[str]) -> Row | None:
    """One record's fields from its block of lines, or None when the block holds no ScienceDirect link line."""
    link_at = next((i for i, line in enumerate(block) if _LINK.match(line.strip())), None)
    if link_at is None:
        return None
    head = [line.strip() for line in block[:link_at] if line.strip()]
    doi = head.pop() if head and _DOI.match(head[-1]) else None
    row = _head_fields([line.removesuffix(",").strip() for line in head])
    if doi and (match := _DOI.match(doi)):
        row["doi"] = match.group(1)
    row["url"] = _LINK.match(block[link_at].strip()).group(1)  # type: ignore[union-attr]
    abstract: list[str] = []
    for line in block[link_at + 1:]:
        if line.startswith("Keywords:"):
            row["keywords"] = [k.strip() for k in line[len("Keywords:"):].split(";") if k.strip()]
        elif line.startswith("Abstract:"):
            abstract.append(line[len("Abstract:"):].strip())
        elif abstract and "keywords" not in row:
            abstract.append(line.strip())
    if text := "\n".join(part for part in abstract if part).strip():
        row["abstract"] = text
    return row


def _blocks(path: Path) -> Iterator[list[str]]:
    block: list[str] = []
    with _open_text(path) as handle:
        for raw in handle:
            line = raw.rstrip("\r\n").lstrip("\ufeff")
            if line.strip():
                block.append(line)
            elif block:
                yield block
                block = []
    if block:
        yield block


def sciencedirect_text_rows(path: Path) -> Iterator[NumberedRow]:
    """The records of a ScienceDirect text export, numbered from 1. A block without the ScienceDirect link line
    continues the record before it (a paragraph of its abstract) or, at the file's end with a citation's lines, is
    the record the file was cut inside."""
    number = 0
    pending: Row | None = None
    blocks = list(_blocks(path))
    for index, block in enumerate(blocks):
        row = _record(block)
        if row is None:
            looks_cited = any(_YEAR.match(line.strip()) or _DOI.match(line.strip()) for line in block)
            if index == len(blocks) - 1 and looks_cited:
                if pending is not None:
                    number += 1
                    yield number, pending
                    pending = None
                number += 1
                yield number, record_cut_error(number, "no ScienceDirect link line follows its citation")
                continue
            if pending is not None:
                extra = "\n".join(line.strip() for line in block)
                pending["abstract"] = f"{pending['abstract']}\n\n{extra}" if pending.get("abstract") else extra
            continue
        if pending is not None:
            number += 1
            yield number, pending
        pending = row
    if pending is not None:
        yield number + 1, pending
