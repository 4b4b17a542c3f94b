"""Corpus maps: 2-D coordinates cached per (corpus, model, method, parameters), clusters, and figures."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .models import ModelSpec, get_model

if TYPE_CHECKING:
    import pandas as pd

    from .store import Store

HOVER_COLUMNS = ("title", "journal", "year", "doi", "url")


def map_coordinates(
    store: Store, corpus: str, spec: ModelSpec, method: str = "umap", params: dict[str, Any] | None = None,
    progress: Callable[[float, str], None] | None = None, seed: int = 0,
) -> tuple[np.ndarray, bool]:
    """(coords [n, 2], was_cached): computed once per corpus version, model, method and parameters."""
    from .embed import vectors_fingerprint
    from .projection import params_key, project
    from .store import atomic_save_npy

    info = store.corpus(corpus)
    fp = vectors_fingerprint(spec)
    key = f"{fp}-v{info.version}-{method}-{params_key(method, params)}-s{seed}"
    path = store.array_path("maps", corpus, key)
    if path.exists():
        try:
            coords = np.load(path)
            if coords.shape == (info.papers, 2):
                return coords, True
        except (OSError, ValueError, EOFError):
            path.unlink(missing_ok=True)
    matrix = store.embeddings(corpus, fp)
    coords = project(np.asarray(matrix), method, params, seed=seed, progress=progress)
    atomic_save_npy(path, coords)
    return coords, False


def corpus_map(
    store: Store, corpus: str, model: str | ModelSpec = "minilm", method: str = "umap",
    params: dict[str, Any] | None = None, color: str | None = None,
    progress: Callable[[float, str], None] | None = None,
) -> dict[str, Any]:
    """Coordinates plus the paper table for a corpus map."""
    spec = model if isinstance(model, ModelSpec) else get_model(model, store)
    started = time.perf_counter()
    coords, cached = map_coordinates(store, corpus, spec, method, params, progress)
    return {"model": spec.name, "coords": coords, "points": len(coords), "cached": cached,
            "seconds": time.perf_counter() - started, "method": method}


def hover_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The columns shown in a map's hover card, where the corpus has them."""
    return frame[[c for c in HOVER_COLUMNS if c in frame.columns]]


def map_export_html(store: Store, corpus: str, result: dict[str, Any], color: str | None = None) -> str:
    """A standalone HTML file of a corpus map coloured by a label column."""
    from .plots import export_html, map_figure

    frame = store.papers_frame(corpus, with_abstract=False)
    colour = frame[color].tolist() if color and color in frame.columns else None
    fig = map_figure(result["coords"], color=colour, color_name=color or "", hover=hover_frame(frame),
                     title=f"{corpus} — {result['model']} {result['method']}")
    return export_html(fig)
