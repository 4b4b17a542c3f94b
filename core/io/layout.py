"""Where a table's header row is and what separates its cells: preambles, ``;`` CSVs, tab files, sheets.

Exports of Embase, Dimensions and CSVs saved from Excel may start with a search query, a line of dashes, an
"About the data" note or blank lines before the header; European Excel writes ``;`` between cells. The header is
the first of the first ``HEADER_SEARCH_ROWS`` rows that names a title column (by the vocabulary), the separator the
one under which such a row appears first (else the one that splits the first rows most consistently).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from core.io.vocabulary import normal, vocabulary

HEADER_SEARCH_ROWS = 20
SEPARATORS: tuple[str, ...] = (",", ";", "\t", "|")
SEPARATOR_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}


@dataclass
class Layout:
    """How a table was read: its 1-based header row, the separator (text files) and the sheet (workbooks)."""

    header_row: int | None = None  # None: not a table
    separator: str | None = None
    sheet: str | None = None
    sheets: list[str] = field(default_factory=list)
    found_by_title: bool = False  # the header row names a title column (else: the first non-empty row)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: header_row, separator (by name), sheet."""
        return {"header_row": self.header_row,
                "separator": SEPARATOR_NAMES.get(self.separator or "", self.separator),
                "sheet": self.sheet}


def separator_of(name: str | None) -> str | None:
    """A separator given by a user: the character itself or its name (comma, semicolon, tab, pipe)."""
    if not name:
        return None
    by_name = {v: k for k, v in SEPARATOR_NAMES.items()}
    text = name if name in SEPARATORS else by_name.get(name.strip().lower(), name.replace("\\t", "\t"))
    return text


def names_a_title(cells: Sequence[Any]) -> bool:
    """Whether a row holds a column name that the vocabulary reads as a title."""
    titles = vocabulary()["title"]
    return any(normal(cell) in titles for cell in cells if isinstance(cell, str) and cell.strip())


def header_index(rows: Sequence[Sequence[Any]], limit: int = HEADER_SEARCH_ROWS) -> int | None:
    """0-based index of the first row (of the first ``limit`` non-empty ones) that names a title column."""
    seen = 0
    for index, cells in enumerate(rows):
        if not any(str(c).strip() for c in cells if c is not None):
            continue
        if names_a_title(cells):
            return index
        seen += 1
        if seen >= limit:
            return None
    return None


def _records(text: str, separator: str, limit: int) -> list[tuple[int, list[str]]]:
    """The first records of a text under a separator, each with the file line it ends on."""
    reader = csv.reader(io.StringIO(text), delimiter=separator)
    records: list[tuple[int, list[str]]] = []
    try:
        for cells in reader:
            records.append((reader.line_num, cells))
            if len(records) >= limit:
                break
    except csv.Error:
        pass
    return records


def _consistency(records: Sequence[tuple[int, list[str]]]) -> tuple[int, int]:
    counts = Counter(len(cells) for _, cells in records if any(c.strip() for c in cells))
    if not counts:
        return 0, 0
    width, times = counts.most_common(1)[0]
    return (times, width) if width > 1 else (0, 0)


def sniff_text(head: str, default: str, header_row: int | None = None, separator: str | None = None) -> Layout:
    """The layout of a delimited text from its first characters; the given header row or separator win."""
    head = head.lstrip("\ufeff")
    if head and "\n" in head:
        head = head[: head.rfind("\n") + 1] or head  # drop a line cut off by the head's end
    candidates = [separator] if separator else [default, *(s for s in SEPARATORS if s != default)]
    limit = HEADER_SEARCH_ROWS * 3
    best: tuple[Any, ...] | None = None
    for rank, sep in enumerate(candidates):
        records = _records(head, sep, limit)
        if header_row:
            line = header_row
            score: tuple[Any, ...] = (0, *_consistency(records), -rank)
        else:
            index = header_index([cells for _, cells in records])
            if index is not None:  # found earlier and wider wins; a line is where its record started
                line = (records[index - 1][0] + 1) if index else 1
                score = (1, -line, len(records[index][1]), -rank)
            else:
                first = next((i for i, (_, cells) in enumerate(records) if any(c.strip() for c in cells)), 0)
                line = (records[first - 1][0] + 1) if first else 1
                score = (0, *_consistency(records), -rank)
        if best is None or score > best[0]:
            best = (score, Layout(header_row=line, separator=sep, found_by_title=bool(score[0])))
    return best[1] if best else Layout(header_row=header_row or 1, separator=separator or default)
