"""The workspace: a SQLite catalog (corpora, papers, embeddings, models, jobs, metrics) plus array files.

This module holds the schema, the connections and transactions; `Store` is assembled from one mixin per
concern: corpora and papers (`core.store.corpora`), embedding arrays (`core.store.vectors`), saved models
(`core.store.models`), the key/value cache (`core.store.cache`), jobs and their metrics (`core.store.jobs`), and
topic names (`core.store.topics`), collections of papers (`core.store.collections`), and the trash of deleted
corpora, models and collections (`core.store.trash`).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from core.errors import StoreError
from core.store.cache import CacheMixin
from core.store.collections import SCHEMA as COLLECTIONS_SCHEMA
from core.store.collections import CollectionsMixin
from core.store.corpora import CorporaMixin
from core.store.figures import SCHEMA as FIGURES_SCHEMA
from core.store.figures import FiguresMixin
from core.store.identity import SCHEMA as IDENTITY_SCHEMA
from core.store.jobs import JobsMixin
from core.store.key_upkeep import backfill_keys, refresh_folded_keys
from core.store.links import SCHEMA as LINKS_SCHEMA
from core.store.links import LinksMixin
from core.store.merging import SCHEMA as MERGING_SCHEMA
from core.store.merging import add_doi_column, add_provenance_columns
from core.store.models import ModelsMixin
from core.store.paper_trash import PaperTrashMixin
from core.store.topics import SCHEMA as TOPICS_SCHEMA
from core.store.topics import TopicsMixin
from core.store.trash import SCHEMA as TRASH_SCHEMA
from core.store.trash import TrashMixin
from core.store.vectors import VectorsMixin

SCHEMA = """
CREATE TABLE IF NOT EXISTS corpora (
    name TEXT PRIMARY KEY, created REAL, source TEXT, version INTEGER DEFAULT 0,
    columns TEXT DEFAULT '[]', labels TEXT DEFAULT '[]', roles TEXT DEFAULT '{}', labels_chosen INTEGER DEFAULT 0
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
    finished REAL, heartbeat REAL, error TEXT, result TEXT, progress REAL DEFAULT 0, eta REAL, message TEXT
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


def _busy(exc: sqlite3.OperationalError) -> StoreError | None:
    """The one-sentence StoreError for a write that waited too long for another writer, else None."""
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return StoreError(
            "the workspace is busy with another long write (an import or an embedding); "
            "try again when it has finished"
        )
    return None


class Store(TrashMixin, CorporaMixin, VectorsMixin, ModelsMixin, CacheMixin, JobsMixin, FiguresMixin, LinksMixin,
            TopicsMixin, CollectionsMixin, PaperTrashMixin):
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
        self._stamp_lock = threading.Lock()
        self._stamp_conn: sqlite3.Connection | None = None
        self._kept_info: tuple[int, dict] = (-1, {})  # corpus info per change stamp, for every thread
        with self.connect() as conn:
            had_keys = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'paper_keys'").fetchone() is not None
            conn.executescript(SCHEMA + FIGURES_SCHEMA + LINKS_SCHEMA + TOPICS_SCHEMA + TRASH_SCHEMA
                               + COLLECTIONS_SCHEMA + IDENTITY_SCHEMA + MERGING_SCHEMA)
            for table, column, kind in (("imports", "pid", "INTEGER"), ("corpora", "roles", "TEXT DEFAULT '{}'"),
                                         ("corpora", "labels_chosen", "INTEGER DEFAULT 0"),
                                         ("jobs", "message", "TEXT")):
                if column in {r["name"] for r in conn.execute(f"PRAGMA table_info({table})")}:
                    continue
                try:  # a workspace made before this column existed
                    conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
                except sqlite3.OperationalError as exc:  # another process added it first
                    if "duplicate column" not in str(exc):
                        raise
            add_doi_column(conn)  # papers.doi: duplicates merge by DOI (core.store.merging)
            add_provenance_columns(conn)  # papers.import_id, papers.srow: where each paper came from
            if not had_keys:  # a workspace made before match keys: its papers get theirs once
                backfill_keys(conn)
            refresh_folded_keys(conn)  # keys computed by an older rule (once)

    # -- connections -------------------------------------------------------------------------
    def _connection(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.db_path, timeout=self.BUSY_TIMEOUT_S, isolation_level=None)
            conn.row_factory = sqlite3.Row
            conn.execute(f"PRAGMA busy_timeout={int(self.BUSY_TIMEOUT_S * 1000)}")
            conn.execute("PRAGMA page_size=16384")  # a new catalog only (16 KiB: fewer page writes on import)
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

    def change_stamp(self) -> int:
        """A number that changes whenever any connection (any thread, any process) commits to the catalog:
        `PRAGMA data_version` of a connection kept only for asking it (it never writes, so every commit is another
        connection's). Each script run of the app is a new thread with a new connection: a per-connection stamp
        found nothing kept on any page run (BENCHMARKS §31y)."""
        with self._stamp_lock:
            if self._stamp_conn is None:
                self._stamp_conn = sqlite3.connect(self.db_path, timeout=self.BUSY_TIMEOUT_S, isolation_level=None,
                                                   check_same_thread=False)
            return int(self._stamp_conn.execute("PRAGMA data_version").fetchone()[0])

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
