"""2-D maps of a corpus: projections (`projection`: UMAP, t-SNE, PCA, placing new points), maps cached per corpus,
model and parameters and fitted in the background (`cached`: also highlight and hover data), and sampled fits for
corpora too large to project whole (`sampled`).

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
    "highlight_mask": "cached",
    "hover_frame": "cached",
    "map_coordinates": "cached",
    "map_fitted": "cached",
    "start_map": "cached",
    "sampled_projection": "sampled",
}
__all__ = sorted(_EXPORTS)
__getattr__ = exporter(__name__, _EXPORTS)
