"""Two models side by side on one corpus: aligned maps, a per-paper "neighbourhood changed" score, a summary.

Alignment is orthogonal Procrustes (rotation or reflection, uniform scale, translation) of model B's map onto model
A's, computed after both maps exist. Both maps come from the ordinary map cache (`cached_map` / `start_map`), so
the compare view computes no map the Domain map page would not, and any method (UMAP, t-SNE, PCA) aligns the same
way. Shared initialisation (B's UMAP started from A's layout) would need its own map per model pair, and would
hide part of what changed behind A's layout; Procrustes only removes what is arbitrary in a 2-D map (orientation,
mirror image, size, position) and leaves the rest to see.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from core.display import plural
from core.embedding import ModelSpec
from core.errors import MireadError
from core.store.files import load_npy

if TYPE_CHECKING:
    import pandas as pd

    from core.store import Store

NEIGHBOURS = 10
QUERY_CELLS = 20_000_000  # query rows x corpus rows scored at once by an exact search (~80 MB of float32)
UNUSABLE_SOURCES = ("installable",)  # not installed yet: nothing to compare until it is


@dataclass(frozen=True)
class Alignment:
    """Map B moved onto map A: its new coordinates, the transform, and the residual share (0 = same shape)."""

    coords: np.ndarray
    rotation: np.ndarray
    scale: float
    shift: np.ndarray
    disparity: float


def align_maps(reference: np.ndarray, moving: np.ndarray) -> Alignment:
    """Rotate (or mirror), scale and shift `moving` onto `reference` by orthogonal Procrustes (scipy)."""
    from scipy.linalg import orthogonal_procrustes

    a, b = np.asarray(reference, dtype=np.float64), np.asarray(moving, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 2:
        raise MireadError(f"the two maps must have the same papers and shape; got {a.shape} and {b.shape}")
    a_mean, b_mean = a.mean(axis=0), b.mean(axis=0)
    a0, b0 = a - a_mean, b - b_mean
    spread = float((b0**2).sum())
    if spread == 0.0 or not np.isfinite(spread):
        return Alignment(np.broadcast_to(a_mean, a.shape).astype(np.float32), np.eye(a.shape[1]), 0.0,
                         a_mean - b_mean, 1.0)
    rotation, singular_sum = orthogonal_procrustes(b0, a0)
    scale = float(singular_sum) / spread
    aligned = scale * b0 @ rotation + a_mean
    reference_spread = float((a0**2).sum())
    disparity = float(((aligned - a) ** 2).sum() / reference_spread) if reference_spread else 0.0
    return Alignment(aligned.astype(np.float32), rotation, scale, a_mean - scale * b_mean @ rotation, disparity)


# ---------------------------------------------------------------- neighbourhoods


def nearest_rows(search: Callable[[np.ndarray, int], np.ndarray], vectors: np.ndarray, k: int,
                 rows: np.ndarray | None = None) -> np.ndarray:
    """Each vector's k nearest other rows [n, k] (-1 where fewer exist), from `search(queries, k) -> indices`;
    `rows`: the vectors' own rows in the searched corpus (default: vector i is row i)."""
    n = len(vectors)
    own = np.arange(n) if rows is None else np.asarray(rows)
    out = np.full((n, k), -1, dtype=np.int64)
    step = max(1, QUERY_CELLS // max(n, 1))
    for start in range(0, n, step):
        part = np.arange(start, min(start + step, n))
        found = np.asarray(search(np.asarray(vectors[part], dtype=np.float32), k + 1))
        keep = (found != own[part][:, None]) & (found >= 0)
        for i, (hits, ok) in enumerate(zip(found, keep)):  # drop the row itself wherever it ranks (duplicates)
            others = hits[ok][:k]
            out[start + i, : len(others)] = others
    return out


def exact_neighbours(vectors: np.ndarray, k: int = NEIGHBOURS) -> np.ndarray:
    """Each row's k nearest other rows by inner product (cosine on unit vectors), exactly."""
    from core.explore.search.exact import exact_topk

    matrix = np.asarray(vectors, dtype=np.float32)
    return nearest_rows(lambda q, kk: exact_topk(matrix, q, kk)[1], matrix, k)


def neighbourhood_change(neighbours_a: np.ndarray, neighbours_b: np.ndarray) -> np.ndarray:
    """Per row, 1 − |kNN_A ∩ kNN_B| / k: 0 when both models give a paper the same k neighbours, 1 when none
    (-1 marks an empty slot; a corpus of k papers or fewer divides by the neighbours there are)."""
    a, b = np.asarray(neighbours_a), np.asarray(neighbours_b)
    if a.shape != b.shape or a.ndim != 2:
        raise MireadError(f"neighbour lists must have the same shape; got {a.shape} and {b.shape}")
    if a.shape[1] == 0:
        return np.zeros(len(a), dtype=np.float32)
    shared = ((a[:, :, None] == b[:, None, :]) & (a[:, :, None] >= 0)).any(axis=2).sum(axis=1)
    found = np.maximum((a >= 0).sum(axis=1), (b >= 0).sum(axis=1))  # k, or fewer in a corpus of <= k papers
    return np.where(found > 0, 1.0 - shared / np.maximum(found, 1), 0.0).astype(np.float32)


def _score_path(store: Store, corpus: str, fp_a: str, fp_b: str, k: int) -> Any:
    version = store.corpus_version(corpus)
    return store.array_path("compare", corpus, f"{fp_a}-{fp_b}-v{version}-k{k}")


def neighbourhood_scores(store: Store, corpus: str, spec_a: ModelSpec, spec_b: ModelSpec,
                         k: int = NEIGHBOURS) -> np.ndarray:
    """Each paper's neighbourhood-changed score between two models, cached per corpus version and model pair.

    Neighbours come from each model's corpus index (exact up to the exact-search limit, faiss HNSW/IVF above it,
    as the Similar papers page searches).
    """
    from core.embedding import vectors_fingerprint
    from core.explore.search.similar import corpus_index
    from core.store import atomic_save_npy

    fp_a, fp_b = vectors_fingerprint(spec_a), vectors_fingerprint(spec_b)
    path = _score_path(store, corpus, *sorted((fp_a, fp_b)), k)  # the score is symmetric: one file per pair
    papers = store.corpus(corpus).papers
    if path.exists():
        try:
            scores = load_npy(path)
            if scores.shape == (papers,):
                return scores
        except (OSError, ValueError, EOFError):
            pass
    lists = []
    for spec, fp in ((spec_a, fp_a), (spec_b, fp_b)):
        missing = store.missing_hashes(corpus, fp)
        if missing:
            raise MireadError(f"corpus {corpus!r} is not embedded with model {spec.name!r} yet "
                              f"({plural(len(missing), 'paper')} missing); embed it first")
        index = corpus_index(store, corpus, spec)
        lists.append(nearest_rows(lambda q, kk, index=index: index.search(q, kk)[1], store.embeddings(corpus, fp), k))
    scores = neighbourhood_change(*lists)
    atomic_save_npy(path, scores)
    return scores


def paper_neighbours(store: Store, corpus: str, spec: ModelSpec, row: int, k: int = NEIGHBOURS) -> np.ndarray:
    """The corpus rows of one paper's k nearest other papers under a model, nearest first."""
    from core.embedding import vectors_fingerprint
    from core.explore.search.similar import corpus_index

    vectors = store.embeddings(corpus, vectors_fingerprint(spec))
    index = corpus_index(store, corpus, spec)
    found = nearest_rows(lambda q, kk: index.search(q, kk)[1], vectors[row : row + 1], k, rows=np.array([row]))[0]
    return found[found >= 0]


def neighbour_ranks(frame: pd.DataFrame, near_a: np.ndarray, near_b: np.ndarray) -> pd.DataFrame:
    """One paper's neighbours under either model: id, title and its rank under A and under B (blank: not one)."""
    import pandas as pd

    rows = list(dict.fromkeys([*near_a.tolist(), *near_b.tolist()]))
    rank_a = {r: i + 1 for i, r in enumerate(near_a.tolist())}
    rank_b = {r: i + 1 for i, r in enumerate(near_b.tolist())}
    table = frame.iloc[rows][[c for c in ("id", "title") if c in frame.columns]].reset_index(drop=True)
    table["rank under A"] = pd.array([rank_a.get(r) for r in rows], dtype="Int64")
    table["rank under B"] = pd.array([rank_b.get(r) for r in rows], dtype="Int64")
    return table.sort_values(["rank under A", "rank under B"], na_position="last", kind="stable").reset_index(drop=True)


def change_summary(scores: np.ndarray, k: int = NEIGHBOURS) -> dict[str, float | int]:
    """Corpus-level figures of the scores: mean and median overlap, shares unchanged and fully changed."""
    scores = np.asarray(scores, dtype=np.float64)
    if not len(scores):
        return {"papers": 0, "k": k, "mean_overlap": float("nan"), "median_overlap": float("nan"),
                "unchanged": float("nan"), "all_changed": float("nan")}
    overlap = 1.0 - scores
    return {"papers": int(len(scores)), "k": k, "mean_overlap": float(overlap.mean()),
            "median_overlap": float(np.median(overlap)), "unchanged": float((scores == 0).mean()),
            "all_changed": float((scores >= 1).mean())}


def moved_papers(frame: pd.DataFrame, scores: np.ndarray, columns: Sequence[str] = (),
                 top: int | None = None) -> pd.DataFrame:
    """Papers sorted by how much their neighbourhood changed (most first; ties in corpus order), with their row."""
    scores = np.asarray(scores)
    if len(frame) != len(scores):
        raise MireadError(f"got {len(scores)} scores for {len(frame)} papers")
    order = np.argsort(-scores, kind="stable")[: top if top else None]
    wanted = ["id", "title", *[c for c in columns if c not in ("id", "title")]]
    table = frame.iloc[order][[c for c in wanted if c in frame.columns]].reset_index(drop=True)
    table.insert(0, "row", order)
    table["changed"] = scores[order]
    return table


# ---------------------------------------------------------------- maps and models


@dataclass
class MapState:
    """One model's map for the compare view: coordinates (the final map or a PCA preview) and its background job."""

    coords: np.ndarray
    final: bool
    job: Any = None  # the fit's live state (a `BackgroundMap` or the app's `JobView`): fraction, message, done, error


def map_or_preview(store: Store, corpus: str, spec: ModelSpec, method: str, params: dict[str, Any] | None,
                   start: Callable[..., Any] | None = None) -> MapState:
    """The cached map, else a PCA preview while `start(store, corpus, spec, method, params)` computes it in the
    background and reports it (fraction, message, done, error, started): the app passes its fit job
    (`ui.jobs.start_map`, as the map page does); by default a thread of this process (`maps.cached.start_map`)."""
    from core.explore.maps.cached import cached_map, map_coordinates, start_map

    start = start or start_map
    coords = cached_map(store, corpus, spec, method, params)
    if coords is not None:
        return MapState(coords, True)
    if method == "pca":
        return MapState(map_coordinates(store, corpus, spec, "pca", {})[0], True)
    job = start(store, corpus, spec, method, params)
    if job.done and not job.error:
        coords = cached_map(store, corpus, spec, method, params)
        if coords is not None:
            return MapState(coords, True)
    return MapState(map_coordinates(store, corpus, spec, "pca", {})[0], False, job)


def usable(spec: ModelSpec) -> bool:
    """A model the compare view can offer (installed or loadable here)."""
    return spec.source not in UNUSABLE_SOURCES


def default_partner(specs: Sequence[ModelSpec], current: str, embedded: Callable[[ModelSpec], bool]) -> str | None:
    """The model to compare `current` with: one fine-tuned from it (or its base), else another model with
    vectors for the corpus (`embedded`), else another installed model; None when there is no other model."""
    others = [s for s in specs if s.name != current and usable(s)]
    mine = next((s for s in specs if s.name == current), None)
    family = [s for s in others if s.base == current or (mine is not None and mine.base == s.name)]
    for group in (family, others):
        ready = [s for s in group if embedded(s)]
        if ready:
            return ready[0].name
    local = [s for s in family + others if s.source != "hub"]
    return local[0].name if local else None
