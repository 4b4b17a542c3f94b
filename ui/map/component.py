"""The Domain map as a Streamlit components-v2 element drawn by regl-scatterplot (WebGL) in the browser.

Data contract (../shared/MAP.md §5):
- `show_map`: the heavy instance, keyed, outside every fragment. Its `data` — positions in [-1, 1] (float32) and
  each paper's year — depends only on the corpus version and the map, so a page run with the same map sends a
  355-byte reference (ForwardMsg cache), never the points again. The hover-card text (title, first author, journal)
  goes in a second instance of the bundle that `push_state` mounts after the state (`role: text`): an open draws
  the points without waiting for it (BENCHMARKS §31u).
- `push_state`: a light instance (tiny inline JS) with what a page run changes: a colour code per paper (uint8), the
  palette and legend, the highlight as a bitmask (1 bit a paper), the year window and play, topic labels, citation
  lines, rings on new papers. It hands them to the heavy instance through a page-level registry.
- `map_events`: a light instance inside the side fragment: the open paper's star, a flight, a selection pushed from
  Python; the clicks and lasso/box selections come back through it, so they rerun only that fragment.
- `watch_zoom`: a light instance in its own fragment: the visible window (debounced) into the session and the URL.
- `ui/map/colours.py`: a light instance with the codes, palette and legend of every colour option the browser can
  know (label columns, year, none), sent once per map: the map draws a choice in the Colour by box at once.
The bundle (ui/map/static/map_component.js) is built from frontend/map by `make frontend`; text from data is only ever
set with textContent / fillText in the browser.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import streamlit as st

from core.explore.maps.density import rows_in_polygon
from core.plots.map_data import UnitFrame, unit_frame
from ui.map.kept_points import keep_points, read_points
from ui.map.overview import OVERVIEW, Overview, is_overview, view_window
from ui.map.packing import pack, stream
from ui.map.points import map_key, points_table
from ui.map.served import ServedComponent
from ui.map.zoom import FLIGHTS, ZOOM, current_zoom, link_zoom, read_report, superseded
from ui.resources import settings
from ui.views import parse_zoom, zoom_text

BUNDLE = Path(__file__).with_name("static") / "map_component.js"
HUB = "map"  # the registry entry the instances of the Domain map share
DRAWN = "map_drawn_versions"  # {hub: the map version its heavy instance draws}: the state names the map it is for
CANVAS_KEY = "corpus_map"

_CONTROL_JS = """
export default function (component) {
    const { data, parentElement, setStateValue, setTriggerValue } = component;
    const me = parentElement.__miread || (parentElement.__miread = {});
    Object.assign(me, { setStateValue, setTriggerValue, alive: () => parentElement.isConnected });
    const all = window.__mireadMaps = window.__mireadMaps || {};
    const entry = all[data.hub] = all[data.hub] || { map: null, state: null, listeners: {} };
    entry.parts = entry.parts || {};
    if (data.role) entry.listeners[data.role] = me;
    const flight = data.state && data.state.flight;
    if (data.role === 'events' && typeof flight === 'number') {  // a flight (Find, Similar): the map into view, as
        const seen = me.flight;  // on a phone, where Find lies under the map and the flight would happen out of sight
        me.flight = flight;
        const wrap = entry.map && entry.map.wrap;
        if (seen !== undefined && flight > seen && wrap) {
            const r = wrap.getBoundingClientRect();
            if (r.top < 0 || r.bottom > window.innerHeight) wrap.scrollIntoView({block: 'center'});
        }
    }
    if (data.part) {
        entry.parts[data.role] = data;
        const page = entry.parts.page || {}, state = {};
        const current = page.state && page.state.map;  // the map the page draws now
        for (const part of Object.values(entry.parts)) {
            const made = part.state && part.state.map;
            if (current && made && made !== current) continue;  // a part of the map before (another corpus's)
            Object.assign(state, part.state || {});
        }
        const events = entry.parts.events || {};  // a large kept selection: one bit a paper (ui/map/component.py)
        const select = current && events.state && events.state.map && events.state.map !== current ? null
            : events.select;
        entry.state = { state, codes: page.codes, mask: page.mask, rings: page.rings, select };
        if (entry.map) entry.map.apply(entry.state);
    }
}
"""
_control = st.components.v2.component("miread_map_control", js=_CONTROL_JS)


WINDOWS = "map_drawn_windows"  # {hub: DrawnWindow}: the window a density overview draws (absent: every paper)


@dataclass(frozen=True)
class DrawnWindow:
    """The papers a density overview draws: the heavy instance's key, the corpus's paper count, their rows."""

    key: str
    total: int
    rows: np.ndarray

    def local(self, codes: np.ndarray | None, bits: np.ndarray | None) -> tuple[np.ndarray | None, np.ndarray | None]:
        """A code per paper and a highlight bitmask of the corpus, cut to the drawn papers in the window's order."""
        if codes is not None and len(codes) == self.total:
            codes = np.asarray(codes)[self.rows]
        if bits is not None and len(bits) == (self.total + 7) // 8:
            bits = np.packbits(np.unpackbits(np.asarray(bits, dtype=np.uint8), count=self.total)[self.rows])
        return codes, bits


def drawn_window(hub: str = HUB) -> DrawnWindow | None:
    """The window a density overview of `hub` draws (None: every paper is drawn)."""
    return st.session_state.get(WINDOWS, {}).get(hub)


_served = ServedComponent("miread.miread_map", BUNDLE)


def _bundle() -> Any:
    """The heavy component: its script (~490 KB) served by path, one load per page for all its instances, not
    inline in each instance's element (ui/map/served.py, BENCHMARKS §31aa)."""
    return _served


GEOMETRY = ("x", "y", "yearnum")  # what the points' first draw needs; the rest is the hover card's text
TEXTS = "map_hover_texts"  # {hub: (map version, its hover text table)}: sent after the page's state (push_state)


@st.cache_resource(max_entries=4, show_spinner=False)
def _points(key: str, corpus: str, _coords: np.ndarray, _frame: pd.DataFrame) -> tuple[bytes, bytes, UnitFrame]:
    """The heavy instance's data, cached by map key (built once per corpus version and map): the points (x, y, the
    year number) and the hover card's text (title, author, journal; Compare's note), one row per paper each, as
    Arrow IPC streams. Kept in the workspace (ui/map/kept_points.py): a fresh server reads them, not 1M papers'
    text again (BENCHMARKS §31z)."""
    unit = unit_frame(_coords)
    kept = read_points(corpus, key)
    if kept is None:
        table = pa.Table.from_pandas(points_table(_coords, _frame, unit), preserve_index=False)
        geometry = [c for c in table.column_names if c in GEOMETRY]
        kept = (stream(table.select(geometry)), stream(table.drop_columns(geometry)))
        keep_points(corpus, key, kept)
    return kept[0], kept[1], unit


def show_map(corpus: str, coords: np.ndarray, frame: pd.DataFrame, *, hub: str = HUB, key: str = CANVAS_KEY,
             link: list[str] | None = None, height: int | None = None, zoom: bool = True) -> UnitFrame:
    """Mount the heavy instance (outside fragments) and return the frame that maps coordinates into its space.
    `link`: the hubs of other maps of the same papers, where a paper hovered here is ringed too (in the browser only);
    `height`: the map's height in pixels (default: most of the window); `zoom`: whether a `watch_zoom` listens (a map
    without one keeps its zoom in the browser and reports nothing)."""
    version = map_key(corpus, coords, frame)
    st.session_state.setdefault(DRAWN, {})[hub] = version
    extra: dict[str, Any] = {}
    if is_overview(len(coords)):
        table, unit, extra = _overview(version, coords, frame, current_zoom() if zoom else None, hub)
        n = table.num_rows
    else:
        table, text, unit = _points(version, corpus, coords, frame)
        n = len(coords)
        st.session_state.get(WINDOWS, {}).pop(hub, None)  # every paper drawn: codes go one per paper
        # the hover text (~58 MB at 1M papers: 80 % of the points' data) goes after the page's state, so the first
        # draw does not wait for it (BENCHMARKS §31u)
        st.session_state.setdefault(TEXTS, {})[hub] = (version, text)
    # state: a push_state for this hub follows on every page run (the Domain map, Compare): the browser draws the
    # points once, with its colours, instead of uncoloured first when the points come before it (BENCHMARKS §31s)
    meta: dict[str, Any] = {"key": version, "n": n, "hub": hub, "name": corpus,
                            "unit": [unit.cx, unit.cy, unit.half], "zoom": bool(zoom), "state": True}
    meta.update(extra.pop("meta", {}))
    raster = settings().map_raster
    if raster in ("cpu", "gl"):  # a hidden override (tests, benchmarks): points drawn on the CPU or with WebGL
        meta["raster"] = raster
    if link:
        meta["link"] = [str(h) for h in link]
    if height:
        meta["height"] = f"{int(height)}px"
    if extra:  # a density overview's window and grid (small, and new with each zoom), the text in its points
        st.session_state.get(TEXTS, {}).pop(hub, None)
        _bundle()(key=key, data={"points": table, "meta": meta, **extra}, height="content")
    else:  # every paper: bytes packed once per map and meta; later runs of this session send the meta alone
        _mount_once(f"{hub}/{key}", key, version, meta, table, height="content")
    return unit


SENT = "map_sent_data"  # {hub/instance key: the map version whose points (or text) this session sent it}


def _mount_once(mark: str, key: str, version: str, meta: dict[str, Any], table: pa.Table | bytes,
                **kwargs: Any) -> None:
    """Mount a heavy instance with its packed points (or text) the first time this session sends it this map version,
    with its meta alone (`kept`: a few hundred bytes) on later runs: Streamlit hashes the bytes for the element and
    the message again on every run (0.4-3.5 s at 1M papers, BENCHMARKS §31x) though the browser has them. A browser
    without them (its parked map let go, a new tab's element) asks again (`missing`): the mark is cleared and the
    rerun sends them."""
    sent = st.session_state.setdefault(SENT, {})
    if sent.get(mark) == version:
        data = pack({**meta, "kept": True}, None)
    else:
        data = _packed(version, json.dumps(meta, sort_keys=True), table)
        sent[mark] = version
    _bundle()(key=key, data=data, on_missing_change=lambda: _forget(mark), **kwargs)


def _forget(mark: str) -> None:
    """The browser lacks the data it was sent under `mark`: the next run sends it whole."""
    st.session_state.get(SENT, {}).pop(mark, None)


@st.cache_resource(max_entries=8, show_spinner=False)
def _packed(version: str, meta: str, _table: pa.Table | bytes) -> bytes:
    """The heavy instance's data for one map (`version`) and meta (or its hover text's), packed once
    (ui/map/packing.py)."""
    return pack(json.loads(meta), _table)


def _send_text(hub: str, key: str) -> None:
    """The hover card's text of the map `show_map` drew for `hub` in this run, as a second instance of the same
    bundle (`role: text`), mounted after the page's state: the browser draws the points with their colours first,
    and the text's ~58 MB (at 1M papers) come while it does. Packed once per map; a later run sends a reference."""
    version, text = st.session_state.get(TEXTS, {}).get(hub, (None, None))
    if version is None or version != st.session_state.get(DRAWN, {}).get(hub):
        return
    _mount_once(f"{hub}/{key}_text", f"{key}_text", version, {"key": version, "hub": hub, "role": "text"}, text,
                height=0)


@st.cache_resource(max_entries=4, show_spinner=False)
def _window_table(version: str, zoom: Any, _coords: np.ndarray, _frame: pd.DataFrame) -> tuple[pa.Table, UnitFrame,
                                                                                                  np.ndarray, Overview]:
    """The papers of one window of a density overview (with their rows in the corpus), cached per map and window,
    so a page run that did not zoom sends a reference only."""
    unit, grid, window = view_window(version, _coords, zoom)
    rows = window.rows
    table = points_table(_coords[rows], _frame.iloc[rows], unit)
    table["row"] = rows.astype(np.int32)
    overview = Overview(total=len(_coords), drawn=len(rows), inside=window.inside, whole=zoom is None)
    return pa.Table.from_pandas(table, preserve_index=False), unit, grid, overview


def _overview(version: str, coords: np.ndarray, frame: pd.DataFrame, zoom: Any,
              hub: str) -> tuple[pa.Table, UnitFrame, dict[str, Any]]:
    """A map above the draw limit: the density grid of the whole map plus the papers of the zoomed window. The key
    names the window too (the browser draws each new window); `base` names the map (its camera is kept)."""
    table, unit, grid, overview = _window_table(version, zoom, coords, frame)
    st.session_state.setdefault(OVERVIEW, {})[hub] = overview
    window = "whole" if zoom is None else ",".join(f"{v:.6g}" for v in zoom)
    st.session_state.setdefault(WINDOWS, {})[hub] = DrawnWindow(f"{version}@{window}", overview.total,
                                                                table.column("row").to_numpy())
    meta = {"key": f"{version}@{window}", "base": version, "total": overview.total,
            "overview": {"size": int(grid.shape[0]), "inside": overview.inside}}
    return table, unit, {"meta": meta, "density": grid.ravel()}


def push_state(state: dict, codes: np.ndarray | None, mask: np.ndarray | None, rings: np.ndarray | None, *,
               hub: str = HUB, key: str = "map_state") -> None:
    """The per-run state (small JSON, a uint8 code per paper, a highlight bitmask, ringed rows) for the heavy
    instance."""
    json.dumps(state)  # plain JSON or an error here: Streamlit would silently send its repr (../shared/MAP.md §1)
    drawn = st.session_state.get(DRAWN, {}).get(hub)
    if drawn:  # the map this state is for: the browser never applies one corpus's zoom or selection to another's
        state = {**state, "map": drawn}
    window = drawn_window(hub)
    if window is not None and codes is not None and len(codes) == window.total:
        # a density overview draws one window's papers: their codes and highlight bits only (200,000 bytes, not one
        # per paper of 10M), named by the window they belong to, so the browser never colours another window's
        # points with them
        (codes, mask), state = window.local(codes, mask), {**state, "window": window.key}
    data: dict[str, Any] = {"hub": hub, "role": "page", "part": True, "state": state}
    if codes is not None:
        data["codes"] = np.asarray(codes, dtype=np.uint8)
    if mask is not None:
        data["mask"] = np.asarray(mask, dtype=np.uint8)
    if rings is not None and len(rings):
        data["rings"] = np.asarray(rings, dtype=np.int32)
    _control(key=key, data=data, height=0)
    _send_text(hub, key)


def selection_view(figures: dict[str, str], *, hub: str = HUB) -> None:
    """The map's selection listed in the side column by the map bundle (`role: list`): it reads the selection and each
    paper's title, year, journal and first author from the map of `hub` in the browser, and redraws at once when a
    lasso changes it; `figures` holds the selected papers' visual summaries by row (those that have one)."""
    _bundle()(key=f"{hub}_list", data={"meta": {"role": "list", "hub": hub}, "figures": figures}, height="content")


@dataclass(frozen=True)
class MapEvents:
    """This run's news from the map: a clicked paper's row, a new selection (rows; [] when cleared)."""

    clicked: int | None = None
    selected: list[int] | None = None


SELECT_SENT = 200_000  # a kept selection larger than this is listed beside the map but not drawn selected again
SELECT_LISTED = "MIREAD_MAP_SELECT_LISTED"  # a kept selection up to this many rows (2,000) goes as a list of rows,
# a larger one as one bit a paper (the e2e tests set it low: their corpora have 30 papers)


def map_events(unit: UnitFrame, star: dict | None, selected: list[int] | None = None, *,
               hub: str = HUB, coords: np.ndarray | None = None) -> MapEvents:
    """Mount the side fragment's instance: it draws `star` ({x, y, row, label} in map coordinates) and the kept
    `selected` rows, flies to the kept zoom when a flight asks, and reports clicks and selections (a rerun of the
    fragment only). On a density overview a lasso or box comes as its polygon: every paper of `coords` inside it is
    selected, not only the drawn ones."""
    zoom = current_zoom()
    state: dict[str, Any] = {"flight": int(st.session_state.get(FLIGHTS, 0)),
                             "zoom": unit.box_to_unit(zoom) if zoom else None, "star": None}
    fresh = pending_selection(unit, "map_events", coords)
    if fresh is not None:  # this run brings a new selection: the map is sent it, not the one it replaces
        selected = fresh
    data: dict[str, Any] = {"hub": hub, "role": "events", "part": True, "state": state}
    # a row costs ~7 bytes as JSON, a paper one bit: 15,000 of 50,000 papers are 100 kB as a list, 6 kB as bits
    listed = int(os.environ.get(SELECT_LISTED) or 2_000)
    bits = selected and coords is not None and len(selected) > listed and len(coords) < 8 * 5 * len(selected)
    if selected and not bits and len(selected) <= SELECT_SENT:
        state["select"] = [int(r) for r in selected]
    elif bits:
        chosen = np.zeros(len(coords), dtype=bool)
        rows = np.asarray(selected, dtype=np.int64)
        chosen[rows[(rows >= 0) & (rows < len(coords))]] = True
        data["select"] = np.packbits(chosen)  # the first paper in the top bit, as the highlight's bits
    if st.session_state.get(DRAWN, {}).get(hub):  # the map this part is for (the page's part names it too)
        state["map"] = st.session_state[DRAWN][hub]
    if star is not None:
        x, y = unit.to_unit(np.array([[star["x"], star["y"]]]))[0]
        state["star"] = {"x": float(x), "y": float(y), "row": int(star["row"]), "label": str(star["label"])}
    result = _control(key="map_events", data=data,
                      on_clicked_change=lambda: None, on_selected_change=lambda: None, on_lasso_change=lambda: None,
                      height=0)
    clicked = getattr(result, "clicked", None)
    selected = getattr(result, "selected", None)
    lasso = getattr(result, "lasso", None)
    if lasso is not None and coords is not None:
        selected = lasso_rows(unit, coords, lasso)
    return MapEvents(clicked=None if clicked is None else int(clicked),
                     selected=None if selected is None else [int(r) for r in selected])


def pending_selection(unit: UnitFrame, key: str, coords: np.ndarray | None = None) -> list[int] | None:
    """The selection (rows) an instance's event brings to this run, read before the instance is mounted again (None:
    no new selection). Its state must carry this selection: the kept one would select the old papers again."""
    try:
        events = st.session_state.get(key)
    except Exception:  # noqa: BLE001 - no value yet (a first run), or a state Streamlit will not present
        return None
    if not isinstance(events, dict):
        return None
    lasso, selected = events.get("lasso"), events.get("selected")
    if lasso is not None and coords is not None:
        return lasso_rows(unit, coords, lasso)
    return None if selected is None else [int(r) for r in selected]


def pending_click(key: str) -> int | None:
    """The row an instance's click brings to this run, read before the instance is mounted again (None: no click).
    The side fragment opens it first, so the star it sends is the clicked paper's, not the one open before."""
    try:
        events = st.session_state.get(key)
    except Exception:  # noqa: BLE001 - no value yet (a first run), or a state Streamlit will not present
        return None
    clicked = events.get("clicked") if isinstance(events, dict) else None
    return None if clicked is None else int(clicked)


def lasso_rows(unit: UnitFrame, coords: np.ndarray, polygon: list[float]) -> list[int]:
    """The rows of every paper inside a lasso's polygon (flat x, y pairs in the map's [-1, 1] frame)."""
    return rows_in_polygon(unit.to_unit(coords), np.asarray(polygon, dtype=np.float64)).tolist()


def linked_events(hub: str, key: str) -> MapEvents:
    """Mount a listener for one map's clicks and lasso/box selections outside any fragment (a page run each): the
    Compare page, whose two maps share one selection."""
    result = _control(key=key, data={"hub": hub, "role": "events"}, on_clicked_change=lambda: None,
                      on_selected_change=lambda: None, height=0)
    clicked = getattr(result, "clicked", None)
    selected = getattr(result, "selected", None)
    return MapEvents(clicked=None if clicked is None else int(clicked),
                     selected=None if selected is None else [int(r) for r in selected])


@st.fragment
def watch_zoom(unit: UnitFrame, hub: str = HUB, reload: bool = False, view: str | None = None) -> None:
    """The visible window, alone in its own fragment: each zoom goes into the session and the address bar without
    rerunning anything else (`reload`: a density overview, whose page run then sends the new window's papers;
    `view`: the map the link names, whose window alone goes into the address bar, not a preview's)."""
    result = _control(key="map_zoom_events", data={"hub": hub, "role": "zoom"}, default={"zoom": None},
                      on_zoom_change=lambda: None, height=0)
    reported = getattr(result, "zoom", None)
    if reported is None:
        return
    report = read_report(reported)
    if report.made_on and report.made_on != st.session_state.get(DRAWN, {}).get(hub):
        return  # the last report of another map (the corpus before): kept by the listener across runs, not this one's
    if superseded(report, int(st.session_state.get(FLIGHTS, 0))):
        return  # made before the latest flight: the map flies (or has flown) to that flight's window
    box = parse_zoom(report.box) if report.box else None
    zoom = None if box is None else tuple(round(v, 6) for v in unit.box_to_data(box))
    if zoom == current_zoom():
        return
    st.session_state[ZOOM] = zoom
    linked = zoom if view is None else link_zoom(view)
    if linked is None:
        st.query_params.pop("zoom", None)
    else:
        st.query_params["zoom"] = zoom_text(linked)
    if reload:
        st.rerun(scope="app")


def standalone_html(corpus: str, coords: np.ndarray, frame: pd.DataFrame, state: dict, codes: np.ndarray | None,
                    mask: np.ndarray | None, unit: UnitFrame | None = None) -> str:
    """The map as one HTML file: the same bundle, the data inlined as JSON (no network, no CDN). `unit`: the frame
    of the whole map when `coords` are some of its papers (a density overview's window)."""
    unit = unit or unit_frame(coords)
    table = points_table(coords, frame, unit)
    points = {c: (table[c].astype(float).round(5).tolist() if table[c].dtype.kind == "f" else table[c].tolist())
              for c in table.columns}
    points = {c: [None if isinstance(v, float) and np.isnan(v) else v for v in col] for c, col in points.items()}
    data = {"points": points, "meta": {"key": "export", "n": len(table), "hub": "export", "name": corpus},
            "state": {"state": state, "codes": None if codes is None else np.asarray(codes).tolist(),
                      "mask": None if mask is None else np.asarray(mask).tolist()}}
    payload = json.dumps(data, ensure_ascii=True)
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    bundle = BUNDLE.read_text(encoding="utf-8")
    title = "".join(ch for ch in corpus if ch.isalnum() or ch in " -_.")[:80]
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>{title} map</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0"><div id="map" style="height:100vh"></div>
<script type="text/plain" id="miread-bundle">{bundle}</script>
<script type="application/json" id="miread-data">{payload}</script>
<script type="module">
const source = document.getElementById("miread-bundle").textContent;
const url = URL.createObjectURL(new Blob([source], {{type: "text/javascript"}}));
const data = JSON.parse(document.getElementById("miread-data").textContent);
const module = window.__mireadModule = await import(url);
module.default({{data, parentElement: document.getElementById("map"), setStateValue() {{}}, setTriggerValue() {{}}}});
</script></body></html>"""
