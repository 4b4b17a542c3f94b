"""Several files into one corpus in one transaction: a librarian's one search exported by several databases
(PubMed, Scopus, Web of Science), uploaded at once.

The files are read and stored in order, as one import (`core.store.import_run`): a paper of a later file that is
one of an earlier file's (same normalised title+abstract, or same DOI), or one already in the corpus, is merged
into it by the one rule of `core.store.merging` (the first record stays; the later fills what it lacked). If any
file fails (it cannot be read, has no usable paper, a disk error), nothing of any file is stored and the error
names the file. The report gives each file's counts and the totals; its skipped rows name their file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.errors import MireadError
from core.io import ReadOptions
from core.store.import_run import Stream, import_streams, named_error
from core.store.importing import ImportReport, file_records, mark_labels

if TYPE_CHECKING:
    from core.store.database import Store


def _sentence(report: ImportReport, reason: str, column: str | None = None) -> str:
    """A row's reason with its file in front and, where it is about a field, the file's column for it."""
    where = f" (column '{column}')" if column else ""
    return f"{report.file}, {reason}{where}" if report.file else f"{reason}{where}"


def _empty_field_column(report: ImportReport, reason: str) -> str | None:
    """The source column of the field a skipped row lacked ('empty abstract' -> the abstract's column); None for
    tagged formats (RIS, MEDLINE, BibTeX), whose fields are their tags, not columns."""
    if not report.reading.get("header_row"):
        return None
    columns = report.reading.get("columns") or {}
    for name in ("title", "abstract"):
        if f"empty {name}" in reason or f"and {name}" in reason:
            return columns.get(name) or None
    return None


@dataclass
class MultiImportReport:
    """What an import of several files did: one `ImportReport` per file, in order, and the totals."""

    corpus: str
    files: list[ImportReport] = field(default_factory=list)

    @property
    def imported(self) -> int:
        return sum(r.imported for r in self.files)

    @property
    def added(self) -> int:
        return sum(r.added for r in self.files)

    @property
    def merged(self) -> int:
        return sum(r.merged for r in self.files)

    @property
    def skipped(self) -> int:
        return sum(r.skipped for r in self.files)

    @property
    def merged_by_doi(self) -> int:
        return sum(r.merged_by_doi for r in self.files)

    def file_rows(self) -> list[dict[str, Any]]:
        """One row per file: file, reader, records read, added, merged (by DOI; within the file; into an earlier
        file; into the corpus), skipped; read = added + merged + skipped on every row."""
        return [{"file": r.file, "reader": r.reading.get("reader", ""), "rows": r.imported + r.skipped,
                 "added": r.added, "merged": r.merged, "merged by DOI": r.merged_by_doi,
                 "merged within the file": r.merged_into.get("this file", 0),
                 "merged into earlier files": r.merged_into.get("earlier files", 0),
                 "merged into the corpus": r.merged_into.get("corpus", 0), "skipped": r.skipped}
                for r in self.files]

    def to_dict(self, max_errors: int = 1000) -> dict[str, Any]:
        """The totals under `ImportReport.to_dict`'s keys (errors, warnings and conflicts name their file), and
        ``files``: each file's own report."""
        def rows(kind: str) -> list[dict[str, Any]]:
            out = []
            for report in self.files:
                for item in report.to_dict(max_errors)[kind]:
                    column = item.get("column") or (_empty_field_column(report, item.get("reason", ""))
                                                    if kind == "errors" else None)
                    out.append({"file": report.file, **item,
                                "reason": _sentence(report, item.get("reason", ""), column if kind == "errors"
                                                    else None)})
            return out[:max_errors]

        rules: dict[str, int] = {}
        for report in self.files:
            for rule, n in report.rules.items():
                rules[rule] = rules.get(rule, 0) + n
        doc: dict[str, Any] = {
            "corpus": self.corpus, "imported": self.imported, "added": self.added, "merged": self.merged,
            "skipped": self.skipped, "read": self.imported + self.skipped, "merged_by_doi": self.merged_by_doi,
            "merge_rules": rules, "import_ids": [r.import_id for r in self.files],
            "merges": [{"file": r.file, **m} for r in self.files for m in r.merges][:max_errors],
            "filled": sum(r.filled for r in self.files),
            "errors": rows("errors"), "warnings": rows("warnings"), "conflicts": rows("conflicts"),
            "links": {key: sum(int(r.links.get(key) or 0) for r in self.files)
                      for key in ("read", "kept", "dropped", "new")},
            "files": [r.to_dict(max_errors) for r in self.files],
        }
        figures = [r.figures for r in self.files if r.figures is not None]
        if figures:
            doc["figures"] = sum(figures)
        return doc


def import_files(
    store: Store,
    files: Sequence[str | Path],
    corpus: str,
    *,
    fmt: str | None = None,
    columns: dict[str, str | None] | None = None,
    options: ReadOptions | None = None,
    title_only: bool | Sequence[bool] = False,
    labels: Sequence[str] | None = None,
) -> MultiImportReport:
    """Import `files` into `corpus` in one transaction (see the module). `fmt`, `columns`, `options` and
    `title_only` apply to every file (default: each file's own detection); `title_only` may also be one flag per
    file (a drop where one export has no abstracts); `labels` as in `import_file`."""
    if not files:
        raise MireadError("no file to import")
    flags = [title_only] * len(files) if isinstance(title_only, bool) else list(title_only)
    if len(flags) != len(files):
        raise MireadError(f"title_only has {len(flags)} flags for {len(files)} files")
    streams = []
    for file, only_titles in zip(files, flags):
        try:
            records, source, save_figures = file_records(store, file, fmt=fmt, columns=columns, options=options,
                                                         title_only=only_titles)
        except MireadError as exc:
            named = named_error(exc, Path(file).name)
            if named is exc:
                raise
            raise named from exc
        streams.append(Stream(records, source, save_figures))
    report = MultiImportReport(corpus=corpus, files=import_streams(store, corpus, streams))
    report.corpus = report.files[0].corpus
    mark_labels(store, report.corpus, labels)
    return report
