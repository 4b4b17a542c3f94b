"""Background jobs and their metrics: the `jobs` and `metrics` tables. Policy (when a job is dead, what its
arguments mean) stays in `core.training.jobs`; this module only reads and writes rows."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Mapping
from typing import Any

from core.errors import NotFoundError


class JobsMixin:
    """The `Store` methods for the jobs and metrics tables."""

    # -- jobs --------------------------------------------------------------------------------
    def insert_job(self, job_id: str, kind: str, args: dict[str, Any], pid: int | None) -> None:
        """Record a new queued job with its arguments (JSON) and the process that waits on it, if any."""
        with self.connect() as conn:
            conn.execute(
                "INSERT INTO jobs(id, kind, status, args, pid, created, progress) VALUES (?, ?, 'queued', ?, ?, ?, 0)",
                (job_id, kind, json.dumps(args), pid, time.time()),
            )

    def job_row(self, job_id: str) -> sqlite3.Row:
        """One job's row, or NotFoundError."""
        with self.connect() as conn:
            row = conn.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"there is no job {job_id!r}")
        return row

    def job_rows(self) -> list[sqlite3.Row]:
        """All jobs' rows, newest first."""
        with self.connect() as conn:
            return conn.execute("SELECT * FROM jobs ORDER BY created DESC").fetchall()

    def active_job_rows(self) -> list[sqlite3.Row]:
        """The rows of queued and running jobs."""
        with self.connect() as conn:
            return conn.execute("SELECT * FROM jobs WHERE status IN ('queued', 'running')").fetchall()

    def set_job_pid(self, job_id: str, pid: int) -> None:
        """Record the process that runs the job."""
        with self.connect() as conn:
            conn.execute("UPDATE jobs SET pid = ? WHERE id = ?", (pid, job_id))

    def beat_job(self, job_id: str) -> None:
        """Stamp the job's heartbeat with the current time."""
        with self.connect() as conn:
            conn.execute("UPDATE jobs SET heartbeat = ? WHERE id = ?", (time.time(), job_id))

    def start_job(self, job_id: str, pid: int) -> bool:
        """Mark a queued job running in process `pid`; False if it was no longer queued (e.g. cancelled)."""
        with self.connect() as conn:
            return conn.execute(
                "UPDATE jobs SET status = 'running', started = ?, pid = ? WHERE id = ? AND status = 'queued'",
                (time.time(), pid, job_id),
            ).rowcount == 1

    def finish_job(self, job_id: str, status: str, error: str | None = None,
                   result: dict[str, Any] | None = None) -> None:
        """Record how a job ended; a completed job's progress becomes 1 and any job's ETA is cleared."""
        with self.connect() as conn:
            conn.execute(
                "UPDATE jobs SET status = ?, finished = ?, error = ?, result = ?, eta = NULL, "
                "progress = CASE WHEN ? = 'completed' THEN 1.0 ELSE progress END WHERE id = ?",
                (status, time.time(), error, json.dumps(result) if result is not None else None, status, job_id),
            )

    def cancel_queued_job(self, job_id: str) -> None:
        """Mark the job cancelled if it is still queued (a running one stops at its next step)."""
        with self.connect() as conn:
            conn.execute("UPDATE jobs SET status = 'cancelled', finished = ? WHERE id = ? AND status = 'queued'",
                         (time.time(), job_id))

    def end_active_job(self, job_id: str, status: str, error: str | None, finished: float) -> None:
        """Mark a queued or running job ended (its process is gone); a job that already ended is left alone."""
        with self.connect() as conn:
            conn.execute(
                "UPDATE jobs SET status = ?, error = ?, finished = ?, eta = NULL "
                "WHERE id = ? AND status IN ('queued', 'running')",
                (status, error, finished, job_id),
            )

    def set_progress(self, job_id: str, fraction: float, eta: float | None, message: str | None = None) -> None:
        """Record a running job's progress (0..1), its expected finish time (unix seconds, or None) and, when given,
        what it is doing now ("computing umap map of 2,000 papers")."""
        with self.connect() as conn:
            conn.execute("UPDATE jobs SET progress = ?, eta = ?, message = COALESCE(?, message) WHERE id = ?",
                         (fraction, eta, message, job_id))

    # -- metrics -----------------------------------------------------------------------------
    def record_metrics(self, job_id: str, step: int, epoch: float, split: str, values: Mapping[str, float],
                       ts: float) -> None:
        """Add one metric row per named value, all at this step, epoch, split and time."""
        rows = [(job_id, step, epoch, split, name, float(value), ts) for name, value in values.items()]
        with self.connect() as conn:
            conn.executemany("INSERT INTO metrics(job, step, epoch, split, name, value, ts) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?)", rows)

    def metric_rows(self, job_id: str) -> list[tuple[int, float, str, str, float, float]]:
        """The job's metrics as (step, epoch, split, name, value, ts) tuples, in the order they were logged."""
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT step, epoch, split, name, value, ts FROM metrics WHERE job = ? ORDER BY step, ts, rowid",
                (job_id,),
            ).fetchall()
        return [tuple(r) for r in rows]
