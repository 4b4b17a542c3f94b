"""How often the journal finder is right: the `journals` evaluation task on arXiv-journals papers, several seeds.

    .venv/bin/python benchmarks/journal_finder.py                 # seconds with the 4,000 vectors cached
    .venv/bin/python benchmarks/journal_finder.py --pool 1000 --seeds 0   # to check it runs

The first `--pool` arXiv-journals papers, embedded once with the packaged MiniLM (cached by vectors.py), are the
sample; `core.evaluation.journal_finder.journal_finder` (the code behind `evaluate --tasks journals`) splits them
by paper per seed (80 % reference, 20 % held-out queries whose journal the reference has) and ranks every
reference journal for each query with the calibrated kNN vote and with a BM25 baseline (JANE-style: summed scores
of a journal's papers among the query's 50 best text matches). Mean ± std over seeds of top-1/5/10 and mean rank.
A trained head is scored by `evaluate --tasks journals` when the model has one; none is trained here.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from common import arxiv, machine, report, row
from vectors import real_vectors

from core.evaluation.journal_finder import journal_finder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pool", type=int, default=4000)
    parser.add_argument("--seeds", default="0,1,2,3,4")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    records = arxiv(args.pool)
    X = real_vectors(args.pool)
    labels = [r["journal"] for r in records]
    titles, abstracts = [r["title"] for r in records], [r["abstract"] for r in records]
    found: dict[tuple[str, str], list[float]] = {}
    note = ""
    started = time.perf_counter()
    for seed in seeds:
        for r in journal_finder(X, labels, titles, abstracts, model="minilm", seed=seed):
            found.setdefault((r.method, r.metric), []).append(r.value)
            note = r.note.split(";")[0]
    seconds = time.perf_counter() - started
    rows = []
    for metric in ("top-1", "top-5", "top-10", "mean rank"):
        knn, bm25 = np.mean(found[("knn", metric)]), np.mean(found[("bm25", metric)])
        spread = f"± {np.std(found[('knn', metric)]):.2f} / ± {np.std(found[('bm25', metric)]):.2f}"
        rows.append(row(f"journals {metric}: kNN vote (MiniLM) vs BM25", float(knn), float(bm25),
                        "%" if metric != "mean rank" else "rank", f"mean over seeds {seeds}, std {spread}",
                        higher_is_better=metric != "mean rank"))
    report("journal_finder", rows, {"pool": args.pool, "seeds": seeds, "split": note, "seconds": seconds,
                                    "raw": {f"{m}|{k}": v for (m, k), v in found.items()}, "machine": machine()})


if __name__ == "__main__":
    main()
