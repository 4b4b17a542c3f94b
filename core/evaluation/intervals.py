"""The 95 % interval of one evaluation figure, where one follows from its papers (n): the linear probe's folds (a t
interval), Wilson for shares of papers (accuracies, purity, precision, recall, top-k, top-100), the task's own where it
computed one (pair retrieval: a bootstrap over papers, `core.evaluation.pair_bootstrap`), and for a mean over papers
with each paper's score kept (MRR, the journals' mean rank, the citation tasks' MAP) a bootstrap over papers of the
mean, never narrower than n allows (`core.evaluation.verdict.paired_interval`)."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Protocol

import numpy as np

from core.evaluation.task_names import JOURNAL_TASKS

PERCENT_METRICS = ("top-1", "top-5", "top-10")  # the journals task reports these in %
PROBE_T = 3.182  # Student's t, 97.5 %, 3 degrees of freedom: the probe's 4 folds
NOT_SHARES = ("retrieval", "cite", "cocite", "figures")  # their recall@k and top-k are means over queries


class Figure(Protocol):
    """What an interval is read from: a `core.evaluation.report.Result`."""

    task: str
    metric: str
    value: float
    std: float | None
    n: int | None
    per_paper: list[float] | None
    low: float | None
    high: float | None


def interval_of(result: Figure) -> tuple[float, float] | None:
    """A 95 % interval of one figure where one follows from its n (see the module); None where none does."""
    from core.evaluation.verdict import proportion_interval

    if result.value is None or math.isnan(result.value) or not result.n:
        return None
    if result.low is not None and result.high is not None:
        return float(result.low), float(result.high)
    if result.task == "probe" and result.std is not None:
        half = PROBE_T * float(result.std) / 2.0  # std over 4 folds / sqrt(4)
        return max(0.0, result.value - half), min(1.0, result.value + half)
    scale = 100.0 if result.task in JOURNAL_TASKS and result.metric in PERCENT_METRICS else 1.0
    share = ("accuracy" in result.metric or result.metric.startswith(("purity@", "precision@"))
             or result.metric.endswith("_t100") or scale == 100.0
             or (result.task == "short" and "recall@" in result.metric))
    if share and result.task not in NOT_SHARES:
        low, high = proportion_interval(result.value / scale * result.n, int(result.n))
        return low * scale, high * scale
    if result.per_paper is not None and len(result.per_paper) == result.n:
        return mean_interval(tuple(float(v) for v in result.per_paper), ranks=result.metric.endswith("rank"))
    return None


@lru_cache(maxsize=256)
def mean_interval(scores: tuple[float, ...], ranks: bool = False) -> tuple[float, float]:
    """The 95 % bootstrap interval (over papers) of the mean of per-paper scores, never narrower than n allows; kept
    from 1 for `ranks` (papers all ranked first look like 0–1 scores), within 0–1 for scores that are (reciprocal
    ranks, shares)."""
    from core.evaluation.verdict import paired_interval

    values = np.asarray(scores, dtype=np.float64)
    low, high = paired_interval(values)
    if ranks:
        return max(1.0, low), max(1.0, high)
    if values.min(initial=0.0) >= 0.0 and values.max(initial=0.0) <= 1.0:
        return max(0.0, low), min(1.0, high)
    return max(1.0 if values.min(initial=1.0) >= 1.0 else 0.0, low), high  # ranks start at 1
