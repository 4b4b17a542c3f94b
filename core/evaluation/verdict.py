"""Whether a model beats another on the same held-out papers: a paired bootstrap over papers, a 95 % interval of the
change, and the one sentence every page and the CLI show for it.

`paired_verdict` computes the figures from per-paper scores (1 right, 0 wrong); `Verdict.sentence` words them. The
Train page, the Evaluate page, the Journals page, the model card and `models --json` all read a stored `Verdict`
(`Verdict.from_dict`), so they can never disagree about a model.

Two rules keep a verdict from overstating:

* **Enough test papers** (`MIN_PAPERS`, `MIN_CLASSES`, `MIN_PER_CLASS`): at least 30 papers, in at least 2 classes that
  have 2 or more test papers each. Below 30 papers a 95 % interval of an accuracy change is about ±18 points even
  when nothing changes, and a percentile bootstrap under-covers; with fewer than two classes of two papers the test
  papers measure one class, not whether the model tells classes apart. Otherwise the verdict is
  "too few test papers to judge (n)", and nothing is claimed.
* **An interval never narrower than n allows** (`floor_half_width`): when the bootstrap sees no changed prediction
  (every paper scored the same by both models) it returns a zero-width interval; the true share of papers whose
  prediction changes is then only known to be below 1 - 0.025^(1/n) (the exact Clopper-Pearson 95 % bound for 0 of
  n), and the change of accuracy can be anywhere within ± that share. The interval is widened to it at least.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

BOOTSTRAP = 2000  # resamples of the papers
LEVEL = 0.95
BETTER, SAME, WORSE = "better", "no measurable change", "worse"
TOO_FEW = "too few test papers to judge"
MIN_PAPERS = 30  # test papers a verdict needs at least
MIN_CLASSES = 2  # classes with MIN_PER_CLASS test papers or more that a verdict needs at least
MIN_PER_CLASS = 2


def floor_half_width(n: int, level: float = LEVEL) -> float:
    """The narrowest honest half-width of a paired change on n papers: the exact (Clopper-Pearson) upper bound of the
    share of changed predictions when none was seen, 1 - ((1 - level) / 2) ** (1 / n); 1 without papers."""
    return 1.0 if n <= 0 else 1.0 - ((1 - level) / 2) ** (1 / n)


def judged_classes(groups: Sequence[Any] | np.ndarray) -> int:
    """The classes with MIN_PER_CLASS papers or more among the papers' true classes."""
    _, counts = np.unique(np.asarray(groups), return_counts=True)
    return int((counts >= MIN_PER_CLASS).sum())


def enough_papers(n: int, classes: int | None) -> bool:
    """Whether n test papers in `classes` classes of 2+ papers (None: not known, an older verdict) can carry a
    verdict."""
    return n >= MIN_PAPERS and (classes is None or classes >= MIN_CLASSES)


def too_few_reason(n: int, classes: int | None) -> str:
    """'too few test papers to judge (12): a verdict needs at least 30, in 2 classes of 2 or more'."""
    got = f"{n:,}" + ("" if classes is None else f" in {classes} class{'es' if classes != 1 else ''} of "
                                                 f"{MIN_PER_CLASS} or more")
    return (f"{TOO_FEW} ({got}): a verdict needs at least {MIN_PAPERS} test papers, in {MIN_CLASSES} classes of "
            f"{MIN_PER_CLASS} or more")


@dataclass(frozen=True)
class Verdict:
    """The change of a score from `base` to `new` on the same `n` papers, with its 95 % interval (fractions)."""

    n: int
    new: float  # mean per-paper score of the new model (accuracy: share right)
    base: float
    low: float  # 2.5th percentile of the bootstrapped change new - base
    high: float  # 97.5th percentile
    metric: str = "accuracy"
    split: str = "test"  # "test": papers kept out of training, early stopping and the head warm-up
    classes: int | None = None  # classes with 2+ of the n papers (None in verdicts stored before it was kept)

    @property
    def change(self) -> float:
        return self.new - self.base

    @property
    def kind(self) -> str:
        """too few test papers to judge below the minimum; else better when the whole interval is above 0, worse when
        it is all below 0, else no measurable change."""
        if not self.judgeable:
            return TOO_FEW
        if self.low > 0:
            return BETTER
        if self.high < 0:
            return WORSE
        return SAME

    @property
    def judgeable(self) -> bool:
        """Enough papers (and classes) for a verdict, on papers that did not steer the run (never validation, which
        early stopping used); see the module's rules."""
        return self.split != "validation" and enough_papers(self.n, self.classes)

    @property
    def beats_base(self) -> bool:
        return self.kind == BETTER

    @property
    def margin(self) -> float:
        """Half the interval's width, in points: the '±x points' of the sentence."""
        return 50 * (self.high - self.low)

    def papers(self) -> str:
        """'612 held-out test papers' or '45 validation papers'."""
        where = {"test": "held-out test", "sample": "held-out"}.get(self.split, self.split)
        return f"{self.n:,} {where} paper{'s' if self.n != 1 else ''}"

    def figures(self) -> str:
        """'test accuracy 41.2 % against 35.1 %, +6.1 points (95 % interval +2.3 to +9.8)'."""
        return (f"{self.split} {self.metric} {self.new:.1%} against {self.base:.1%}, {100 * self.change:+.1f} points "
                f"(95 % interval {100 * self.low:+.1f} to {100 * self.high:+.1f})")

    def sentence(self, base: str = "its base", subject: str = "The new model", advice: bool = True) -> str:
        """The verdict in one sentence, with n and the interval (and, for a worse fine-tune, what to try)."""
        if self.kind == TOO_FEW:
            if self.split == "validation":
                return (f"{subject}: no verdict against {base}: it was scored on {self.papers()}, which the run used "
                        "for early stopping, not on held-out test papers; train it again with a test share.")
            said = f"{subject}: {too_few_reason(self.n, self.classes)}; nothing is claimed against {base}"
            return f"{said} ({self.figures()})." if self.n else f"{said}."
        if self.kind == BETTER:
            return f"{subject} beats {base} on {self.papers()}: {self.figures()}."
        if self.kind == WORSE:
            tips = (" Fine-tuning made it worse; try fewer epochs, a lower encoder learning rate, more papers or a "
                    f"distill weight, or keep using {base}.") if advice else ""
            return f"{subject} is worse than {base} on {self.papers()}: {self.figures()}.{tips}"
        return (f"{subject}: no measurable change against {base} (±{self.margin:.1f} points on {self.papers()}): "
                f"{self.figures()}.")

    def to_dict(self) -> dict[str, Any]:
        """The stored figures plus their reading (kind, change, margin) for scripts."""
        return {**asdict(self), "change": self.change, "kind": self.kind, "beats_base": self.beats_base,
                "margin_points": self.margin}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Verdict | None:
        """A stored verdict (None when there is none, e.g. a model without a base score)."""
        if not data or data.get("n") is None:
            return None
        classes = data.get("classes")
        return cls(int(data["n"]), float(data["new"]), float(data["base"]), float(data["low"]), float(data["high"]),
                   str(data.get("metric", "accuracy")), str(data.get("split", "test")),
                   None if classes is None else int(classes))


def paired_verdict(new: Sequence[float] | np.ndarray, base: Sequence[float] | np.ndarray, *, metric: str = "accuracy",
                   split: str = "test", seed: int = 0, resamples: int = BOOTSTRAP,
                   groups: Sequence[Any] | np.ndarray | None = None) -> Verdict | None:
    """The paired bootstrap over papers of mean(new) - mean(base), its interval widened to `floor_half_width` at
    least; `groups` (each paper's true class) counts the classes for the minimum. None without papers."""
    new_scores, base_scores = np.asarray(new, dtype=np.float64), np.asarray(base, dtype=np.float64)
    if new_scores.shape != base_scores.shape:
        raise ValueError("new and base must score the same papers")
    n = len(new_scores)
    if n == 0:
        return None
    low, high = paired_interval(new_scores - base_scores, seed, resamples)
    classes = None if groups is None else judged_classes(groups)
    return Verdict(n, float(new_scores.mean()), float(base_scores.mean()), low, high, metric, split, classes)


def paired_interval(diff: np.ndarray, seed: int = 0, resamples: int = BOOTSTRAP) -> tuple[float, float]:
    """The 95 % paired-bootstrap interval of the mean of per-paper differences, never narrower than
    `floor_half_width` of n on either side of the mean (unchanged 0/1 scores give the exact binomial bound, not 0)."""
    diff = np.asarray(diff, dtype=np.float64)
    n = len(diff)
    rng = np.random.default_rng(seed)
    means = np.empty(resamples)
    chunk = max(1, 2_000_000 // n)
    for start in range(0, resamples, chunk):
        size = min(chunk, resamples - start)
        means[start:start + size] = diff[rng.integers(0, n, size=(size, n))].mean(axis=1)
    tail = 100 * (1 - LEVEL) / 2
    low, high = np.percentile(means, [tail, 100 - tail])
    change, floor = float(diff.mean()), floor_half_width(n)
    scale = max(1.0, float(np.abs(diff).max(initial=0.0)))  # scores beyond 0/1 (ranks): the floor in their unit
    return min(float(low), change - floor * scale), max(float(high), change + floor * scale)


def proportion_interval(successes: float, n: int, level: float = LEVEL) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion (fractions); None without papers."""
    if n <= 0:
        return None
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + level / 2)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def interval_text(value: float, low: float | None, high: float | None, percent: bool = True) -> str:
    """'35.2 % (32.0–38.5)' or '0.352 (0.320–0.385)'; the value alone without an interval."""
    if percent:
        shown = f"{100 * value:.1f} %"
        return shown if low is None or high is None else f"{shown} ({100 * low:.1f}–{100 * high:.1f})"
    shown = f"{value:.3f}"
    return shown if low is None or high is None else f"{shown} ({low:.3f}–{high:.3f})"
