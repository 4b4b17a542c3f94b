"""Choices that survive leaving a page: Streamlit forgets a widget's value when a run does not draw the widget (the
user is on another page), so the Domain map came back coloured by journal, its topic level and window lost. Each run
copies these widgets' values aside, and puts back the ones Streamlit dropped before the page draws them."""

from __future__ import annotations

from collections.abc import Iterable

import streamlit as st

# The Domain map's and the Compare view's choices (a paper, the zoom and the selection are not widgets: they stay)
KEPT = ("map_method", "map_colour", "map_highlight", "map_years", "map_years_corpus", "map_n_neighbors",
        "map_min_dist", "map_perplexity", "map_k", "map_level", "map_play", "map_legend", "compare_a", "compare_b",
        "compare_method", "compare_colour")
SHADOW = "_kept:"


def keep_choices(keys: Iterable[str] = KEPT) -> None:
    """Once a run, before the page: remember each kept widget's value; restore those Streamlit has dropped."""
    for key in keys:
        shadow = SHADOW + key
        if key in st.session_state:
            st.session_state[shadow] = st.session_state[key]
        elif shadow in st.session_state:
            st.session_state[key] = st.session_state[shadow]
