"""Corpora for bench_hybrid_search.py: texts, keyword lists and minilm vectors, embedded once and cached in /tmp.

`python benchmarks/hybrid_data.py medical arxiv` fills the cache ahead of time (resumes by blocks of 250 papers).
"""

from __future__ import annotations

import gzip
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = Path(os.environ.get("MIREAD_BENCH_DATA", "/work/shared/data"))
CACHE = Path(os.environ.get("MIREAD_HYBRID_CACHE", "/tmp/hybrid-bench"))
BLOCK = 250
SIZES = {"medical": ("medical_abstracts.jsonl.gz", 1000), "arxiv": ("arxiv_categories.jsonl.gz", 1000),
         "arxiv4k": ("arxiv_categories.jsonl.gz", 4000), "cite": ("arxiv_citations.jsonl.gz", 3000),
         "arxivj": ("arxiv_journals.jsonl.gz", 50_000)}  # every paper of the 42,252-paper arXiv journal corpus


def records(name: str) -> list[dict[str, Any]]:
    """The corpus's papers: id, title, abstract, keywords (a list, empty when the corpus has none), references."""
    if name == "pubmed":  # the demo corpus (real PubMed records with MeSH terms and keywords), see demo_store()
        frame = demo_store().papers_frame("pubmed-demo")
        return [{"id": str(r.id), "title": str(r.title), "abstract": str(r.abstract or ""),
                 "keywords": [*(r.keywords or []), *(r.mesh or [])]} for r in frame.itertuples()]
    file, n = SIZES[name]
    out = []
    with gzip.open(DATA / file, "rt", encoding="utf-8") as handle:
        for line in handle:
            rec = json.loads(line)
            out.append({"id": rec["id"], "title": rec["title"], "abstract": rec.get("abstract") or "",
                        "keywords": [], "references": rec.get("references")})
            if len(out) >= n:
                break
    return out


def demo_store() -> Any:
    """The PubMed demo workspace (`python -m core demo`), embedded with minilm, copied under the cache folder."""
    from core.store import Store

    return Store(CACHE / "demo-ws")


def vectors(name: str) -> np.ndarray:
    """minilm vectors of the corpus's title + abstract pairs (the product's document vectors), cached."""
    if name == "pubmed":
        return np.load(next((CACHE / "demo-ws" / "arrays" / "matrices").glob("pubmed-demo-*.npy")))
    final = CACHE / f"{name}-docs.npy"
    if final.exists():
        return np.load(final)
    recs = records(name)
    pairs = [(r["title"], r["abstract"]) for r in recs]
    parts = []
    for start in range(0, len(pairs), BLOCK):
        part = CACHE / f"{name}-docs-{start}.npy"
        if not part.exists():
            np.save(part, encoder().encode(pairs[start:start + BLOCK]))
            print(f"{name}: {start + BLOCK}/{len(pairs)}", flush=True)
        parts.append(np.load(part))
    matrix = np.concatenate(parts)
    np.save(final, matrix)
    return matrix


def query_vectors(name: str, kind: str, texts: list[str]) -> np.ndarray:
    """minilm vectors of short queries encoded as the product does (the text as a title, no abstract), cached."""
    path = CACHE / f"{name}-q-{kind}-{len(texts)}.npy"
    if path.exists():
        return np.load(path)
    matrix = encoder().encode([(t, "") for t in texts])
    np.save(path, matrix)
    return matrix


_ENCODER: list[Any] = []


def encoder() -> Any:
    if not _ENCODER:
        from core.embedding import Encoder, get_model

        _ENCODER.append(Encoder(get_model("minilm"), device="cpu", batch_size=32))
    return _ENCODER[0]


if __name__ == "__main__":
    import torch

    torch.set_num_threads(int(os.environ.get("MIREAD_BENCH_THREADS", "2")))
    CACHE.mkdir(parents=True, exist_ok=True)
    for corpus in sys.argv[1:]:
        vectors(corpus)
