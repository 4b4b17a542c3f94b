"""Time on the map: a play button and a slider that move a window of years over a fixed map, in the browser;
and the topics-over-time chart under it.

The map's own traces stay put and are faded; one overlay trace per year holds that year's papers (in their map
colours) and each animation frame only switches which overlay traces are visible. A frame therefore carries a few
booleans, not coordinates, and Plotly.animate never re-sends the points. On large maps the faded papers are one
picture under the plot (core.plots.picture) rather than WebGL traces, so a frame recomputes and draws only the papers
in front, not the whole map (BENCHMARKS.md, section 14).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from core.errors import MireadError
from core.plots.maps import is_legend_entry, legend_entry
from core.plots.picture import points_picture
from core.plots.style import HIGHLIGHT_COLOUR, OTHER_COLOUR, PALETTE, TEMPLATE

OVERLAY = "years"  # legendgroup of the overlay traces (one per year)
FADED_OPACITY = 0.12
MAX_WIDTH = 50
PICTURE_OPACITY = 0.2  # as dark as the faded WebGL markers look once the picture is scaled to the plot
PICTURE_SCALE = 1.5  # picture pixels per screen pixel on a ~1300-px-wide map (core.plots.picture.WIDTH)


def year_windows(bounds: tuple[int, int], width: int | None) -> list[tuple[int, int]]:
    """The animation's windows, one year apart: ``width`` years wide, or cumulative from the first year (None)."""
    first, last = int(bounds[0]), int(bounds[1])
    if first > last:
        raise MireadError(f"the first year {first} is after the last year {last}")
    if width is None:
        return [(first, end) for end in range(first, last + 1)]
    if not 1 <= int(width) <= MAX_WIDTH:
        raise MireadError(f"the window must be 1 to {MAX_WIDTH} years wide, not {width}")
    width = min(int(width), last - first + 1)
    return [(start, start + width - 1) for start in range(first, last - width + 2)]


def windows_with_papers(windows: list[tuple[int, int]], years: Sequence[int],
                        cumulative: bool) -> list[tuple[int, int]]:
    """The windows worth a frame: those holding a paper's year; cumulative, those that add a year with papers (a
    window adding none shows the same papers as the one before). Play never steps through empty years."""
    present = sorted({int(y) for y in years})
    if cumulative:
        return [w for w in windows if w[1] in present]
    return [w for w in windows if any(w[0] <= y <= w[1] for y in present)]


def window_label(window: tuple[int, int]) -> str:
    """A window as the slider shows it: '2003' or '2001–2003'."""
    return str(window[0]) if window[0] == window[1] else f"{window[0]}–{window[1]}"


def _faded(trace) -> bool:
    """Whether a map trace is one of the papers' traces that the animation fades (not the ★ query points)."""
    return (trace.type == "scattergl" and trace.mode == "markers" and trace.name != "your paper"
            and not is_legend_entry(trace))


def _legend_in_full_colour(fig: go.Figure) -> None:
    """Each faded trace hands its legend entry to a full-colour one (core.plots.maps.legend_entry) of the same group: a
    faded swatch would read as a group that is not shown, even when all its papers are in front."""
    for trace in list(fig.data):
        if _faded(trace) and trace.showlegend is not False and isinstance(trace.marker.color, str):
            group = trace.legendgroup or f"map: {trace.name}"
            trace.update(legendgroup=group, showlegend=False)
            fig.add_trace(legend_entry(trace.name, trace.marker.color, legendgroup=group,
                                       legendrank=1000 if trace.legendrank is None else trace.legendrank))


def _drawn_rows(fig: go.Figure) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The corpus rows the map draws, each one's colour (from its trace) and hover card, and the marker size."""
    rows: list[np.ndarray] = []
    colours: list[np.ndarray] = []
    cards: list[np.ndarray] = []
    size = 3.0
    for trace in fig.data:
        ids = np.asarray(trace.customdata if trace.customdata is not None else [], dtype=np.int64).ravel()
        keep = ids >= 0
        if not keep.any() or trace.type != "scattergl" or trace.mode != "markers":
            continue
        colour = trace.marker.color
        if isinstance(colour, str):
            each = np.full(len(ids), colour, dtype=object)
        elif colour is not None and trace.marker.colorscale is None and len(colour) == len(ids):
            each = np.asarray(colour, dtype=object)
        else:
            each = np.full(len(ids), HIGHLIGHT_COLOUR, dtype=object)
        text = np.asarray(trace.hovertext if trace.hovertext is not None else [""] * len(ids), dtype=object)
        rows.append(ids[keep])
        colours.append(each[keep])
        cards.append(text[keep] if len(text) == len(ids) else np.full(int(keep.sum()), "", dtype=object))
        if trace.name != "highlighted" and trace.marker.size is not None:
            size = float(trace.marker.size)
    if not rows:
        return np.array([], dtype=np.int64), np.array([], dtype=object), np.array([], dtype=object), size
    all_rows = np.concatenate(rows)
    first = np.unique(all_rows, return_index=True)[1]  # a row drawn twice (base and highlighted) counts once
    return all_rows[first], np.concatenate(colours)[first], np.concatenate(cards)[first], size


def _fade_into_picture(fig: go.Figure, coords: np.ndarray, rows: np.ndarray, colours: np.ndarray, size: float) -> None:
    """Draw the faded papers once as a picture under the plot and empty their traces (each keeps one blank point,
    so its legend entry stays; clicking one would hide nothing, so legend clicks are off); the axes keep the
    picture's range so the map does not move while the overlays change."""
    picture = points_picture(coords[rows], colours, PICTURE_OPACITY, radius=max(1.0, size / 2 * PICTURE_SCALE))
    for trace in fig.data:
        if _faded(trace):
            trace.update(x=[None], y=[None], customdata=[-1], hovertext=[""])
    fig.add_layout_image(picture.layout_image())
    fig.update_layout(legend=dict(itemclick=False, itemdoubleclick=False))
    fig.update_xaxes(range=list(picture.x), autorange=False)
    fig.update_yaxes(range=list(picture.y), autorange=False)


def add_year_animation(
    fig: go.Figure, coords: np.ndarray, years: Sequence[float], *, width: int | None = 1, frame_ms: int = 600,
    start: tuple[int, int] | None = None, picture: bool = False,
) -> go.Figure:
    """Add a play/pause button and a year slider to a map figure (core.plots.maps.map_figure) of these papers.

    ``years``: each corpus row's year (NaN: none; never shown in front). ``width``: the window in years, or None for
    a cumulative view. The map's traces are faded; frame i shows the overlay traces of the years in window i.
    ``start``: the window shown before play (default: the first). ``picture``: draw the faded papers as a picture
    and give the overlays the hover cards (large maps; Settings.map_picture_above). ``layout.meta['windows']``
    lists the windows.
    """
    coords = np.asarray(coords, dtype=np.float32)
    values = np.asarray(years, dtype=float)
    if values.shape != (len(coords),):
        raise MireadError(f"got {values.size} years for {len(coords)} map points")
    known = values[np.isfinite(values)]
    if known.size == 0:
        raise MireadError("no paper has a year, so there is nothing to play through")
    rows, colours, cards, size = _drawn_rows(fig)
    row_years = values[rows]
    present = sorted({int(y) for y in row_years[np.isfinite(row_years)]})
    windows = year_windows((int(known.min()), int(known.max())), width)
    windows = windows_with_papers(windows, present, cumulative=width is None) or windows
    picture = picture and len(rows) > 0
    if picture:
        _fade_into_picture(fig, coords, rows, colours, size)
    for trace in fig.data:
        if _faded(trace):
            trace.marker.opacity = FADED_OPACITY
    _legend_in_full_colour(fig)
    shown = start if start is not None else windows[0]
    first_overlay = len(fig.data)
    for year in present:
        part = np.flatnonzero(row_years == year)
        at = rows[part]
        fig.add_trace(go.Scattergl(
            x=coords[at, 0], y=coords[at, 1], mode="markers", customdata=at, name=str(year), legendgroup=OVERLAY,
            showlegend=False, visible=bool(shown[0] <= year <= shown[1]),
            **(dict(hovertext=list(cards[part]), hoverinfo="text") if picture else dict(hoverinfo="skip")),
            marker=dict(size=size + 2, opacity=0.95, color=list(colours[part])),
        ))
    overlay = list(range(first_overlay, len(fig.data)))
    names = [window_label(w) for w in windows]
    fig.frames = [go.Frame(name=name, traces=overlay,
                           data=[go.Scattergl(visible=bool(w[0] <= y <= w[1])) for y in present])
                  for name, w in zip(names, windows)]
    play = dict(frame=dict(duration=int(frame_ms), redraw=True), transition=dict(duration=0), fromcurrent=True,
                mode="immediate")
    still = dict(frame=dict(duration=0, redraw=True), transition=dict(duration=0), mode="immediate")
    active = windows.index(shown) if shown in windows else 0
    fig.update_layout(
        updatemenus=[dict(type="buttons", direction="left", showactive=False, x=0, y=1.0, xanchor="left",
                          yanchor="bottom", pad=dict(t=0, r=6, b=4), buttons=[
                              dict(label="▶ Play", method="animate", args=[None, play]),
                              dict(label="❚❚ Pause", method="animate",
                                   args=[[None], dict(still, frame=dict(duration=0, redraw=False))]),
                          ])],
        sliders=[dict(active=active, x=0.2, len=0.8, y=1.0, xanchor="left", yanchor="bottom", pad=dict(t=0, b=4),
                      currentvalue=dict(prefix="Years ", font=dict(size=12), xanchor="right"),
                      font=dict(size=10), ticklen=3, minorticklen=0,
                      steps=[dict(label=name, method="animate", args=[[name], still]) for name in names])],
        margin=dict(t=90),
        meta={**(fig.layout.meta or {}), "windows": [list(w) for w in windows], "overlay": overlay,
              "picture": bool(picture)},
    )
    return fig


def overlay_visible_rows(fig: go.Figure, window: tuple[int, int]) -> np.ndarray:
    """The corpus rows a frame draws in front (the union of its visible overlay traces), for tests."""
    names = [window_label(tuple(w)) for w in fig.layout.meta["windows"]]
    frame = fig.frames[names.index(window_label(window))]
    traces = [fig.data[i] for i in frame.traces]
    shown = [np.asarray(t.customdata) for t, f in zip(traces, frame.data) if f.visible]
    return np.sort(np.concatenate(shown)) if shown else np.array([], dtype=np.int64)


def topics_over_time_figure(table: pd.DataFrame, group_name: str = "") -> go.Figure:
    """Stacked bars of papers per year per group (core.explore.timeline.papers_per_year), 'other' grey on top."""
    fig = go.Figure()
    for rank, group in enumerate(table.columns):
        colour = OTHER_COLOUR if group == "other" else PALETTE[rank % len(PALETTE)]
        name = html.escape(str(group)[:60], quote=False)
        fig.add_trace(go.Bar(x=table.index.tolist(), y=table[group].tolist(), name=name, marker_color=colour,
                             hovertemplate=f"{name}<br>%{{x}}: %{{y}} papers<extra></extra>"))
    fig.update_layout(
        template=TEMPLATE, barmode="stack", height=320, bargap=0.1, margin=dict(l=10, r=10, t=30, b=10),
        title=dict(text=f"Papers per year by {html.escape(group_name, quote=False)}" if group_name else None,
                   font=dict(size=14)),
        xaxis=dict(title=None, dtick=1 if len(table) <= 15 else None), yaxis=dict(title="papers"),
        legend=dict(orientation="h", x=0, y=-0.12, xanchor="left", yanchor="top", font=dict(size=11)),
    )
    return fig
