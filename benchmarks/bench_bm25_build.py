"""BENCHMARKS §28c: the BM25 index's build time, peak memory and lexical query time, bm25s's own build (the
baseline: `bm25s.tokenize` + `BM25.index`, and its `get_scores_from_ids` query) vs the numpy/scipy/Arrow build of
core/explore/search/bm25_build.py (and the `+=` query of LexicalIndex.scores), on §28's synthetic corpus
(`bench_hybrid_search.py scale`: Zipf words over a 50k vocabulary, 150 words a paper, seed 0).

    .venv/bin/python benchmarks/bench_bm25_build.py 100000 300000 --repeats 2    # old / new interleaved
    .venv/bin/python benchmarks/bench_bm25_build.py 1000000 --only new
    .venv/bin/python benchmarks/bench_bm25_build.py /work/shared/data/arxiv_journals.jsonl.gz --repeats 2  # real text

Each build runs in a fresh process (build_cpu_s: its CPU time, steadier than the wall time on shared cores; peak RSS = that process's ru_maxrss: the texts + the build; `texts_rss` is the
peak before the build). Runs alternate old, new / new, old between repeats. In each process 200 1–4-word queries
(top 200) are timed, query by query interleaved, with the product's LexicalIndex.search (bm25s's np.add.at sums,
then argpartition over the positive scores) as `query_old` and, as `query_new`, whatever LexicalIndex.search is at
the revision run: in the run of §28c a top-k over the rows at or above the k-th best block maximum (commit 5af8bc1),
measured equal and dropped, so at later revisions the two columns time the same code. save_s / load_s: the
product's LexicalIndex.save / load of the index (added after §28c's first runs; that run's key ends "--persist",
a tag the script ignores).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = Path(__file__).resolve().parent / "results" / "bench_bm25_build.json"


def synthetic(n: int) -> tuple[list[str], list[str]]:
    """§28's scale corpus (bench_hybrid_search.scale, same seed and draws) and its 200 queries."""
    rng = np.random.default_rng(0)
    vocab = np.array([f"w{i}" for i in range(50_000)])
    weights = 1.0 / np.arange(1, len(vocab) + 1)
    weights /= weights.sum()
    words = rng.choice(len(vocab), size=(n, 150), p=weights)
    texts = [" ".join(vocab[row]) for row in words]
    del words
    picks = rng.choice(len(vocab), size=(200, 4), p=weights)
    queries = [" ".join(vocab[row[: int(rng.integers(1, 5))]]) for row in picks]
    return texts, queries


def real(path: str) -> tuple[list[str], list[str]]:
    """A corpus file's title + abstract texts (JSON lines, gzipped) and 200 queries: the first 1–4 words of every
    n-th title."""
    import gzip

    with gzip.open(path, "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    texts = [f"{r.get('title') or ''} {r.get('abstract') or ''}" for r in rows]
    step = max(1, len(rows) // 200)
    queries = [" ".join(str(r.get("title") or "").split()[: 1 + i % 4]) for i, r in enumerate(rows[::step][:200])]
    return texts, queries


def old_search(index, text: str, k: int) -> np.ndarray:
    """LexicalIndex.search as it was: bm25s's get_scores_from_ids (np.add.at per term), then argpartition over all
    positive scores."""
    ids = index.retriever.get_tokens_ids(index.terms(text))
    scores = (np.asarray(index.retriever.get_scores_from_ids(ids), dtype=np.float32) if ids
              else np.zeros(index.papers, dtype=np.float32))
    hits = np.flatnonzero(scores > 0)
    if len(hits) > k:
        hits = hits[np.argpartition(-scores[hits], k - 1)[:k]]
    return hits[np.lexsort((hits, -scores[hits]))]


def one(variant: str, n: int | str) -> dict:
    """Build with `variant` in this process; time it and the queries."""
    import bm25s  # noqa: F401  imported, like the stemmer and stop words, outside the timed build
    import pandas  # noqa: F401
    import pyarrow.compute  # noqa: F401
    import scipy.sparse  # noqa: F401

    from core.explore.search.bm25_build import bm25s_retriever
    from core.explore.search.lexical import LexicalIndex, _stemmer, _stopwords

    texts, queries = synthetic(n) if isinstance(n, int) else real(n)
    _stemmer(True), _stopwords()

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    cpu = time.process_time()
    started = time.perf_counter()
    if variant == "old":
        index = LexicalIndex(bm25s_retriever(texts, _stemmer(True)), len(texts))
    else:
        index = LexicalIndex.build(texts)
    build = time.perf_counter() - started
    cpu = time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    times = {"old": [], "new": []}
    for q in queries:
        for name, fn in (("old", lambda: old_search(index, q, 200)), ("new", lambda: index.search(q, 200)[1])):
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
        scores = index.scores(q)  # the same ranking: the same scores, best first (ties at the cut may differ)
        assert np.array_equal(scores[old_search(index, q, 200)], scores[index.search(q, 200)[1]])
    with tempfile.TemporaryDirectory() as folder:  # the .npz the product keeps
        path = Path(folder) / "index.npz"
        started = time.perf_counter()
        index.save(path)
        save = time.perf_counter() - started
        started = time.perf_counter()
        loaded = LexicalIndex.load(path, len(texts))
        load = time.perf_counter() - started
        size = path.stat().st_size
    assert loaded is not None and np.array_equal(loaded.scores(queries[0]), index.scores(queries[0]))
    row = {"variant": variant, "corpus": n if isinstance(n, str) else "synthetic", "papers": len(texts),
           "build_s": round(build, 2), "build_cpu_s": round(cpu, 2), "texts_rss_mib": round(before),
           "peak_rss_mib": round(peak), "nnz": int(len(index.retriever.scores["data"])), "save_s": round(save, 2),
           "load_s": round(load, 2), "npz_mib": round(size / 2**20)}
    for name, values in times.items():
        row[f"query_{name}_p50_ms"] = round(1000 * float(np.percentile(values, 50)), 2)
        row[f"query_{name}_p95_ms"] = round(1000 * float(np.percentile(values, 95)), 2)
    return row


def main(args: list[str]) -> None:
    flags = [i for i, a in enumerate(args) if a.startswith("--")]
    sizes = [int(a) if a.isdigit() else a for a in args[: flags[0] if flags else len(args)]]
    repeats = int(args[args.index("--repeats") + 1]) if "--repeats" in args else 1
    only = args[args.index("--only") + 1] if "--only" in args else None
    rows = []
    for n in sizes:
        for r in range(repeats):
            order = ("old", "new") if r % 2 == 0 else ("new", "old")
            for variant in order:
                if only and variant != only:
                    continue
                out = subprocess.run([sys.executable, __file__, "--one", variant, str(n)], capture_output=True,
                                     text=True, check=True).stdout
                rows.append(json.loads(out.strip().splitlines()[-1]))
                print(json.dumps(rows[-1]), flush=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    previous = json.loads(OUT.read_text()) if OUT.exists() else {}
    previous[" ".join(args)] = rows
    OUT.write_text(json.dumps(previous, indent=1))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        print(json.dumps(one(sys.argv[2], int(sys.argv[3]) if sys.argv[3].isdigit() else sys.argv[3])))
    else:
        main(sys.argv[1:])
