"""Pair retrieval's 95 % interval: does the bootstrap over papers cover the true AP / ROC-AUC 95 % of the time, where
a bootstrap over pairs (pairs taken as independent) would not? And what does it cost? (BENCHMARKS.md §32)

A population of papers in 10 classes: a paper's vector is its class centre plus noise whose scale varies by paper
(an odd paper is odd in all n - 1 of its pairs: what makes pairs dependent). The truth is AP and AUC on 6,000 papers
(200,000 sampled pairs); each trial draws `--papers` of them and asks whether each interval holds the truth.

    cd benchmarks && ../.venv/bin/python bench_pair_bootstrap.py --trials 60 --papers 300
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.evaluation.pair_bootstrap import ranked_ap_auc, ranking  # noqa: E402
from core.evaluation.protocols import retrieval_scores  # noqa: E402


def population(n: int, rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    centres = rng.normal(size=(10, 32))
    labels = rng.integers(0, 10, n)
    odd = rng.gamma(2.0, 1.0, n)[:, None]  # per-paper noise scale
    return centres[labels] + odd * rng.normal(size=(n, 32)), [f"c{v}" for v in labels]


def pair_bootstrap(X: np.ndarray, y: list[str], seed: int, resamples: int = 500) -> dict[str, tuple[float, float]]:
    """The naive interval: resample pairs as if independent."""
    n = len(y)
    first, second = np.triu_indices(n, k=1)
    Z = X - X.mean(axis=1, keepdims=True)
    Z /= np.linalg.norm(Z, axis=1, keepdims=True)
    scores = np.einsum("ij,ij->i", Z[first], Z[second])
    rel = np.array([y[a] == y[b] for a, b in zip(first, second)])
    order, ends = ranking(scores)
    rng = np.random.default_rng(seed)
    weights = np.stack([np.bincount(rng.integers(0, len(scores), len(scores)), minlength=len(scores))
                        for _ in range(resamples)]).astype(float)
    ap, auc = ranked_ap_auc(rel[order], weights[:, order], ends)
    return {"ap": tuple(np.nanpercentile(ap, [2.5, 97.5])), "auc": tuple(np.nanpercentile(auc, [2.5, 97.5]))}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=60)
    parser.add_argument("--papers", type=int, default=300)
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    X, y = population(6000, rng)
    truth = retrieval_scores(X, y, seed=1)
    print(f"truth on 6,000 papers: AP {truth['ap']:.4f} AUC {truth['auc']:.4f}")
    covered = {"papers": {"ap": 0, "auc": 0}, "pairs": {"ap": 0, "auc": 0}}
    widths = {"papers": {"ap": [], "auc": []}, "pairs": {"ap": [], "auc": []}}
    for trial in range(args.trials):
        pick = rng.choice(6000, args.papers, replace=False)
        Xs, ys = X[pick], [y[i] for i in pick]
        r = retrieval_scores(Xs, ys, seed=trial)
        naive = pair_bootstrap(Xs, ys, trial)
        for metric in ("ap", "auc"):
            low, high = r[f"{metric}_low"], r[f"{metric}_high"]
            covered["papers"][metric] += low <= truth[metric] <= high
            widths["papers"][metric].append(high - low)
            covered["pairs"][metric] += naive[metric][0] <= truth[metric] <= naive[metric][1]
            widths["pairs"][metric].append(naive[metric][1] - naive[metric][0])
    for kind in ("papers", "pairs"):
        for metric in ("ap", "auc"):
            print(f"bootstrap over {kind:<6} {metric:<3}: covered {covered[kind][metric]}/{args.trials} "
                  f"({covered[kind][metric] / args.trials:.0%}), mean width {np.mean(widths[kind][metric]):.4f}")
    big_X, big_y = population(2000, np.random.default_rng(3))  # imports already warm from the trials
    for repeat in range(3):
        started = time.perf_counter()
        r = retrieval_scores(big_X, big_y, seed=repeat)
        print(f"2,000 papers, {r['pairs']:,} sampled pairs: AP, AUC and both intervals in "
              f"{time.perf_counter() - started:.2f} s")


if __name__ == "__main__":
    main()
