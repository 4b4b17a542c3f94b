"""2-D maps of a corpus: projections (`projection`: UMAP, t-SNE, PCA, placing new points), maps cached per corpus,
model and parameters and fitted in the background (`cached`: also hover data), the highlight's text and search
(`highlight`), and sampled fits for corpora too large to project whole (`sampled`); the density overview and view
windows of maps too large to draw point by point (`density`); maps that stay put when papers are added (`stable`)
and their explicit re-fit with undo (`refit`).

Public names load lazily (PEP 562).
"""

from __future__ import annotations

from core.lazy import exporter

_EXPORTS = {
    "DEFAULT_PARAMS": "projection",
    "METHODS": "projection",
    "params_key": "projection",
    "place_points": "projection",
    "project": "projection",
    "warm_numba": "projection",
    "BackgroundMap": "cached",
    "cached_map": "cached",
    "corpus_map": "cached",
    "highlight_mask": "highlight",
    "highlight_text": "highlight",
    "hover_frame": "cached",
    "map_coordinates": "cached",
    "map_fitted": "cached",
    "start_map": "cached",
    "sampled_projection": "sampled",
    "density_grid": "density",
    "window_rows": "density",
    "Movement": "stable",
    "StableMap": "stable",
    "not_kept_reason": "stable",
    "stable_coordinates": "stable",
    "stable_map": "stable",
    "refit_job": "refit",
    "refit_map": "refit",
    "start_refit": "refit",
    "undo_refit": "refit",
}
__all__ = sorted(_EXPORTS)
__getattr__ = exporter(__name__, _EXPORTS)
