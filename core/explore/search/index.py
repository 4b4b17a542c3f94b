"""Nearest-neighbour search over unit vectors: exact when small, faiss HNSW in the middle, IVF when large, and
IVF-PQ with exact re-ranking past `Settings.compressed_search_above` (core/explore/search/compressed.py).

The thresholds come from `benchmarks/bench_search.py` (BENCHMARKS.md, 2 cores): exact search takes ~5 ms
at 100k rows but 47-160 ms at 1M (quiet vs busy machine); HNSW and IVF both answer in under 1 ms, but HNSW
took 10 s to build at 100k and 152 s at 1M where IVF took 0.8 s and 10 s, with recall@10 0.98-0.99 once
`nprobe` is tuned at build time. So HNSW only serves corpora between a lowered exact limit and IVF_ABOVE.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from core.explore.search.exact import IVF_NPROBES, IVF_TRAIN_PER_LIST, exact_topk, ivf_lists, recall_at_k, without_self

HNSW_M = 32
HNSW_EF_CONSTRUCTION = 80
HNSW_EF_SEARCH = 128
IVF_ABOVE = 50_000  # rows above which IVF replaces HNSW (the default exact limit is also 50k)
IVF_TARGET_RECALL = 0.97  # recall@10 that tuning aims for on sampled queries (the bar is 0.95)
IVF_TUNING_QUERIES = 200
EXACT_FALLBACK_SHARE = 0.05  # a filter keeping fewer rows than this share is searched exactly


def choose_kind(rows: int, exact_limit: int, ivf_above: int = IVF_ABOVE, compressed_above: int | None = None) -> str:
    """'exact', 'hnsw', 'ivf' or 'ivfpq' (compressed, core/explore/search/compressed.py) for `rows` vectors."""
    if rows <= exact_limit:
        return "exact"
    if compressed_above is not None and rows > compressed_above:
        return "ivfpq"
    return "ivf" if rows > ivf_above else "hnsw"


class VectorIndex:
    """Search over one corpus's matrix, by the kind `choose_kind` picks; faiss indexes persist at `path`."""

    def __init__(self, matrix: np.ndarray, exact_limit: int = 50_000, path: Path | None = None,
                 ivf_above: int = IVF_ABOVE, compressed_above: int | None = None, opq: bool = False):
        self.matrix = matrix
        self.kind = choose_kind(len(matrix), exact_limit, ivf_above, compressed_above)
        self.opq = opq
        self.faiss_index: Any = None
        self.compressed: Any = None  # CompressedSearch over the faiss index when kind == 'ivfpq'
        self.rerank = 0  # its tuned re-rank depth, kept beside the index file
        if self.kind != "exact":
            self.faiss_index = self._load(path) or self._build(path)
        if self.kind == "ivfpq":
            from core.explore.search.compressed import CompressedSearch

            self.compressed = CompressedSearch(self.faiss_index, matrix, rerank=self.rerank)

    def _load(self, path: Path | None) -> Any:
        import faiss

        if path is None or not path.exists():
            return None
        try:
            index = faiss.read_index(str(path))
        except RuntimeError:
            path.unlink(missing_ok=True)
            return None
        wanted = {"ivf": faiss.IndexIVFFlat, "hnsw": faiss.IndexHNSWFlat,
                  "ivfpq": faiss.IndexPreTransform if self.opq else faiss.IndexIVFPQ}[self.kind]
        if not isinstance(index, wanted) or index.ntotal != len(self.matrix):
            return None
        if self.kind == "ivfpq":
            try:
                self.rerank = int(json.loads(_sidecar(path).read_text())["rerank"])
            except (OSError, ValueError, KeyError, TypeError):
                return None
        if self.kind == "hnsw":
            index.hnsw.efSearch = HNSW_EF_SEARCH
        return index

    def _build(self, path: Path | None) -> Any:
        import faiss

        if self.kind == "ivfpq":  # from the memory-mapped matrix in chunks: never all of it in RAM
            from core.explore.search.compressed import CompressedSearch, build_ivfpq

            index = build_ivfpq(self.matrix, opq=self.opq)
            self.rerank = CompressedSearch(index, self.matrix).tune()[1]
            if path is not None:
                _sidecar(path).write_text(json.dumps({"rerank": self.rerank}))
        else:
            data = np.ascontiguousarray(self.matrix, dtype=np.float32)
            index = self._build_ivf(data) if self.kind == "ivf" else self._build_hnsw(data)
        if path is not None:
            tmp = path.with_suffix(".tmp")
            faiss.write_index(index, str(tmp))
            tmp.replace(path)
        return index

    @staticmethod
    def _build_hnsw(data: np.ndarray) -> Any:
        import faiss

        index = faiss.IndexHNSWFlat(data.shape[1], HNSW_M, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
        index.add(data)
        index.hnsw.efSearch = HNSW_EF_SEARCH
        return index

    def _build_ivf(self, data: np.ndarray) -> Any:
        """IVF-Flat trained on a sample, with `nprobe` raised until sampled queries reach the target recall."""
        import faiss

        rows, dim = data.shape
        lists = ivf_lists(rows)
        rng = np.random.default_rng(0)
        sample = data[np.sort(rng.choice(rows, min(rows, lists * IVF_TRAIN_PER_LIST), replace=False))]
        index = faiss.IndexIVFFlat(faiss.IndexFlatIP(dim), dim, lists, faiss.METRIC_INNER_PRODUCT)
        index.cp.seed = 0
        index.train(sample)
        index.add(data)
        index.nprobe = tune_nprobe(index, data)
        return index

    def search(self, queries: np.ndarray, k: int, mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Top-k (scores, indices) per query; rows outside `mask` never appear; missing slots are -1."""
        import faiss

        queries = np.atleast_2d(np.asarray(queries, dtype=np.float32))
        if self.faiss_index is None:
            return exact_topk(self.matrix, queries, k, mask)
        if mask is not None and mask.sum() < EXACT_FALLBACK_SHARE * len(self.matrix):
            rows = np.nonzero(mask)[0]
            scores, idx = exact_topk(self.matrix[rows], queries, k)
            return _padded(scores, rows[idx], k)
        if self.compressed is not None:
            return self.compressed.search(queries, k, mask)
        params = None
        if mask is not None:
            selector = faiss.IDSelectorBitmap(np.packbits(np.asarray(mask, dtype=bool), bitorder="little"))
            params = (faiss.SearchParametersIVF(sel=selector, nprobe=self.faiss_index.nprobe) if self.kind == "ivf"
                      else faiss.SearchParametersHNSW(sel=selector, efSearch=HNSW_EF_SEARCH))
        k_found = min(k, len(self.matrix))
        scores, idx = self.faiss_index.search(np.ascontiguousarray(queries), k_found, params=params)
        scores = np.where(idx >= 0, scores, -np.inf).astype(np.float32)
        return _padded(scores, idx.astype(np.int64), k)


def _sidecar(path: Path) -> Path:
    """The settings file beside a compressed index (its tuned re-rank depth)."""
    return path.with_name(path.name + ".json")


def _padded(scores: np.ndarray, idx: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Results widened to k columns with -inf / -1 where fewer than k rows qualified."""
    out_s = np.full((len(scores), k), -np.inf, np.float32)
    out_i = np.full((len(scores), k), -1, np.int64)
    width = min(k, scores.shape[1])
    out_s[:, :width], out_i[:, :width] = scores[:, :width], idx[:, :width]
    return out_s, out_i


def tune_nprobe(index: Any, data: np.ndarray, k: int = 10, target: float = IVF_TARGET_RECALL) -> int:
    """The smallest nprobe whose recall@k on sampled rows (each row's own match left out) reaches `target`."""
    rng = np.random.default_rng(1)
    rows = np.sort(rng.choice(len(data), min(len(data), IVF_TUNING_QUERIES), replace=False))
    queries = data[rows]
    truth = np.concatenate([exact_topk(data, queries[s : s + 20], k + 1)[1] for s in range(0, len(rows), 20)])
    truth = without_self(truth, rows, k)
    for nprobe in IVF_NPROBES:
        if nprobe > index.nlist:
            break
        index.nprobe = nprobe
        found = without_self(index.search(queries, k + 1)[1], rows, k)
        if recall_at_k(found, truth) >= target:
            return nprobe
    index.nprobe = min(index.nlist, IVF_NPROBES[-1])
    return index.nprobe


