"""Time on the map page: the Years slider and the Play choice in one row (the browser animates Play), topics over
time."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from core.display import plural
from core.explore.timeline import papers_per_year
from core.plots import topics_over_time_figure
from core.records import md_escape
from ui.errors import guarded
from ui.views import PLAY_MODES, clamp_years, year_bounds

PLAY = {"off": 0, "1-year window": 1, "2-year window": 2, "3-year window": 3, "5-year window": 5, "cumulative": None}
PLAY_LINK = dict(zip(list(PLAY)[1:], PLAY_MODES))  # the choice -> its name in a shared link (?play=2y)
TOP_GROUPS = 8
YEARS_ROW = "map_years_row"  # the Years row's container: the map follows its slider while it moves (in the browser)
TIME_OPEN = "map_time_open"  # the Topics-over-time expander's state (open or closed), kept as the map's choices are
YEARS_OF = "map_years_corpus"  # the corpus whose Years range is kept (a link's range: the first corpus shown)


def year_controls(papers: pd.DataFrame, corpus: str) -> tuple[tuple[int, int] | None, str]:
    """The Years slider and the Play choice (corpora with a year column): the window (None while it spans every
    year) and the play mode ('off' without years). A range chosen on another corpus is not kept: a new corpus
    opens on all its years."""
    bounds = year_bounds(papers)
    if bounds is None:
        return None, "off"
    if st.session_state.get(YEARS_OF, corpus) != corpus:
        st.session_state.pop("map_years", None)
    st.session_state[YEARS_OF] = corpus
    st.session_state["map_years"] = clamp_years(st.session_state.get("map_years", bounds), bounds)
    if st.session_state.get("map_play") not in PLAY:
        st.session_state["map_play"] = "off"
    left, right = st.container(key=YEARS_ROW).columns([3, 2], vertical_alignment="bottom")
    chosen = tuple(left.slider("Years", bounds[0], bounds[1], key="map_years",
                               help="Papers of these years are drawn in front, the others faded; the map stays put. "
                                    "While playing, the animation runs through these years."))
    play = right.selectbox("Play through years", list(PLAY), key="map_play",
                           help="Adds ▶ Play and a year slider to the map: a window of years (or all years so far) "
                                "moves over the fixed map in your browser, the other papers faded.")
    return (None if chosen == bounds else chosen), play


def topics_over_time(papers: pd.DataFrame, groups: Sequence | None, group_name: str) -> None:
    """Under the map, in an expander closed until the user opens it (a fragment: opening it reruns only it): papers
    per year per group (the map's colour), the largest groups and 'other'. Closed, the chart is neither built nor
    drawn, so a colour change's page run does not wait for Plotly to draw a new figure (BENCHMARKS §31h)."""
    if year_bounds(papers) is None:
        return
    _time_box(papers, groups, group_name)


@st.fragment
def _time_box(papers: pd.DataFrame, groups: Sequence | None, group_name: str) -> None:
    """The expander and, while it is open, the chart for the colour shown."""
    box = st.expander("Topics over time", key=TIME_OPEN, on_change="rerun", icon=":material/stacked_bar_chart:")
    if not box.open:
        return
    with box:
        if groups is None or group_name == "year":
            st.caption("Colour the map by a label, topics, predicted journal or collections to see its groups over "
                       "the years.")
            return
        key = _digest(papers["year"], groups, group_name)
        if key not in _DRAWN:
            table = guarded(papers_per_year, papers["year"].tolist(), list(groups), TOP_GROUPS)
            if table is None:
                return
            _DRAWN[key] = (table, topics_over_time_figure(table, group_name))
            while len(_DRAWN) > 8:
                _DRAWN.popitem(last=False)
        _DRAWN.move_to_end(key)
        table, figure = _DRAWN[key]
        st.plotly_chart(figure, width="stretch", key="topics_over_time", config={"displaylogo": False})
        st.caption(f"{plural(int(table.to_numpy().sum()), 'paper')} with a year, by {md_escape(group_name)}: the "
                   f"{TOP_GROUPS} largest groups and 'other'. Click a legend entry to hide it.")


_DRAWN: OrderedDict[str, tuple[pd.DataFrame, Any]] = OrderedDict()  # the last charts drawn, by their data's digest


def _digest(years: pd.Series, groups: Sequence, group_name: str) -> str:
    """What the chart is drawn from (each paper's year and group), hashed without a loop in Python: an unchanged
    colour does not count papers per year again on every page run (a highlight, a year window). The years as numbers
    and the groups as codes into their distinct values (with each value's type: 1 and "1" are other groups); 6 ms at
    50k papers where hashing every paper's objects took 24-31 ms (BENCHMARKS §31a)."""
    digest = hashlib.blake2b(group_name.encode(), digest_size=16)
    digest.update(pd.to_numeric(pd.Series(years), errors="coerce").to_numpy(dtype="float64").tobytes())
    codes, uniques = pd.factorize(np.asarray(groups, dtype=object))  # None and NaN: -1, the text "None": a group
    digest.update(np.asarray(codes, dtype=np.int64).tobytes())
    distinct = pd.Series(np.asarray(uniques, dtype=object), dtype=object)
    digest.update(pd.util.hash_pandas_object(distinct, index=False).to_numpy().tobytes())
    digest.update("\x1f".join(type(value).__name__ for value in distinct).encode())
    return digest.hexdigest()


FILL = """<style>
[data-testid=stMainBlockContainer] { padding-top: 2.5rem; }
@media (max-width: 640px) {  /* a phone: the map starts on the first screen (a smaller title, controls in 2 rows) */
  [data-testid=stMainBlockContainer] { padding: 3.75rem 0.75rem 1rem 0.75rem; }
  [data-testid=stMain] h1 { font-size: 1.6rem; padding: 0; }
  .st-key-map_controls [data-testid=stHorizontalBlock], .st-key-map_years_row [data-testid=stHorizontalBlock] {
    flex-wrap: nowrap !important; gap: 0.5rem !important; }
  .st-key-map_controls [data-testid=stColumn], .st-key-map_years_row [data-testid=stColumn] {
    min-width: 0 !important; }
  .st-key-map_controls [data-testid=stWidgetLabel] p, .st-key-map_years_row [data-testid=stWidgetLabel] p {
    font-size: 0.8rem; }
  .st-key-map_controls [data-testid=stPopover] button p { display: none; }  /* the settings button: its icon */
}
</style>"""


def fill_screen() -> None:
    """The page's style for the map: less padding on top, the controls in rows on a phone (the map component sizes
    itself to the window's height)."""
    st.html(FILL)
