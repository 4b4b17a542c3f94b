"""The product's `embed` end to end on a large corpus, and where its time goes (store read, tokenise, pad, encode,
store write). Made for a GPU, where the encoder is so fast that the rest can become the bottleneck.

Corpus: real arXiv title/abstract pairs (arxiv_journals), repeated until `--papers` with the copy number
put before the title, "Copy k: " (distinct texts, real token lengths); imported once into a fresh workspace, then copied
for each run so every run starts with nothing embedded. Each run is `core.embedding.embed_corpus` as the `embed`
command calls it, with timers wrapped around its stages; the encoder's forward pass is synchronised per batch,
as the code already does when it copies each batch's vectors back. Baseline of the ratio column: the encoder's
forward passes alone (the share of the wall time that is model work).

    python benchmarks/bench_embed_e2e.py --papers 100000 --batch-sizes 32,256
    python benchmarks/bench_embed_e2e.py --smoke      # 300 papers on the CPU: checks the script
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common import arxiv, report, row

STAGES = ("store read", "missing hashes", "tokenise", "pad (collate)", "encode (forward)", "store write")


def corpus(n: int) -> list:
    """`n` distinct papers built from the real arXiv records (copy k > 0 gets 'Copy k: ' before its title)."""
    from core.records import Paper

    records = arxiv(min(n, 42252))
    out = []
    for i in range(n):
        r, copy = records[i % len(records)], i // len(records)
        # "Copy k: " in front: a bracketed " [k]" after the title reads as a translated-title form since the import
        # learned those (issue 40), and the copies merged into 42,835 papers (GPU run of 2026-11-30).
        out.append(Paper(f"{r['id']}#{copy}", (f"Copy {copy}: " if copy else "") + r["title"], r["abstract"], {}))
    return out


def timed(clock: dict[str, float], stage: str, fn: Callable, sync: Callable[[], None] = lambda: None) -> Callable:
    """`fn` with its wall seconds added to clock[stage] (after `sync`, so GPU work is counted where it runs)."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        out = fn(*args, **kwargs)
        sync()
        clock[stage] += time.perf_counter() - start
        return out

    return wrapper


def run_once(store_dir: Path, batch_size: int, device: str) -> dict[str, Any]:
    """One `embed_corpus` on a fresh copy of the imported workspace; wall seconds and seconds per stage."""
    import torch

    import core.embedding.encoder as enc
    from core.store import Store

    store = Store(store_dir)
    encoder = enc.get_encoder(enc.get_model("minilm", store), device=device, batch_size=batch_size)
    clock: dict[str, float] = defaultdict(float)
    sync = torch.cuda.synchronize if encoder.device.startswith("cuda") else (lambda: None)
    tokenize = "tokenize" if hasattr(encoder, "tokenize") else "tokenizer"  # before 2026-11-28: one-thread calls
    patches = [(store, "papers"), (store, "missing_hashes"), (store, "add_embeddings"), (enc, "collate"),
               (encoder, "_forward"), (encoder, tokenize)]
    saved = [(obj, attr, getattr(obj, attr)) for obj, attr in patches]
    store.papers = timed(clock, "store read", store.papers)
    store.missing_hashes = timed(clock, "missing hashes", store.missing_hashes)
    store.add_embeddings = timed(clock, "store write", store.add_embeddings)
    enc.collate = timed(clock, "pad (collate)", enc.collate)
    encoder._forward = timed(clock, "encode (forward)", encoder._forward, sync)
    tokenizer = getattr(encoder, tokenize)

    class Tokenizer:  # the tokenizer object stays itself (pad_token_id...); only its call is timed
        def __getattr__(self, name: str) -> Any:
            return getattr(tokenizer, name)

        __call__ = staticmethod(timed(clock, "tokenise", tokenizer.__call__))

    setattr(encoder, tokenize, Tokenizer())
    try:
        start = time.perf_counter()
        done = enc.embed_corpus(store, "big", "minilm", device=device, batch_size=batch_size, encoder=encoder)
        wall = time.perf_counter() - start
    finally:
        for obj, attr, value in saved:
            setattr(obj, attr, value)
    assert done.new == done.total, done
    stages = {s: round(clock[s], 2) for s in STAGES}
    stages["other (python glue)"] = round(wall - sum(clock.values()), 2)
    return {"batch_size": batch_size, "papers": done.total, "wall_s": round(wall, 2),
            "papers_per_s": round(done.total / wall, 1), "stages_s": stages, "device": encoder.device}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--batch-sizes", default="32,256", help="32 is the `embed` command's default")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--smoke", action="store_true", help="300 papers on the CPU")
    args = parser.parse_args()
    import torch

    from core.embedding.device import device_label
    from core.store import Store

    if args.smoke:
        args.papers, args.device, args.batch_sizes = 300, "cpu", "32"
    scratch = Path(tempfile.mkdtemp(prefix="bench-e2e-"))
    papers = corpus(args.papers)
    start = time.perf_counter()
    Store(scratch / "imported").import_papers("big", papers)
    import_s = time.perf_counter() - start
    imported = len(Store(scratch / "imported").papers("big"))
    if imported != args.papers:
        raise SystemExit(f"the import kept {imported:,} of {args.papers:,} papers: the copies must stay distinct")
    results = []
    for batch in [int(b) for b in args.batch_sizes.split(",") if b.strip()]:
        fresh = scratch / f"run-{batch}"
        shutil.copytree(scratch / "imported", fresh)
        results.append(run_once(fresh, batch, args.device))
        shutil.rmtree(fresh)
        print(results[-1], flush=True)
    device = device_label(results[0]["device"]) if results else "-"
    rows = [row(f"import {args.papers:,} papers (for reference)", round(import_s, 1), None, "s")]
    for r in results:
        encode = r["stages_s"]["encode (forward)"]
        rows.append(row(f"embed {r['papers']:,} papers, batch {r['batch_size']}: wall s (ours) vs forward passes "
                        "alone (baseline)", r["wall_s"], encode, "s",
                        f"{r['papers_per_s']:,.0f} papers/s; stages: "
                        + ", ".join(f"{k} {v}" for k, v in r["stages_s"].items()) + f"; {device}"))
    shutil.rmtree(scratch, ignore_errors=True)
    report("embed_e2e_smoke" if args.smoke else "embed_e2e", rows,
           {"device": device, "torch": torch.__version__, "import_s": import_s, "runs": results})


if __name__ == "__main__":
    main()
