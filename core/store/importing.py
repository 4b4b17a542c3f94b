"""Importing a file: its report, and ``import_file``, the one way a file's papers come in (Library page, CLI, demo,
vectors exchange, benchmarks): read it, take the figures of full-text papers out of the records, store papers,
citation links and figures in one transaction (``Store.import_papers``), then mark the chosen label columns."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.io import FigureCollector, ReadOptions, RowWarning, read_papers
from core.io.rows import shown_row
from core.records import Paper, RowError

if TYPE_CHECKING:
    from core.store.database import Store


@dataclass
class ImportReport:
    """What an import did: counts and the skipped rows with their reasons."""

    corpus: str
    imported: int = 0  # valid rows read: added + merged
    added: int = 0  # new papers in the corpus
    merged: int = 0  # rows folded into a paper already there: same normalised title+abstract, or same DOI
    skipped: int = 0
    file: str = ""  # the file's name as stored in the catalog
    merged_by_doi: int = 0  # of `merged`: rows whose text differed from the paper's, merged by DOI and title
    # every merge: {"row", "id" (the record's), "into" (the paper's id), "rule"} (core.store.identity's rules)
    merges: list[dict[str, Any]] = field(default_factory=list)
    rules: dict[str, int] = field(default_factory=dict)  # merges by rule
    import_id: int | None = None  # its row of the ``imports`` table (the provenance of its papers)
    # of `merged`: into a paper of this file, of an earlier file of the same upload, or already in the corpus
    merged_into: dict[str, int] = field(default_factory=dict)
    filled: int = 0  # stored papers that took a field (or the abstract) they lacked from a merged row
    errors: list[RowError] = field(default_factory=list)
    warnings: list[RowWarning] = field(default_factory=list)  # fields not read whole; their papers were imported
    # rows whose id was already another paper's, with a different title+abstract: added under a derived id
    conflicts: list[dict[str, Any]] = field(default_factory=list)  # {"row", "id", "kept_as", "reason"}
    id_column: str | None = None  # the file's column used for the ids (None: generated, or not from a file)
    id_note: str = ""  # why the reader passed over the detected id column, if it did
    # how the file was read: reader, header_row, separator, sheet, columns (field -> source column), title_only
    reading: dict[str, Any] = field(default_factory=dict)
    # citation links: read, kept, dropped (with reasons), and per-row reasons for the dropped ones
    links: dict[str, Any] = field(default_factory=lambda: {"read": 0, "kept": 0, "dropped": 0})
    link_rows: list[dict[str, Any]] = field(default_factory=list)  # {"row", "reason"}
    # where a spreadsheet's rows part from record numbers (core.io.rows.ShownRows.to_list); empty for most formats
    row_offsets: list[list[int]] = field(default_factory=list)
    figures: int | None = None  # figures stored from full text (JATS); None: the file had no full text
    # ids of merged rows -> the id of the paper they became, where they differ (its figures go to that paper)
    merged_ids: dict[str, str] = field(default_factory=dict, repr=False)

    def to_dict(self, max_errors: int = 1000) -> dict[str, Any]:
        """The report as JSON-ready data; at most `max_errors` errors and as many warnings and conflicts."""
        doc = {
            "corpus": self.corpus,
            "imported": self.imported,
            "added": self.added,
            "merged": self.merged,
            "skipped": self.skipped,
            "errors": [{"row": shown_row(e.row), "reason": e.reason} for e in self.errors[:max_errors]],
            "warnings": [{"row": w.row, "column": w.column, "reason": w.reason, "kind": w.kind}
                         for w in self.warnings[:max_errors]],
            "conflicts": [dict(c) for c in self.conflicts[:max_errors]],
            "id_column": self.id_column,
            "id_note": self.id_note,
            **self.reading,
            "links": {**self.links, "rows": [dict(r) for r in self.link_rows[:max_errors]]},
            "file": self.file,
            "merged_by_doi": self.merged_by_doi,
            "merged_into": dict(self.merged_into),
            "filled": self.filled,
            "read": self.imported + self.skipped,
            "import_id": self.import_id,
            "merges": [dict(m) for m in self.merges[:max_errors]],
            "merge_rules": dict(self.rules),
        }
        if self.figures is not None:
            doc["figures"] = self.figures
        if self.row_offsets:  # the paper's sources and the merges table name a spreadsheet's rows from it
            doc["row_offsets"] = [list(pair) for pair in self.row_offsets]
        return doc


def file_records(
    store: Store, file: str | Path | Iterable[Paper | RowError | RowWarning], *, source: str | None = None,
    fmt: str | None = None, columns: dict[str, str | None] | None = None, options: ReadOptions | None = None,
    title_only: bool = False,
) -> tuple[FigureCollector, str, Callable[[sqlite3.Connection, ImportReport], None]]:
    """A file's records as an import takes them: the records (their figures taken out), the name the catalog
    gives the file, and the step that stores the figures in the import's transaction."""
    if isinstance(file, (str, Path)):
        records: Any = read_papers(file, fmt=fmt, columns=columns, options=options, title_only=title_only)
        source = Path(file).name if source is None else source
    else:
        records = file if hasattr(file, "__next__") else iter(file)
    collector = FigureCollector(records)

    def save_figures(conn: sqlite3.Connection, report: ImportReport) -> None:
        if collector.full_text:  # JATS full text: each paper's figures, in the import's transaction
            by_paper = {report.merged_ids.get(pid, pid): figures for pid, figures in collector.by_paper.items()}
            report.figures = store.save_figures(report.corpus, by_paper, conn=conn)

    return collector, source or "", save_figures


def import_file(
    store: Store,
    file: str | Path | Iterable[Paper | RowError | RowWarning],
    corpus: str,
    *,
    source: str | None = None,
    fmt: str | None = None,
    columns: dict[str, str | None] | None = None,
    options: ReadOptions | None = None,
    title_only: bool = False,
    labels: Sequence[str] | None = None,
) -> ImportReport:
    """Import a file (or records already read) into `corpus`: papers, links and figures in one transaction.

    A path is read with `core.io.read_papers` (`fmt`, `columns`, `options`, `title_only`); `source` names it in the
    catalog (default: the file's name). `labels`, when given, become the corpus's label columns (those it can mark).
    Duplicates merge by title+abstract or DOI (`core.store.merging`). If anything fails before the commit, figures
    included, the corpus is as it was. Several files in one transaction: `core.store.multi_import.import_files`.
    """
    records, source, save_figures = file_records(store, file, source=source, fmt=fmt, columns=columns,
                                                 options=options, title_only=title_only)
    report = store.import_papers(corpus, records, source=source, before_commit=save_figures)
    mark_labels(store, report.corpus, labels)
    return report


def mark_labels(store: Store, corpus: str, labels: Sequence[str] | None) -> None:
    """The user's label columns, kept over the guess (the Library can change them); those the corpus can mark."""
    if labels:
        markable = store.corpus(corpus).markable()
        store.set_labels(corpus, [c for c in labels if c in markable])
