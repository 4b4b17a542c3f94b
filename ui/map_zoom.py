"""The map's zoom window: kept in the session and the shared URL, read from the browser, and set by "fly to".

Plotly's zoom happens in the browser and `st.plotly_chart` reports selections, not zooms, so a small
`st.components.v2` component (trusted inline JS, no user data in it) listens to the map's `plotly_relayout` events
and reports the visible window; it runs in a fragment, so a zoom updates the session and the address bar without
rerunning the page. It also reports a click on a paper (`plotly_click`): with the lasso as the drag mode, Plotly
selects nothing on a plain click, so the chart's own selection never sees it. The window is applied to the figure
when the chart is drawn again (a reload, a shared link, the side panel opening) and when "fly to" moves it, which
also changes the figure's `uirevision` so Plotly takes the new window instead of keeping the user's.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from ui.views import Zoom, parse_zoom, zoom_text

ZOOM = "map_zoom"  # the visible window (x0, x1, y0, y1) or None for the whole map
FLIGHTS = "map_flights"  # how many times "fly to" moved the window (part of the figure's uirevision)
CHART_KEY = "corpus_map"

_JS = """
export default function (component) {
    const { data, setStateValue, setTriggerValue } = component;
    let timer = null;
    const send = (value) => {
        clearTimeout(timer);
        timer = setTimeout(() => setStateValue("zoom", value), 250);
    };
    const attach = () => {
        const plot = document.querySelector(`.st-key-${data.chart} .js-plotly-plot`);
        if (!plot || typeof plot.on !== "function" || plot.__mireadZoom) return;
        plot.__mireadZoom = true;
        plot.on("plotly_relayout", (event) => {
            if (event["xaxis.autorange"] || event["yaxis.autorange"]) { send(""); return; }
            const x = plot.layout.xaxis && plot.layout.xaxis.range;
            const y = plot.layout.yaxis && plot.layout.yaxis.range;
            if (!x || !y || !("xaxis.range[0]" in event || "xaxis.range" in event || "yaxis.range[0]" in event)) return;
            send([x[0], x[1], y[0], y[1]].map(Number).join(","));
        });
        plot.on("plotly_click", (event) => {
            const point = event && event.points && event.points[0];
            if (!point) return;
            const row = Array.isArray(point.customdata) ? point.customdata[0] : point.customdata;
            if (row !== undefined && Number(row) >= 0) setTriggerValue("clicked", Number(row));
        });
    };
    attach();
    const poll = setInterval(attach, 400);
    return () => { clearInterval(poll); clearTimeout(timer); };
}
"""
_watcher = st.components.v2.component("miread_map_events", js=_JS)


def current_zoom() -> Zoom | None:
    """The window kept for the map (None: the whole map)."""
    zoom = st.session_state.get(ZOOM)
    return tuple(zoom) if zoom else None  # type: ignore[return-value]


@st.fragment
def watch_zoom(on_click: Callable[[int], None] | None = None) -> None:
    """Follow the user's zooming in the browser (each new window goes into the session and the address bar) and
    their clicks on papers (`on_click(row)`, then the whole page runs again)."""
    result = _watcher(key="map_zoom_watcher", data={"chart": CHART_KEY}, default={"zoom": None},
                      on_zoom_change=lambda: None, on_clicked_change=lambda: None, height=0)
    clicked = getattr(result, "clicked", None)
    if clicked is not None and on_click is not None:
        on_click(int(clicked))
        st.rerun(scope="app")
    reported = getattr(result, "zoom", None)
    if reported is None:
        return
    zoom = parse_zoom(reported) if reported else None
    if zoom == current_zoom():
        return
    st.session_state[ZOOM] = zoom
    if zoom is None:
        st.query_params.pop("zoom", None)
    else:
        st.query_params["zoom"] = zoom_text(zoom)


def fly_to(coords: np.ndarray, row: int, share: float = 0.12) -> None:
    """Zoom the map onto one paper: a window `share` of the map's extent wide on each side of it."""
    span = np.ptp(coords, axis=0).astype(float)
    span[span == 0] = 1.0
    x, y = (float(v) for v in coords[row])
    dx, dy = share * span
    st.session_state[ZOOM] = (x - dx, x + dx, y - dy, y + dy)
    st.session_state[FLIGHTS] = st.session_state.get(FLIGHTS, 0) + 1


def apply_zoom(fig: go.Figure) -> go.Figure:
    """Draw the figure in the kept window; a new flight makes Plotly take it over the user's own zoom."""
    zoom = current_zoom()
    fig.update_layout(uirevision=f"map-{st.session_state.get(FLIGHTS, 0)}")
    if zoom is not None:
        fig.update_xaxes(range=[zoom[0], zoom[1]], autorange=False)
        fig.update_yaxes(range=[zoom[2], zoom[3]], autorange=False)
    return fig
