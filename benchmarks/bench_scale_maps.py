"""Maps of millions: core's sampled map (UMAP fitted on a seeded sample, the rest placed from neighbours) vs
fitting the sample alone, with trustworthiness.

Baseline: `project(sample, "umap")`, the map of the 200k-paper sample by itself (what a user gets today at best).
Ours: the same fit plus placing every other paper (`core.explore.maps.sampled.sampled_projection`). Both on the
synthetic clustered vectors of `synthetic.clustered_points` (384-d). Trustworthiness (sklearn, 10 neighbours) on
2,000 random points: of the sample map (baseline), of the whole map, and of placed points only.

    flock /tmp/miread-heavy.lock .venv/bin/python benchmarks/bench_scale_maps.py --size 1000000 --sample 200000
"""

from __future__ import annotations

import argparse
import os
import resource
import time

import numpy as np
from common import report, row
from synthetic import clustered_points

TRUST_SAMPLE = 2_000


def trust(X: np.ndarray, Y: np.ndarray, rows: np.ndarray, seed: int = 0) -> float:
    from sklearn.manifold import trustworthiness

    pick = np.random.default_rng(seed).choice(rows, min(len(rows), TRUST_SAMPLE), replace=False)
    return float(trustworthiness(X[pick], Y[pick], n_neighbors=10))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--sample", type=int, default=200_000)
    args = parser.parse_args()
    from core.explore import project
    from core.explore.maps.projection import warm_numba
    from core.explore.maps.sampled import fit_sample, neighbour_index, place_by_neighbours

    x, _ = clustered_points(args.size)
    warm_numba()  # the one-off numba compile is not part of either map
    rows = fit_sample(args.size, args.sample, seed=0)
    start = time.perf_counter()
    fitted_xy = project(x[rows], "umap", None, seed=0)
    fit_s = time.perf_counter() - start
    rest = np.setdiff1d(np.arange(args.size), rows)
    start = time.perf_counter()
    index = neighbour_index(x[rows])
    coords = np.empty((args.size, 2), np.float32)
    coords[rows] = fitted_xy
    for s in range(0, len(rest), 50_000):
        coords[rest[s : s + 50_000]] = place_by_neighbours(fitted_xy, index, x[rest[s : s + 50_000]])
    place_s = time.perf_counter() - start
    everyone = np.arange(args.size)
    t_sample = trust(x[rows], fitted_xy, np.arange(len(rows)))
    t_all, t_placed = trust(x, coords, everyone), trust(x, coords, rest)
    extra = {"size": args.size, "sample": args.sample, "fit_s": round(fit_s, 1), "place_s": round(place_s, 1),
             "place_per_s": round(len(rest) / place_s), "trust_sample_map": round(t_sample, 4),
             "trust_whole_map": round(t_all, 4), "trust_placed": round(t_placed, 4), "load": os.getloadavg()[0],
             "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}
    print(extra, flush=True)
    rows_out = [
        row(f"{args.size:,} papers mapped (ours) vs {args.sample:,} (sample alone): seconds", round(fit_s + place_s, 1),
            round(fit_s, 1), "s"),
        row("trustworthiness: whole map vs sample map", round(t_all, 4), round(t_sample, 4), "",
            higher_is_better=True),
        row("trustworthiness: placed papers only vs sample map", round(t_placed, 4), round(t_sample, 4), "",
            higher_is_better=True),
    ]
    report("scale_maps", rows_out, extra)


if __name__ == "__main__":
    main()
