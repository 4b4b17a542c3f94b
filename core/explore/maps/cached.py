"""Corpus maps: 2-D coordinates cached per (corpus, model, method, parameters), clusters, and figures."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from core.embedding import ModelSpec, get_model
from core.errors import MireadError
from core.store.files import load_npy

if TYPE_CHECKING:
    from pathlib import Path

    import pandas as pd

    from core.store import Store

HOVER_COLUMNS = ("title", "title_only", "journal", "year", "doi", "url")


def _map_file(store: Store, corpus: str, spec: ModelSpec, method: str, params: dict[str, Any] | None,
              seed: int) -> tuple[Path, int, str]:
    """(cache path, paper count, vectors fingerprint) of one map."""
    from core.embedding import vectors_fingerprint
    from core.explore.maps.projection import params_key

    info = store.corpus(corpus)
    fp = vectors_fingerprint(spec)
    key = f"{fp}-v{info.version}-{method}-{params_key(method, params)}-s{seed}"
    sample = _fit_sample(method, info.papers)
    if sample:  # fitted on a sample, the rest placed (core/explore/maps/sampled.py): another map, another file
        key += f"-fit{sample}"
    return store.array_path("maps", corpus, key), info.papers, fp


def _fit_sample(method: str, papers: int) -> int:
    """How many papers a UMAP/t-SNE map is fitted on when the corpus is larger than that; 0 = all of them."""
    from core.config import Settings

    sample = Settings().map_fit_sample
    return sample if method != "pca" and 0 < sample < papers else 0


def map_fitted(store: Store, corpus: str, spec: ModelSpec | str, method: str = "umap",
               params: dict[str, Any] | None = None, seed: int = 0) -> np.ndarray | None:
    """Which papers of a sampled map were fitted (True) and which placed from neighbours; None: all fitted."""
    spec = spec if isinstance(spec, ModelSpec) else get_model(spec, store)
    path, papers, _ = _map_file(store, corpus, spec, method, params, seed)
    mask_path = path.with_name(f"{path.stem}-fitted.npy")
    if not mask_path.exists():
        return None
    return np.unpackbits(load_npy(mask_path), count=papers).astype(bool)


def cached_map(store: Store, corpus: str, spec: ModelSpec, method: str = "umap",
               params: dict[str, Any] | None = None, seed: int = 0) -> np.ndarray | None:
    """The map's coordinates when they are already computed for this corpus version, else None."""
    path, papers, _ = _map_file(store, corpus, spec, method, params, seed)
    if path.exists():
        try:
            coords = load_npy(path)
            if coords.shape == (papers, 2):
                return coords
        except (OSError, ValueError, EOFError):
            pass
        path.unlink(missing_ok=True)
    return None


def map_coordinates(
    store: Store, corpus: str, spec: ModelSpec, method: str = "umap", params: dict[str, Any] | None = None,
    progress: Callable[[float, str], None] | None = None, seed: int = 0,
) -> tuple[np.ndarray, bool]:
    """(coords [n, 2], was_cached): computed once per corpus version, model, method and parameters."""
    from core.explore.maps.projection import project
    from core.store import atomic_save_npy

    coords = cached_map(store, corpus, spec, method, params, seed)
    if coords is not None:
        return coords, True
    path, papers, fp = _map_file(store, corpus, spec, method, params, seed)
    matrix = store.embeddings(corpus, fp)
    sample = _fit_sample(method, papers)
    if sample:
        from core.explore.maps.sampled import sampled_projection

        coords, fitted = sampled_projection(matrix, method, params, seed=seed, sample=sample, progress=progress)
        atomic_save_npy(path.with_name(f"{path.stem}-fitted.npy"), np.packbits(fitted))
    else:
        coords = project(np.asarray(matrix), method, params, seed=seed, progress=progress)
    atomic_save_npy(path, coords)
    return coords, False


@dataclass
class BackgroundMap:
    """A map being computed in a thread of this process, watched by the pages that asked for it."""

    fraction: float = 0.0
    message: str = "starting"
    done: bool = False
    error: str | None = None
    started: float = 0.0


_BACKGROUND: dict[str, BackgroundMap] = {}
_BACKGROUND_LOCK = threading.Lock()
log = logging.getLogger(__name__)


def start_map(store: Store, corpus: str, spec: ModelSpec, method: str = "umap",
              params: dict[str, Any] | None = None, seed: int = 0) -> BackgroundMap:
    """Compute a map in a background thread (once per map, however many pages ask); its live state.

    The page shows a PCA preview meanwhile: a 50k-paper UMAP takes ~12 s on 2 cores, plus the one-off
    numba compile (~30 s) on a server's first map.
    """
    path, _, _ = _map_file(store, corpus, spec, method, params, seed)
    key = str(path)
    with _BACKGROUND_LOCK:
        job = _BACKGROUND.get(key)
        if job is not None and not (job.done and not job.error and not path.exists()):
            return job
        job = _BACKGROUND[key] = BackgroundMap(started=time.time())

    return run_in_background(job, lambda progress: map_coordinates(store, corpus, spec, method, params, progress, seed),
                             f"the {method.upper()} map could not be computed", f"map-{method}-{corpus}")


def run_in_background(job: BackgroundMap, compute: Callable[[Callable[[float, str], None]], Any], failure: str,
                      name: str) -> BackgroundMap:
    """Run `compute(progress)` in a daemon thread that reports into `job`; a failure becomes one sentence
    (`failure`, then the error) on the job and is logged in full."""
    def progress(fraction: float, message: str) -> None:
        job.fraction, job.message = min(max(float(fraction), 0.0), 1.0), message

    def work() -> None:
        try:
            compute(progress)
        except MireadError as exc:
            job.error = str(exc)
        except Exception as exc:  # noqa: BLE001 - reported on the page as one sentence, logged in full
            log.exception("%s (%s)", failure, name)
            job.error = f"{failure} ({type(exc).__name__}: {exc})"
        finally:
            job.done = True

    threading.Thread(target=work, name=name, daemon=True).start()
    return job


def corpus_map(
    store: Store, corpus: str, model: str | ModelSpec = "minilm", method: str = "umap",
    params: dict[str, Any] | None = None, color: str | None = None,
    progress: Callable[[float, str], None] | None = None,
) -> dict[str, Any]:
    """Coordinates plus the paper table for a corpus map."""
    spec = model if isinstance(model, ModelSpec) else get_model(model, store)
    started = time.perf_counter()
    coords, cached = map_coordinates(store, corpus, spec, method, params, progress)
    fitted = map_fitted(store, corpus, spec, method, params)
    placed = 0 if fitted is None else int((~fitted).sum())
    return {"model": spec.name, "coords": coords, "points": len(coords), "cached": cached,
            "seconds": time.perf_counter() - started, "method": method, "fitted": len(coords) - placed,
            "placed": placed}


def hover_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The columns shown in a map's hover card, where the corpus has them."""
    return frame[[c for c in HOVER_COLUMNS if c in frame.columns]]

