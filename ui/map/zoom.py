"""The map's zoom window: kept in the session and the shared URL (the browser reports it: ui/map/component.py
`watch_zoom`), and set by "fly to", which bumps a flight counter the map component flies on."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from ui.views import Zoom

ZOOM = "map_zoom"  # the visible window (x0, x1, y0, y1) or None for the whole map
FLIGHTS = "map_flights"  # how many times "fly to" moved the window (part of the figure's uirevision)
FLY = "map_fly_pending"  # a flight the chart has not drawn yet: the side fragment reruns the whole page


@dataclass(frozen=True)
class ZoomReport:
    """A window the browser reported: the map it was made on, its box ("" the whole map; text as sent) and the
    last flight the browser had flown when the view was made (None: not said)."""

    made_on: str
    box: str
    flight: int | None


def read_report(reported: str) -> ZoomReport:
    """Parse "MAP|x0,x1,y0,y1|FLIGHT" (ui/map frontend `zoomReport`); the map's own name may hold "|"."""
    head, _, flight = str(reported).rpartition("|")
    made_on, _, box = head.rpartition("|")
    return ZoomReport(made_on, box, int(flight) if flight.isdigit() else None)


def superseded(report: ZoomReport, flights: int) -> bool:
    """Whether a flight asked for since the report's view was made (`flights`: the session's count; Find, a map
    switch) supersedes it: a pan or Whole map reported just before Find, reaching a busy server after it, must not
    undo Find's zoom."""
    return report.flight is not None and report.flight < flights


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


def map_name(corpus: str, model: str, method: str, params: dict) -> str:
    """Which map is drawn: its corpus, model, method and parameters (rows index the same papers and places)."""
    return repr((corpus, model, method, sorted(params.items())))


ZOOMS = "map_zooms"  # each map's last window, {map: window}: a zoom belongs to the map it was made on
ZOOM_OF = "map_zoom_of"  # the map the kept window belongs to


def zoom_belongs_to(view: str, first: str | None = None) -> None:
    """Keep the window per map (`view`: corpus, model, method and parameters): on another map the window is put
    aside and that map's own window (or the whole map) comes back; coming back restores this one. `first`: the map
    a window already here (a shared link's) belongs to when no map was shown yet (default `view`): a link's window
    is its map's, not the PCA preview's shown while that map is computed."""
    zooms = st.session_state.setdefault(ZOOMS, {})
    was = st.session_state.get(ZOOM_OF, first or view)
    if was != view:
        zooms[was] = st.session_state.get(ZOOM)
        st.session_state[ZOOM] = zooms.pop(view, None)
        st.session_state[FLIGHTS] = st.session_state.get(FLIGHTS, 0) + 1  # the map flies to it
    st.session_state[ZOOM_OF] = view


def link_zoom(view: str) -> Zoom | None:
    """The window a shared link carries for the map `view` names: that map's own window, never one zoomed on the
    PCA preview shown while `view` is computed (in the preview's coordinates). A window put aside for `view` (a
    link's, opened while its map is computed) stays in the link."""
    if st.session_state.get(ZOOM_OF, view) == view:
        return current_zoom()
    kept = st.session_state.get(ZOOMS, {}).get(view)
    return tuple(kept) if kept else None  # type: ignore[return-value]
