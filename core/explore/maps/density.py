"""A map too large to draw point by point (more than Settings.map_draw_limit papers): a density grid of the whole
map and the papers inside a view window, up to a cap, chosen deterministically. Pure numpy, unit space [-1, 1]."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

GRID = 512  # cells on each side of the density picture
WINDOW_CAP = 200_000  # papers drawn in one view window at most


def density_grid(xy: np.ndarray, size: int = GRID) -> np.ndarray:
    """How many papers fall in each cell of a `size` × `size` grid over [-1, 1]², log-scaled to uint8 (0: none,
    255: the densest cell). Row 0 is the top of the map (y = 1), as an image is read; points outside are dropped."""
    xy = np.asarray(xy, dtype=np.float32).reshape(-1, 2)
    if not np.isfinite(xy).all():
        xy = xy[np.isfinite(xy).all(axis=1)]
    grid = np.zeros((size, size), dtype=np.uint8)
    if not len(xy):
        return grid
    col = np.floor((xy[:, 0] + 1) * (size / 2)).astype(np.int64)
    row = np.floor((1 - xy[:, 1]) * (size / 2)).astype(np.int64)
    inside = (col >= 0) & (col < size) & (row >= 0) & (row < size)
    counts = np.bincount(row[inside] * size + col[inside], minlength=size * size).astype(np.float64)
    top = counts.max()
    if top <= 0:
        return grid
    scaled = np.log1p(counts) / np.log1p(top) * 254
    grid[:] = np.where(counts > 0, 1 + np.floor(scaled), 0).reshape(size, size).astype(np.uint8)
    return grid


@dataclass(frozen=True)
class Window:
    """The papers of one view window: `rows` (sorted) to draw, `inside` papers in the window in all."""

    rows: np.ndarray
    inside: int

    @property
    def left_out(self) -> int:
        """Papers in the window that are not drawn (the cap)."""
        return self.inside - len(self.rows)


def window_rows(xy: np.ndarray, box: Sequence[float] | None, cap: int = WINDOW_CAP, seed: int = 0) -> Window:
    """The rows inside `box` (x0, x1, y0, y1; None: everywhere): all of them when at most `cap`, else a seeded
    sample of `cap` (the same window and seed, the same rows)."""
    xy = np.asarray(xy).reshape(-1, 2)
    if box is None:
        inside = np.arange(len(xy))
    else:
        x0, x1, y0, y1 = (float(v) for v in box)
        x0, x1 = min(x0, x1), max(x0, x1)
        y0, y1 = min(y0, y1), max(y0, y1)
        x, y = xy[:, 0], xy[:, 1]
        inside = np.flatnonzero((x >= x0) & (x <= x1) & (y >= y0) & (y <= y1))
    if len(inside) <= cap:
        return Window(rows=inside.astype(np.int64), inside=len(inside))
    picked = np.random.default_rng(seed).choice(len(inside), size=cap, replace=False)
    return Window(rows=np.sort(inside[picked]).astype(np.int64), inside=len(inside))


def rows_in_polygon(xy: np.ndarray, polygon: np.ndarray | Sequence[float]) -> np.ndarray:
    """The rows of `xy` inside `polygon` (vertices as (k, 2) or flat x, y pairs; closed implicitly), by the even-odd
    rule: every paper a lasso drawn on a density overview encloses, the undrawn ones too. Written here (no geometry
    library is a dependency): a bounding-box cut, then one vectorised pass per edge."""
    poly = np.asarray(polygon, dtype=np.float64).reshape(-1, 2)
    xy = np.asarray(xy).reshape(-1, 2)
    if len(poly) < 3:
        return np.empty(0, dtype=np.int64)
    lo, hi = poly.min(axis=0), poly.max(axis=0)
    x, y = xy[:, 0], xy[:, 1]
    rows = np.flatnonzero((x >= lo[0]) & (x <= hi[0]) & (y >= lo[1]) & (y <= hi[1]))
    x, y = x[rows].astype(np.float64), y[rows].astype(np.float64)
    inside = np.zeros(len(rows), dtype=bool)
    for (ax, ay), (bx, by) in zip(poly, np.roll(poly, -1, axis=0)):
        if ay == by:
            continue  # a horizontal edge is never crossed by the horizontal ray
        crosses = (ay > y) != (by > y)
        inside ^= crosses & (x < ax + (y - ay) * (bx - ax) / (by - ay))
    return rows[inside].astype(np.int64)
