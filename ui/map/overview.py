"""A map of more papers than Settings.map_draw_limit opens as a density overview: the whole map as a density
picture, and on it the papers of the zoomed window (up to a cap, a seeded sample above it). Each zoom reruns the
page, which sends the new window's papers (core/explore/maps/density.py)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from core.explore.maps.density import GRID, WINDOW_CAP, Window, density_grid, window_rows
from core.plots.map_data import UnitFrame, unit_frame
from ui.resources import settings
from ui.views import Zoom

OVERVIEW = "map_overview"  # {hub: Overview}: what this run's overview shows


@dataclass(frozen=True)
class Overview:
    """What an overview draws: `total` papers as density, `drawn` of the `inside` papers of the window as points."""

    total: int
    drawn: int
    inside: int
    whole: bool  # the window is the whole map


def draw_limit() -> int:
    """Up to this many papers every paper is drawn; above it, the density overview."""
    return int(settings().map_draw_limit)


def is_overview(n: int) -> bool:
    """Whether a map of `n` papers opens as a density overview."""
    return n > draw_limit()


@st.cache_resource(max_entries=2, show_spinner=False)
def _whole(version: str, _coords: np.ndarray) -> tuple[UnitFrame, np.ndarray, np.ndarray]:
    """The map's unit frame, its positions in [-1, 1] and its density grid, once per map version."""
    unit = unit_frame(_coords)
    xy = unit.to_unit(_coords)
    return unit, xy, density_grid(xy, GRID)


def view_window(version: str, coords: np.ndarray, zoom: Zoom | None,
                cap: int = WINDOW_CAP) -> tuple[UnitFrame, np.ndarray, Window]:
    """The unit frame, the density grid (GRID × GRID uint8, top row first) and the papers of the window `zoom` (map
    coordinates; None: the whole map)."""
    unit, xy, grid = _whole(version, coords)
    return unit, grid, window_rows(xy, unit.box_to_unit(zoom) if zoom else None, cap)


def overview_sentence(overview: Overview) -> str:
    """One true sentence on what the overview shows."""
    if overview.whole:
        where = "in the whole map"
    else:
        where = "in this view"
    sample = f" (a seeded sample of its {overview.inside:,})" if overview.drawn < overview.inside else ""
    return (f"**{overview.total:,}** papers: density overview; zoom in to see papers — **{overview.drawn:,}** "
            f"{where} drawn{sample}.")
