"""A 95 % interval for pair retrieval's AP and ROC-AUC: a bootstrap over papers, not over pairs.

Pairs are not independent: a paper with an odd embedding is in n - 1 of them, so resampling pairs would give an
interval far too narrow. Each resample draws the papers with replacement and keeps the pairs of the drawn papers,
each as often as both its papers were drawn (weight = count(a) x count(b)); AP and ROC-AUC are then the weighted
scores (`weighted_ap_auc`, equal to scikit-learn's with ``sample_weight``: the reference; `fast_ap_auc` computes the
same in one pass over the pairs) over the pairs ranked once. As for every
verdict here (`core.evaluation.verdict`), the interval is never narrower than ``floor_half_width`` of the papers on
either side of the figure, so a perfect ranking on 4 papers does not read 1.000 (1.000–1.000).
"""

from __future__ import annotations

import numpy as np

from core.evaluation.verdict import LEVEL, floor_half_width

RESAMPLES = 500  # resamples of the papers: the 97.5th percentile of AUC moved by 0.0015 over seeds (on a 0.07 wide
# interval, 2,000 papers, 200,000 pairs), as with 1,000; covered the truth 92-95 % of the time (BENCHMARKS.md §32)
CELLS = 4_000_000  # resamples x pairs computed at once (memory: a few arrays of this many floats)


def weighted_ap_auc(scores: np.ndarray, relevant: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Average precision and ROC-AUC of ranking by ``scores`` (higher first, tied scores as one threshold, as
    scikit-learn does) for each row of pair ``weights`` [resamples, pairs]; NaN where a row has no relevant or no
    unrelated weight."""
    order, ends = ranking(scores)
    rel = np.asarray(relevant, dtype=bool)[order]
    return ranked_ap_auc(rel, np.atleast_2d(np.asarray(weights))[:, order], ends)


def ranking(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """The pairs' order, highest score first, and the last position of each tied score (None: no ties)."""
    values = np.asarray(scores, dtype=np.float64)
    order = np.argsort(-values, kind="stable")
    ranked = values[order]
    changes = ranked[1:] != ranked[:-1]
    return order, None if changes.all() else np.flatnonzero(np.append(changes, True))


def ranked_ap_auc(rel: np.ndarray, w: np.ndarray, ends: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """`weighted_ap_auc` on pairs already ranked: relevance ``rel`` [pairs], weights ``w`` [resamples, pairs] in rank
    order, ``ends`` from `ranking`."""
    w = w.astype(np.float64, copy=False)
    tp = np.cumsum(np.where(rel, w, 0.0), axis=1)
    fp = np.cumsum(np.where(rel, 0.0, w), axis=1)
    if ends is not None:
        tp, fp = tp[:, ends], fp[:, ends]
    pos, neg = tp[:, -1].copy(), fp[:, -1].copy()
    with np.errstate(invalid="ignore", divide="ignore"):
        shown = tp + fp
        np.divide(tp, shown, out=shown, where=shown > 0)  # precision at each threshold (0 before the first pair)
        gained = np.diff(tp, axis=1, prepend=0.0)
        ap = np.einsum("ij,ij->i", gained, shown) / pos
        passed = np.diff(fp, axis=1, prepend=0.0)  # unrelated weight at each threshold
        tp[:, 1:] += tp[:, :-1].copy()  # tp before and at each threshold: the trapezoid's two sides
        auc = np.einsum("ij,ij->i", passed, tp) / 2.0 / (pos * neg)
    bad = (pos <= 0) | (neg <= 0)
    ap[bad], auc[bad] = np.nan, np.nan
    return ap, auc


def fast_ap_auc(rel: np.ndarray, counts: np.ndarray, first: np.ndarray, second: np.ndarray,
                ends: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """`ranked_ap_auc` with weights ``counts[:, first] * counts[:, second]`` in one full pass (a running sum of the
    weights down the ranking); the rest looks at the relevant pairs only, each read at the end of its tied scores
    (``ends`` from `ranking`; sampled pairs can repeat a pair). AP: the precision at each relevant pair's threshold,
    weighted; ROC-AUC: the unrelated weight ranked below each relevant pair, half of that tied with it."""
    related = np.flatnonzero(rel)
    if ends is None:
        last, before = related, related - 1  # each pair its own threshold
    else:
        group = np.searchsorted(ends, related)  # the tie group of each relevant pair
        last, before = ends[group], np.where(group > 0, ends[np.maximum(group - 1, 0)], -1)
    kind = np.int64 if len(first) * int(counts.max(initial=1)) ** 2 >= 2**31 else np.int32
    by_paper = np.ascontiguousarray(counts.T, dtype=kind)  # [papers, resamples]: a pair's weights are two rows
    full = by_paper[first]
    full *= by_paper[second]
    np.cumsum(full, axis=0, out=full)  # [pairs, resamples]: all weight down to each pair
    seen_last = full[last].astype(np.float64)  # all weight down to the end of each relevant pair's threshold
    seen_before = np.where((before >= 0)[:, None], full[before], 0).astype(np.float64)  # down to the one before it
    total = full[-1].astype(np.float64)
    del full
    w = (by_paper[first[related]] * by_paper[second[related]]).astype(np.float64)
    tp = np.concatenate([np.zeros((1, w.shape[1])), np.cumsum(w, axis=0)])  # row k: the first k relevant pairs
    tp_last = tp[np.searchsorted(related, last, side="right")]
    tp_before = tp[np.searchsorted(related, before, side="right")]
    pos = tp[-1]
    neg = total - pos
    with np.errstate(invalid="ignore", divide="ignore"):
        ap = np.einsum("ij,ij->j", w, tp_last / np.maximum(seen_last, 1.0)) / pos
        below = neg[None, :] - ((seen_last - tp_last) + (seen_before - tp_before)) / 2.0
        auc = np.einsum("ij,ij->j", w, below) / (pos * neg)
    bad = (pos <= 0) | (neg <= 0)
    ap[bad], auc[bad] = np.nan, np.nan
    return ap, auc


def paper_bootstrap(first: np.ndarray, second: np.ndarray, scores: np.ndarray, relevant: np.ndarray, papers: int,
                    values: dict[str, float], seed: int = 0,
                    resamples: int = RESAMPLES) -> dict[str, tuple[float, float]]:
    """95 % intervals of AP and ROC-AUC ({'ap': (low, high), 'auc': (low, high)}) for the pairs (first[i],
    second[i]) of ``papers`` papers, resampling the papers; ``values``: the figures on all papers, which each
    interval is widened around to ``floor_half_width(papers)`` at least (clipped to 0–1)."""
    rng = np.random.default_rng(seed)
    order, ends = ranking(scores)
    first, second = np.asarray(first)[order], np.asarray(second)[order]
    rel = np.asarray(relevant, dtype=bool)[order]
    chunk = max(1, CELLS // max(1, len(first)))
    drawn: dict[str, list[np.ndarray]] = {"ap": [], "auc": []}
    for start in range(0, resamples, chunk):
        size = min(chunk, resamples - start)
        counts = np.stack([np.bincount(rng.integers(0, papers, papers), minlength=papers) for _ in range(size)])
        ap, auc = fast_ap_auc(rel, counts, first, second, ends)
        drawn["ap"].append(ap)
        drawn["auc"].append(auc)
    tail = 100 * (1 - LEVEL) / 2
    floor = floor_half_width(papers)
    out = {}
    for metric, parts in drawn.items():
        got = np.concatenate(parts)
        got = got[np.isfinite(got)]
        value = values[metric]
        low, high = np.percentile(got, [tail, 100 - tail]) if len(got) else (0.0, 1.0)
        out[metric] = (max(0.0, min(float(low), value - floor)), min(1.0, max(float(high), value + floor)))
    return out
