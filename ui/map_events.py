"""What the user does on the map in the browser, reported without rerunning the page: zooms, clicks on papers and
lasso/box selections, read by a small `st.components.v2` component (trusted inline JS, no user data in its code).

Plotly zooms and selects in the browser; `st.plotly_chart(on_select="rerun")` would rerun the whole page (rebuild and
re-send a figure of every paper) for a selection, and reports neither zooms nor, with the lasso as the drag mode,
plain clicks. The component listens to the chart's `plotly_relayout`, `plotly_click`, `plotly_selected` and
`plotly_deselect` events and lives in the map's side fragment, so a click or a lasso reruns only that fragment (the
side panel, the selection list). It also draws the open paper's star as an overlay positioned by the chart's own axes,
so opening a paper changes nothing in the figure (the chart is not sent again). Zooms are reported by a second
instance alone in its own fragment (`watch_zoom`), so a zoom reruns nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from core.plots.style import QUERY_COLOUR
from ui.map_zoom import CHART_KEY, ZOOM, current_zoom
from ui.views import parse_zoom, zoom_text

_JS = """
export default function (component) {
    const { data, setStateValue, setTriggerValue, parentElement } = component;
    const me = parentElement.__miread || (parentElement.__miread = {});
    Object.assign(me, { data, setStateValue, setTriggerValue });
    // A page run may mount a new listener and leave this one's handlers on the chart; a retired listener's report
    // would go nowhere and swallow the live one's (the same value), so it removes itself first.
    const retired = () => {
        if (parentElement.isConnected) return false;
        clearInterval(me.poll);
        if (me.plot && me.handlers) {
            for (const [name, handler] of Object.entries(me.handlers)) me.plot.removeListener(name, handler);
        }
        return true;
    };
    const rowOf = (point) => {
        const value = Array.isArray(point.customdata) ? point.customdata[0] : point.customdata;
        return value === undefined || value === null ? -1 : Number(value);
    };
    const place = (plot) => {
        if (me.data.zoom) return;  // the star is the paper listener's: the zoom listener (star None) removed it on
        // each poll and the other drew it again, so it blinked and the page never settled
        let mark = plot.querySelector(":scope > .miread-star");
        const star = me.data.star, full = plot._fullLayout;
        if (!star || !full || !full.xaxis || typeof full.xaxis.l2p !== "function") { if (mark) mark.remove(); return; }
        if (!mark) {
            mark = document.createElement("div");
            mark.className = "miread-star";
            mark.style.cssText = "position:absolute;pointer-events:none;z-index:5;transform:translate(-50%,-50%);"
                + `font-size:24px;line-height:1;color:${me.data.colour};-webkit-text-stroke:1px #222;`;
            mark.textContent = "\\u2605";
            if (getComputedStyle(plot).position === "static") plot.style.position = "relative";
            plot.appendChild(mark);
        }
        const xa = full.xaxis, ya = full.yaxis;
        const left = xa._offset + xa.l2p(star.x), top = ya._offset + ya.l2p(star.y);
        const inside = left >= xa._offset && left <= xa._offset + xa._length
            && top >= ya._offset && top <= ya._offset + ya._length;
        const want = { display: inside ? "block" : "none", left: `${left}px`, top: `${top}px` };
        for (const [name, value] of Object.entries(want)) {  // only what moved: the page stays still between polls
            if (mark.style[name] !== value) mark.style[name] = value;
        }
        if (mark.dataset.row !== String(star.row)) mark.dataset.row = String(star.row);
        if (mark.title !== star.label) mark.title = star.label;
    };
    let timer = null;
    const sendZoom = (value) => {
        clearTimeout(timer);
        timer = setTimeout(() => me.setStateValue("zoom", value), 250);
    };
    if (!me.handlers) {  // made once per listener, so a chart can be checked for them
        me.handlers = {
            plotly_relayout: (event) => {
                if (retired()) return;
                const plot = me.plot;
                place(plot);
                if (!me.data.zoom) return;
                if (event["xaxis.autorange"] || event["yaxis.autorange"]) { sendZoom(""); return; }
                const x = plot.layout.xaxis && plot.layout.xaxis.range;
                const y = plot.layout.yaxis && plot.layout.yaxis.range;
                if (!x || !y || !("xaxis.range[0]" in event || "xaxis.range" in event || "yaxis.range[0]" in event)) {
                    return;
                }
                sendZoom([x[0], x[1], y[0], y[1]].map(Number).join(","));
            },
            plotly_afterplot: () => { if (!retired()) place(me.plot); },
            plotly_click: (event) => {
                if (retired() || me.data.zoom) return;
                const point = event && event.points && event.points[0];
                const row = point ? rowOf(point) : -1;
                if (row >= 0) me.setTriggerValue("clicked", row);
            },
            plotly_selected: (event) => {
                if (retired() || me.data.zoom || !event || !event.points) return;
                const rows = [...new Set(event.points.map(rowOf).filter((r) => r >= 0))].sort((a, b) => a - b);
                me.setTriggerValue("selected", rows);
            },
            plotly_deselect: () => { if (!retired() && !me.data.zoom) me.setTriggerValue("selected", []); },
        };
    }
    const attach = () => {
        if (retired()) return;
        const plot = document.querySelector(`.st-key-${me.data.chart} .js-plotly-plot`);
        if (!plot || typeof plot.on !== "function") return;
        me.plot = plot;
        // Streamlit redraws a changed figure with Plotly.newPlot and keeps only the listeners it knows: check ours
        // on every poll, not once per chart element
        for (const [name, handler] of Object.entries(me.handlers)) {
            const known = plot._ev && typeof plot._ev.listeners === "function" ? plot._ev.listeners(name) : [];
            if (!known.includes(handler)) plot.on(name, handler);
        }
        place(plot);
    };
    clearInterval(me.poll);
    me.poll = setInterval(attach, 400);
    attach();
    return () => { clearInterval(me.poll); clearTimeout(timer); };
}
"""
_events = st.components.v2.component("miread_map_events", js=_JS)


@dataclass(frozen=True)
class MapEvents:
    """This run's news from the map: a clicked paper's row, a new selection (rows; [] when cleared)."""

    clicked: int | None = None
    selected: list[int] | None = None


def map_events(star: dict | None = None) -> MapEvents:
    """Mount the listener of clicks and selections (inside the side fragment).

    `star`: {"x", "y", "row", "label"} of the open paper, drawn over the chart; None draws none."""
    result = _events(key="map_events", data={"chart": CHART_KEY, "star": star, "colour": QUERY_COLOUR, "zoom": False},
                     on_clicked_change=lambda: None, on_selected_change=lambda: None, height=0)
    clicked = getattr(result, "clicked", None)
    selected = getattr(result, "selected", None)
    return MapEvents(clicked=None if clicked is None else int(clicked),
                     selected=None if selected is None else [int(r) for r in selected])


@st.fragment
def watch_zoom() -> None:
    """A second listener, alone in its own fragment: each zoom goes into the session and the address bar without
    rerunning the side column (its list of selected papers took a second to redraw at 50k papers)."""
    result = _events(key="map_zoom_events", data={"chart": CHART_KEY, "star": None, "zoom": True},
                     default={"zoom": None}, on_zoom_change=lambda: None, height=0)
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
