"""Benchmark 28d (issue 43): one search at 1M papers, encoding included — core's `hybrid.search` (words + meaning)
against the dense-only path (encode + the vector index) measured on the same queries in the same process.

Corpus: bench_bm25_build.synthetic(n) (Zipf words, 150 a paper; the title is its first 12 words) and
`clustered_unit_vectors(n)` as the papers' vectors (the product's 384-d MiniLM shape), the vector index core would
build at that size (`VectorIndex`: IVF above 50k) and the BM25 index `LexicalIndex.build` makes. `hybrid.search`
runs unchanged on that frame; only its two index lookups are pointed at the indexes built here (no 1M workspace
is imported). Queries are encoded by the packaged MiniLM on the CPU: 200 of 1–4 words (the bench's Zipf words) and
20 pasted "abstracts" of 60 words (over 20 words: dense only by design).

    .venv/bin/python benchmarks/bench_hybrid_1m.py --papers 1000000
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_bm25_build import synthetic  # noqa: E402
from common import ROOT, machine, peak_rss_mb  # noqa: E402
from synthetic import clustered_unit_vectors  # noqa: E402

sys.path.insert(0, str(ROOT))


def percentiles(values: list[float]) -> dict[str, float]:
    return {"p50_ms": round(1000 * float(np.percentile(values, 50)), 1),
            "p95_ms": round(1000 * float(np.percentile(values, 95)), 1), "n": len(values)}


def main() -> None:
    import torch

    from core.embedding import Encoder, get_model
    from core.explore import VectorIndex
    from core.explore.search import hybrid
    from core.explore.search.lexical import LexicalIndex

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=1_000_000)
    args = parser.parse_args()
    torch.set_num_threads(2)
    n = args.papers
    started = time.perf_counter()
    texts, short = synthetic(n)
    frame = pd.DataFrame({"id": [f"p{i}" for i in range(n)], "title": [" ".join(t.split()[:12]) for t in texts],
                          "abstract": texts})
    del texts
    matrix = clustered_unit_vectors(n)
    made = time.perf_counter() - started
    started = time.perf_counter()
    dense = VectorIndex(matrix)
    dense_build = time.perf_counter() - started
    started = time.perf_counter()
    lexical = LexicalIndex.build((frame["title"] + " " + frame["abstract"]).tolist(), stem=True)
    lexical_build = time.perf_counter() - started
    hybrid.corpus_index = lambda *a, **k: dense  # the indexes built above, as the store's caches would hand them
    hybrid.corpus_lexical = lambda *a, **k: lexical
    spec = get_model("minilm")
    encoder = Encoder(spec, device="cpu", batch_size=32)
    rng = np.random.default_rng(1)
    pasted = [" ".join(frame["abstract"].iloc[int(r)].split()[:60]) for r in rng.integers(0, n, 20)]
    encoder.encode([("warm up", "")])
    hybrid.search(None, "bench", spec, short[0], k=10, encoder=encoder, frame=frame)  # type: ignore[arg-type]
    times: dict[str, list[float]] = {"fused, 1-4 words": [], "dense only, 1-4 words": [],
                                     "fused, pasted 60 words": [], "dense only, pasted 60 words": []}
    for kind, queries in (("1-4 words", short), ("pasted 60 words", pasted)):
        for q in queries:  # the two paths alternate query by query: the same load for both
            t = time.perf_counter()
            result = hybrid.search(None, "bench", spec, q, k=10, encoder=encoder, frame=frame)  # type: ignore[arg-type]
            times[f"fused, {kind}"].append(time.perf_counter() - t)
            assert len(result.results) == 10
            t = time.perf_counter()
            vector = encoder.encode([(q, "")])[0]
            dense.search(vector[None, :], 10, None)
            times[f"dense only, {kind}"].append(time.perf_counter() - t)
    out = {"machine": machine(), "papers": n, "index": dense.kind, "data_s": round(made, 1),
           "dense_build_s": round(dense_build, 1), "lexical_build_s": round(lexical_build, 1),
           "peak_rss_mb": round(peak_rss_mb()), "latency": {k: percentiles(v) for k, v in times.items()}}
    print(json.dumps(out, indent=1))
    print(f"\n| queries ({n:,} papers, {dense.kind}) | fused p50 / p95 ms | dense only p50 / p95 ms |")
    print("|---|---|---|")
    for kind in ("1-4 words", "pasted 60 words"):
        f, d = out["latency"][f"fused, {kind}"], out["latency"][f"dense only, {kind}"]
        print(f"| {kind} (n = {f['n']}) | {f['p50_ms']} / {f['p95_ms']} | {d['p50_ms']} / {d['p95_ms']} |")


if __name__ == "__main__":
    main()
