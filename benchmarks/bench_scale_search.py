"""Search past RAM: core's compressed index (IVF-PQ + exact re-rank from the memory-mapped matrix) vs IVF-Flat.

For each size: the 384-d synthetic topic-structured unit vectors of `synthetic.py` are written to an .npy file
in blocks and memory-mapped (never all in RAM); 200 held-out vectors are the queries; exact top-10 comes from one
chunked pass over the file. Reported: build time, index bytes per vector (faiss serialisation), this process's
peak RSS, tuned nprobe, recall@10 and p50/p95 latency per single query. Baseline: IVF-Flat (what `core` uses below
`MIREAD_COMPRESSED_SEARCH_ABOVE`), built in the same run at sizes up to `--flat-max`.

    flock /tmp/miread-heavy.lock .venv/bin/python benchmarks/bench_scale_search.py --sizes 1000000 --flat-max 1000000
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import time
from pathlib import Path

import numpy as np
from common import percentile, report, row, rss_mb

K = 10
QUERIES = 200
BLOCK = 250_000


def matrix_file(n: int, folder: Path, noise: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(memory-mapped [n, 384] matrix, [200, 384] held-out queries), generated once per size into `folder`."""
    path, qpath = folder / f"synthetic-{n}-x{noise}.npy", folder / f"synthetic-{n}-x{noise}-queries.npy"
    if not path.exists():
        tmp = path.with_suffix(".tmp.npy")
        out = np.lib.format.open_memmap(tmp, mode="w+", dtype=np.float32, shape=(n, 384))
        np.save(qpath, _block(QUERIES, 10**9, noise))  # held out: same topic model, noise no matrix block uses
        for start in range(0, n, BLOCK):
            out[start : start + min(BLOCK, n - start)] = _block(min(BLOCK, n - start), start, noise)
        out.flush()
        del out
        tmp.rename(path)
    return np.load(path, mmap_mode="r"), np.load(qpath)


def _block(m: int, start: int, noise: float = 1.0) -> np.ndarray:
    """Rows of `synthetic.clustered_unit_vectors`'s topic model (its seed-0 lift and centres), fresh noise per block."""
    from synthetic import LATENT, NOISE

    base = np.random.default_rng(0)
    lift = base.standard_normal((LATENT, 384)).astype(np.float32)
    centres = base.standard_normal((200, LATENT)).astype(np.float32)
    rng = np.random.default_rng(start)
    z = centres[rng.integers(0, 200, m)] + 0.6 * rng.standard_normal((m, LATENT)).astype(np.float32)
    x = z @ lift + noise * NOISE * np.sqrt(LATENT) * rng.standard_normal((m, 384)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def timed_queries(search, queries: np.ndarray) -> tuple[np.ndarray, list[float]]:
    found, times = [], []
    for q in queries:
        start = time.perf_counter()
        found.append(search(q[None, :])[0])
        times.append((time.perf_counter() - start) * 1000)
    return np.stack(found), times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000000")
    parser.add_argument("--flat-max", type=int, default=1_000_000, help="also build IVF-Flat up to this size")
    parser.add_argument("--opq", action="store_true", help="also build OPQ + IVF-PQ")
    parser.add_argument("--noise", type=float, default=1.0,
                        help="noise x synthetic.py's; 1.8 gives real MiniLM's median nearest-neighbour cosine")
    parser.add_argument("--folder", default=os.environ.get("MIREAD_SCALE_DIR", "/tmp/miread-scale"))
    args = parser.parse_args()
    import faiss

    from core.explore import VectorIndex, recall_at_k
    from core.explore.search.compressed import chunked_topk

    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    rows, extra = [], {"load": os.getloadavg()[0], "noise": args.noise}
    for n in [int(s) for s in args.sizes.split(",")]:
        matrix, queries = matrix_file(n, folder, args.noise)
        start = time.perf_counter()
        truth = chunked_topk(matrix, queries, K)
        extra[f"truth_s_{n}"] = round(time.perf_counter() - start, 1)
        kinds = [("ivfpq", False)] + ([("ivfpq", True)] if args.opq else []) + ([("ivf", False)] if n <= args.flat_max
                                                                               else [])
        results = {}
        for kind, opq in kinds:
            gc.collect()
            before = rss_mb()
            start = time.perf_counter()
            index = VectorIndex(matrix, exact_limit=0, compressed_above=0 if kind == "ivfpq" else None,
                                ivf_above=0, opq=opq)
            build = time.perf_counter() - start
            size = faiss.serialize_index(index.faiss_index).nbytes
            found, times = timed_queries(lambda q, ix=index: ix.search(q, K)[1], queries)
            label = f"{kind}{'+opq' if opq else ''}"
            results[label] = {"build_s": round(build, 1), "bytes_per_vector": round(size / n, 1),
                              "rss_growth_mb": round(rss_mb() - before), "recall": round(recall_at_k(found, truth), 4),
                              "p50_ms": round(percentile(times, 50), 2), "p95_ms": round(percentile(times, 95), 2),
                              "nprobe": int(index.compressed.nprobe if index.compressed else index.faiss_index.nprobe),
                              "rerank": index.rerank}
            print(n, label, results[label], flush=True)
            del index
        extra[f"results_{n}"] = results
        pq = results["ivfpq"]
        flat = results.get("ivf")
        rows.append(row(f"{n:,}: bytes/vector (IVF-PQ vs IVF-Flat)", pq["bytes_per_vector"],
                        flat["bytes_per_vector"] if flat else None, "B"))
        rows.append(row(f"{n:,}: recall@10", pq["recall"], flat["recall"] if flat else None, "",
                        higher_is_better=True))
        rows.append(row(f"{n:,}: p50 query", pq["p50_ms"], flat["p50_ms"] if flat else None, "ms"))
        rows.append(row(f"{n:,}: build", pq["build_s"], flat["build_s"] if flat else None, "s"))
    extra["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    report("scale_search", rows, extra)


if __name__ == "__main__":
    main()
