"""Compressed search (IVF-PQ + exact re-rank over a memory-mapped matrix): recall, persistence, filters."""

from __future__ import annotations

import numpy as np
import pytest

from core.explore import VectorIndex, choose_kind, exact_topk, recall_at_k
from core.explore.search.compressed import pq_bytes


def _clustered(n: int, dim: int = 32, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((40, dim)).astype(np.float32)
    x = centres[rng.integers(0, 40, n)] + 0.6 * rng.standard_normal((n, dim)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


@pytest.fixture(scope="module")
def on_disk(tmp_path_factory):
    """8,000 clustered unit vectors saved as .npy and memory-mapped, plus 50 held-out queries."""
    data = _clustered(8_050)
    path = tmp_path_factory.mktemp("m") / "matrix.npy"
    np.save(path, data[:8_000])
    return np.load(path, mmap_mode="r"), data[8_000:], path.parent


def test_choose_kind_compresses_only_above_the_threshold():
    assert choose_kind(3_000_000, 50_000, compressed_above=2_000_000) == "ivfpq"
    assert choose_kind(1_000_000, 50_000, compressed_above=2_000_000) == "ivf"
    assert choose_kind(1_000_000, 50_000) == "ivf" and pq_bytes(384) == 48 and pq_bytes(64) == 16 and pq_bytes(32) == 8


@pytest.mark.parametrize("opq", [False, pytest.param(True, marks=pytest.mark.slow)])  # OPQ training: ~1 min
def test_compressed_index_reaches_exact_recall_after_reranking_and_persists(on_disk, opq):
    matrix, queries, folder = on_disk
    path = folder / f"index-{opq}.faiss"
    index = VectorIndex(matrix, exact_limit=0, path=path, compressed_above=0, opq=opq)
    assert index.kind == "ivfpq" and isinstance(matrix, np.memmap)
    scores, found = index.search(queries, 10)
    truth_scores, truth = exact_topk(matrix, queries, 10)
    assert recall_at_k(found, truth) >= 0.9
    assert np.allclose(scores[:, 0], (np.asarray(matrix)[found[:, 0]] * queries).sum(1), atol=1e-5)  # exact scores
    again = VectorIndex(matrix, exact_limit=0, path=path, compressed_above=0, opq=opq)
    assert (again.compressed.nprobe, again.compressed.rerank) == (index.compressed.nprobe, index.compressed.rerank)
    assert np.array_equal(again.search(queries, 10)[1], found)


def test_compressed_search_keeps_to_the_filter(on_disk):
    matrix, queries, folder = on_disk
    index = VectorIndex(matrix, exact_limit=0, path=folder / "index-False.faiss", compressed_above=0)  # built above
    mask = np.zeros(len(matrix), dtype=bool)
    mask[::2] = True
    found = index.search(queries, 10, mask)[1]
    assert (found >= 0).all() and mask[found].all()
