"""Where a training run reports to: metric rows, progress and ETA in the store; a silent stand-in; out-of-memory."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.store import Store


class Recorder:
    """Writes metric rows and the job's progress and ETA (finish time, unix seconds) to the store."""

    def __init__(self, store: Store, job_id: str, total_units: float):
        self.store, self.job_id, self.total = store, job_id, max(total_units, 1e-9)
        self.started = time.time()

    def log(self, step: int, epoch: float, split: str, values: dict[str, float]) -> None:
        self.store.record_metrics(self.job_id, step, round(epoch, 4), split, values, ts=time.time())

    def progress(self, done_units: float) -> None:
        fraction = min(1.0, done_units / self.total)
        elapsed = time.time() - self.started
        eta = time.time() + elapsed * (1 - fraction) / fraction if fraction > 0 else None
        self.store.set_progress(self.job_id, fraction, eta)


class QuietRecorder:
    """A recorder stand-in whose progress calls do nothing (the head refit after specter steps)."""

    def progress(self, done_units: float) -> None:
        pass


def out_of_memory(exc: BaseException) -> bool:
    return isinstance(exc, MemoryError) or (isinstance(exc, RuntimeError) and "out of memory" in str(exc).lower())
