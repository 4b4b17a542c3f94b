"""Benchmark 4: time to the first visible map (PCA preview) and to the final UMAP, with trustworthiness.

Sizes: 10k real arXiv vectors (cached by vectors.py), 50k and 200k synthetic clustered unit vectors (see
synthetic.py). Ours: core.projection.project ('pca' preview; 'umap' = PCA-50 then UMAP with tuned epochs,
seeded; and unseeded, which lets UMAP use every core). Baseline: umap.UMAP(n_neighbors=15, min_dist=0.1,
metric="cosine", random_state=0) on the raw 384-d vectors, UMAP's defaults. Contenders alternate order from
size to size. Trustworthiness (sklearn, 10 neighbours) on a 2,000-point sample beside every time.
The numba compile cost is measured in fresh processes: with an empty numba cache (a fresh install) and with
the cache filled (every later start); the app pays it in a background thread at start (app.py).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np
from common import ROOT, report, row
from synthetic import clustered_points

TRUST_SAMPLE = 2000


def trust(X: np.ndarray, Y: np.ndarray) -> float:
    from sklearn.manifold import trustworthiness

    pick = np.random.default_rng(0).choice(len(X), min(len(X), TRUST_SAMPLE), replace=False)
    return float(trustworthiness(X[pick], Y[pick], n_neighbors=10))


def compile_cost(cache_dir: str | None) -> float:
    """Seconds for a fresh process to import UMAP and run warm_numba (import + compile)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = cache_dir
    code = ("import time; t = time.perf_counter(); from core.projection import warm_numba; warm_numba(); "
            "print(time.perf_counter() - t)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10000,50000,200000")
    parser.add_argument("--baseline-max", type=int, default=200_000, help="skip the baseline above this size")
    args = parser.parse_args()

    import umap

    from core.explore import project, warm_numba

    rows: list[dict] = []
    extra: dict = {}
    with tempfile.TemporaryDirectory(prefix="numba-") as cache:
        fresh = compile_cost(cache)
        later = compile_cost(cache)
    default_cache = compile_cost(None)
    rows.append(row("numba: import + compile UMAP, fresh install", fresh, None, "s",
                    "paid once per server start in a background thread (app.py)"))
    rows.append(row("numba: import + compile UMAP, cache filled", later, None, "s",
                    f"with the venv's own cache: {default_cache:.1f}s"))
    warm_numba()
    for i, n in enumerate(int(s) for s in args.sizes.split(",") if s):
        if n == 10_000:
            from vectors import real_vectors

            X, what = np.asarray(real_vectors(n)), "real arXiv"
        else:
            X, what = clustered_points(n, seed=n)[0], "synthetic"
        cases = {
            "preview": lambda: project(X, "pca"),
            "ours": lambda: project(X, "umap"),
            "ours_parallel": lambda: project(X, "umap", seed=None),
        }
        if n <= args.baseline_max:
            def baseline() -> np.ndarray:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    return umap.UMAP(n_neighbors=15, min_dist=0.1, metric="cosine", random_state=0).fit_transform(X)

            cases["baseline"] = baseline
        names = list(cases) if i % 2 == 0 else list(cases)[::-1]
        seconds, trusts = {}, {}
        for name in names:
            start = time.perf_counter()
            Y = cases[name]()
            seconds[name] = time.perf_counter() - start
            trusts[name] = trust(X, Y)
            print(f"{n:,} {name}: {seconds[name]:.1f}s trust {trusts[name]:.3f}", flush=True)
        base = seconds.get("baseline")
        label = f"{n:,} {what}"
        rows.append(row(f"{label}: preview (PCA) visible", seconds["preview"], base, "s",
                        f"trust {trusts['preview']:.3f}" + (f" vs UMAP baseline {trusts['baseline']:.3f}" if base else "")
                        + ("; target < 5 s" if n == 50_000 else "")))
        rows.append(row(f"{label}: final UMAP (seeded)", seconds["ours"], base, "s",
                        f"trust {trusts['ours']:.3f}" + (f" vs {trusts['baseline']:.3f}" if base else "")
                        + ("; target < 60 s" if n == 50_000 else "")))
        rows.append(row(f"{label}: final UMAP (unseeded, all cores)", seconds["ours_parallel"], base, "s",
                        f"trust {trusts['ours_parallel']:.3f}"))
        extra[label] = {"seconds": seconds, "trust": trusts}
    report("maps", rows, extra)


if __name__ == "__main__":
    main()
