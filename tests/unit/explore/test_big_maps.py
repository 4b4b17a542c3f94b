"""Maps of millions: fitted on a seeded sample, the rest placed from their nearest fitted papers."""

from __future__ import annotations

import numpy as np

from core.explore import corpus_map, map_fitted, sampled_projection
from core.explore.maps.sampled import fit_sample


def _clusters(n: int, k: int = 5, dim: int = 32, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, k, n)
    x = 3 * rng.standard_normal((k, dim))[labels] + rng.standard_normal((n, dim))
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32), labels


def test_the_sample_is_seeded_and_placed_papers_land_among_their_own_cluster():
    x, labels = _clusters(3_000)
    assert np.array_equal(fit_sample(3_000, 500, seed=3), fit_sample(3_000, 500, seed=3))
    coords, fitted = sampled_projection(x, "pca", None, seed=0, sample=500)
    assert coords.shape == (3_000, 2) and fitted.sum() == 500 and np.isfinite(coords).all()
    fit_xy, fit_labels = coords[fitted], labels[fitted]
    placed = np.nonzero(~fitted)[0]
    nearest = np.argmin(((coords[placed, None, :] - fit_xy[None, :, :]) ** 2).sum(-1), axis=1)
    assert (fit_labels[nearest] == labels[placed]).mean() >= 0.9


def test_a_corpus_larger_than_the_sample_gets_a_fitted_mask(embedded, monkeypatch):
    monkeypatch.setenv("MIREAD_MAP_FIT_SAMPLE", "8")
    result = corpus_map(embedded, "c", "tiny", method="tsne")
    assert (result["points"], result["fitted"], result["placed"]) == (15, 8, 7)
    mask = map_fitted(embedded, "c", "tiny", method="tsne")
    assert mask is not None and mask.sum() == 8
    assert map_fitted(embedded, "c", "tiny", method="pca") is None  # PCA is always fitted on every paper
    monkeypatch.setenv("MIREAD_MAP_FIT_SAMPLE", "0")
    assert corpus_map(embedded, "c", "tiny", method="tsne")["placed"] == 0
