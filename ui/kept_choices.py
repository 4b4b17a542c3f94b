"""Choices that survive leaving a page: Streamlit forgets a widget's value when a run does not draw the widget (the
user is on another page), so the Domain map came back coloured by journal, its topic level and window lost. Each run
copies these widgets' values aside, and puts back the ones Streamlit dropped before the page draws them."""

from __future__ import annotations

from collections.abc import Iterable

import streamlit as st

from ui.shared_view import COMPARE_KEYS, MAP_KEYS

# The Domain map's and the Compare view's choices, as a link names them, and the legend size (a paper, the zoom and
# the selection are not widgets: they stay)
KEPT = tuple(key for key in (*MAP_KEYS.values(), *COMPARE_KEYS.values()) if key not in ("map_paper", "map_zoom")) + (
    "map_years_corpus", "map_legend", "map_time_open")  # the last: Topics over time opened (ui/map/time.py TIME_OPEN)
SHADOW = "_kept:"


def keep_choices(keys: Iterable[str] = KEPT) -> None:
    """Once a run, before the page: remember each kept widget's value; restore those Streamlit has dropped.

    Each value is also set again (Streamlit's documented way to keep a widget's value across pages): a value put
    back on a run of another page was kept, but the widget drawn later showed its default (the map coloured by
    country under a box that said "journal"); a value set in the run that draws the widget is the one it shows."""
    for key in keys:
        shadow = SHADOW + key
        if key in st.session_state:
            st.session_state[shadow] = st.session_state[key]
            st.session_state[key] = st.session_state[key]
        elif shadow in st.session_state:
            st.session_state[key] = st.session_state[shadow]
