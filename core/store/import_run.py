"""One import transaction over one or more streams of records (one per file): papers, merges, citation links and
whatever each stream writes before the commit (its figures), then the corpus's columns and version once.

`Store.import_papers` runs it for one stream; `core.store.multi_import.import_files` for the files of one upload.
Each stream gets its own report and its own row in the ``imports`` table; if anything fails in any stream (reading,
storing, figures), the transaction is rolled back, every stream's row is marked failed, and with several streams
the error names the file it came from.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from array import array
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.errors import CorpusError, MireadError
from core.io import RowWarning
from core.io.exports import no_abstract_fix
from core.io.rows import ShownRows
from core.records import Paper, RowError, scrub
from core.store.batches import StoredKeys, add_batch, stored_form
from core.store.field_roles import label_columns
from core.store.field_stats import FieldTally, counted_by_sql
from core.store.files import check_name
from core.store.identity import id_column_kind, with_id_key
from core.store.importing import ImportReport
from core.store.links import link_import
from core.store.merging import resolved
from core.store.provenance import database_of

if TYPE_CHECKING:
    from core.store.database import Store

_BATCH = 2000
_IMPORT_CACHE_KIB = 64 * 1024  # SQLite's page cache while importing (default 2 MiB): 1M rows 80 -> 72 s
_DEFAULT_CACHE_KIB = 2000

_HELD_ABSTRACT = ": no abstract (the export's placeholder "  # core.io.papers' reason for a placeholder abstract


@dataclass
class Stream:
    """One file's records, the name it is stored under, and what it writes before the commit (its figures)."""

    records: Iterable[Paper | RowError | RowWarning]
    source: str = ""
    before_commit: Callable[[sqlite3.Connection, ImportReport], None] | None = None
    import_id: int | None = None  # its row in the ``imports`` table: each paper's provenance


def _count(conn: sqlite3.Connection, corpus: str) -> int:
    return conn.execute("SELECT COUNT(*) FROM papers WHERE corpus = ?", (corpus,)).fetchone()[0]


def _database(reading: dict[str, Any], source: str) -> str:
    """The database a file's records came from: as its reader found it in them, else by the file's name (the
    name itself when it names none)."""
    named = reading.get("database")
    return named if isinstance(named, str) and named else database_of(source)


def named_error(exc: MireadError, source: str) -> MireadError:
    """The same error with the file it came from in front (when it does not name it already)."""
    if not source or source in str(exc):
        return exc
    try:
        return type(exc)(f"{source}: {exc}")
    except TypeError:
        return CorpusError(f"{source}: {exc}")


def _one_stream(conn: sqlite3.Connection, corpus: str, stream: Stream, upload_first: int,
                tally: FieldTally | None, merging: dict[str, Any], several: bool,
                stored_keys: StoredKeys | None = None) -> ImportReport:
    """Store one stream's papers and links inside the open transaction; its report."""
    records, source = stream.records, stream.source
    report = ImportReport(corpus=corpus, file=source, id_column=getattr(records, "id_column", None),
                          id_note=str(getattr(records, "id_note", "") or ""),
                          reading=dict(getattr(records, "reading", None) or {}), import_id=stream.import_id)
    first = conn.execute("SELECT COALESCE(MAX(seq), -1) + 1 FROM papers WHERE corpus = ?", (corpus,)).fetchone()[0]
    id_kind = id_column_kind(report.id_column)  # ids read from a PMID / EID / UT column are match keys too
    rows = array("q")  # the source row of each paper this stream adds, by seq - first
    pending: list[tuple[int, tuple]] = []
    cites: list[tuple[int, str, list, list[str]]] = []  # rows with a reference list
    merged: list[tuple[int, int, str, str, str]] = []
    attempted = row = inserted = offset = 0
    shown = ShownRows()  # the rows a spreadsheet shows records on: noted where their offset changes
    for record in records:
        if isinstance(record, RowError):
            report.skipped += 1
            report.errors.append(record)
            row = max(row, int(record.row))
            if line := getattr(record.row, "line", None):  # a CSV/TSV/xlsx row (core.io.rows.RowNumber)
                shown.note(int(record.row), line)
                offset = line - int(record.row)
            continue
        if isinstance(record, RowWarning):
            report.warnings.append(record)
            continue
        row += 1
        if record.line and record.line - row != offset:  # ids count records, messages name a spreadsheet's row
            shown.note(row, record.line)
            offset = record.line - row
        form = record.prepared or stored_form(record)  # (had references, references, malformed, *the row)
        values = (corpus, form[3], 0, form[4], form[5], form[6], form[7], form[8], form[9], form[10])  # no slices
        if id_kind is not None:
            values = with_id_key(values, id_kind)
        if form[0]:
            cites.append((row, values[7], form[1], form[2]))
        pending.append((row, values))
        attempted += 1
        if len(pending) >= _BATCH:
            inserted += add_batch(conn, corpus, pending, first, rows, report.conflicts, tally, merged, merging,
                                  stream.import_id, stored_keys, shown)
            pending = []
    inserted += add_batch(conn, corpus, pending, first, rows, report.conflicts, tally, merged, merging,
                          stream.import_id, stored_keys, shown)
    redirect = merging.get("redirect") or {}
    if redirect:  # a row merged by DOI (or into a paper that took its abstract) links from the paper it became
        cites = [(r, resolved(redirect, key), refs, bad) for r, key, refs, bad in cites]
    changes = conn.total_changes
    linked = link_import(conn, corpus, cites, fresh=first == 0)
    report.links = {**linked.to_dict(), "new": conn.total_changes - changes}
    report.link_rows = [{"row": shown(r), "reason": f"row {shown(r)}: {reason}"} for r, reason in linked.rows]
    report.imported, report.added, report.merged = attempted, inserted, attempted - inserted
    report.row_offsets = shown.to_list()
    report.merged_by_doi = sum(1 for m in merged if m[2] == "same DOI and title")
    report.merges = [{"row": shown(r), "id": row_id, "into": kept, "rule": rule}
                     for r, _, rule, row_id, kept in merged]
    report.rules = dict(Counter(m[2] for m in merged))
    into = {"this file": 0, "earlier files": 0, "corpus": 0}
    report.merged_ids = {row_id: kept for _, _, _, row_id, kept in merged if row_id != kept}
    for _, seq, *_ in merged:
        into["corpus" if seq < upload_first else "earlier files" if seq < first else "this file"] += 1
    report.merged_into = into if several else {"this file": into["this file"], "corpus": into["corpus"]}
    if attempted == 0 and (several or not _count(conn, corpus)):
        titled = any(e.reason.endswith(": empty abstract") or _HELD_ABSTRACT in e.reason  # "AB  - NA" too
                     for e in report.errors)  # a titled row without an abstract: titles only would import it
        raise CorpusError(  # titles without abstracts (a book chapter, an old record): say how to keep them
            f"{source or 'the file'} has no usable papers: every row lacked an abstract; "
            f"{no_abstract_fix(_database(report.reading, source))}" if titled
            else f"{source or 'the file'} has no usable papers: every row lacked a title or abstract"
            if report.skipped
            else f"{source or 'the file'} contains no papers"
        )
    if stream.before_commit is not None:
        stream.before_commit(conn, report)
    return report


def import_streams(store: Store, corpus: str, streams: list[Stream]) -> list[ImportReport]:
    """Import the streams into `corpus` in one transaction, in order; one report per stream (see the module)."""
    corpus = check_name(corpus, "corpus name")
    streams = [Stream(s.records, scrub(s.source), s.before_commit) for s in streams]
    started = time.time()
    for stream in streams:
        if hasattr(stream.records, "prepare_with"):  # a reading process may compute each paper's stored form
            stream.records.prepare_with(stored_form)
    with store.connect() as conn:
        import_ids = [conn.execute(
            "INSERT INTO imports(corpus, file, status, started, pid) VALUES (?, ?, 'running', ?, ?)",
            (corpus, s.source, started, os.getpid())).lastrowid for s in streams]
    for stream, import_id in zip(streams, import_ids, strict=True):
        stream.import_id = import_id
    reports: list[ImportReport] = []
    several = len(streams) > 1
    try:
        with store.transaction() as conn:
            conn.execute(f"PRAGMA cache_size=-{_IMPORT_CACHE_KIB}")  # index pages stay in memory
            conn.execute("INSERT OR IGNORE INTO corpora(name, created, source) VALUES (?, ?, ?)",
                         (corpus, started, ", ".join(s.source for s in streams if s.source)))
            upload_first = conn.execute(
                "SELECT COALESCE(MAX(seq), -1) + 1 FROM papers WHERE corpus = ?", (corpus,)).fetchone()[0]
            tally = FieldTally() if upload_first == 0 else None  # a new corpus: its field counts as rows go in
            merging: dict[str, Any] = {}
            stored_keys = StoredKeys() if upload_first == 0 else None  # a new corpus: its keys are this import's
            for stream in streams:
                filled_before = len(merging.get("filled") or ())
                try:
                    reports.append(_one_stream(conn, corpus, stream, upload_first, tally, merging, several,
                                               stored_keys))
                except MireadError as exc:
                    named = named_error(exc, stream.source) if several else exc
                    if named is exc:
                        raise
                    raise named from exc
                reports[-1].filled = len(merging.get("filled") or ()) - filled_before
            inserted = sum(r.added for r in reports)
            filled = merging.get("filled") or set()
            if inserted or filled:  # the version is this import's id: never reused, even by a re-created corpus
                if tally is not None and not filled:  # a new corpus: its papers are this import's, as they came
                    columns, labels, roles = label_columns(tally.counts(), inserted)
                else:
                    columns, labels, roles = label_columns(counted_by_sql(conn, corpus), _count(conn, corpus))
                    chosen = conn.execute("SELECT labels, labels_chosen FROM corpora WHERE name = ?",
                                          (corpus,)).fetchone()
                    if chosen["labels_chosen"]:  # the user's choice stands
                        labels = [c for c in json.loads(chosen["labels"] or "[]") if c in columns]
                conn.execute("UPDATE corpora SET version = ?, columns = ?, labels = ?, roles = ? WHERE name = ?",
                             (import_ids[-1], json.dumps(columns), json.dumps(labels), json.dumps(roles), corpus))
    except BaseException as exc:
        with store.connect() as conn:
            conn.execute(f"PRAGMA cache_size=-{_DEFAULT_CACHE_KIB}")
            conn.executemany("UPDATE imports SET status = 'failed', finished = ?, report = ? WHERE id = ?",
                             [(time.time(), json.dumps({"error": str(exc)}), i) for i in import_ids])
        raise
    with store.connect() as conn:
        conn.execute(f"PRAGMA cache_size=-{_DEFAULT_CACHE_KIB}")
        conn.executemany("UPDATE imports SET status = 'completed', finished = ?, report = ? WHERE id = ?",
                         [(time.time(), json.dumps(r.to_dict(max_errors=50)), i)
                          for r, i in zip(reports, import_ids, strict=True)])
    return reports
