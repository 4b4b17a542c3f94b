"""Exact nearest neighbours and the measures the indexes tune by: top-k by inner product, recall@k, IVF list counts.

Shared by the index (core/explore/search/index.py) and compressed search (compressed.py), so neither imports the other
for them.
"""

from __future__ import annotations

import math

import numpy as np

IVF_TRAIN_PER_LIST = 40  # training rows per inverted list (faiss's recommended minimum is 39)
IVF_NPROBES = (8, 16, 32, 64, 128, 256)


def exact_topk(matrix: np.ndarray, queries: np.ndarray, k: int,
               mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
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


def ivf_lists(rows: int) -> int:
    """Inverted lists for IVF: about sqrt(rows), so training stays cheap and each probe scans ~sqrt(rows)."""
    return max(1, min(rows // IVF_TRAIN_PER_LIST, int(math.sqrt(rows))))


def recall_at_k(found: np.ndarray, truth: np.ndarray) -> float:
    """Mean share of the true neighbours found, per query row."""
    k = truth.shape[1]
    return float(np.mean([len(set(f) & set(t)) / k for f, t in zip(found, truth)])) if len(truth) else 1.0


def without_self(idx: np.ndarray, rows: np.ndarray, k: int) -> np.ndarray:
    """The first k neighbours of each sampled row other than the row itself."""
    return np.stack([[j for j in found if j != row][:k] for found, row in zip(idx, rows)])
