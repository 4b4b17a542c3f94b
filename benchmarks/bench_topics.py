"""Benchmark: the Domain map's topic colouring (issue 17), per page run.

Baseline: what the page did before the topic hierarchy, on every rerun: flat k-means of the vectors plus c-TF-IDF
cluster names (`kmeans` + `cluster_names`), nothing kept. Ours:
- hierarchy, compute: `topic_hierarchy` alone (k-means, Ward over the centroids, keywords of both levels);
- hierarchy, first visit: `corpus_topics` with its cache files deleted (reads vectors and texts, computes, writes);
- hierarchy, cached: `corpus_topics` again, as every later page run (and every other browser session) does.

Real arXiv titles and abstracts (`arxiv_journals`), paper-like synthetic 384-d vectors (synthetic.py); runs
alternate every rep.

    python benchmarks/bench_topics.py --papers 40000 --k 12 --reps 3
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np
from common import arxiv, interleave, median, report, row
from synthetic import clustered_unit_vectors


def build(root: Path, papers: int):
    """A workspace with corpus 'arxiv' and the vectors of model 'bench'."""
    os.environ.update({"MIREAD_FAST_CPU": "off", "MIREAD_DEVICE": "cpu", "HF_HUB_OFFLINE": "1"})
    from core.embedding import ModelSpec, vectors_fingerprint
    from core.records import Paper
    from core.store import Store

    store = Store(root / "ws")
    store.import_papers("arxiv", [Paper(r["id"], r["title"], r["abstract"], {"journal": r["journal"]})
                                  for r in arxiv(papers)])
    hashes = [p.hash for p in store.papers("arxiv")]
    spec = ModelSpec(name="bench", source="checkpoint", location=str(root / "bench"))
    store.save_model("bench", spec.to_dict())
    store.add_embeddings(vectors_fingerprint(spec), hashes, clustered_unit_vectors(len(hashes), seed=0))
    return store, spec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=40_000)
    parser.add_argument("--k", type=int, default=12)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()

    from core.embedding import vectors_fingerprint
    from core.explore.topics.cache import corpus_topics, topics_files
    from core.explore.topics.clusters import cluster_names, kmeans
    from core.explore.topics.hierarchy import topic_hierarchy

    with tempfile.TemporaryDirectory() as tmp:
        store, spec = build(Path(tmp), args.papers)
        vectors = np.asarray(store.embeddings("arxiv", vectors_fingerprint(spec)))
        frame = store.papers_frame("arxiv")
        texts = (frame["title"].fillna("") + ". " + frame["abstract"].fillna("")).tolist()
        n = len(texts)

        def flat() -> None:
            cluster_names(texts, kmeans(vectors, args.k))

        def first_visit() -> None:
            for path in topics_files(store, "arxiv", spec, args.k)[:2]:
                path.unlink(missing_ok=True)
            corpus_topics(store, "arxiv", spec, args.k)

        corpus_topics(store, "arxiv", spec, args.k)  # warm: imports, numba-free sklearn paths, stop words
        times = interleave({"flat": flat, "compute": lambda: topic_hierarchy(vectors, texts, args.k),
                            "first": first_visit}, args.reps)
        corpus_topics(store, "arxiv", spec, args.k)
        cached = []
        for _ in range(max(5, args.reps)):
            started = time.perf_counter()
            corpus_topics(store, "arxiv", spec, args.k)
            cached.append(time.perf_counter() - started)
        base = median(times["flat"])
        rows = [
            row("flat k-means + names (old page, every run)", base, base, "s", f"{n:,} papers, k={args.k}"),
            row("hierarchy: compute (k-means, Ward, keywords x2)", median(times["compute"]), base, "s"),
            row("hierarchy: first visit (read, compute, store)", median(times["first"]), base, "s"),
            row("hierarchy: cached (every later run)", median(cached), base, "s"),
        ]
        report("topics", rows, {"papers": n, "k": args.k, "reps": args.reps,
                                "times": {**times, "cached": cached}})


if __name__ == "__main__":
    main()
