"""Reading files: raw rows, columns and previews, and rows validated into Paper, RowError or RowWarning.

Every reader streams: a file is never loaded whole, except BibTeX files and ``.json`` arrays, whose
parsers need the full text. Bad input raises ``CorpusError`` with one sentence; rows that cannot be
used come out of ``read_papers`` as ``RowError`` with their 1-based row number; a field that could not be
read whole (BibTeX LaTeX that does not decode, a repeated field or RIS tag) comes out as ``RowWarning``
after its row, whose paper is still imported.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.io.columns import ColumnMap, detect_columns
from core.io.formats import _PEEK_ROWS, _open_rows
from core.io.rows import Row, RowWarning
from core.io.safety import _name
from core.labels import is_missing
from core.records import Paper, RowError, duplicate_key

if TYPE_CHECKING:
    import pandas

_SPACE = re.compile(r"\s+")


def read_rows(path: str | Path, fmt: str | None = None) -> Iterator[dict[str, Any]]:
    """Stream a file's raw rows as dicts with every column; unreadable rows are left out."""
    rows = _open_rows(path, fmt)[1]
    return (row for _, row in rows if isinstance(row, dict))


def columns_of(path: str | Path, fmt: str | None = None) -> list[str]:
    """The column names of a file: its header, or the keys of its first rows."""
    return _open_rows(path, fmt)[0]


def preview(path: str | Path, fmt: str | None = None, n: int = 20) -> pandas.DataFrame:
    """The first ``n`` raw rows of a file as a DataFrame, with every column."""
    import pandas

    columns, rows, _, _ = _open_rows(path, fmt)
    head = [row for _, row in itertools.islice(rows, n * 2 + _PEEK_ROWS) if isinstance(row, dict)][:n]
    return pandas.DataFrame(head, columns=columns)


def _missing(value: Any) -> bool:
    """None or NaN; blank text stays text here (readers decide what an empty cell means)."""
    return not isinstance(value, str) and is_missing(value)


def _text(value: Any) -> str | None:
    """A title/abstract cell as stripped text; None when missing or empty; ValueError when not text."""
    if _missing(value):
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise ValueError("not text")
    return value.strip() or None


def _id_text(value: Any) -> str | None:
    if _missing(value):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip() or None


def _field_value(value: Any, tabular: bool) -> Any:
    if _missing(value):
        return None
    if tabular and isinstance(value, str):
        if value == "":
            return None
        if value[:1] in "[{":
            try:
                decoded = json.loads(value)
            except (ValueError, RecursionError):
                return value
            if isinstance(decoded, (list, dict)):
                return decoded
    return value


_RESERVED_FIELDS = frozenset(("id", "title", "abstract"))  # export writes these columns itself


def _field_name(name: Any, taken: dict[str, Any]) -> str:
    base = str(name).strip().lower() or "column"
    key, suffix = base, 2
    while key in taken or key in _RESERVED_FIELDS:
        key, suffix = f"{base}_{suffix}", suffix + 1
    return key


def _paper(number: int, row: Row, columns: ColumnMap, tabular: bool) -> Paper | RowError:
    try:
        title, abstract = _text(row.get(columns.title)), _text(row.get(columns.abstract))
    except ValueError:
        return RowError(number, f"row {number}: title or abstract is not text")
    empty = [name for name, value in (("title", title), ("abstract", abstract)) if value is None]
    if empty:
        return RowError(number, f"row {number}: empty {' and '.join(empty)}")
    fields: dict[str, Any] = {}
    for key, value in row.items():
        if key not in (columns.title, columns.abstract, columns.id):
            fields[_field_name(key, fields)] = _field_value(value, tabular)
    title = _SPACE.sub(" ", str(title))
    paper_id = (
        (_id_text(row.get(columns.id)) if columns.id else None)
        or _id_text(fields.get("doi"))
        or duplicate_key(title, str(abstract))[:16]
    )
    return Paper(id=paper_id, title=title, abstract=str(abstract), fields=fields)


def read_papers(
    path: str | Path,
    *,
    fmt: str | None = None,
    title_column: str | None = None,
    abstract_column: str | None = None,
    id_column: str | None = None,
) -> Iterator[Paper | RowError | RowWarning]:
    """Stream validated papers; unusable rows come out as RowError, fields not read whole as RowWarning."""
    columns, rows, file, fmt = _open_rows(path, fmt)
    mapping = detect_columns(
        columns, title=title_column, abstract=abstract_column, id=id_column, source=f"file '{_name(file)}'"
    )
    tabular = fmt in ("csv", "tsv")
    return (
        row if isinstance(row, (RowError, RowWarning)) else _paper(number, row, mapping, tabular)
        for number, row in rows
    )
