"""The import preview: how a file will be read and what it will give, before anything is stored.

``plan_import`` reads the file as the import would (same reader, layout, column mapping and checks) and counts:
records, papers, papers with an abstract, rows to be skipped with the reason for each, fields not read whole.
The Library page shows it with the mapping as choices; ``import --dry-run`` prints it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.display import plural
from core.io.exports import known_export
from core.io.formats import FORMAT_NAMES, ReadOptions, _open_rows
from core.io.papers import read_papers
from core.io.rows import RowWarning, shown_row
from core.records import Paper, RowError

PREVIEW_ROWS = 20_000  # rows the page checks; the CLI's --dry-run reads them all


_TABLES = ("csv", "tsv", "excel", "parquet")  # formats whose fields are read from columns a user can name


def field_sources(reading: dict[str, Any]) -> tuple[str, list[tuple[str, str | None]]]:
    """What each field was read from, said truly: a table's "columns" (field, column); a record format's "fields"
    (field, the source's own name where it differs: BibTeX's "journaltitle"; None where the reader named it so: a RIS
    file has no column 'journal', its journal is in JO, T2 or JF)."""
    mapping = [(field, column) for field, column in (reading.get("columns") or {}).items() if column]
    if reading.get("reader") in _TABLES:
        return "columns", mapping
    return "fields", [(field, None if column == field else column) for field, column in mapping]


def describe_reading(reading: dict[str, Any], tool: str | None = None,
                     mark: Callable[[str], str] = str) -> list[str]:
    """How a file is read, as phrases ("read as CSV", "header on row 5", ...); ``mark`` formats each value."""
    from core.io.layout import SEPARATOR_NAMES

    reader = str(reading.get("reader"))
    parts = [f"read as {mark(FORMAT_NAMES.get(reader, reader))}"]
    if reading.get("encoding") and (not str(reading["encoding"]).startswith("UTF-8") or "mixed" in reading["encoding"]):
        parts.append(f"encoding {mark(str(reading['encoding']))}")
    if reading.get("sheet"):
        parts.append(f"sheet {mark(str(reading['sheet']))}")
    if reading.get("header_row"):
        parts.append(f"header on row {mark(str(reading['header_row']))}")
    if reading.get("separator"):
        parts.append(f"separator {mark(SEPARATOR_NAMES.get(reading['separator'], str(reading['separator'])))}")
    if tool:
        parts.append(f"looks like a {mark(tool)} export")
    if reading.get("format_note"):
        parts.append(str(reading["format_note"]))
    return parts


@dataclass
class ImportPlan:
    """What importing a file would do: reader, layout, mapping, counts and the rows it would skip."""

    file: str
    reading: dict[str, Any]  # reader, header_row, separator, sheet, columns (field -> source column), title_only
    source_columns: list[str]
    sheets: list[str] = field(default_factory=list)
    tool: str | None = None  # the tool whose export the columns look like, when known
    id_note: str = ""
    records: int = 0  # rows read: papers + skipped
    papers: int = 0
    with_abstract: int = 0
    skipped: list[dict[str, Any]] = field(default_factory=list)  # {"row", "reason"}
    warnings: list[dict[str, Any]] = field(default_factory=list)  # {"row", "column", "reason"}
    complete: bool = True  # False when only the first rows were checked
    filled: set[str] = field(default_factory=set)  # the fields (journal, year, doi, …) some paper has a value of

    @property
    def reader_name(self) -> str:
        """The reader as a person names it (e.g. "MEDLINE / PubMed format (.nbib)")."""
        return FORMAT_NAMES.get(self.reading.get("reader", ""), str(self.reading.get("reader")))

    def summary(self) -> str:
        """One sentence: what will be imported and what skipped."""
        scope = "" if self.complete else f" in the first {plural(self.records, 'row')}"
        title_only = self.papers - self.with_abstract
        extra = f" ({title_only:,} title-only)" if title_only else ""
        will = "row will" if len(self.skipped) == 1 else "rows will"
        return (f"{plural(self.papers, 'paper')}{extra}, {self.with_abstract:,} with an abstract; "
                f"{len(self.skipped):,} {will} be skipped{scope}")

    def to_dict(self, max_rows: int = 1000) -> dict[str, Any]:
        """JSON-ready: the reading, the counts and the first ``max_rows`` skipped rows and warnings."""
        return {"file": self.file, **self.reading, "sheets": self.sheets, "tool": self.tool,
                "id_note": self.id_note, "records": self.records, "papers": self.papers,
                "with_abstract": self.with_abstract, "skipped": len(self.skipped),
                "skipped_rows": self.skipped[:max_rows], "warnings": self.warnings[:max_rows],
                "complete": self.complete, "summary": self.summary()}


def _empty(value: Any) -> bool:
    """No value: None, NaN, an empty text or an empty list."""
    if isinstance(value, (list, tuple, set, dict)):
        return not value
    return value is None or value != value or (isinstance(value, str) and not value.strip())


def plan_import(
    path: str | Path,
    *,
    fmt: str | None = None,
    columns: dict[str, str | None] | None = None,
    options: ReadOptions | None = None,
    title_only: bool = False,
    limit: int | None = None,
) -> ImportPlan:
    """Read a file as ``import`` would, storing nothing; ``limit`` stops after that many rows."""
    opened = _open_rows(path, fmt, options)
    stream = read_papers(path, fmt=fmt, columns=columns, options=options, title_only=title_only)
    plan = ImportPlan(file=Path(path).name, reading=stream.reading, source_columns=opened.columns,
                      sheets=opened.layout.sheets, tool=known_export(opened.columns), id_note=stream.id_note)
    for item in stream:
        if isinstance(item, RowWarning):
            plan.warnings.append({"row": item.row, "column": item.column, "reason": item.reason, "kind": item.kind})
            continue
        if limit is not None and plan.records >= limit:
            plan.complete = False
            break
        plan.records += 1
        if isinstance(item, RowError):
            plan.skipped.append({"row": shown_row(item.row), "reason": item.reason})
        elif isinstance(item, Paper):
            plan.papers += 1
            plan.with_abstract += bool(item.abstract)
            plan.filled.update(k for k, v in item.fields.items() if k not in plan.filled and not _empty(v))
    return plan
