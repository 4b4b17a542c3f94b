"""Maps of millions: UMAP/t-SNE fitted on a seeded sample, every other paper placed from its nearest fitted papers.

Fitting UMAP on a million points takes hours and tens of GiB here; its layout is driven by local neighbourhoods,
so a 200k sample already fixes the shape of the map. The other papers go where the ★ query placement puts a
pasted paper (`place_points`: the softmax-weighted mean of its k most similar fitted papers), with the neighbours
found by a faiss IVF index over the sample instead of a brute-force product (800k x 200k would take hours).
The map keeps a mask of which papers were fitted, so the page can say which is which.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from core.explore.search.exact import IVF_TRAIN_PER_LIST, ivf_lists

FIT_SAMPLE = 200_000  # default papers fitted; Settings.map_fit_sample overrides
PLACE_NEIGHBOURS = 10
PLACE_TEMPERATURE = 0.05  # as the ★ query placement (projection.place_points)
PLACE_CHUNK = 50_000
PLACE_NPROBE = 16

Progress = Callable[[float, str], None]


def fit_sample(n: int, size: int, seed: int = 0) -> np.ndarray:
    """Sorted indices of the seeded sample of `size` papers (all papers when n <= size)."""
    if n <= size:
        return np.arange(n)
    return np.sort(np.random.default_rng(seed).choice(n, size, replace=False))


def neighbour_index(base: np.ndarray, seed: int = 0) -> object:
    """An inner-product IVF-Flat index over the fitted papers' unit vectors."""
    import faiss

    base = _unit(np.ascontiguousarray(base, dtype=np.float32))
    rows, dim = base.shape
    lists = ivf_lists(rows)
    index = faiss.IndexIVFFlat(faiss.IndexFlatIP(dim), dim, lists, faiss.METRIC_INNER_PRODUCT)
    index.cp.seed = seed
    picked = np.random.default_rng(seed).choice(rows, min(rows, lists * IVF_TRAIN_PER_LIST), replace=False)
    index.train(base[np.sort(picked)])
    index.add(base)
    index.nprobe = min(PLACE_NPROBE, lists)
    return index


def place_by_neighbours(coords: np.ndarray, index: object, new: np.ndarray, k: int = PLACE_NEIGHBOURS,
                        temperature: float = PLACE_TEMPERATURE) -> np.ndarray:
    """2-D positions of `new` vectors: the softmax-weighted mean of their k most similar fitted points' coords.

    `index` is `neighbour_index` over the fitted points' vectors, in the order of `coords`.
    """
    k = max(1, min(k, len(coords)))
    out = np.empty((len(new), 2), dtype=np.float32)
    for start in range(0, len(new), PLACE_CHUNK):
        part = _unit(np.ascontiguousarray(new[start : start + PLACE_CHUNK], dtype=np.float32))
        sims, top = index.search(part, k)  # type: ignore[attr-defined]
        top = np.where(top >= 0, top, top[:, :1])  # a missing slot (tiny lists) repeats the best neighbour
        sims = np.where(np.isfinite(sims), sims, sims[:, :1])
        weights = np.exp((sims - sims.max(axis=1, keepdims=True)) / temperature)
        weights /= weights.sum(axis=1, keepdims=True)
        out[start : start + len(part)] = np.einsum("mk,mkc->mc", weights, coords[top])
    return out


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


def sampled_projection(matrix: np.ndarray, method: str, params: dict | None, seed: int = 0,
                       sample: int = FIT_SAMPLE, progress: Progress | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(coords [n, 2], fitted mask [n]): `method` fitted on a seeded sample, the rest placed from neighbours."""
    from core.explore.maps.projection import project

    note: Progress = progress or (lambda fraction, message: None)
    n = len(matrix)
    fitted = np.zeros(n, dtype=bool)
    rows = fit_sample(n, sample, seed)
    fitted[rows] = True
    base = np.asarray(matrix[rows], dtype=np.float32)
    note(0.02, f"fitting {method} on a sample of {len(rows):,} of {n:,} papers")
    coords = np.empty((n, 2), dtype=np.float32)
    coords[rows] = project(base, method, params, seed=seed,
                           progress=lambda f, m: note(0.02 + 0.6 * f, f"sample: {m}"))
    rest = np.nonzero(~fitted)[0]
    if len(rest):
        index = neighbour_index(base, seed)
        for start in range(0, len(rest), PLACE_CHUNK):  # the rest read from the matrix file block by block
            block = rest[start : start + PLACE_CHUNK]
            coords[block] = place_by_neighbours(coords[rows], index, np.asarray(matrix[block], dtype=np.float32))
            note(0.62 + 0.38 * (start + len(block)) / len(rest), f"placed {start + len(block):,} of {len(rest):,}")
    return coords, fitted
