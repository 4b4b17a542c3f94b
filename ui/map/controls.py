"""The map's quick controls — Highlight, Years and Play — in one fragment: changing them reruns this fragment only
(the highlight mask, the year window and the state instance), not the page with its map, timeline and side column."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from core.display import plural
from core.plots.map_data import Colours, highlight_bits, unit_frame
from core.records import md_escape
from ui.map.component import DrawnWindow, drawn_window, push_state, standalone_html
from ui.map.panel import PAPER
from ui.map.time import PLAY, PLAY_LINK, YEARS_ROW, year_controls
from ui.map.zoom import link_zoom
from ui.resources import highlight_rows
from ui.shared_view import write_link
from ui.timing import timed
from ui.views import year_mask


@dataclass(frozen=True)
class DrawnMap:
    """What the page run drew and the fragment reuses: the corpus's papers and map, colours, the state that only a
    page run changes (palette, legend, labels, stars, lines), rings, rows the citations put in front, and the view
    the shared link names."""

    corpus: str
    frame: pd.DataFrame
    coords: np.ndarray
    colours: Colours
    state: dict
    rings: np.ndarray | None
    in_front: np.ndarray | None  # a paper's citations (a bool mask) or None
    link: dict  # write_link's view, without highlight, years, paper, zoom and play
    paper_open: bool
    view: str = ""  # the map the link names (`ui.map.zoom.map_name`): its window, not a preview's, goes into the link


@st.fragment
@timed("quick_controls")
def quick_controls(drawn: DrawnMap, highlight_box: Any, years_box: Any, map_box: Any) -> None:
    """Highlight (in `highlight_box`), Years and Play (in `years_box`) and the state they give the map (in
    `map_box`), rerun alone when one of them changes."""
    frame = drawn.frame
    query = highlight_box.text_input("Highlight papers matching", placeholder="e.g. malaria, transformer, 10.1103/…",
                                     key="map_highlight", help="Case-insensitive match in title, abstract or any "
                                                               "column.")
    highlight = highlight_rows(frame, query) if query.strip() else None
    with years_box:
        if highlight is not None:
            matched = int(highlight.sum())
            st.caption(f"{plural(matched, 'paper')} match{'es' * (matched == 1)} “{md_escape(query.strip())}” in "
                       "title, abstract or another column.")  # Find a paper counts titles and DOIs only
        years, play = year_controls(frame, drawn.corpus)
        if years is not None:
            st.caption(f"{plural(int(year_mask(frame, years).sum()), 'paper')} from {years[0]}–{years[1]} drawn in "
                       "front; the others are faded.")
        state = {**drawn.state, "years": list(years) if years is not None else None, "yearsControl": YEARS_ROW}
        if play in PLAY and play != "off" and "year" in frame:
            known = pd.to_numeric(frame["year"], errors="coerce").dropna().astype(int)
            span = years or (int(known.min()), int(known.max())) if len(known) else None
            if span:
                state["play"] = {"years": list(range(span[0], span[1] + 1)), "width": PLAY[play], "ms": 700}
                st.caption("Press **▶ Play** on the map: a window of years moves over the fixed map in your browser, "
                           "the papers of each window in front, the others faded.")
    if drawn.in_front is not None:
        highlight = drawn.in_front if highlight is None else highlight | drawn.in_front
    state["grow"] = highlight is not None
    bits = highlight_bits(highlight, len(drawn.coords))
    with map_box:
        push_state(state, drawn.colours.codes, bits, drawn.rings)
        window = drawn_window()
        st.download_button(
            "Export map (HTML)", lambda: _export(drawn, state, bits, window),  # built on the click only
            file_name=f"{state['name']}.html", mime="text/html",
            help="A standalone interactive file (no network needed); the PNG button on the map saves a picture."
                 + ("" if window is None else f" A density overview exports the {len(window.rows):,} papers drawn "
                                              "in this view, not every paper of the corpus."))
    write_link(**drawn.link, highlight=query.strip(), years=years,
               paper=st.session_state.get(PAPER) if drawn.paper_open else None, zoom=link_zoom(drawn.view),
               play=PLAY_LINK.get(play))


def _export(drawn: DrawnMap, state: dict, bits: np.ndarray | None, window: DrawnWindow | None) -> bytes:
    """The standalone HTML file of the map as drawn: every paper, or a density overview's window (a file of every
    paper of a corpus above the draw limit would be gigabytes), placed in the whole map's frame so the topic labels,
    the star and the lines land where they are on the page."""
    codes = drawn.colours.codes
    if window is None:
        return standalone_html(drawn.corpus, drawn.coords, drawn.frame, state, codes, bits).encode("utf-8")
    rows = window.rows
    codes, bits = window.local(codes, bits)
    return standalone_html(drawn.corpus, drawn.coords[rows], drawn.frame.iloc[rows], state, codes, bits,
                           unit=unit_frame(drawn.coords)).encode("utf-8")
