"""What pages and the CLI show: a count with its noun ('1 paper', '2 papers'), and table cells without 'None'."""

from __future__ import annotations

from typing import Any

from core.labels import is_missing, label_text
from core.records import author_names


def noun(n: int, word: str, many: str | None = None) -> str:
    """The noun for a count of `n`: 'paper' for 1, else 'papers' (`many`: an irregular plural)."""
    return word if int(n) == 1 else (many or word + "s")


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 paper', '2 papers', '1,200 papers', '0 papers'; `many` for an irregular plural ('1 study', '3 studies')."""
    return f"{int(n):,} {noun(n, word, many)}"


def blank_missing(table: Any) -> Any:
    """A copy of a DataFrame for a table on screen: a missing cell is empty (st.dataframe writes 'None' for it), and
    a column of whole numbers with gaps reads 2019, not 2019.0."""
    import pandas as pd

    out = table.copy()
    for column in out.columns:
        values = out[column]
        if not values.isna().any() or pd.api.types.is_bool_dtype(values):
            continue
        if pd.api.types.is_numeric_dtype(values) and not all(float(v).is_integer() for v in values.dropna()):
            continue  # real measurements (a score): left as numbers
        out[column] = ["" if is_missing(v) else (label_text(v) if isinstance(v, float) else v) for v in values]
    return out


def author_text(value: Any, limit: int | None = 3) -> str:
    """A paper's authors as one line: 'Yang, Z.; Jiang, B.; Xu, J. et al.' (`limit` names; None: all of them).

    Authors come as a list (RIS, BibTeX, MEDLINE readers) or as one string (tables; split on ';' when it has one);
    a BibTeX "A, B and C, D" stored whole is split too (`core.records.author_names`)."""
    if is_missing(value):
        return ""
    if isinstance(value, (list, tuple)):
        names = author_names([label_text(n) for n in value])
    else:
        names = author_names(value if isinstance(value, str) else label_text(value))
    if limit is not None and len(names) > limit:
        return "; ".join(names[:limit]) + " et al."
    return "; ".join(names)


def clipped(text: str, limit: int) -> str:
    """`text` whole when it fits in `limit` characters, else cut after its last whole word that fits, with "…" (a
    label never ends in half a word that reads as another)."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    cut = text[:limit]
    if text[limit] != " " and " " in cut:  # the cut falls inside a word: drop that word
        cut = cut[:cut.rindex(" ")]
    return cut.rstrip(" ,;:.-–—") + "…"
