"""Re-fitting a stable map on request: a fresh fit of every paper, turned, scaled and shifted onto the map the user
knows (orthogonal Procrustes, `core.explore.compare.align_maps`), how far papers moved, and one undo.

The fresh fit is the ordinary cached fit of this corpus version (`map_coordinates`), so an unchanged corpus re-fitted
with the same seed moves no paper. The alignment is fitted on the papers the old map was fitted on (the papers
placed since are approximations) and applied to all; the previous record is kept beside the new one until the next
re-fit, and `undo_refit` puts it back (papers added after it are then placed on it as usual).
"""

from __future__ import annotations

import logging
import os
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

import numpy as np

from core.errors import MireadError

if TYPE_CHECKING:
    from core.embedding import ModelSpec
    from core.explore.maps.cached import BackgroundMap
    from core.explore.maps.stable import Movement, StableMap
    from core.store import Store

MOVED_SHARE = 0.10  # a paper "moved" when a re-fit shifts it by more than this share of the map's width
MIN_ANCHORS = 3  # fewer fitted papers than this: the alignment uses every paper
_JOBS: dict[str, BackgroundMap] = {}
_JOBS_LOCK = threading.Lock()
log = logging.getLogger(__name__)
Progress = Callable[[float, str], None]


def movement(old: np.ndarray, new: np.ndarray, share: float = MOVED_SHARE) -> Movement:
    """How far each paper moved from `old` to `new` (same rows), as shares of the old map's width."""
    from core.explore.maps.stable import Movement

    old, new = np.asarray(old, dtype=np.float64), np.asarray(new, dtype=np.float64)
    if not len(old):
        return Movement(0, 0.0, 0.0, 0, share)
    width = float(max(np.ptp(old[:, 0]), np.ptp(old[:, 1]))) or 1.0
    moved = np.linalg.norm(new - old, axis=1) / width
    return Movement(len(old), float(np.median(moved)), float(np.quantile(moved, 0.9)), int((moved > share).sum()),
                    share)


def aligned_onto(reference: np.ndarray, fresh: np.ndarray, anchors: np.ndarray) -> np.ndarray:
    """`fresh` turned, scaled and shifted onto `reference` by the Procrustes fit of the rows `anchors`."""
    from core.explore.compare import align_maps

    if anchors.sum() < MIN_ANCHORS:
        anchors = np.ones(len(reference), dtype=bool)
    fit = align_maps(reference[anchors], fresh[anchors])
    return (fit.scale * np.asarray(fresh, dtype=np.float64) @ fit.rotation + fit.shift).astype(np.float32)


def refit_map(store: Store, corpus: str, spec: ModelSpec | str, method: str = "umap",
              params: dict[str, Any] | None = None, seed: int = 0, progress: Progress | None = None) -> StableMap:
    """Fit the map of every paper afresh, align it onto the current map, keep the current one for `undo_refit`."""
    from core.explore.maps.cached import map_coordinates
    from core.explore.maps.stable import (
        WRITE_LOCK,
        adopt_fit,
        as_map,
        load_record,
        record_paths,
        resolve_spec,
        save_record,
        stable_map,
    )

    spec = resolve_spec(store, spec)
    stable_map(store, corpus, spec, method, params, seed)  # today's papers placed first: the map the user sees
    fresh, _ = map_coordinates(store, corpus, spec, method, params, progress, seed)
    with WRITE_LOCK:
        current = stable_map(store, corpus, spec, method, params, seed)
        if current is None or len(current.coords) != len(fresh):
            raise MireadError(f"corpus {corpus!r} changed while its map was re-fitted; re-fit it again")
        path, previous = record_paths(store, corpus, spec, method, params, seed)
        aligned = aligned_onto(current.coords, fresh, ~current.new)
        moved = movement(current.coords, aligned)
        ids = np.asarray(store.paper_ids(corpus), dtype=str)
        if len(ids) != len(fresh):
            raise MireadError(f"corpus {corpus!r} changed while its map was re-fitted; re-fit it again")
        record = adopt_fit(store, corpus, spec, method, aligned, ids, store.corpus(corpus), seed,
                           movement=asdict(moved))
        shutil.copyfile(path, previous.with_suffix(".tmp"))
        os.replace(previous.with_suffix(".tmp"), previous)
        save_record(path, record)
        return as_map(record, method, load_record(previous, ids=False))


def undo_refit(store: Store, corpus: str, spec: ModelSpec | str, method: str = "umap",
               params: dict[str, Any] | None = None, seed: int = 0) -> StableMap:
    """Put back the map the last re-fit replaced (papers added since are placed on it, marked new)."""
    from core.explore.maps.stable import WRITE_LOCK, record_paths, resolve_spec, stable_map

    spec = resolve_spec(store, spec)
    with WRITE_LOCK:
        path, previous = record_paths(store, corpus, spec, method, params, seed)
        if not previous.exists():
            raise MireadError(f"the {method.upper()} map of corpus {corpus!r} has no re-fit to undo")
        os.replace(previous, path)
        restored = stable_map(store, corpus, spec, method, params, seed)
    if restored is None:
        raise MireadError(f"the map the re-fit replaced no longer fits corpus {corpus!r}; it is fitted afresh")
    return restored


def start_refit(store: Store, corpus: str, spec: ModelSpec | str, method: str = "umap",
                params: dict[str, Any] | None = None, seed: int = 0) -> BackgroundMap:
    """Re-fit the map in a background thread (once, however many pages ask); its live state."""
    from core.explore.maps.cached import BackgroundMap, run_in_background
    from core.explore.maps.stable import record_paths, resolve_spec

    spec = resolve_spec(store, spec)
    key = str(record_paths(store, corpus, spec, method, params, seed)[0])
    with _JOBS_LOCK:
        job = _JOBS.get(key)
        if job is not None and not job.done:
            return job
        job = _JOBS[key] = BackgroundMap(started=time.time())

    return run_in_background(job, lambda progress: refit_map(store, corpus, spec, method, params, seed, progress),
                             f"the {method.upper()} map could not be re-fitted", f"refit-{method}-{corpus}")


def refit_job(store: Store, corpus: str, spec: ModelSpec | str, method: str = "umap",
              params: dict[str, Any] | None = None, seed: int = 0) -> BackgroundMap | None:
    """The re-fit of this map under way, or finished since the last call (then reported once and forgotten)."""
    from core.explore.maps.stable import record_paths, resolve_spec

    key = str(record_paths(store, corpus, resolve_spec(store, spec), method, params, seed)[0])
    with _JOBS_LOCK:
        job = _JOBS.get(key)
        if job is not None and job.done:
            del _JOBS[key]
    return job
