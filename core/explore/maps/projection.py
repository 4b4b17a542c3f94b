"""2-D maps of embeddings (UMAP, t-SNE, PCA) and placing new papers on an existing map."""

from __future__ import annotations

import hashlib
import json
import warnings
from collections.abc import Callable

import numpy as np
from threadpoolctl import threadpool_limits

from core.display import plural
from core.errors import MireadError
from core.lazy import heavy

METHODS = ("umap", "tsne", "pca")

DEFAULT_PARAMS: dict[str, dict] = {
    "umap": {"n_neighbors": 15, "min_dist": 0.1, "metric": "cosine"},
    "tsne": {"perplexity": 30.0},
    "pca": {},
}

# Optional keys a caller may add on top of the defaults, per method.
_EXTRA_KEYS: dict[str, set[str]] = {
    "umap": {"n_epochs", "spread"},
    "tsne": {"max_iter", "early_exaggeration"},
    "pca": set(),
}

PRE_PCA_DIMS = 50
MIN_POINTS_NONLINEAR = 5
TSNE_THREADS_ABOVE = 5_000

Progress = Callable[[float, str], None]


def _check_method(method: str) -> str:
    """Return the normalised method name or raise for an unknown one."""
    name = str(method).lower()
    if name not in METHODS:
        raise MireadError(f"unknown map method '{method}'; use umap, tsne or pca")
    return name


def effective_params(method: str, params: dict | None) -> dict:
    """Merge caller params over the method's defaults, rejecting unknown keys."""
    name = _check_method(method)
    merged = dict(DEFAULT_PARAMS[name])
    allowed = set(merged) | _EXTRA_KEYS[name]
    for key, value in (params or {}).items():
        if key not in allowed:
            options = ", ".join(sorted(allowed)) or "none"
            raise MireadError(f"unknown {name} parameter '{key}'; allowed: {options}")
        merged[key] = value
    return merged


def params_key(method: str, params: dict | None) -> str:
    """Return a short stable key for a method and its effective params (for caching)."""
    name = _check_method(method)
    # 30 and 30.0 are one parameter: the page's sliders give ints where the defaults are floats (t-SNE perplexity)
    merged = {key: int(value) if isinstance(value, float) and value.is_integer() else value
              for key, value in effective_params(name, params).items()}
    blob = json.dumps(merged, sort_keys=True, default=str)
    return f"{name}-{hashlib.sha1(blob.encode()).hexdigest()[:10]}"


def _as_matrix(X: np.ndarray, what: str = "embeddings") -> np.ndarray:
    """Validate a 2-D finite float matrix and return it as float32."""
    arr = np.asarray(X, dtype=np.float32)
    if arr.ndim != 2:
        raise MireadError(f"{what} must be a 2-D array of shape [papers, dims], got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise MireadError(f"{what} contain NaN or infinite values")
    return arr


def _pad2(Y: np.ndarray) -> np.ndarray:
    """Return Y as float32 [n, 2], padding missing columns with zeros."""
    out = np.zeros((Y.shape[0], 2), dtype=np.float32)
    out[:, : min(2, Y.shape[1])] = Y[:, :2]
    return out


def _pca(X: np.ndarray, n_components: int, seed: int | None) -> np.ndarray:
    """Project X onto its top principal components (fewer when n or d is smaller)."""
    PCA = heavy("sklearn.decomposition").PCA

    n, d = X.shape
    k = min(n_components, n, d)
    if n < 2 or k < 1:
        return np.zeros((n, n_components), dtype=np.float32)
    solver = "randomized" if min(n, d) > 5 * k and n > 1000 else "full"
    Y = PCA(n_components=k, svd_solver=solver, random_state=seed).fit_transform(X)
    out = np.zeros((n, n_components), dtype=np.float32)
    out[:, :k] = Y
    return out


def _umap_epochs(n: int) -> int:
    """Pick an epoch count: more for small maps (cheap), fewer for big ones.

    Measured (benchmarks/bench_maps.py): 100 instead of 200 epochs cut UMAP's time by 40-60% at 10k-50k
    papers with the same trustworthiness (0.945 on real arXiv vectors, 0.988 on 50k synthetic ones).
    """
    if n <= 2_000:
        return 500
    if n <= 10_000:
        return 200
    return 100


def _umap(X: np.ndarray, p: dict, seed: int | None, note: Progress) -> np.ndarray:
    """Run UMAP with memory-friendly settings."""
    umap = heavy("umap")

    n = X.shape[0]
    n_neighbors = int(p["n_neighbors"])
    if n_neighbors >= n:
        n_neighbors = max(2, n - 1)
        note(0.2, f"only {plural(n, 'paper')}: using {plural(n_neighbors, 'neighbour')}")
    reducer = umap.UMAP(
        n_components=2,
        n_neighbors=n_neighbors,
        min_dist=float(p["min_dist"]),
        spread=float(p.get("spread", 1.0)),
        metric=p["metric"],
        n_epochs=int(p.get("n_epochs") or _umap_epochs(n)),
        low_memory=True,
        random_state=seed,
        init="spectral" if n > 10 else "random",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return reducer.fit_transform(X)


def _tsne(X: np.ndarray, p: dict, seed: int | None, note: Progress) -> np.ndarray:
    """Run scikit-learn's Barnes-Hut t-SNE with PCA initialisation."""
    TSNE = heavy("sklearn.manifold").TSNE

    n = X.shape[0]
    perplexity = float(p["perplexity"])
    limit = max(1.0, (n - 1) / 3)
    if perplexity > limit:
        perplexity = limit
        note(0.2, f"only {plural(n, 'paper')}: using perplexity {perplexity:.1f}")
    kwargs = {k: p[k] for k in ("max_iter", "early_exaggeration") if k in p}
    tsne = TSNE(
        n_components=2,
        perplexity=perplexity,
        init="pca",
        learning_rate="auto",
        random_state=seed,
        **kwargs,
    )
    # OpenMP threads cost more than they save on small inputs and stall badly on busy cores.
    threads = 1 if n < TSNE_THREADS_ABOVE else None
    with warnings.catch_warnings(), threadpool_limits(limits=threads, user_api="openmp"):
        warnings.simplefilter("ignore")
        return tsne.fit_transform(X)


def project(
    X: np.ndarray,
    method: str = "umap",
    params: dict | None = None,
    seed: int | None = 0,
    progress: Progress | None = None,
) -> np.ndarray:
    """Project embeddings to a float32 [n, 2] map; seed=None lets UMAP run in parallel."""
    name = _check_method(method)
    p = effective_params(name, params)
    arr = _as_matrix(X)
    n, d = arr.shape
    note: Progress = progress or (lambda fraction, message: None)
    if n == 0:
        return np.zeros((0, 2), dtype=np.float32)
    if name == "pca" or n < MIN_POINTS_NONLINEAR:
        if name != "pca":
            note(0.1, f"only {plural(n, 'paper')}: too few for {name}, using PCA")
        note(0.5, "computing PCA")
        Y = _pca(arr, 2, seed)
    else:
        if d > PRE_PCA_DIMS:
            note(0.05, f"reducing {d} dimensions to {PRE_PCA_DIMS} with PCA")
            arr = _pca(arr, PRE_PCA_DIMS, seed)
        note(0.15, f"computing {name} map of {plural(n, 'paper')}")
        try:
            Y = (_umap if name == "umap" else _tsne)(arr, p, seed, note)
        except (ValueError, TypeError) as exc:
            raise MireadError(f"invalid {name} parameters {p}: {exc}") from exc
    out = _pad2(np.asarray(Y, dtype=np.float32))
    if not np.isfinite(out).all():
        raise MireadError(f"the {name} map produced invalid coordinates; try PCA or other parameters")
    note(1.0, "map ready")
    return out


def _normalise_rows(X: np.ndarray) -> np.ndarray:
    """Return X with unit-length rows (zero rows stay zero)."""
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return X / np.maximum(norms, 1e-12)


def place_points(
    map_coords: np.ndarray,
    X_map: np.ndarray,
    X_new: np.ndarray,
    k: int = 10,
    temperature: float = 0.05,
) -> np.ndarray:
    """Place new vectors on an existing map at the softmax-weighted mean of their k nearest (cosine) map points."""
    coords = np.asarray(map_coords, dtype=np.float32)
    base = _as_matrix(X_map, "map embeddings")
    new = _as_matrix(np.atleast_2d(X_new), "new embeddings")
    if coords.ndim != 2 or coords.shape[1] != 2 or coords.shape[0] != base.shape[0]:
        raise MireadError(
            f"map coordinates of shape {coords.shape} do not match {base.shape[0]} map embeddings"
        )
    if base.shape[0] == 0:
        raise MireadError("cannot place papers on an empty map")
    if new.shape[1] != base.shape[1]:
        raise MireadError(
            f"new embeddings have {new.shape[1]} dimensions but the map was built from {base.shape[1]}"
        )
    base = _normalise_rows(base)
    new = _normalise_rows(new)
    k = max(1, min(int(k), base.shape[0]))
    out = np.empty((new.shape[0], 2), dtype=np.float32)
    chunk = max(1, 20_000_000 // base.shape[0])
    for start in range(0, new.shape[0], chunk):
        sims = new[start : start + chunk] @ base.T
        top = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        top_sims = np.take_along_axis(sims, top, axis=1)
        weights = np.exp((top_sims - top_sims.max(axis=1, keepdims=True)) / temperature)
        weights /= weights.sum(axis=1, keepdims=True)
        placed = np.einsum("mk,mkc->mc", weights, coords[top])
        best = top_sims.argmax(axis=1)
        exact = top_sims[np.arange(len(top)), best] >= 1 - 1e-6
        placed[exact] = coords[top[exact, best[exact]]]
        out[start : start + chunk] = placed
    return out


def warm_numba() -> None:
    """Compile UMAP's numba kernels (neighbour search and layout) on a tiny random input."""
    umap = heavy("umap")

    rng = np.random.default_rng(0)
    X = rng.standard_normal((200, PRE_PCA_DIMS)).astype(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        umap.UMAP(
            n_neighbors=DEFAULT_PARAMS["umap"]["n_neighbors"],
            metric=DEFAULT_PARAMS["umap"]["metric"],
            n_epochs=10,
            low_memory=True,
            random_state=0,
            force_approximation_algorithm=True,
        ).fit_transform(X)
