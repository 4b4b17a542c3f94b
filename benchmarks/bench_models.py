"""Papers per second of each offline model on this machine (issue 20): MiniLM (packaged) vs mpnet (installed).

    .venv/bin/python benchmarks/bench_models.py --workspace /tmp/ws-mp     # mpnet installed there first:
    .venv/bin/python -m core --workspace /tmp/ws-mp models install mpnet

Both encode the same `--papers` real arXiv titles + abstracts at 256 tokens, batch 16, after one warm-up batch,
in this process (torch threads = cores). Baseline: the packaged MiniLM, measured in the same run.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from common import arxiv, report, row

from core.embedding import get_encoder, get_model
from core.store import Store


def papers_per_second(name: str, store: Store, pairs: list[tuple[str, str]]) -> tuple[float, int]:
    spec = get_model(name, store)
    encoder = get_encoder(spec, device="cpu", batch_size=16)
    encoder.encode(pairs[:16])
    started = time.perf_counter()
    vectors = encoder.encode(pairs)
    return len(pairs) / (time.perf_counter() - started), int(vectors.shape[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workspace", type=Path, required=True)
    parser.add_argument("--papers", type=int, default=128)
    args = parser.parse_args()
    store = Store(args.workspace)
    records = arxiv(args.papers)
    pairs = [(r["title"], r["abstract"]) for r in records]
    minilm, small_dim = papers_per_second("minilm", store, pairs)
    mpnet, big_dim = papers_per_second("mpnet", store, pairs)
    report("models", [row(f"papers/s at 256 tokens, {args.papers} arXiv papers: mpnet ({big_dim}-d) vs MiniLM "
                          f"({small_dim}-d)", mpnet, minilm, "papers/s", "baseline = packaged MiniLM, same run",
                          higher_is_better=True)])


if __name__ == "__main__":
    main()
