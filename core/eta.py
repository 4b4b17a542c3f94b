"""Time left of long work (embedding a corpus, a background job) from the rate of its recent work.

Issue 44 saw embedding's first ETA at 350 s where 83 s remained, and 3,071 s at 28 s into a 442 s run: the rate was
measured from the click, over the model load, and in papers, while the encoder works through each chunk of papers
longest first, so the first papers of a chunk are the slowest. Here the rate is of *work* (for embedding: padded
tokens, each paper's tokens known before the run, `core.embedding.tokens.token_estimates`, in the encoder's
longest-first batches; else papers or steps), from the first report of work (after the model load), over the last
minute (`WINDOW_S`; a window growing with the run, `grow`, was no better on real runs: BENCHMARKS §27). Until
`MIN_SPAN_S` seconds of work have been seen and the last three predicted finish times agree within `AGREE` of the
time left, the answer is "estimating…"; once stable it stays.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

WINDOW_S = 60.0  # the rate is of the work done in the last minute at least ...
GROW = 0.0  # ... or in this share of the work so far, when longer (0.5 was tried: no better on real runs, §27)
MIN_SPAN_S = 5.0  # seconds of work to see before any estimate
AGREE = 0.25  # the last three predicted finishes within this share of the time left: stable
ESTIMATING = "estimating…"


def duration_text(seconds: float) -> str:
    """'1h 02m', '3m 05s' or '42s'."""
    minutes, secs = divmod(int(round(max(0.0, seconds))), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m" if hours else f"{minutes}m {secs:02d}s" if minutes else f"{secs}s"


class Eta:
    """Feed it `update(done, total)` in units of work; `seconds_left()` is None until the estimate is stable."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, window: float = WINDOW_S,
                 min_span: float = MIN_SPAN_S, grow: float = GROW) -> None:
        self.clock, self.window, self.min_span, self.grow = clock, window, min_span, grow
        self.samples: deque[tuple[float, float]] = deque()
        self.finishes: deque[float] = deque(maxlen=3)
        self.started: float | None = None
        self.done = self.total = 0.0
        self.stable = False

    def update(self, done: float, total: float) -> None:
        """Record that `done` of `total` units of work are done now."""
        now = self.clock()
        if self.started is None:
            self.started = now
        self.done, self.total = float(done), float(total)
        self.samples.append((now, self.done))
        window = max(self.window, self.grow * (now - self.started))
        while len(self.samples) > 2 and self.samples[1][0] <= now - window:
            self.samples.popleft()  # keep one sample at or before the window's start: the window stays whole
        rate = self.rate()
        if rate is None:
            return
        left = max(0.0, self.total - self.done) / rate
        self.finishes.append(now + left)
        if not self.stable and now - self.started >= self.min_span and len(self.finishes) == 3:
            self.stable = max(self.finishes) - min(self.finishes) <= AGREE * max(left, 1.0)

    def rate(self) -> float | None:
        """Units of work per second over the recent window; None before any work was timed."""
        (t0, d0), (t1, d1) = self.samples[0], self.samples[-1]
        return (d1 - d0) / (t1 - t0) if t1 > t0 and d1 > d0 else None

    def seconds_left(self) -> float | None:
        """The estimated seconds left, or None while estimating."""
        rate = self.rate() if self.samples else None
        if not self.stable or rate is None:
            return None
        return max(0.0, self.total - self.done) / rate

    def text(self) -> str:
        """'about 1m 20s left' or 'estimating…'."""
        left = self.seconds_left()
        return ESTIMATING if left is None else f"about {duration_text(left)} left"
