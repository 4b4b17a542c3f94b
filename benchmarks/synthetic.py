"""Synthetic paper-like vectors: unit vectors near a low-dimensional clustered manifold, like real embeddings.

Uniform random unit vectors in 384-d have no neighbourhood structure at all (every pair has cosine ~0), which
no embedding model produces; these have topics, a continuum within topics and a median nearest-neighbour
cosine of ~0.8 (real MiniLM arXiv vectors: 0.63, a harder case; bench_search.py measures both), so
approximate-index recall means something.
"""

from __future__ import annotations

import numpy as np

LATENT = 16
NOISE = 0.5


def clustered_unit_vectors(n: int, dim: int = 384, topics: int = 200, seed: int = 0,
                           block: int = 200_000) -> np.ndarray:
    """n float32 unit vectors: topic centres in a 16-d latent space, mapped to `dim` dims, plus noise."""
    rng = np.random.default_rng(seed)
    lift = rng.standard_normal((LATENT, dim)).astype(np.float32)
    centres = rng.standard_normal((topics, LATENT)).astype(np.float32)
    out = np.empty((n, dim), dtype=np.float32)
    for start in range(0, n, block):
        m = min(block, n - start)
        z = centres[rng.integers(0, topics, m)] + 0.6 * rng.standard_normal((m, LATENT)).astype(np.float32)
        x = z @ lift + NOISE * np.sqrt(LATENT) * rng.standard_normal((m, dim)).astype(np.float32)
        out[start : start + m] = x / np.linalg.norm(x, axis=1, keepdims=True)
    return out


def clustered_points(n: int, dim: int = 384, clusters: int = 50, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(vectors, cluster labels): separated Gaussian clusters of varied size, for map benchmarks."""
    rng = np.random.default_rng(seed)
    sizes = rng.dirichlet(np.ones(clusters) * 2) * n
    labels = np.repeat(np.arange(clusters), np.maximum(1, sizes.astype(int)))[:n]
    labels = np.concatenate([labels, rng.integers(0, clusters, n - len(labels))]) if len(labels) < n else labels
    rng.shuffle(labels)
    base = clustered_unit_vectors(clusters, dim, topics=max(2, clusters // 5), seed=seed + 1)
    x = base[labels] + 0.9 / np.sqrt(dim) * rng.standard_normal((n, dim)).astype(np.float32)
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32), labels
