"""The paper map: one trace per frequent label, hover cards, highlighted and query papers, citation lines, the
selection read back; all user text is escaped."""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from core.errors import MireadError
from core.labels import NONE_LABEL, is_missing
from core.plots.style import (
    HIGHLIGHT_COLOUR,
    OTHER_COLOUR,
    PALETTE,
    QUERY_COLOUR,
    TEMPLATE,
    label_of,
    short,
)

# Above this many points a map draws a seeded sample (highlighted papers always kept) and says so: 200k
# points with hover cards render in ~3 s in headless Chromium and zoom in ~0.3 s (BENCHMARKS.md, browser).
MAX_MAP_POINTS = 200_000
LEGEND_ONLY = "legend entry"  # the meta of a trace that draws only a legend entry


def top_labels(values: Sequence, max_labels: int = 12, other: str = "other") -> list[str]:
    """Keep the max_labels most frequent labels and map the rest to `other`."""
    labels = [label_of(v) for v in values]
    counts = Counter(labels)
    if len(counts) <= max_labels:
        return labels
    keep = {label for label, _ in counts.most_common(max_labels)}
    return [label if label in keep else other for label in labels]


def _wrap(text: str, width: int = 60, max_lines: int = 3) -> str:
    """Escape text and break it into at most max_lines lines of about width characters."""
    text = short(text, width * max_lines)
    lines = []
    while len(text) > width:
        cut = text.rfind(" ", 0, width + 1)
        cut = cut if cut > 0 else width
        lines.append(text[:cut])
        text = text[cut:].lstrip()
    lines.append(text)
    return "<br>".join(html.escape(line, quote=False) for line in lines)


def hover_cards(
    n: int, labels: Sequence[str] | None, color_name: str, hover: pd.DataFrame | None
) -> list[str]:
    """Build one escaped hover card per point: title, colour label (as `label_of` shows it), then other columns.

    The slow part of a big map's figure (a Python string per paper): the page caches it (ui/map/cards.py)."""
    parts: list[list[str]] = [[] for _ in range(n)]
    if hover is not None:
        columns = list(hover.columns)
        title_col = next((c for c in columns if str(c).lower() == "title"), None)
        only = hover["title_only"].tolist() if "title_only" in columns else [None] * n  # no abstract (issue 19)
        if title_col is not None:
            for i, value in enumerate(hover[title_col].tolist()):
                if not is_missing(value):
                    parts[i].append(f"<b>{_wrap(value)}</b>" + "<br><i>title only, no abstract</i>" * (only[i] is True))
    if labels is not None:
        name = html.escape(short(color_name or "label", 40), quote=False)
        for i, value in enumerate(labels):
            parts[i].append(f"{name}: {html.escape(short(value, 80), quote=False)}")
    if hover is not None:
        for col in [c for c in hover.columns if c not in (title_col, "title_only")][:6]:
            name = html.escape(short(col, 40), quote=False)
            for i, value in enumerate(hover[col].tolist()):
                if not is_missing(value) and str(value) != "":
                    parts[i].append(f"{name}: {html.escape(short(label_of(value), 80), quote=False)}")
    return ["<br>".join(p) for p in parts]


def _marker_size(n: int) -> float:
    """Smaller markers for bigger maps."""
    if n < 1_000:
        return 7
    if n < 10_000:
        return 5
    if n < 100_000:
        return 3
    return 2


def _is_continuous(color: Sequence, max_legend: int) -> bool:
    """True when colour values are numbers with more distinct values than legend entries."""
    arr = np.asarray(color, dtype=object)
    present = [v for v in arr if not is_missing(v)]
    if not present or any(isinstance(v, (bool, np.bool_, str)) for v in present):
        return False
    if not all(isinstance(v, (int, float, np.integer, np.floating)) for v in present):
        return False
    return len(set(present)) > max_legend


def _scatter(coords: np.ndarray, rows: np.ndarray, hovertext: np.ndarray, **kwargs: Any) -> go.Scattergl:
    """One Scattergl trace of the given rows, with customdata carrying row indices (hover cards as a numpy array:
    plotly checks a list element by element, an array at once)."""
    return go.Scattergl(
        x=coords[rows, 0],
        y=coords[rows, 1],
        mode="markers",
        customdata=rows,
        hovertext=hovertext[rows],
        hoverinfo="text",
        **kwargs,
    )


def legend_entry(name: str, colour: str, *, legendrank: int = 1000, legendgroup: str | None = None,
                 line: dict | None = None) -> go.Scattergl:
    """A trace without points that draws only a legend entry, in full colour whatever its group's points look like
    (faded, all highlighted, coloured point by point); clicking it shows or hides its group."""
    return go.Scattergl(x=[None], y=[None], mode="markers", name=name, legendrank=legendrank, legendgroup=legendgroup,
                        customdata=[], hovertext=[], hoverinfo="skip", meta=LEGEND_ONLY,
                        marker=dict(size=8, opacity=1.0, color=colour, **({"line": line} if line else {})))


def is_legend_entry(trace: Any) -> bool:
    """Whether a trace only draws a legend entry (legend_entry)."""
    return getattr(trace, "meta", None) == LEGEND_ONLY


def _add_label_traces(
    fig: go.Figure, coords: np.ndarray, rows: np.ndarray, hovertext: np.ndarray, labels: list[str], marker: dict
) -> np.ndarray:
    """Add one trace per label (most frequent first, 'other' last); return each point's colour."""
    label_arr = np.array(labels, dtype=object)
    order = [label for label, _ in Counter(labels).most_common() if label != "other"]
    colour_of = {label: PALETTE[i % len(PALETTE)] for i, label in enumerate(order)}
    colour_of["other"] = OTHER_COLOUR
    if "other" in set(labels):
        order.append("other")
    for rank, label in enumerate(order):
        name, at = html.escape(short(label, 40), quote=False), rows[label_arr[rows] == label]
        legendrank = rank if label != "other" else 10_000
        if len(at):
            fig.add_trace(_scatter(coords, at, hovertext, name=name, legendrank=legendrank,
                                   marker=dict(marker, color=colour_of[label])))
        else:  # every paper of the label is highlighted: its legend entry stays, in its colour
            fig.add_trace(legend_entry(name, colour_of[label], legendrank=legendrank))
    return np.array([colour_of[label] for label in labels], dtype=object)


def _add_continuous_traces(
    fig: go.Figure, coords: np.ndarray, rows: np.ndarray, hovertext: np.ndarray,
    color: Sequence, color_name: str, marker: dict,
) -> np.ndarray:
    """Add a colour-scale trace for numeric values (and a grey one for missing); return point colours."""
    values = np.array([np.nan if is_missing(v) else float(v) for v in color])
    known = rows[~np.isnan(values[rows])]
    missing = rows[np.isnan(values[rows])]
    if len(missing):
        fig.add_trace(_scatter(coords, missing, hovertext, name=NONE_LABEL, marker=dict(marker, color=OTHER_COLOUR)))
    fig.add_trace(_scatter(
        coords, known, hovertext, name=html.escape(short(color_name or "value", 40), quote=False), showlegend=False,
        marker=dict(marker, color=values[known], colorscale="Viridis", cmin=np.nanmin(values),
                    cmax=np.nanmax(values), colorbar=dict(title=html.escape(short(color_name, 30), quote=False),
                                                          orientation="h", x=0.5, xanchor="center", y=-0.02,
                                                          yanchor="top", thickness=12, len=0.6)),
    ))
    return np.full(len(values), HIGHLIGHT_COLOUR, dtype=object)


def _map_layout(fig: go.Figure, title: str, height: int = 720) -> None:
    """Clean map layout: no axes, legend in rows under the map (it never takes a phone's width), lasso, stable UI."""
    hidden = dict(showticklabels=False, ticks="", showgrid=False, zeroline=False, title=None)
    fig.update_layout(
        template=TEMPLATE,
        title=html.escape(title, quote=False) if title else None,
        height=height,
        dragmode="lasso",
        uirevision="map",
        hovermode="closest",
        margin=dict(l=10, r=10, t=50 if title else 20, b=10),
        legend=dict(orientation="h", x=0, y=-0.01, xanchor="left", yanchor="top", itemsizing="constant",
                    entrywidth=0, font=dict(size=11)),
        xaxis=hidden,
        yaxis=hidden,
    )


def map_figure(
    coords: np.ndarray,
    *,
    color: Sequence | None = None,
    color_name: str = "",
    hover: pd.DataFrame | None = None,
    highlight: np.ndarray | None = None,
    query_points: np.ndarray | None = None,
    query_labels: Sequence[str] | None = None,
    cluster_labels: dict[str, tuple[float, float]] | None = None,
    max_legend: int = 12,
    title: str = "",
    max_points: int | None = MAX_MAP_POINTS,
    scale: bool = False,
    marked: np.ndarray | None = None,
    cards: Sequence[str] | None = None,
) -> go.Figure:
    """Draw a paper map: one trace per frequent label; customdata holds row indices (-1 for query points).

    Above `max_points` papers a seeded sample is drawn (every highlighted paper kept); `layout.meta` holds
    {"drawn": k, "total": n} so the page can say how many points it shows. `scale`: numbers (a year) are drawn on a
    colour scale however few distinct values they have. `marked`: papers ringed as new since the map was fitted.
    `cards`: the hover cards `hover_cards` makes of these colour values and hover columns, when the caller has them.
    """
    coords = np.asarray(coords, dtype=np.float32)
    if coords.ndim != 2 or coords.shape[1] != 2:
        raise MireadError(f"map coordinates must have shape [papers, 2], got {coords.shape}")
    n = coords.shape[0]
    if color is not None and len(color) != n:
        raise MireadError(f"got {len(color)} colour values for {n} map points")
    if hover is not None and len(hover) != n:
        raise MireadError(f"got {len(hover)} hover rows for {n} map points")
    if cards is not None and len(cards) != n:
        raise MireadError(f"got {len(cards)} hover cards for {n} map points")
    mask = np.zeros(n, dtype=bool)
    if highlight is not None:
        mask = np.asarray(highlight, dtype=bool)
        if mask.shape != (n,):
            raise MireadError(f"highlight mask has {mask.size} values for {n} map points")
    if max_points is not None and n > max_points:
        drawn = sample_rows(mask, max_points)
        fig = map_figure(
            coords[drawn], color=None if color is None else [color[i] for i in drawn], color_name=color_name,
            hover=None if hover is None else hover.iloc[drawn], highlight=mask[drawn], query_points=query_points,
            query_labels=query_labels, cluster_labels=cluster_labels, max_legend=max_legend, title=title,
            max_points=None, scale=scale, marked=None if marked is None else np.asarray(marked, dtype=bool)[drawn],
            cards=None if cards is None else [cards[i] for i in drawn],
        )
        for trace in fig.data:  # back from sample positions to corpus rows
            ids = np.asarray(trace.customdata if trace.customdata is not None else [], dtype=np.int64)
            trace.customdata = np.where(ids >= 0, drawn[np.clip(ids, 0, None)], -1)
        fig.update_layout(meta={"drawn": len(drawn), "total": n})
        return fig
    size = _marker_size(n)
    opacity = 0.25 if mask.any() else 0.8
    continuous = color is not None and (_is_continuous(color, 0 if scale else max_legend))
    labels = None if color is None or continuous else top_labels(color, max_legend)
    if cards is None:  # the card keeps the real value, never "other"
        cards = hover_cards(n, None if color is None else [label_of(v) for v in color], color_name, hover)
    hovertext = np.asarray(cards, dtype=object)
    fig = go.Figure()
    base = np.flatnonzero(~mask)
    marker = dict(size=size, opacity=opacity)
    if continuous:
        point_colours = _add_continuous_traces(fig, coords, base, hovertext, color, color_name, marker)
    elif labels is not None:
        point_colours = _add_label_traces(fig, coords, base, hovertext, labels, marker)
    else:
        fig.add_trace(_scatter(coords, base, hovertext, name="papers", marker=dict(marker, color=PALETTE[0])))
        point_colours = np.full(n, PALETTE[0], dtype=object)
    if mask.any():
        rows = np.flatnonzero(mask)
        fig.add_trace(_scatter(
            coords, rows, hovertext, name="highlighted", legendgroup="highlighted", showlegend=False,
            marker=dict(size=size + 5, opacity=1.0, color=list(point_colours[rows]),
                        line=dict(width=1, color="#222222")),
        ))  # its points keep their labels' colours; the legend's swatch is its own, not the first paper's colour
        fig.add_trace(legend_entry("highlighted", "#ffffff", legendrank=-1, legendgroup="highlighted",
                                   line=dict(width=1.5, color="#222222")))
    if marked is not None and np.asarray(marked, dtype=bool).any():
        _add_marked_trace(fig, coords, np.asarray(marked, dtype=bool), hovertext, size)
    if query_points is not None and len(query_points):
        _add_query_trace(fig, np.asarray(query_points, dtype=np.float32), query_labels)
    for text, (x, y) in (cluster_labels or {}).items():
        fig.add_annotation(x=x, y=y, text=html.escape(short(text, 60), quote=False), showarrow=False,
                           font=dict(size=12, color="#111111"), bgcolor="rgba(255,255,255,0.7)")
    _map_layout(fig, title)
    fig.update_layout(meta={"drawn": n, "total": n})
    return fig


def sample_rows(keep: np.ndarray, size: int, seed: int = 0) -> np.ndarray:
    """Sorted row positions of a seeded sample of `size` rows that includes every row where `keep` is set."""
    kept = np.flatnonzero(keep)
    rest = np.flatnonzero(~keep)
    extra = max(0, size - len(kept))
    chosen = np.random.default_rng(seed).choice(rest, size=min(extra, len(rest)), replace=False)
    return np.sort(np.concatenate([kept, chosen]))


def _add_marked_trace(fig: go.Figure, coords: np.ndarray, marked: np.ndarray, hovertext: np.ndarray,
                      size: float) -> None:
    """Ring the marked papers (new since the map was fitted) with a dark open circle over their own markers."""
    if marked.shape != (len(coords),):
        raise MireadError(f"marked mask has {marked.size} values for {len(coords)} map points")
    fig.add_trace(_scatter(coords, np.flatnonzero(marked), hovertext, name="new since the map was fitted",
                           legendrank=-1, marker=dict(symbol="circle-open", size=size + 6, color="#111111",
                                                      line=dict(width=1.5, color="#111111"))))


def _add_query_trace(fig: go.Figure, points: np.ndarray, labels: Sequence[str] | None) -> None:
    """Add star markers for query papers, labelled 'your paper' unless labels are given."""
    points = np.atleast_2d(points)
    if points.shape[1] != 2:
        raise MireadError(f"query points must have shape [papers, 2], got {points.shape}")
    names = list(labels) if labels is not None else ["your paper"] * len(points)
    if len(names) != len(points):
        raise MireadError(f"got {len(names)} query labels for {len(points)} query points")
    text = [html.escape(short(t, 60), quote=False) for t in names]
    fig.add_trace(go.Scattergl(
        x=points[:, 0], y=points[:, 1], mode="markers+text", name="your paper", legendrank=-2,
        text=text, textposition="top center", hovertext=text, hoverinfo="text",
        customdata=np.full(len(points), -1),
        marker=dict(symbol="star", size=18, color=QUERY_COLOUR, line=dict(width=1, color="#222222")),
    ))


def selected_rows(selection: Any) -> np.ndarray:
    """Return the sorted corpus row indices in a st.plotly_chart selection (query points dropped)."""
    points = selection.get("points", []) if hasattr(selection, "get") else []
    rows = set()
    for point in points:
        value = point.get("customdata")
        if isinstance(value, (list, tuple)):
            value = value[0] if value else None
        if value is not None and int(value) >= 0:
            rows.add(int(value))
    return np.array(sorted(rows), dtype=np.int64)


def add_citation_lines(fig: go.Figure, coords: np.ndarray, row: int, citations: dict) -> go.Figure:
    """Lines from a paper to its references (solid) and from the papers citing it (dotted) on a map figure."""
    coords = np.asarray(coords, dtype=np.float32)
    x0, y0 = (float(v) for v in coords[row])
    for rows, name, dash in (([r["row"] for r in citations["references"]], "references", "solid"),
                             ([r["row"] for r in citations["cited_by"]], "cited by", "dot")):
        if not rows:
            continue
        xs: list[float | None] = []
        ys: list[float | None] = []
        for r in rows:
            xs += [x0, float(coords[r, 0]), None]
            ys += [y0, float(coords[r, 1]), None]
        fig.add_trace(go.Scattergl(x=xs, y=ys, mode="lines", name=f"{name} ({len(rows)})", hoverinfo="skip",
                                   line=dict(color="#222222", width=1, dash=dash), opacity=0.6))
    return fig

