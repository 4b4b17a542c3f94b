"""The row types every reader yields (raw rows, numbered rows, RowWarning) and the year helper they share."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Any

from core.records import RowError

_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")  # also in "Jun2023" (CINAHL)
_COMPACT_DATE = re.compile(r"\s*([12]\d{3})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?:\.0)?\s*")  # EBSCO's "20250801"

Row = dict[str, Any]
NumberedRow = tuple[int, "Row | RowError | RowWarning"]


class RowNumber(int):
    """A record's 1-based number, which ids count by (``key~row``), that also knows the row a spreadsheet shows it
    on (``line``): a CSV/TSV's header row plus the rows after it, one a record however many lines its quoted
    fields span; a sheet's own row number. Messages name ``line`` (`shown_row`), so the user finds the row. A CSV/TSV
    reader gives one only where the row's offset from the record number changes, plain ints after it (§25g)."""

    line: int

    def __new__(cls, number: int, line: int) -> RowNumber:
        made = super().__new__(cls, number)
        made.line = line
        return made

    def __reduce__(self) -> tuple:  # a reading process sends it whole (core.io.background)
        return RowNumber, (int(self), self.line)


class ShownRows:
    """The rows a spreadsheet shows an import's records on, kept as the record numbers where the difference between
    the two changes (a blank row, a preamble): a few entries an import, not one a record."""

    def __init__(self) -> None:
        self._starts: list[int] = [0]
        self._offsets: list[int] = [0]

    def note(self, number: int, line: int) -> None:
        """Record that record ``number`` (counted in order) is on row ``line``."""
        if line - number != self._offsets[-1]:
            self._starts.append(number)
            self._offsets.append(line - number)

    def __call__(self, number: int) -> int:
        return number + self._offsets[bisect.bisect_right(self._starts, number) - 1]

    def to_list(self) -> list[list[int]]:
        """The offsets as [[record number, offset], ...] from where each applies (empty: rows are record numbers),
        kept with the import's report so the paper's sources and the merges table name the same rows later."""
        return [[start, offset] for start, offset in zip(self._starts[1:], self._offsets[1:], strict=True)]

    @classmethod
    def from_list(cls, value: object) -> ShownRows:
        """The rows `to_list` kept (anything else, an import from before: rows are record numbers)."""
        shown = cls()
        for pair in value if isinstance(value, list) else ():
            if isinstance(pair, list) and len(pair) == 2 and all(isinstance(v, int) for v in pair):
                shown._starts.append(pair[0])
                shown._offsets.append(pair[1])
        return shown


def at_row(number: int, line: int | None) -> int:
    """A record's number that knows its spreadsheet row ``line`` where there is one (a skipped record's report)."""
    return number if line is None else RowNumber(number, line)


def shown_row(number: int) -> int:
    """The row a message names: a spreadsheet's row where the reader knew it, else the record's number."""
    return getattr(number, "line", number)


@dataclass
class RowWarning:
    """A note on an imported row: 1-based row number, column, reason, and its kind (`core.io.warning_kinds`: a
    field not read whole unless the reader says otherwise)."""

    row: int
    column: str
    reason: str
    kind: str = "unread"


def _year(value: Any) -> int | None:
    text = str(value or "")
    if len(text) == 4 and text.isdecimal():  # "2019", the common case: what the regex finds (\d is Unicode's Nd)
        return int(text)
    if compact := _COMPACT_DATE.fullmatch(text):  # a date written YYYYMMDD (EBSCO's CSV and XML): its year
        return int(compact.group(1))
    match = _YEAR.search(text)
    return int(match.group(1)) if match else None
