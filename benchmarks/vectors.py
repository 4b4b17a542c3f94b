"""Real paper vectors for the benchmarks: arXiv abstracts embedded once (exact or fast) and cached in out/.

Run directly to fill the cache ahead of time: `python benchmarks/vectors.py 10000 exact bf16`.
Embedding resumes from the last saved block of 1,000 papers if interrupted.
"""

from __future__ import annotations

import sys

import numpy as np
from common import OUT, arxiv

BLOCK = 1000


def real_vectors(n: int, mode: str = "exact", model: str = "minilm") -> np.ndarray:
    """Vectors [n, d] of the first n arXiv-journals papers (title/abstract pairs); mode 'exact' or a fast kind."""
    from core.embedding import Encoder, fingerprint, get_model

    spec = get_model(model)
    final = OUT / f"vectors-{fingerprint(spec)}-{mode}-{n}.npy"
    for cached in sorted(OUT.glob(f"vectors-{fingerprint(spec)}-{mode}-*.npy"), key=lambda p: int(p.stem.rsplit("-", 1)[1])):
        if int(cached.stem.rsplit("-", 1)[1]) >= n:
            return np.load(cached, mmap_mode="r")[:n].copy()
    encoder = Encoder(spec, device="cpu", batch_size=32, max_length=256, fast=mode != "exact")
    if encoder.fast != ("" if mode == "exact" else mode):
        raise SystemExit(f"this CPU runs fast mode {encoder.fast!r}, not {mode!r}")
    records = arxiv(n)
    pairs = [(r["title"], r["abstract"]) for r in records]
    parts = []
    OUT.mkdir(parents=True, exist_ok=True)
    for start in range(0, n, BLOCK):
        part_path = OUT / f"partial-{final.stem}-{start}.npy"
        if part_path.exists():
            parts.append(np.load(part_path))
            continue
        vectors = encoder.encode(pairs[start : start + BLOCK])
        np.save(part_path, vectors)
        parts.append(vectors)
        print(f"{mode}: {start + len(vectors):,}/{n:,} embedded", flush=True)
    matrix = np.concatenate(parts)
    np.save(final, matrix)
    for start in range(0, n, BLOCK):
        (OUT / f"partial-{final.stem}-{start}.npy").unlink(missing_ok=True)
    return matrix


def real_labels(n: int, column: str = "field") -> list[str]:
    """A label column of the same first n papers."""
    return [str(r.get(column, "")) for r in arxiv(n)]


if __name__ == "__main__":
    import torch

    torch.set_num_threads(int(__import__("os").environ.get("MIREAD_BENCH_THREADS", torch.get_num_threads())))
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    for kind in sys.argv[2:] or ["exact"]:
        real_vectors(size, kind)
