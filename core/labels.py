"""Label values as every page, command and model sees them: one missing test, one text form, one default column.

A year stored as 2019.0 reads `2019` everywhere; None, NaN, pandas NA/NaT and blank text are all "missing".
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["JOURNAL_COLUMNS", "NONE_LABEL", "default_label_column", "is_missing", "label_text", "plain_value"]

NONE_LABEL = "(none)"  # how a missing label is drawn in legends and cards
JOURNAL_COLUMNS = ("journal", "venue", "source", "journal_title", "periodical")  # preferred label columns, in order


def is_missing(value: Any) -> bool:
    """True for None, NaN, pandas NA / NaT and blank text; False for lists, zero and everything else."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, float):
        return math.isnan(value)
    if isinstance(value, (list, tuple, dict, set)):
        return False
    try:
        import pandas as pd

        return bool(pd.api.types.is_scalar(value) and pd.isna(value))
    except (TypeError, ValueError):
        return False


def label_text(value: Any, missing: str = "") -> str:
    """One label value as text: integral numbers without '.0' (2019.0 -> '2019'), `missing` when missing."""
    if is_missing(value):
        return missing
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float) or type(value).__name__.startswith("float"):
        number = float(value)
        return str(int(number)) if number.is_integer() else str(number)
    return str(value).strip()


def label_texts(values: Iterable[Any], missing: str = "") -> list[str]:
    """`label_text` of many values, each distinct value converted once (a column of 50k labels has a few hundred)."""
    memo: dict[tuple[type, Any], str] = {}
    out = []
    for value in values:
        try:
            key = (type(value), value)
            text = memo.get(key)
            if text is None:
                text = memo[key] = label_text(value, missing)
        except TypeError:  # unhashable (a list): converted alone
            text = label_text(value, missing)
        out.append(text)
    return out


def plain_value(value: Any) -> Any:
    """A cell for JSON output and tables: None when missing, integral floats as int (2019.0 -> 2019), else as is."""
    if is_missing(value):
        return None
    if isinstance(value, float) or type(value).__name__.startswith("float"):
        number = float(value)
        return int(number) if number.is_integer() else number
    if type(value).__name__.startswith("int") and not isinstance(value, (int, bool)):
        return int(value)  # numpy integers are not JSON
    return value


def default_label_column(labels: Sequence[str], preferred: str | None = None) -> str | None:
    """The label column a page starts on: `preferred` (a model's trained label) when present, else a
    journal-like column, else the first label column; None when the corpus has none."""
    labels = list(labels)
    if preferred and preferred in labels:
        return preferred
    return next((c for c in JOURNAL_COLUMNS if c in labels), labels[0] if labels else None)
