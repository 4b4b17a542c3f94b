"""Where a training run reports to: metric rows, progress and ETA in the store; a silent stand-in; out-of-memory.

The ETA is measured, not guessed from paper counts: the run plans how many optimizer steps and how many papers
it will encode without gradients (head warm-up features, the base score, each validation, the test papers), times
each part as it goes, and the time left is the steps left times the mean step time plus the papers left times the
mean time per encoded paper. Before the first step is timed, a step is taken to cost three encodings of its papers
(forward and backward).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.store import Store

STEP_COST = 3.0  # a training step's papers cost about three gradient-free encodings each (forward + backward)
REPORT_EVERY_S = 1.0  # the store is written at most this often


@dataclass
class Plan:
    """The work of one run: optimizer steps, papers per step, and papers encoded without gradients."""

    steps: int
    step_papers: int
    forward_papers: float


class Recorder:
    """Writes metric rows and the job's progress and ETA (finish time, unix seconds) to the store."""

    def __init__(self, store: Store, job_id: str, plan: Plan, clock: Callable[[], float] = time.time):
        self.store, self.job_id, self.plan, self.clock = store, job_id, plan, clock
        self.steps_done, self.step_s = 0, 0.0
        self.forward_done, self.forward_s = 0.0, 0.0
        self.reported = float("-inf")

    def log(self, step: int, epoch: float, split: str, values: dict[str, float]) -> None:
        self.store.record_metrics(self.job_id, step, round(epoch, 4), split, values, ts=self.clock())

    def forward(self, papers: float, seconds: float) -> None:
        """`papers` encoded without gradients in `seconds`."""
        self.forward_done += papers
        self.forward_s += seconds
        self.report()

    def step(self, seconds: float) -> None:
        """One optimizer step done in `seconds`."""
        self.steps_done += 1
        self.step_s += seconds
        self.report()

    def remaining(self) -> float | None:
        """Seconds of planned work left, from the measured rates (None before anything was timed)."""
        per_paper = self.forward_s / self.forward_done if self.forward_done else None
        per_step = self.step_s / self.steps_done if self.steps_done else None
        if per_step is None and per_paper is None:
            return None
        papers = max(1, self.plan.step_papers)
        per_step = per_step if per_step is not None else STEP_COST * papers * per_paper
        per_paper = per_paper if per_paper is not None else per_step / (STEP_COST * papers)
        return (max(0.0, self.plan.forward_papers - self.forward_done) * per_paper
                + max(0, self.plan.steps - self.steps_done) * per_step)

    def fraction(self) -> float:
        """Share of the run's measured work done (0 before anything was timed)."""
        left = self.remaining()
        done = self.step_s + self.forward_s
        return 0.0 if left is None or done + left <= 0 else min(1.0, done / (done + left))

    def report(self, force: bool = False) -> None:
        """Write progress and the finish time to the store (at most once a second unless forced)."""
        now = self.clock()
        if not force and now - self.reported < REPORT_EVERY_S:
            return
        self.reported = now
        left = self.remaining()
        self.store.set_progress(self.job_id, self.fraction(), None if left is None else now + left)

    def finished(self) -> None:
        self.store.set_progress(self.job_id, 1.0, self.clock())


class QuietRecorder:
    """A recorder stand-in whose timing calls do nothing (the head refit after specter steps)."""

    def forward(self, papers: float, seconds: float) -> None:
        pass


def out_of_memory(exc: BaseException) -> bool:
    return isinstance(exc, MemoryError) or (isinstance(exc, RuntimeError) and "out of memory" in str(exc).lower())
