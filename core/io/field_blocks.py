"""CSV written one field per row: Embase.com's CSV export.

Embase writes each record as a block of rows ``"LABEL","value"[,"value"…]`` ("TITLE", "AUTHOR NAMES", "SOURCE
TITLE", "PUBLICATION YEAR", "ABSTRACT", "AUTHOR KEYWORDS", "MEDLINE PMID", "DOI"…) and separates records with an
empty line. Read as a table, its header would be the first record's title row. Here each block is one row whose
columns are its labels: a label's several values are joined by "; " (authors, keywords: the separators
core.io.names and the keyword reader split at), and a link written after a value ("MEDLINE PMID","38203148",
"http://www.ncbi.nlm.nih.gov/pubmed/38203148") is kept apart under the label followed by " LINK".
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path

from core.errors import CorpusError
from core.io.rows import NumberedRow, Row
from core.io.safety import _name, _open_text

__all__ = ["field_block_rows", "looks_like_field_blocks"]

_LABEL = re.compile(r"^[A-Z][A-Z0-9 ()/&,.'-]*$")  # "TITLE", "AUTHOR NAMES", "EMTREE DRUG INDEX TERMS (MAJOR FOCUS)"
_LINK = re.compile(r"^(?:https?|ftp)://", re.IGNORECASE)
_MIN_ROWS = 3
_MAX_LABELS = 200  # Embase writes about 40 fields a record


def looks_like_field_blocks(head: str) -> bool:
    """Whether a CSV text starts with a record written one field per row: a block of three or more rows, each with a
    label in capitals first (all different, "TITLE" among them) and a value after it, ended by an empty line or by
    the text's end. A table stops it at its header row (names in lower case, or all in capitals) or first row."""
    labels: list[str] = []
    try:
        for cells in csv.reader(io.StringIO(head.lstrip("\ufeff"))):
            if not any(cell.strip() for cell in cells):
                if labels:
                    break
                continue
            label = cells[0].strip()
            if len(cells) < 2 or not _LABEL.match(label) or label in labels or len(labels) >= _MAX_LABELS:
                return False  # a table's header or row: stop at its first row
            if not labels and all(_LABEL.match(cell.strip()) for cell in cells[1:]):
                return False  # a header row in capitals ("TITLE","ABSTRACT"), not a field and its value
            labels.append(label)
    except csv.Error:
        return False
    return len(labels) >= _MIN_ROWS and "TITLE" in labels


def _add(row: Row, label: str, cells: list[str]) -> None:
    """One field row into a record: its values joined by "; ", a link after the first value kept apart."""
    values = [cell.strip() for cell in cells if cell.strip()]
    links = [value for value in values[1:] if _LINK.match(value)]
    values = [values[0], *(value for value in values[1:] if not _LINK.match(value))] if values else []
    for key, found in ((label, values), (f"{label} LINK", links)):
        if found:
            earlier = row.get(key)
            row[key] = "; ".join([earlier, *found] if earlier else found)


def field_block_rows(path: Path) -> Iterator[NumberedRow]:
    """The records of a one-field-per-row CSV, numbered from 1, each a row keyed by its labels."""
    number, row = 0, {}
    with _open_text(path, newline="") as handle:
        try:
            for cells in csv.reader(handle):
                if not any(cell.strip() for cell in cells):
                    if row:
                        number += 1
                        yield number, row
                        row = {}
                    continue
                label = cells[0].strip().lstrip("\ufeff") or f"column_{len(row) + 1}"
                _add(row, label, cells[1:])
        except csv.Error as error:
            raise CorpusError(f"file '{_name(path)}' record {number + 1} cannot be read ({error})") from None
    if row:
        yield number + 1, row
