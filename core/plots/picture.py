"""A picture of a map's points: many faded points drawn once as a PNG under the plot instead of as WebGL markers.

The time animation puts the faded map in a picture so that a frame recomputes and draws only the papers in front
(Plotly recomputes every visible WebGL trace on each frame; BENCHMARKS.md, section 14). Written with numpy and
Pillow rather than a plotting library: the dots must land exactly where Plotly would draw them, in the map's data
coordinates, and a scatter of 200k points is a few vectorised additions.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageColor

from core.errors import MireadError

WIDTH, HEIGHT = 2000, 1100  # pixels, stretched over the plot area (a wide map in a window ~1300 x 750 px)
PAD = 0.04  # of the span on each side, like Plotly's autorange around markers


@dataclass(frozen=True)
class Picture:
    """A PNG (as a data URI) and the data rectangle it covers."""

    uri: str
    x: tuple[float, float]
    y: tuple[float, float]

    def layout_image(self) -> dict:
        """The picture as a Plotly layout image, under the traces, in data coordinates."""
        return dict(source=self.uri, xref="x", yref="y", x=self.x[0], y=self.y[1], sizex=self.x[1] - self.x[0],
                    sizey=self.y[1] - self.y[0], xanchor="left", yanchor="top", sizing="stretch", layer="below")


def _extent(values: np.ndarray) -> tuple[float, float]:
    low, high = float(values.min()), float(values.max())
    span = high - low if high > low else 1.0
    return low - PAD * span, high + PAD * span


def _disc(radius: float) -> np.ndarray:
    """Pixel offsets of a dot of this radius, shape [k, 2]."""
    reach = int(np.ceil(radius))
    dx, dy = np.meshgrid(np.arange(-reach, reach + 1), np.arange(-reach, reach + 1))
    inside = dx ** 2 + dy ** 2 <= radius ** 2 + 0.5
    return np.stack([dx[inside], dy[inside]], axis=1)


def _rgb(colours: np.ndarray) -> np.ndarray:
    """[n, 3] floats from CSS colour strings ('#1f77b4', 'rgb(…)', names)."""
    names, inverse = np.unique(np.asarray(colours, dtype=str), return_inverse=True)
    try:
        table = np.array([ImageColor.getrgb(name)[:3] for name in names], dtype=np.float64)
    except ValueError as exc:
        raise MireadError(f"cannot draw the colour {exc}") from None
    return table[inverse.ravel()]


def points_picture(coords: np.ndarray, colours: np.ndarray, opacity: float, *, radius: float = 2.0,
                   size: tuple[int, int] = (WIDTH, HEIGHT)) -> Picture:
    """Draw each point as a dot of its colour at this opacity; overlapping dots darken as stacked markers do."""
    coords = np.asarray(coords, dtype=np.float64)
    if coords.ndim != 2 or coords.shape[1] != 2 or len(coords) == 0:
        raise MireadError(f"a picture needs points of shape [n, 2], got {coords.shape}")
    if len(colours) != len(coords):
        raise MireadError(f"got {len(colours)} colours for {len(coords)} points")
    width, height = size
    (x0, x1), (y0, y1) = _extent(coords[:, 0]), _extent(coords[:, 1])
    px = np.rint((coords[:, 0] - x0) / (x1 - x0) * (width - 1)).astype(np.int64)
    py = np.rint((y1 - coords[:, 1]) / (y1 - y0) * (height - 1)).astype(np.int64)  # rows go down
    rgb = _rgb(colours)
    offsets = _disc(radius)
    cols = (px[None, :] + offsets[:, :1]).ravel()
    rows = (py[None, :] + offsets[:, 1:]).ravel()
    inside = (cols >= 0) & (cols < width) & (rows >= 0) & (rows < height)
    flat = (rows * width + cols)[inside]
    which = np.tile(np.arange(len(coords)), len(offsets))[inside]
    count = np.bincount(flat, minlength=width * height).astype(np.float64)
    mean = np.stack([np.bincount(flat, weights=rgb[which, c], minlength=width * height) for c in range(3)], axis=1)
    mean /= np.maximum(count, 1)[:, None]
    alpha = 1.0 - (1.0 - float(opacity)) ** count
    pixels = np.concatenate([mean, 255.0 * alpha[:, None]], axis=1).round().clip(0, 255).astype(np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels.reshape(height, width, 4)).save(buffer, format="PNG", compress_level=6)
    uri = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
    return Picture(uri, (x0, x1), (y0, y1))
