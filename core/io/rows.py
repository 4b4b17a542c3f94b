"""The row types every reader yields (raw rows, numbered rows, RowWarning) and the year helper they share."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from core.records import RowError

_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")  # also in "Jun2023" (CINAHL)

Row = dict[str, Any]
NumberedRow = tuple[int, "Row | RowError | RowWarning"]


@dataclass
class RowWarning:
    """A field of an imported row that could not be read whole: 1-based row number, column and reason."""

    row: int
    column: str
    reason: str


def _year(value: Any) -> int | None:
    text = str(value or "")
    if len(text) == 4 and text.isdecimal():  # "2019", the common case: what the regex finds (\d is Unicode's Nd)
        return int(text)
    match = _YEAR.search(text)
    return int(match.group(1)) if match else None
