"""Benchmark 30h (issue 42): `Store.corpus()` asked 15 times, as one page run of the map does, on the 50k-paper
workspace of bench_map_component.py; baseline: the same calls with the kept answer cleared before each (what every
call cost before it was kept). Median of 7 rounds.

    .venv/bin/python benchmarks/bench_corpus_info.py
"""

from __future__ import annotations

import time

from bench_interactions import OUT
from common import median

from core.store import Store

CALLS = 15


def rounds(store: Store, corpus: str, kept: bool, n: int = 7) -> float:
    times = []
    for _ in range(n):
        store._local.corpus_info = None
        started = time.perf_counter()
        for _ in range(CALLS):
            if not kept:
                store._local.corpus_info = None
            store.corpus(corpus)
        times.append(time.perf_counter() - started)
    return median(times)


def main() -> None:
    store = Store(OUT / "ws-map-50000")
    corpus = "synthetic"
    papers = store.corpus(corpus).papers
    before = rounds(store, corpus, kept=False)
    after = rounds(store, corpus, kept=True)
    print(f"{papers:,} papers, {CALLS} calls: counted each time {before * 1000:.1f} ms, kept {after * 1000:.1f} ms "
          f"({before / after:.1f}x)")


if __name__ == "__main__":
    main()
