"""Topic labels on a paper map (a plotly figure from core.plots.maps.map_figure), drawn so two levels read as nested:
coarse topics in large bold type; at the fine level the fine topics in small type at their own centres, with the
coarse names still on top, larger, and the legend grouped under the coarse names. Labels that would overlap are
nudged up or down; a fine label with no free place is left out (its topic stays in the legend and on the hover
cards). All label text is escaped."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Protocol

import numpy as np
import plotly.graph_objects as go

from core.errors import MireadError

MAX_FINE_LABELS = 40  # beyond this many fine topics only the largest are labelled (all stay in legend and cards)
LABEL_CHARS = 40  # as the legend shortens its entries
PLOT_PX = (870.0, 600.0)  # the map's drawing area at a 1400-px-wide window, as assumed for overlap checks
NARROW_PX = (330.0, 300.0)  # ... and on a phone (390 px wide): labels that overlap there are hidden on phones
NARROW_META = "narrow_hidden"  # layout.meta key: indexes of the annotations to hide on narrow screens
SHIFTS = (0, 24, -24, 48, -48, 72, -72)  # vertical nudges tried, in pixels


class TopicLevels(Protocol):
    """What the labels need of a topic hierarchy (core.explore.topics.Topics): each paper's coarse and fine cluster,
    each fine cluster's coarse topic, and the tags per level in tag order."""

    coarse: np.ndarray
    fine: np.ndarray
    parent: np.ndarray

    def tags(self) -> dict[str, dict[int, str]]: ...


def cluster_centres_2d(coords: np.ndarray, labels: np.ndarray) -> dict[int, tuple[float, float]]:
    """Return the median 2-D position of each cluster (where to draw its label)."""
    coords = np.asarray(coords, dtype=np.float64)
    labels = np.asarray(labels)
    if coords.ndim != 2 or coords.shape[1] != 2 or coords.shape[0] != len(labels):
        raise MireadError(
            f"map coordinates of shape {coords.shape} do not match {len(labels)} cluster labels"
        )
    centres = {}
    for c in np.unique(labels):
        x, y = np.median(coords[labels == c], axis=0)
        centres[int(c)] = (float(x), float(y))
    return centres



def _short(text: str, limit: int = LABEL_CHARS) -> str:
    text = " ".join(str(text).split())
    return html.escape(text if len(text) <= limit else text[: limit - 1].rstrip() + "…", quote=False)


class _Placer:
    """Greedy label placement: each label takes the first vertical nudge where its box overlaps no earlier one."""

    def __init__(self, coords: np.ndarray, plot_px: tuple[float, float] = PLOT_PX):
        low, high = coords.min(axis=0), coords.max(axis=0)
        self.low, self.span = low, np.where(high > low, high - low, 1.0)
        self.plot_px = plot_px
        self.boxes: list[tuple[float, float, float, float]] = []

    def place(self, x: float, y: float, text: str, size: int, required: bool = True,
              shifts: tuple[int, ...] = SHIFTS) -> int | None:
        """The vertical nudge in pixels; None when nothing is free and the label is not required."""
        px = (x - self.low[0]) / self.span[0] * self.plot_px[0]
        py = (y - self.low[1]) / self.span[1] * self.plot_px[1]
        half_w, half_h = 0.3 * size * len(text) + 4, 0.6 * size + 2
        for shift in shifts:
            box = (px - half_w, py + shift - half_h, px + half_w, py + shift + half_h)
            if not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in self.boxes):
                self.boxes.append(box)
                return shift
        if not required:
            return None
        self.boxes.append((px - half_w, py - half_h, px + half_w, py + half_h))
        return 0


def add_topic_labels(fig: go.Figure, coords: np.ndarray, topics: TopicLevels, level: str,
                     names: Mapping[str, Mapping[int, str]], max_fine: int = MAX_FINE_LABELS) -> list[str]:
    """Label each topic of the level at the median position of its papers and order (at the fine level: group) the
    legend by topic; the texts drawn, coarse first."""
    coords = np.asarray(coords, dtype=np.float64)
    if not len(coords):
        return []
    placer, narrow, fine_level = _Placer(coords), _Placer(coords, NARROW_PX), level == "fine"
    hidden: list[int] = []  # annotations that would overlap others on a phone

    def on_phones(x: float, y: float, text: str, size: int, shift: int) -> None:
        if narrow.place(x, y, text, size, required=False, shifts=(shift,)) is None:
            hidden.append(len(fig.layout.annotations) - 1)
    drawn: list[str] = []
    children: dict[int, list[str]] = {}
    for f, c in enumerate(topics.parent):
        children.setdefault(int(c), []).append(names["fine"].get(f, ""))
    for c, (x, y) in cluster_centres_2d(coords, topics.coarse).items():
        text, size = names["coarse"][c], 16 if fine_level else 14
        inside = "<br>".join(_short(n, 60) for n in sorted(children.get(c, [])))
        shift = placer.place(x, y, _short(text), size)
        fig.add_annotation(
            x=x, y=y, text=f"<b>{_short(text)}</b>", showarrow=False, name=f"coarse-{c}",
            font=dict(size=size, color="#111111"), borderpad=3, yshift=shift,
            bgcolor="rgba(255,255,255,0.62)" if fine_level else "rgba(255,255,255,0.78)",
            bordercolor="rgba(17,17,17,0.35)" if fine_level else None,
            hovertext=f"<b>{_short(text, 80)}</b><br>{inside}",
        )
        on_phones(x, y, _short(text), size, shift)
        drawn.append(text)
    if fine_level:
        sizes = np.bincount(topics.fine, minlength=len(topics.parent))
        centres = cluster_centres_2d(coords, topics.fine)
        for f in sorted(centres, key=lambda f: (-sizes[f], f))[:max_fine]:  # the largest topics get a place first
            (x, y), text = centres[f], names["fine"][f]
            shift = placer.place(x, y, _short(text), 11, required=False)
            if shift is not None:
                fig.add_annotation(x=x, y=y, text=_short(text), showarrow=False, name=f"fine-{f}",
                                   font=dict(size=11, color="#111111"), bgcolor="rgba(255,255,255,0.72)",
                                   borderpad=2, yshift=shift,
                                   hovertext=_short(f"{names['coarse'][int(topics.parent[f])]} › {text}", 120))
                on_phones(x, y, _short(text), 11, shift)
                drawn.append(text)
    fig.layout.meta = {**(fig.layout.meta or {}), NARROW_META: hidden}
    _order_legend(fig, topics, level, names)
    return drawn


def narrow_screen_css(fig: go.Figure, chart_key: str) -> str:
    """A style sheet hiding, on screens narrower than 640 px, the labels of the chart with key ``chart_key`` that
    would overlap there (Plotly cannot drop overlapping annotations itself); empty when none would."""
    hidden = (fig.layout.meta or {}).get(NARROW_META) or []
    if not hidden:
        return ""
    rules = ", ".join(f".st-key-{chart_key} g.annotation[data-index='{int(i)}']" for i in hidden)
    return f"<style>@media (max-width: 640px) {{ {rules} {{ display: none; }} }}</style>"


def _order_legend(fig: go.Figure, topics: TopicLevels, level: str, names: Mapping[str, Mapping[int, str]]) -> None:
    """Legend entries in tag order (A, B, … or A1, A2, B1, …); fine ones grouped under their coarse topic's name."""
    tags = topics.tags()
    order = list(tags[level])  # already in tag order
    rank = {_short(names[level][c]): (i, c) for i, c in enumerate(order)}
    for trace in fig.data:
        if trace.name in rank:
            i, c = rank[trace.name]
            trace.legendrank = 100 + i
            if level == "fine":
                parent = int(topics.parent[c])
                trace.legendgroup = tags["coarse"][parent]
                trace.legendgrouptitle = dict(text=f"<b>{_short(names['coarse'][parent])}</b>")
