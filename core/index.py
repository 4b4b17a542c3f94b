"""Nearest-neighbour search over unit vectors: exact inner product when small, faiss HNSW above a threshold."""

from __future__ import annotations

from pathlib import Path

import numpy as np

HNSW_M = 32
HNSW_EF_CONSTRUCTION = 80
HNSW_EF_SEARCH = 128


def exact_topk(matrix: np.ndarray, queries: np.ndarray, k: int, mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Exact top-k by inner product: (scores [q, k], indices [q, k]), best first; `mask` keeps rows."""
    queries = np.atleast_2d(np.asarray(queries, dtype=np.float32))
    scores = queries @ np.asarray(matrix, dtype=np.float32).T
    if mask is not None:
        scores[:, ~mask] = -np.inf
    k = min(k, scores.shape[1])
    if k <= 0:
        return np.zeros((len(queries), 0), np.float32), np.zeros((len(queries), 0), np.int64)
    part = np.argpartition(-scores, k - 1, axis=1)[:, :k]
    part_scores = np.take_along_axis(scores, part, axis=1)
    order = np.argsort(-part_scores, axis=1, kind="stable")
    idx = np.take_along_axis(part, order, axis=1)
    out_scores = np.take_along_axis(part_scores, order, axis=1)
    return out_scores, idx


class VectorIndex:
    """Search over one corpus's matrix; uses faiss HNSW when the corpus is above `exact_limit` rows."""

    def __init__(self, matrix: np.ndarray, exact_limit: int = 50_000, path: Path | None = None):
        self.matrix = matrix
        self.kind = "exact" if len(matrix) <= exact_limit else "hnsw"
        self.faiss_index = None
        if self.kind == "hnsw":
            self.faiss_index = self._load_or_build(path)

    def _load_or_build(self, path: Path | None):
        import faiss

        if path is not None and path.exists():
            try:
                index = faiss.read_index(str(path))
                if index.ntotal == len(self.matrix):
                    index.hnsw.efSearch = HNSW_EF_SEARCH
                    return index
            except RuntimeError:
                path.unlink(missing_ok=True)
        index = faiss.IndexHNSWFlat(self.matrix.shape[1], HNSW_M, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
        index.add(np.ascontiguousarray(self.matrix, dtype=np.float32))
        index.hnsw.efSearch = HNSW_EF_SEARCH
        if path is not None:
            tmp = path.with_suffix(".tmp")
            faiss.write_index(index, str(tmp))
            tmp.replace(path)
        return index

    def search(self, queries: np.ndarray, k: int, mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Top-k (scores, indices) per query; rows outside `mask` never appear."""
        queries = np.atleast_2d(np.asarray(queries, dtype=np.float32))
        if self.faiss_index is None:
            return exact_topk(self.matrix, queries, k, mask)
        keep = int(mask.sum()) if mask is not None else len(self.matrix)
        if mask is not None and keep < 0.05 * len(self.matrix):
            rows = np.nonzero(mask)[0]
            scores, idx = exact_topk(self.matrix[rows], queries, k)
            return scores, rows[idx]
        fetch = k if mask is None else min(len(self.matrix), k * 4 + int(k * len(self.matrix) / max(keep, 1)))
        scores, idx = self.faiss_index.search(np.ascontiguousarray(queries), fetch)
        out_s = np.full((len(queries), k), -np.inf, np.float32)
        out_i = np.full((len(queries), k), -1, np.int64)
        for q in range(len(queries)):
            good = idx[q] >= 0
            if mask is not None:
                good &= mask[np.maximum(idx[q], 0)]
            s, i = scores[q][good][:k], idx[q][good][:k]
            out_s[q, : len(s)], out_i[q, : len(i)] = s, i
        return out_s, out_i
