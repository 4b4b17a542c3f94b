"""The workspace: a SQLite catalog (corpora, papers, embeddings, models, jobs, metrics) plus array files."""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from core.io import RowWarning
from core.errors import CorpusError, NotEmbeddedError, NotFoundError, StoreError
from core.records import Paper, RowError, duplicate_key, scrub, text_hash

SCHEMA = """
CREATE TABLE IF NOT EXISTS corpora (
    name TEXT PRIMARY KEY, created REAL, source TEXT, version INTEGER DEFAULT 0,
    columns TEXT DEFAULT '[]', labels TEXT DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS papers (
    corpus TEXT, pid TEXT, seq INTEGER, title TEXT, abstract TEXT, fields TEXT, hash TEXT, dkey TEXT,
    PRIMARY KEY (corpus, pid)
);
CREATE UNIQUE INDEX IF NOT EXISTS papers_dkey ON papers(corpus, dkey);
CREATE INDEX IF NOT EXISTS papers_seq ON papers(corpus, seq);
CREATE TABLE IF NOT EXISTS emb_chunks (
    id INTEGER PRIMARY KEY AUTOINCREMENT, model_fp TEXT, file TEXT, n INTEGER, dim INTEGER
);
CREATE TABLE IF NOT EXISTS emb_keys (
    model_fp TEXT, hash TEXT, chunk INTEGER, offset INTEGER, PRIMARY KEY (model_fp, hash)
);
CREATE TABLE IF NOT EXISTS models (name TEXT PRIMARY KEY, spec TEXT, created REAL);
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY, kind TEXT, status TEXT, args TEXT, pid INTEGER, created REAL, started REAL,
    finished REAL, heartbeat REAL, error TEXT, result TEXT, progress REAL DEFAULT 0, eta REAL
);
CREATE TABLE IF NOT EXISTS metrics (
    job TEXT, step INTEGER, epoch REAL, split TEXT, name TEXT, value REAL, ts REAL
);
CREATE INDEX IF NOT EXISTS metrics_job ON metrics(job, step);
CREATE TABLE IF NOT EXISTS imports (
    id INTEGER PRIMARY KEY AUTOINCREMENT, corpus TEXT, file TEXT, status TEXT, started REAL,
    finished REAL, report TEXT, pid INTEGER
);
CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, value TEXT, created REAL);
"""

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._ -]{0,63}$")
_LABEL_MAX_DISTINCT = 5000
_NOT_LABELS = {"issue", "pages", "issn", "pubdate", "pmc", "volume", "number", "month", "journal_abbrev",
               "doi", "url", "pmid", "language", "key", "entrytype"}
_BATCH = 2000
_FINGERPRINT = r"[0-9a-f]{16}"  # models.fingerprint(): every derived array's key starts with it
_STALE_TEMP_S = 3600.0  # repair() removes leftover temporary/orphan array files older than this


def check_name(name: str, what: str = "name") -> str:
    """Return `name` stripped if it is a safe corpus/model/job name, else raise one sentence."""
    cleaned = (name or "").strip()
    if not _NAME.match(cleaned) or ".." in cleaned:
        raise CorpusError(
            f"{what} {name!r} is not allowed; use 1-64 letters, digits, spaces, '.', '_' or '-', "
            "starting with a letter or digit"
        )
    return cleaned


def atomic_save_npy(path: Path, array: np.ndarray) -> None:
    """Write an .npy file atomically: a temporary file in the same folder, fsync, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            np.save(handle, array)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Write a text file atomically (temporary file then rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@dataclass
class ImportReport:
    """What an import did: counts and the skipped rows with their reasons."""

    corpus: str
    imported: int = 0  # valid rows read: added + merged
    added: int = 0  # new papers in the corpus
    merged: int = 0  # rows folded into a paper already there (same id, or same normalised title+abstract)
    skipped: int = 0
    errors: list[RowError] = field(default_factory=list)
    warnings: list[RowWarning] = field(default_factory=list)  # fields not read whole; their papers were imported

    def to_dict(self, max_errors: int = 1000) -> dict[str, Any]:
        """The report as JSON-ready data; at most `max_errors` errors and as many warnings."""
        return {
            "corpus": self.corpus,
            "imported": self.imported,
            "added": self.added,
            "merged": self.merged,
            "skipped": self.skipped,
            "errors": [{"row": e.row, "reason": e.reason} for e in self.errors[:max_errors]],
            "warnings": [{"row": w.row, "column": w.column, "reason": w.reason} for w in self.warnings[:max_errors]],
        }


@dataclass
class CorpusInfo:
    """A corpus as listed: name, size, columns, label columns, version."""

    name: str
    papers: int
    columns: list[str]
    labels: list[str]
    version: int
    source: str
    created: float


def _busy(exc: sqlite3.OperationalError) -> StoreError | None:
    """The one-sentence StoreError for a write that waited too long for another writer, else None."""
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return StoreError(
            "the workspace is busy with another long write (an import or an embedding); "
            "try again when it has finished"
        )
    return None


def pid_alive(pid: int | None) -> bool:
    """Whether a process with this id exists on this machine (and is not a zombie)."""
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")


class Store:
    """A workspace folder: `catalog.sqlite` plus `arrays/` (embeddings, indexes, maps) and `models/`."""

    BUSY_TIMEOUT_S = 60.0  # how long a write waits for another process's write before StoreError

    def __init__(self, root: str | Path):
        self.root = Path(root).expanduser().resolve()
        self.root.mkdir(parents=True, exist_ok=True)
        self.arrays = self.root / "arrays"
        self.models_dir = self.root / "models"
        self.jobs_dir = self.root / "jobs"
        for folder in (self.arrays, self.models_dir, self.jobs_dir):
            folder.mkdir(exist_ok=True)
        self.db_path = self.root / "catalog.sqlite"
        self._local = threading.local()
        with self.connect() as conn:
            conn.executescript(SCHEMA)
            if "pid" not in {r["name"] for r in conn.execute("PRAGMA table_info(imports)")}:
                try:  # a workspace made before imports recorded their process
                    conn.execute("ALTER TABLE imports ADD COLUMN pid INTEGER")
                except sqlite3.OperationalError as exc:  # another process added it first
                    if "duplicate column" not in str(exc):
                        raise

    # -- connections -------------------------------------------------------------------------
    def _connection(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.db_path, timeout=self.BUSY_TIMEOUT_S, isolation_level=None)
            conn.row_factory = sqlite3.Row
            conn.execute(f"PRAGMA busy_timeout={int(self.BUSY_TIMEOUT_S * 1000)}")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=OFF")
            self._local.conn = conn
        return conn

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        """A thread-local connection in autocommit mode; a write that waited too long raises StoreError."""
        try:
            yield self._connection()
        except sqlite3.OperationalError as exc:
            busy = _busy(exc)
            if busy is None:
                raise
            raise busy from exc

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception; StoreError if another writer holds on."""
        conn = self._connection()
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            busy = _busy(exc)
            if busy is None:
                raise
            raise busy from exc
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    # -- corpora -----------------------------------------------------------------------------
    def corpora(self) -> list[CorpusInfo]:
        """All corpora with their sizes, newest first."""
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT c.*, (SELECT COUNT(*) FROM papers p WHERE p.corpus = c.name) AS n "
                "FROM corpora c ORDER BY created DESC"
            ).fetchall()
        return [self._info(r) for r in rows]

    @staticmethod
    def _info(row: sqlite3.Row) -> CorpusInfo:
        return CorpusInfo(
            name=row["name"],
            papers=row["n"],
            columns=json.loads(row["columns"] or "[]"),
            labels=json.loads(row["labels"] or "[]"),
            version=row["version"],
            source=row["source"] or "",
            created=row["created"],
        )

    def corpus(self, name: str) -> CorpusInfo:
        """One corpus, or NotFoundError naming it."""
        with self.connect() as conn:
            row = conn.execute(
                "SELECT c.*, (SELECT COUNT(*) FROM papers p WHERE p.corpus = c.name) AS n "
                "FROM corpora c WHERE name = ?",
                (name,),
            ).fetchone()
        if row is None:
            known = ", ".join(c.name for c in self.corpora()) or "none yet"
            raise NotFoundError(f"there is no corpus named {name!r} (corpora: {known})")
        return self._info(row)

    def corpus_version(self, name: str) -> int:
        """A corpus's version alone: one indexed lookup, without counting its papers like `corpus()` does."""
        with self.connect() as conn:
            row = conn.execute("SELECT version FROM corpora WHERE name = ?", (name,)).fetchone()
        if row is None:
            return self.corpus(name).version  # raises the NotFoundError naming the known corpora
        return int(row[0])

    def has_corpus(self, name: str) -> bool:
        with self.connect() as conn:
            return conn.execute("SELECT 1 FROM corpora WHERE name = ?", (name,)).fetchone() is not None

    def import_papers(
        self, corpus: str, records: Iterable[Paper | RowError | RowWarning], source: str = ""
    ) -> ImportReport:
        """Add papers to a corpus in one transaction; duplicates (same id or same text) are merged.

        If reading fails part-way (a CorpusError from the reader), nothing is stored.
        """
        corpus = check_name(corpus, "corpus name")
        source = scrub(source)
        report = ImportReport(corpus=corpus)
        started = time.time()
        with self.connect() as conn:
            cur = conn.execute(
                "INSERT INTO imports(corpus, file, status, started, pid) VALUES (?, ?, 'running', ?, ?)",
                (corpus, source, started, os.getpid()),
            )
            import_id = cur.lastrowid
        try:
            with self.transaction() as conn:
                conn.execute(
                    "INSERT OR IGNORE INTO corpora(name, created, source) VALUES (?, ?, ?)",
                    (corpus, started, source),
                )
                seq = conn.execute(
                    "SELECT COALESCE(MAX(seq), -1) + 1 FROM papers WHERE corpus = ?", (corpus,)
                ).fetchone()[0]
                batch: list[tuple] = []
                attempted = 0
                before = conn.total_changes
                for record in records:
                    if isinstance(record, RowError):
                        report.skipped += 1
                        report.errors.append(record)
                        continue
                    if isinstance(record, RowWarning):
                        report.warnings.append(record)
                        continue
                    batch.append(self._paper_row(corpus, seq, record))
                    seq += 1
                    attempted += 1
                    if len(batch) >= _BATCH:
                        self._insert(conn, batch)
                        batch = []
                self._insert(conn, batch)
                inserted = conn.total_changes - before
                report.imported = attempted
                report.added = inserted
                report.merged = attempted - inserted
                if attempted == 0 and not self._count(conn, corpus):
                    raise CorpusError(
                        f"{source or 'the file'} has no usable papers: every row lacked a title or abstract"
                        if report.skipped
                        else f"{source or 'the file'} contains no papers"
                    )
                if inserted:  # the version is this import's id: never reused, even by a re-created corpus
                    columns, labels = self._label_columns(conn, corpus)
                    conn.execute(
                        "UPDATE corpora SET version = ?, columns = ?, labels = ? WHERE name = ?",
                        (import_id, json.dumps(columns), json.dumps(labels), corpus),
                    )
        except BaseException as exc:
            with self.connect() as conn:
                conn.execute(
                    "UPDATE imports SET status = 'failed', finished = ?, report = ? WHERE id = ?",
                    (time.time(), json.dumps({"error": str(exc)}), import_id),
                )
            raise
        with self.connect() as conn:
            conn.execute(
                "UPDATE imports SET status = 'completed', finished = ?, report = ? WHERE id = ?",
                (time.time(), json.dumps(report.to_dict(max_errors=50)), import_id),
            )
        return report

    def unfinished_imports(self) -> list[dict[str, Any]]:
        """Imports whose process died before finishing (killed) and that no later import of the file redid.

        None of their rows were kept: importing the file again finishes the work.
        """
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT id, corpus, file, started, pid FROM imports i WHERE status = 'running' AND NOT EXISTS "
                "(SELECT 1 FROM imports j WHERE j.corpus = i.corpus AND j.file = i.file AND j.id > i.id "
                "AND j.status = 'completed') ORDER BY id"
            ).fetchall()
        return [dict(r) for r in rows if not pid_alive(r["pid"])]

    @staticmethod
    def _paper_row(corpus: str, seq: int, record: Paper) -> tuple:
        """The papers-table row of a record; NaN/inf in its fields become null (SQLite's JSON has no NaN)."""
        try:
            fields = json.dumps(record.fields, ensure_ascii=False, default=str, allow_nan=False)
        except ValueError:
            fields = json.dumps(scrub(record.fields), ensure_ascii=False, default=str)
        return (corpus, record.id, seq, record.title, record.abstract, fields, record.hash,
                duplicate_key(record.title, record.abstract))

    @staticmethod
    def _scrubbed_row(row: tuple) -> tuple:
        """A row whose text had lone surrogates (e.g. from JSON escapes), with them replaced by U+FFFD."""
        corpus, pid, seq, title, abstract, fields = row[:6]
        pid, title, abstract, fields = (scrub(v) for v in (pid, title, abstract, fields))
        return (corpus, pid, seq, title, abstract, fields, text_hash(title, abstract),
                duplicate_key(title, abstract))

    @staticmethod
    def _insert(conn: sqlite3.Connection, batch: list[tuple]) -> None:
        sql = ("INSERT OR IGNORE INTO papers(corpus, pid, seq, title, abstract, fields, hash, dkey) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        if batch:
            try:
                conn.executemany(sql, batch)
            except UnicodeEncodeError:  # rows before the bad one are in; re-inserting them is ignored
                conn.executemany(sql, [Store._scrubbed_row(row) for row in batch])

    @staticmethod
    def _count(conn: sqlite3.Connection, corpus: str) -> int:
        return conn.execute("SELECT COUNT(*) FROM papers WHERE corpus = ?", (corpus,)).fetchone()[0]

    @staticmethod
    def _label_columns(conn: sqlite3.Connection, corpus: str) -> tuple[list[str], list[str]]:
        """All field names, and those that look like labels (2+ repeated scalar values)."""
        n = Store._count(conn, corpus)
        rows = conn.execute(
            "SELECT j.key AS key, COUNT(DISTINCT j.value) AS distinct_values, COUNT(j.value) AS filled, "
            "SUM(j.type IN ('array', 'object')) AS nested "
            "FROM papers p, json_each(p.fields) j WHERE p.corpus = ? GROUP BY j.key",
            (corpus,),
        ).fetchall()
        columns = sorted(r["key"] for r in rows)
        labels = [
            r["key"]
            for r in sorted(rows, key=lambda r: r["distinct_values"])
            if not r["nested"]
            and r["key"].lower() not in _NOT_LABELS
            and 2 <= r["distinct_values"] <= min(_LABEL_MAX_DISTINCT, max(2, int(0.5 * n)))
            and r["filled"] >= 0.2 * n
        ]
        preferred = ["journal", "venue", "category", "field", "disease", "label", "year"]
        labels.sort(key=lambda k: (preferred.index(k) if k in preferred else len(preferred), k))
        return columns, labels

    def delete_corpus(self, name: str) -> None:
        """Remove a corpus and its papers (cached embeddings stay: they are keyed by text)."""
        self.corpus(name)
        with self.transaction() as conn:
            running = conn.execute(
                "SELECT id FROM jobs WHERE status IN ('queued', 'running') AND instr(args, ?) > 0",
                (f'"corpus": {json.dumps(name)}',),
            ).fetchone()
            if running:
                raise CorpusError(f"corpus {name!r} is in use by job {running['id']}; cancel it first")
            conn.execute("DELETE FROM papers WHERE corpus = ?", (name,))
            conn.execute("DELETE FROM corpora WHERE name = ?", (name,))
        own = re.compile(re.escape(self.corpus_slug(name)) + "-" + _FINGERPRINT + r"-v\d+\b")
        for path in self.arrays.glob("*/*"):
            if own.match(path.name):
                path.unlink(missing_ok=True)

    @staticmethod
    def corpus_slug(name: str) -> str:
        """A file-name-safe slug for a corpus name, distinct for distinct names ('a b' and 'a_b' differ)."""
        slug = re.sub(r"[^A-Za-z0-9._-]", "_", name)
        if slug != name:
            slug += "~" + hashlib.blake2b(name.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()
        return slug

    # -- papers ------------------------------------------------------------------------------
    def papers_frame(self, corpus: str, with_abstract: bool = True) -> "Any":
        """All papers of a corpus as a pandas DataFrame in corpus order (id, title, abstract, fields...)."""
        import pandas as pd

        self.corpus(corpus)
        cols = "pid, title, abstract, fields" if with_abstract else "pid, title, fields"
        with self.connect() as conn:
            rows = conn.execute(
                f"SELECT {cols} FROM papers WHERE corpus = ? ORDER BY seq", (corpus,)
            ).fetchall()
        records = []
        for r in rows:
            rec = {"id": r["pid"], "title": r["title"]}
            if with_abstract:
                rec["abstract"] = r["abstract"]
            for key, value in json.loads(r["fields"] or "{}").items():
                if key not in ("id", "title", "abstract"):
                    rec[key] = value
            records.append(rec)
        return pd.DataFrame.from_records(records) if records else pd.DataFrame(columns=["id", "title"])

    def papers(self, corpus: str) -> list[Paper]:
        """All papers of a corpus as Paper records, in corpus order."""
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT pid, title, abstract, fields FROM papers WHERE corpus = ? ORDER BY seq", (corpus,)
            ).fetchall()
        return [Paper(r["pid"], r["title"], r["abstract"], json.loads(r["fields"] or "{}")) for r in rows]

    def paper(self, corpus: str, pid: str) -> Paper:
        """One paper by id, or NotFoundError."""
        with self.connect() as conn:
            r = conn.execute(
                "SELECT pid, title, abstract, fields FROM papers WHERE corpus = ? AND pid = ?", (corpus, pid)
            ).fetchone()
        if r is None:
            raise NotFoundError(f"corpus {corpus!r} has no paper with id {pid!r}")
        return Paper(r["pid"], r["title"], r["abstract"], json.loads(r["fields"] or "{}"))

    def paper_hashes(self, corpus: str) -> list[str]:
        """Text hashes of a corpus's papers, in corpus order."""
        with self.connect() as conn:
            return [
                r[0]
                for r in conn.execute(
                    "SELECT hash FROM papers WHERE corpus = ? ORDER BY seq", (corpus,)
                ).fetchall()
            ]

    # -- embeddings --------------------------------------------------------------------------
    def missing_hashes(self, corpus: str, model_fp: str) -> list[str]:
        """Text hashes in the corpus that have no cached embedding for this model (corpus order)."""
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT DISTINCT p.hash FROM papers p LEFT JOIN emb_keys k "
                "ON k.model_fp = ? AND k.hash = p.hash WHERE p.corpus = ? AND k.hash IS NULL ORDER BY p.seq",
                (model_fp, corpus),
            ).fetchall()
        return [r[0] for r in rows]

    def add_embeddings(self, model_fp: str, hashes: list[str], vectors: np.ndarray) -> None:
        """Store a chunk of embeddings: the array file first (atomic), then its keys in one transaction."""
        if len(hashes) != len(vectors):
            raise StoreError("embedding chunk has a different number of vectors and keys")
        if not hashes:
            return
        folder = self.arrays / "embeddings" / model_fp
        name = f"chunk-{time.time_ns()}-{os.getpid()}.npy"
        atomic_save_npy(folder / name, np.ascontiguousarray(vectors, dtype=np.float32))
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO emb_chunks(model_fp, file, n, dim) VALUES (?, ?, ?, ?)",
                (model_fp, name, len(hashes), int(vectors.shape[1])),
            )
            chunk = cur.lastrowid
            conn.executemany(
                "INSERT OR REPLACE INTO emb_keys(model_fp, hash, chunk, offset) VALUES (?, ?, ?, ?)",
                [(model_fp, h, chunk, i) for i, h in enumerate(hashes)],
            )

    def _load_chunk(self, model_fp: str, chunk_id: int, file: str) -> np.ndarray:
        path = self.arrays / "embeddings" / model_fp / file
        try:
            return np.load(path, mmap_mode="r")
        except (OSError, ValueError, EOFError) as exc:
            raise StoreError(
                f"embedding file {path} is missing or damaged ({exc.__class__.__name__}); "
                "run `python -m core repair`, then embed the corpus again"
            ) from exc

    def embeddings(self, corpus: str, model_fp: str) -> np.ndarray:
        """The corpus's embedding matrix [n, d] in corpus order; StoreError if any paper is not embedded."""
        info = self.corpus(corpus)
        cached = self.arrays / "matrices" / f"{self.corpus_slug(corpus)}-{model_fp}-v{info.version}.npy"
        if cached.exists():
            try:
                matrix = np.load(cached, mmap_mode="r")
                if matrix.shape[0] == info.papers:
                    return matrix
            except (OSError, ValueError, EOFError):
                pass
            cached.unlink(missing_ok=True)
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT k.chunk, k.offset, c.file, c.dim FROM papers p "
                "LEFT JOIN emb_keys k ON k.model_fp = ? AND k.hash = p.hash "
                "LEFT JOIN emb_chunks c ON c.id = k.chunk "
                "WHERE p.corpus = ? ORDER BY p.seq",
                (model_fp, corpus),
            ).fetchall()
        if not rows:
            return np.zeros((0, 0), dtype=np.float32)
        if any(r["chunk"] is None for r in rows):
            missing = sum(r["chunk"] is None for r in rows)
            raise NotEmbeddedError(f"{missing} papers of corpus {corpus!r} are not embedded with this model yet")
        chunks = {r["chunk"]: r["file"] for r in rows}
        loaded = {cid: self._load_chunk(model_fp, cid, file) for cid, file in chunks.items()}
        dim = rows[0]["dim"]
        matrix = np.empty((len(rows), dim), dtype=np.float32)
        chunk_ids = np.fromiter((r["chunk"] for r in rows), dtype=np.int64, count=len(rows))
        offsets = np.fromiter((r["offset"] for r in rows), dtype=np.int64, count=len(rows))
        for cid, arr in loaded.items():
            where = np.nonzero(chunk_ids == cid)[0]
            if arr.shape[1:] != (dim,) or offsets[where].max(initial=-1) >= arr.shape[0]:
                raise StoreError(
                    f"embedding chunk {chunks[cid]} does not match its catalog (damaged); "
                    "run `python -m core repair`, then embed the corpus again"
                )
            matrix[where] = arr[offsets[where]]
        for stale in cached.parent.glob(f"{self.corpus_slug(corpus)}-{model_fp}-v*.npy"):
            stale.unlink(missing_ok=True)
        atomic_save_npy(cached, matrix)
        return matrix

    def embedded_models(self, corpus: str) -> list[str]:
        """Model fingerprints that have embedded every paper of the corpus."""
        with self.connect() as conn:
            n = self._count(conn, corpus)
            rows = conn.execute(
                "SELECT k.model_fp, COUNT(DISTINCT p.hash) AS n FROM papers p JOIN emb_keys k ON k.hash = p.hash "
                "WHERE p.corpus = ? GROUP BY k.model_fp",
                (corpus,),
            ).fetchall()
            distinct = conn.execute(
                "SELECT COUNT(DISTINCT hash) FROM papers WHERE corpus = ?", (corpus,)
            ).fetchone()[0]
        return [r["model_fp"] for r in rows if n and r["n"] == distinct]

    def repair(self) -> dict[str, int]:
        """Drop catalog entries whose array files are missing, unreadable or short; returns counts."""
        dropped = 0
        with self.connect() as conn:
            chunks = conn.execute("SELECT id, model_fp, file, n, dim FROM emb_chunks").fetchall()
        for chunk in chunks:
            try:
                array = self._load_chunk(chunk["model_fp"], chunk["id"], chunk["file"])
                healthy = array.ndim == 2 and array.shape[0] >= chunk["n"] and array.shape[1] == chunk["dim"]
            except StoreError:
                healthy = False
            if not healthy:
                with self.transaction() as conn:
                    conn.execute("DELETE FROM emb_keys WHERE chunk = ?", (chunk["id"],))
                    conn.execute("DELETE FROM emb_chunks WHERE id = ?", (chunk["id"],))
                dropped += 1
        for matrix in (self.arrays / "matrices").glob("*.npy"):
            try:
                np.load(matrix, mmap_mode="r")
            except (OSError, ValueError, EOFError):
                matrix.unlink(missing_ok=True)
                dropped += 1
        return {"dropped_chunks": dropped, "removed_leftovers": self._remove_leftovers()}

    def _remove_leftovers(self) -> int:
        """Delete old temporary files and chunk files the catalog never recorded (a write killed mid-way)."""
        with self.connect() as conn:
            known = {(r["model_fp"], r["file"]) for r in conn.execute("SELECT model_fp, file FROM emb_chunks")}
        cutoff = time.time() - _STALE_TEMP_S
        removed = 0
        for path in self.arrays.rglob("*"):
            orphan = path.suffix == ".npy" and path.parent.parent.name == "embeddings" and (
                path.parent.name, path.name) not in known
            try:
                old = path.is_file() and path.stat().st_mtime < cutoff
            except OSError:
                continue
            if old and (path.suffix == ".tmp" or orphan):
                path.unlink(missing_ok=True)
                removed += 1
        return removed

    # -- models ------------------------------------------------------------------------------
    def save_model(self, name: str, spec: dict[str, Any]) -> None:
        with self.connect() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO models(name, spec, created) VALUES (?, ?, ?)",
                (name, json.dumps(spec), time.time()),
            )

    def saved_models(self) -> list[dict[str, Any]]:
        with self.connect() as conn:
            rows = conn.execute("SELECT name, spec FROM models ORDER BY created").fetchall()
        return [dict(json.loads(r["spec"]), name=r["name"]) for r in rows]

    def delete_model(self, name: str) -> None:
        with self.connect() as conn:
            conn.execute("DELETE FROM models WHERE name = ?", (name,))

    # -- small key/value cache (maps, evaluation results) ------------------------------------
    def cache_get(self, key: str) -> Any | None:
        with self.connect() as conn:
            row = conn.execute("SELECT value FROM cache WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def cache_put(self, key: str, value: Any) -> None:
        with self.connect() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO cache(key, value, created) VALUES (?, ?, ?)",
                (key, json.dumps(value), time.time()),
            )

    def array_path(self, kind: str, corpus: str, key: str, suffix: str = ".npy") -> Path:
        """Where a derived array (map coordinates, index) for a corpus lives."""
        folder = self.arrays / kind
        folder.mkdir(parents=True, exist_ok=True)
        return folder / f"{self.corpus_slug(corpus)}-{key}{suffix}"
