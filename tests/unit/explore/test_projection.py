"""Tests for 2-D map projection and placing new papers on a map."""

import numpy as np
import pytest

from core.errors import MireadError
from core.explore import METHODS, params_key, place_points, project, warm_numba


def _blobs(n: int = 200, d: int = 64, centres: int = 4, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, centres, n)
    X = rng.standard_normal((centres, d))[labels] * 3 + rng.standard_normal((n, d))
    return X.astype(np.float32), labels


@pytest.mark.parametrize("method", METHODS)
def test_project_returns_finite_float32_pairs_for_each_method(method):
    X, _ = _blobs(150, 64)
    Y = project(X, method)
    assert Y.shape == (150, 2)
    assert Y.dtype == np.float32
    assert np.isfinite(Y).all()
    assert Y.std(axis=0).min() > 0


def test_project_reduces_wide_inputs_and_reports_progress():
    X, _ = _blobs(120, 384)
    seen = []
    Y = project(X, "tsne", progress=lambda fraction, message: seen.append((fraction, message)))
    assert Y.shape == (120, 2)
    assert any("384 dimensions" in message for _, message in seen)
    assert seen[-1][0] == 1.0


def test_project_keeps_separated_clusters_apart():
    X, labels = _blobs(200, 64, centres=2)
    Y = project(X, "pca")
    a, b = Y[labels == 0].mean(axis=0), Y[labels == 1].mean(axis=0)
    spread = max(Y[labels == 0].std(), Y[labels == 1].std())
    assert np.linalg.norm(a - b) > 3 * spread


def test_project_is_reproducible_for_a_seed():
    X, _ = _blobs(150, 32)
    assert np.allclose(project(X, "umap", seed=3), project(X, "umap", seed=3))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n", [0, 1, 2, 4, 5, 10])
def test_project_handles_tiny_collections(method, n):
    X = np.random.default_rng(n).standard_normal((n, 20))
    Y = project(X, method)
    assert Y.shape == (n, 2)
    assert np.isfinite(Y).all()


def test_project_notes_fallback_to_pca_for_too_few_points():
    notes = []
    project(np.eye(3, 8), "umap", progress=lambda f, m: notes.append(m))
    assert any("using PCA" in m for m in notes)


def test_project_rejects_unknown_method_and_parameters():
    X = np.zeros((10, 4))
    with pytest.raises(MireadError, match="unknown map method 'mds'; use umap, tsne or pca"):
        project(X, "mds")
    with pytest.raises(MireadError, match="unknown umap parameter 'perplexity'"):
        project(X, "umap", {"perplexity": 5})
    with pytest.raises(MireadError, match="invalid umap parameters"):
        project(np.random.default_rng(0).standard_normal((30, 4)), "umap", {"metric": "no-such-metric"})


def test_project_rejects_non_finite_or_flat_input():
    with pytest.raises(MireadError, match="NaN"):
        project(np.array([[1.0, np.nan], [0.0, 1.0]]), "pca")
    with pytest.raises(MireadError, match="2-D"):
        project(np.zeros(5), "pca")


def test_params_key_is_stable_and_depends_on_effective_params():
    key = params_key("umap", None)
    assert key == params_key("umap", {}) == params_key("umap", {"n_neighbors": 15})
    assert key == params_key("umap", {"metric": "cosine", "min_dist": 0.1})
    assert key != params_key("umap", {"n_neighbors": 30})
    assert key != params_key("tsne", None)
    assert params_key("pca", None).startswith("pca-")


def test_place_points_puts_a_copy_of_a_map_point_on_that_point():
    X, _ = _blobs(200, 64)
    coords = np.random.default_rng(1).standard_normal((200, 2)).astype(np.float32)
    placed = place_points(coords, X, X[[7, 42]] * 2.5)
    assert placed.shape == (2, 2)
    assert np.allclose(placed, coords[[7, 42]], atol=1e-5)


def test_place_points_lands_near_its_neighbours():
    X, labels = _blobs(200, 64, centres=2)
    coords = np.where(labels[:, None] == 0, [-10.0, 0.0], [10.0, 0.0]).astype(np.float32)
    new = X[labels == 1][:3] + np.random.default_rng(2).standard_normal((3, 64)).astype(np.float32) * 0.1
    placed = place_points(coords, X, new, k=10)
    assert np.allclose(placed, [[10.0, 0.0]] * 3, atol=1e-3)


def test_place_points_rejects_mismatched_shapes():
    X = np.ones((5, 4), dtype=np.float32)
    with pytest.raises(MireadError, match="dimensions"):
        place_points(np.zeros((5, 2)), X, np.ones((1, 3)))
    with pytest.raises(MireadError, match="do not match"):
        place_points(np.zeros((4, 2)), X, np.ones((1, 4)))


@pytest.mark.slow
def test_warm_numba_runs_without_error():
    warm_numba()
