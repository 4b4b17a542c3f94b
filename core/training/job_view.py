"""A job as the pages watch it: the live attributes of a map fit in a thread (`core.explore.maps.BackgroundMap`:
fraction, message, done, error, started) read from the jobs table, so a page written for the thread watches the job
unchanged, whichever tab, process or CLI started it."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.store import Store

FRESH_S = 0.25  # the row is read again when the last read is older than this


class JobView:
    """One job's state; each attribute reads the store again when the last read is older than FRESH_S."""

    def __init__(self, store: Store, job_id: str):
        self.store, self.id = store, job_id
        self._job: dict[str, Any] | None = None
        self._read = 0.0

    @property
    def job(self) -> dict[str, Any]:
        """The job's dict (`core.training.jobs.get_job`), at most FRESH_S old."""
        from core.training.jobs import get_job

        now = time.monotonic()
        if self._job is None or now - self._read >= FRESH_S:
            self._job, self._read = get_job(self.store, self.id), now
        return self._job

    @property
    def fraction(self) -> float:
        return min(max(float(self.job["progress"]), 0.0), 1.0)

    @property
    def message(self) -> str:
        job = self.job
        if job["status"] == "queued":
            return "queued behind another job of its kind"
        return ("stopping" if job["cancel_requested"] and job["status"] == "running" else job["message"]
                or job["status"])

    @property
    def done(self) -> bool:
        return self.job["status"] in ("completed", "failed", "cancelled")

    @property
    def error(self) -> str | None:
        """None unless the job ended without its result: its error, or that it was cancelled."""
        job = self.job
        if job["status"] == "failed":
            return job["error"] or "the job failed"
        if job["status"] == "cancelled":
            return f"{job['what']} was cancelled"
        return None

    @property
    def started(self) -> float:
        """When it was asked for (unix seconds): the wait the user has had."""
        return float(self.job["created"] or 0.0)

    @property
    def eta_s(self) -> float | None:
        return self.job["eta_s"]
