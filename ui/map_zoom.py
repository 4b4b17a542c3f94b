"""The map's zoom window: kept in the session and the shared URL (the browser reports it: ui/map_events.py), and set
by "fly to". The window is applied to the figure when the chart is drawn again (a reload, a shared link) and when
"fly to" moves it, which also changes the figure's `uirevision` so Plotly takes the new window instead of the user's;
a flight asks for a run of the whole page (the figure's window changes), not only of the side fragment.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from ui.views import Zoom

ZOOM = "map_zoom"  # the visible window (x0, x1, y0, y1) or None for the whole map
FLIGHTS = "map_flights"  # how many times "fly to" moved the window (part of the figure's uirevision)
FLY = "map_fly_pending"  # a flight the chart has not drawn yet: the side fragment reruns the whole page
CHART_KEY = "corpus_map"


def current_zoom() -> Zoom | None:
    """The window kept for the map (None: the whole map)."""
    zoom = st.session_state.get(ZOOM)
    return tuple(zoom) if zoom else None  # type: ignore[return-value]


def fly_to(coords: np.ndarray, row: int, share: float = 0.12) -> None:
    """Zoom the map onto one paper: a window `share` of the map's extent wide on each side of it."""
    span = np.ptp(coords, axis=0).astype(float)
    span[span == 0] = 1.0
    x, y = (float(v) for v in coords[row])
    dx, dy = share * span
    st.session_state[ZOOM] = (x - dx, x + dx, y - dy, y + dy)
    st.session_state[FLIGHTS] = st.session_state.get(FLIGHTS, 0) + 1
    st.session_state[FLY] = True


def apply_zoom(fig: go.Figure) -> go.Figure:
    """Draw the figure in the kept window; a new flight makes Plotly take it over the user's own zoom."""
    zoom = current_zoom()
    st.session_state.pop(FLY, None)  # drawn now
    fig.update_layout(uirevision=f"map-{st.session_state.get(FLIGHTS, 0)}")
    if zoom is not None:
        fig.update_xaxes(range=[zoom[0], zoom[1]], autorange=False)
        fig.update_yaxes(range=[zoom[2], zoom[3]], autorange=False)
    return fig
