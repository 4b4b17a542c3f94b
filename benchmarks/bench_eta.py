"""Issue 44 §2: how far the embedding ETA is from the truth at 10 %, 25 %, 50 % and 75 % of a run (BENCHMARKS §27).

    MIREAD_BENCH_DATA=/work/shared/data OMP_NUM_THREADS=2 nice .venv/bin/python benchmarks/bench_eta.py --papers 1500
    .venv/bin/python benchmarks/bench_eta.py --simulate --papers 3000

Real run: imports the first `--papers` records of arxiv_journals into a fresh workspace and embeds them with the
packaged MiniLM on this machine's CPU (`embed_corpus`, the model load included, as the job does). Simulated run: the
real `embed_corpus` drives a stand-in encoder on a fake clock (a 20 s load, then padded-token work with ±10 % jitter,
and the machine twice as slow for the second fifth of the run: another job starting and stopping, as on a shared
machine). At every progress report three estimates of the seconds left are recorded, all from the same run:
*ours* (`core.eta.Eta` over padded tokens known before the run, the last minute of work), *grown* (the same units
over the last minute or the last half of the work, whichever is longer: a variant tried and not kept) and *§27* (the
estimator before: clipped characters over the last minute). error = (estimate - truth) / truth at the first report past each
share. Goal: within ±25 % from 10 % on.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
from common import arxiv, report, row

from core.eta import Eta
from core.records import Paper
from core.store import Store

SHARES = (0.10, 0.25, 0.50, 0.75)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class StandIn:
    """A stand-in encoder: longest first in batches, each costing its padded tokens; slower in a window of time."""

    max_length, dim, batch_size = 256, 4, 32

    def __init__(self, clock: Clock, fingerprint: str, slow: tuple[float, float]) -> None:
        self.clock, self.fingerprint, self.slow = clock, fingerprint, slow
        self.rng = np.random.default_rng(0)
        clock.now += 20.0  # the model load

    def encode(self, papers: list[Paper], progress=None) -> np.ndarray:
        sizes = np.array([min(self.max_length, (len(p.title) + len(p.abstract)) / 4.5 + 3) for p in papers])
        order = np.argsort(-sizes, kind="stable")
        for start in range(0, len(order), self.batch_size):
            batch = order[start:start + self.batch_size]
            cost = (0.05 + 4e-4 * len(batch) * sizes[batch].max()) * (1 + 0.1 * self.rng.uniform(-1, 1))
            self.clock.now += cost * (2.0 if self.slow[0] <= self.clock.now < self.slow[1] else 1.0)
            if progress:
                progress(start + len(batch), len(order))
        return np.zeros((len(papers), self.dim), dtype=np.float32)


def old_units(papers: list[Paper], limit: int, chunk: int) -> list[np.ndarray]:
    """The §27 estimator's work: clipped characters, cumulated longest first within each chunk."""
    sizes = np.array([min(len(p.title or ""), limit) + min(len(p.abstract or ""), limit) + 1 for p in papers], float)
    return [np.cumsum(np.sort(sizes[s:s + chunk])[::-1]) for s in range(0, len(papers), chunk)]


def run(store: Store, papers: list[Paper], clock, encoder=None, batch_size: int = 32) -> dict:
    from core.embedding import embed_corpus
    from core.embedding.encoder import CHARS_PER_TOKEN_LIMIT, CHUNK

    store.import_papers("eta", papers)
    ordered = [p for p in store.papers("eta")]
    ours, grown, before = Eta(clock), Eta(clock, grow=0.5), Eta(clock)
    chunks = old_units(ordered, CHARS_PER_TOKEN_LIMIT * 256, CHUNK)
    old_total = float(sum(c[-1] for c in chunks))
    seen: list[tuple[float, float, float | None, float | None, float | None]] = []

    def work(done: float, total: float) -> None:
        ours.update(done, total)
        grown.update(done, total)

    def update(done: int, total: int) -> None:
        if done:
            k = (done - 1) // CHUNK
            before.update(sum(float(c[-1]) for c in chunks[:k]) + float(chunks[k][done - k * CHUNK - 1]), old_total)
            seen.append((done / total, clock(), ours.seconds_left(), grown.seconds_left(), before.seconds_left()))

    started = clock()
    embed_corpus(store, "eta", "minilm", device="cpu", batch_size=batch_size, progress=update, work=work,
                 encoder=encoder)
    finish = clock()
    rows, table = [], []
    for share in SHARES:
        _, at, new, grow, old = next(p for p in seen if p[0] >= share)
        truth = finish - at

        def error(value: float | None) -> float | None:
            return None if value is None else round(100 * (value - truth) / truth, 1)

        rows.append(row(f"ETA error at {share:.0%} of the papers", error(new), error(old), "% of the true time left",
                        f"true {truth:.0f} s; ours {'estimating' if new is None else f'{new:.0f} s'}; grown "
                        f"{error(grow)} %"))
        table.append({"share": share, "true_s": round(truth, 1), "ours_s": new, "grown_s": grow,
                      "before_s": old, "ours_error": error(new), "grown_error": error(grow),
                      "before_error": error(old)})
    return {"rows": rows, "points": table, "seconds": round(finish - started, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=1500)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--simulate", action="store_true", help="a stand-in encoder on a fake clock (seconds)")
    args = parser.parse_args()
    store = Store(Path(tempfile.mkdtemp(prefix="bench-eta-")))
    papers = [Paper(str(r["id"]), r["title"], r["abstract"], {}) for r in arxiv(args.papers)]
    if args.simulate:
        from core.embedding import get_model, vectors_fingerprint

        clock = Clock()
        spec = get_model("minilm", store)
        # a first pass to learn the run's length, then the slow fifth placed at 20-40 % of it
        probe = StandIn(clock, vectors_fingerprint(spec), (0.0, 0.0))
        length = (run(Store(Path(tempfile.mkdtemp(prefix="bench-eta-"))), papers, clock, probe))["seconds"]
        clock = Clock()
        slow = (clock.now + 20 + 0.2 * length, clock.now + 20 + 0.4 * length)
        result = run(store, papers, clock, StandIn(clock, vectors_fingerprint(spec), slow))
    else:
        result = run(store, papers, time.monotonic, batch_size=args.batch_size)
    report("eta-simulated" if args.simulate else "eta", result["rows"],
           {"papers": args.papers, "seconds": result["seconds"], "points": result["points"]})


if __name__ == "__main__":
    main()
