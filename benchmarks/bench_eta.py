"""Issue 44 §2: how far the embedding ETA is from the truth at 10 %, 25 %, 50 % and 75 % of a real run.

    MIREAD_BENCH_DATA=/work/shared/data nice .venv/bin/python benchmarks/bench_eta.py --papers 2000

Imports the first `--papers` records of arxiv_journals into a fresh workspace and embeds them with the packaged
MiniLM on this machine's CPU (`embed_corpus`, the model load included, as the page does). At every progress report
it records two estimates of the seconds left: the product's (`core.eta.Eta`: the last minute of work, in text length,
from the first batch on, 'estimating…' until stable) and the one it replaced (papers per second since the click).
After the run, each is compared with the true time left at the first report past each share of the papers:
error = (estimate - truth) / truth. Goal: within ±25 % from 10 % on.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from common import arxiv, report, row

from core.eta import Eta
from core.records import Paper
from core.store import Store

SHARES = (0.10, 0.25, 0.50, 0.75)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=2000)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()
    from core.embedding import embed_corpus

    store = Store(Path(tempfile.mkdtemp(prefix="bench-eta-")))
    records = arxiv(args.papers)
    store.import_papers("eta", [Paper(str(r["id"]), r["title"], r["abstract"], {}) for r in records])
    eta = Eta()
    seen: list[tuple[float, float, float | None, float | None]] = []
    started = time.monotonic()

    def update(done: int, total: int) -> None:
        now = time.monotonic()
        old = (total - done) / (done / (now - started)) if done else None
        seen.append((done / total, now, eta.seconds_left(), old))

    embed_corpus(store, "eta", "minilm", device="cpu", batch_size=args.batch_size, progress=update, work=eta.update)
    finish = time.monotonic()
    rows, table = [], []
    for share in SHARES:
        _, at, new, old = next(p for p in seen if p[0] >= share)
        truth = finish - at
        new_error = None if new is None else round(100 * (new - truth) / truth, 1)
        old_error = None if old is None else round(100 * (old - truth) / truth, 1)
        rows.append(row(f"ETA error at {share:.0%} of the papers", new_error, old_error, "% of the true time left",
                        f"true {truth:.0f} s left; ours {'estimating' if new is None else f'{new:.0f} s'}"))
        table.append({"share": share, "true_s": round(truth, 1), "ours_s": new, "before_s": old})
    report("eta", rows, {"papers": args.papers, "seconds": round(finish - started, 1), "points": table})


if __name__ == "__main__":
    main()
