"""Benchmark 21 (issue 31): placing 1,000 new papers on a 50k-paper UMAP map vs refitting the whole map.

Vectors: `synthetic.py`'s topic-structured unit vectors (384-d, 200 topics), 51,000 of them in random order; the
first 50,000 are the mapped corpus, the last 1,000 the papers added to it. The 50k map is fitted first (setup, not
timed in the comparison) with the app's projection (`core.explore.project`: PCA-50, then seeded UMAP).

Ours: what a stable map does with papers added to a UMAP map (`core.explore.maps.stable`): `place_points`, each new
paper at the softmax-weighted mean of its 10 most similar mapped papers' coordinates. Baseline: the full refit the
map cache did before (the same `project` on all 51,000 papers, same seed and parameters).

Quality: sklearn's trustworthiness (10 neighbours) of the 2-D map against the vectors, on two point sets: the 1,000
placed papers together with a seeded sample of 2,000 mapped ones (are a placed paper's map neighbours its real
neighbours?), and the 1,000 placed papers alone; each for the placed map and for the same papers in the refit.
Also: how far the refit moved the 50,000 old papers (after Procrustes alignment onto the old map, as the "Re-fit"
action reports it); placement moves none of them.

Prediction (written before the first run): placing 1,000 papers takes ~0.3 s (a 1,000 x 50,000 product in 384-d)
against ~15-25 s for the refit, a ratio of 50-80x; trustworthiness of the placed papers 0.01-0.03 below the refit's
(a weighted mean lands between its neighbours, a little off the manifold); the refit moves the median old paper
~2-5 % of the map's width.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from common import report, row
from synthetic import clustered_unit_vectors

TRUST_OLD_SAMPLE = 2000


def trust(X: np.ndarray, Y: np.ndarray) -> float:
    from sklearn.manifold import trustworthiness

    return float(trustworthiness(X, Y, n_neighbors=10))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=50_000)
    parser.add_argument("--added", type=int, default=1_000)
    args = parser.parse_args()

    from core.explore import place_points, project, warm_numba
    from core.explore.maps.refit import aligned_onto, movement

    warm_numba()
    X = clustered_unit_vectors(args.papers + args.added, seed=7)
    old, new = X[: args.papers], X[args.papers :]
    started = time.perf_counter()
    old_map = project(old, "umap", None, seed=0)
    fit_old = time.perf_counter() - started

    started = time.perf_counter()
    placed = place_points(old_map, old, new)
    t_place = time.perf_counter() - started

    started = time.perf_counter()
    refit = project(X, "umap", None, seed=0)
    t_refit = time.perf_counter() - started

    stable = np.vstack([old_map, placed])
    aligned = aligned_onto(stable, refit, np.arange(len(X)) < args.papers)
    moved = movement(old_map, aligned[: args.papers])
    sample = np.sort(np.random.default_rng(0).choice(args.papers, TRUST_OLD_SAMPLE, replace=False))
    mixed = np.concatenate([sample, np.arange(args.papers, len(X))])
    only = np.arange(args.papers, len(X))
    rows = [
        row(f"time to map {args.added:,} added papers", t_place, t_refit, "s",
            f"ours: place on the {args.papers:,}-paper map; baseline: refit all {len(X):,}"),
        row("trustworthiness, placed + 2,000 mapped papers", trust(X[mixed], stable[mixed]),
            trust(X[mixed], refit[mixed]), "", "k=10", higher_is_better=True),
        row("trustworthiness, the placed papers alone", trust(X[only], stable[only]), trust(X[only], refit[only]), "",
            "k=10", higher_is_better=True),
        row("old papers: median move (share of map width)", 0.0, moved.median, "", "refit after Procrustes"),
        row("old papers: 90th-percentile move", 0.0, moved.p90, ""),
        row("old papers moved > 10 % of the width", 0, moved.moved, "papers"),
    ]
    report("bench_map_placement", rows, {"fit_old_map_s": fit_old, "papers": args.papers, "added": args.added})


if __name__ == "__main__":
    main()
