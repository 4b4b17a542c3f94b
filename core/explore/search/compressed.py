"""Search past RAM: a faiss IVF-PQ index (optionally with an OPQ rotation) over a memory-mapped matrix.

Only the PQ codes live in memory (`PQ bytes + 8` bytes a vector instead of 4 x dim for IVF-Flat); the index is
trained on a seeded sample and filled chunk by chunk from the matrix file, so building never holds the matrix in
RAM either. PQ distances are approximate, so each query takes `RERANK` candidates and re-ranks them exactly with
their float32 rows read from the memory-mapped matrix (sorted row order, so reads go forward through the file).
faiss's `IndexRefineFlat` would do the re-rank but keeps every full vector in RAM, which is what this avoids.
Unit vectors use the L2 metric inside faiss: the same ranking as inner product, and PQ encodes L2 residuals best.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core.explore.search.exact import IVF_NPROBES, exact_topk, ivf_lists, recall_at_k, without_self

PQ_MAX_BYTES = 48  # sub-quantizers of 8 bits: 48 bytes for a 384-d vector (x32 smaller than float32)
TRAIN_ROWS = (40, 256)  # training rows per inverted list, per PQ centroid (faiss warns below ~39 each)
ADD_CHUNK = 100_000  # rows read from the matrix file and added at a time
RERANK = 100  # candidates re-ranked exactly per query (at least 10 x k) until tuning picks a depth
RERANKS = (100, 200, 400, 800, 1600)  # depths tuning tries: PQ's error grows on harder (less clustered) data
TARGET_RECALL = 0.97  # recall@10 after re-ranking that tuning aims for (the bar is 0.95; held-out queries score lower)
TUNING_QUERIES = 200


def pq_bytes(dim: int) -> int:
    """The most sub-quantizers (<= PQ_MAX_BYTES, each of >= 4 dims) that divide `dim` evenly."""
    return max(m for m in range(1, max(1, min(PQ_MAX_BYTES, dim // 4)) + 1) if dim % m == 0)


def build_ivfpq(matrix: np.ndarray, opq: bool = False, seed: int = 0) -> Any:
    """An IVF-PQ (or OPQ + IVF-PQ) index trained on a seeded sample of `matrix` and filled from it in chunks."""
    import faiss

    rows, dim = matrix.shape
    lists, m = ivf_lists(rows), pq_bytes(dim)
    index = faiss.index_factory(dim, f"{f'OPQ{m},' if opq else ''}IVF{lists},PQ{m}")
    ivf = faiss.downcast_index(faiss.extract_index_ivf(index))  # the IndexIVFPQ itself
    ivf.cp.seed = seed
    ivf.do_polysemous_training = False  # index_factory turns it on; it made training 20x slower, and we re-rank
    take = min(rows, max(lists * TRAIN_ROWS[0], 256 * TRAIN_ROWS[1]))
    picked = np.sort(np.random.default_rng(seed).choice(rows, take, replace=False))
    index.train(np.ascontiguousarray(matrix[picked], dtype=np.float32))
    for start in range(0, rows, ADD_CHUNK):
        index.add(np.ascontiguousarray(matrix[start : start + ADD_CHUNK], dtype=np.float32))
    return index


def chunked_topk(matrix: np.ndarray, queries: np.ndarray, k: int, chunk: int = ADD_CHUNK) -> np.ndarray:
    """Exact top-k row indices by inner product, reading the matrix one chunk at a time (one pass)."""
    best_s = np.full((len(queries), 0), -np.inf, np.float32)
    best_i = np.zeros((len(queries), 0), np.int64)
    for start in range(0, len(matrix), chunk):
        scores, idx = exact_topk(np.asarray(matrix[start : start + chunk], np.float32), queries, k)
        merged_s = np.concatenate([best_s, scores], axis=1)
        merged_i = np.concatenate([best_i, idx + start], axis=1)
        order = np.argsort(-merged_s, axis=1, kind="stable")[:, :k]
        best_s, best_i = np.take_along_axis(merged_s, order, 1), np.take_along_axis(merged_i, order, 1)
    return best_i


class CompressedSearch:
    """IVF-PQ candidates, then exact inner products over those candidates' rows of the memory-mapped matrix."""

    def __init__(self, index: Any, matrix: np.ndarray, rerank: int = RERANK):
        import faiss

        self.index, self.matrix, self.rerank = index, matrix, rerank
        self.ivf = faiss.extract_index_ivf(index)

    @property
    def nprobe(self) -> int:
        return int(self.ivf.nprobe)

    def _params(self, nprobe: int, mask: np.ndarray | None) -> Any:
        import faiss

        selector = None
        if mask is not None:
            selector = faiss.IDSelectorBitmap(np.packbits(np.asarray(mask, dtype=bool), bitorder="little"))
        params = faiss.SearchParametersIVF(sel=selector, nprobe=nprobe)
        if isinstance(self.index, faiss.IndexPreTransform):
            params = faiss.SearchParametersPreTransform(index_params=params)
        return params, selector

    def search(self, queries: np.ndarray, k: int, mask: np.ndarray | None = None,
               nprobe: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Top-k (scores, indices) per query after exact re-ranking; missing slots are -inf / -1."""
        queries = np.ascontiguousarray(np.atleast_2d(queries), dtype=np.float32)
        params, _keep = self._params(nprobe or self.nprobe, mask)  # _keep: the selector must outlive the search
        wanted = min(len(self.matrix), max(self.rerank, 10 * k))
        _, candidates = self.index.search(queries, wanted, params=params)
        out_s = np.full((len(queries), k), -np.inf, np.float32)
        out_i = np.full((len(queries), k), -1, np.int64)
        for q, found in enumerate(candidates):
            out_s[q], out_i[q] = self._rerank_one(queries[q], found, k)
        return out_s, out_i

    def _rerank_one(self, query: np.ndarray, found: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact top-k of one query among its candidates, read from the matrix (padded with -inf / -1)."""
        scores_out = np.full(k, -np.inf, np.float32)
        rows_out = np.full(k, -1, np.int64)
        rows = np.unique(found[found >= 0])  # sorted: the file is read front to back
        if len(rows):
            scores = np.asarray(self.matrix[rows], np.float32) @ query
            top = np.argsort(-scores, kind="stable")[:k]
            scores_out[: len(top)], rows_out[: len(top)] = scores[top], rows[top]
        return scores_out, rows_out

    def tune(self, k: int = 10, target: float = TARGET_RECALL, seed: int = 1) -> tuple[int, int]:
        """Set the smallest nprobe, then the smallest re-rank depth, whose recall@k on sampled rows (self left out)
        reaches `target`; returns (nprobe, depth). One candidate search per nprobe serves every depth (prefixes)."""
        rows = np.sort(np.random.default_rng(seed).choice(len(self.matrix), min(len(self.matrix), TUNING_QUERIES),
                                                          replace=False))
        queries = np.asarray(self.matrix[rows], np.float32)
        truth = without_self(chunked_topk(self.matrix, queries, k + 1), rows, k)
        chosen = None
        for nprobe in [p for p in IVF_NPROBES if p <= self.ivf.nlist] or [self.ivf.nlist]:
            params, _keep = self._params(nprobe, None)
            _, candidates = self.index.search(queries, min(len(self.matrix), RERANKS[-1]), params=params)
            for depth in RERANKS:
                self.rerank = depth
                found = np.stack([self._rerank_one(queries[q], candidates[q, :depth], k + 1)[1]
                                  for q in range(len(queries))])
                if recall_at_k(without_self(found, rows, k), truth) >= target:
                    chosen = (nprobe, depth)
                    break
            if chosen:
                break
        nprobe, self.rerank = chosen or (min(self.ivf.nlist, IVF_NPROBES[-1]), RERANKS[-1])
        self.ivf.nprobe = nprobe
        return nprobe, self.rerank
