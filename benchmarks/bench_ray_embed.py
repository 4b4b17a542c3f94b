"""Ray embedding vs in-process embedding on this machine: the throughput overhead of going through Ray Data.

Same real arXiv papers, packaged MiniLM, same batch size, a fresh workspace per run, model load counted in both.
Baseline: `embed_corpus` (in-process; its batches run side by side, one per core). Ours: `embed_corpus_ray` on a
local Ray cluster of all cores, one 1-thread encoder actor per core (`--workers` = cores); the cluster is started
once before timing (a user's cluster is already running), actor start-up and model loads are inside the timing.
Runs alternate A, B, B, A. Ratio = in-process seconds / Ray seconds (1.0 = no overhead; the target is >= 0.85).

    flock /tmp/miread-heavy.lock .venv/bin/python benchmarks/bench_ray_embed.py --papers 1200 --reps 2
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from common import arxiv, interleave, median, report, row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=1200)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()
    import ray

    import core.embedding.encoder as encoder_module
    from core.embedding import RayOptions, embed_corpus, embed_corpus_ray
    from core.embedding.distributed import runtime_env
    from core.records import Paper
    from core.store import Store

    cores = os.cpu_count() or 1
    papers = [Paper(r["id"], r["title"], r["abstract"], {}) for r in arxiv(args.papers)]
    ray.init(num_cpus=cores, runtime_env=runtime_env(remote=False), include_dashboard=False, log_to_driver=False,
             logging_level="ERROR")
    scratch = Path(tempfile.mkdtemp(prefix="bench-ray-"))
    counter = iter(range(1000))

    def fresh() -> Store:
        store = Store(scratch / f"ws{next(counter)}")
        store.import_papers("c", papers)
        return store

    def in_process() -> None:
        store = fresh()
        encoder_module._ENCODERS.clear()  # the model load counts, as in a fresh `embed` command
        assert embed_corpus(store, "c", "minilm", batch_size=args.batch_size).new == store.corpus("c").papers

    def on_ray() -> None:
        store = fresh()
        report_ = embed_corpus_ray(store, "c", "minilm", RayOptions(workers=cores, batch_size=args.batch_size))
        assert report_.new == store.corpus("c").papers  # repeated arXiv texts are merged on import

    times = interleave({"in-process": in_process, "ray": on_ray}, args.reps)
    ray.shutdown()
    local, distributed = median(times["in-process"]), median(times["ray"])
    extra = {"papers": len(papers), "cores": cores, "times": times, "load": os.getloadavg()[0],
             "papers_per_s": {"in-process": round(len(papers) / local, 1), "ray": round(len(papers) / distributed, 1)}}
    print(extra, flush=True)
    report("ray_embed", [row(f"{len(papers):,} papers: papers/s (Ray vs in-process)", round(len(papers) / distributed, 1),
                             round(len(papers) / local, 1), "papers/s", higher_is_better=True)], extra)


if __name__ == "__main__":
    main()
