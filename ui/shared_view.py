"""Shareable views (not a page): a link's query parameters applied once per browser session, and the map's
current view written back into the address bar. The checking is ``ui.views``."""

from __future__ import annotations

import streamlit as st

from core.embedding import list_models
from core.records import md_escape
from ui import state
from ui.map.time import PLAY_LINK
from ui.resources import store
from ui.sidebar import fallback_corpus
from ui.views import parse_view, view_query

APPLIED = "_view_link_applied"
PROBLEMS = "_view_link_problems"
MAP_KEYS = {"method": "map_method", "colour": "map_colour", "highlight": "map_highlight", "years": "map_years",
            "paper": "map_paper", "n_neighbors": "map_n_neighbors", "min_dist": "map_min_dist",
            "perplexity": "map_perplexity", "k": "map_k", "level": "map_level", "play": "map_play",
            "zoom": "map_zoom"}


COMPARE_KEYS = {"model": "compare_a", "compare": "compare_b", "method": "compare_method", "colour": "compare_colour"}


def apply_link() -> bool:
    """Once per session, before the sidebar is drawn: the view in the URL becomes the session's choices.

    True when the link asks for the compare view (``compare``: a second model)."""
    if st.session_state.get(APPLIED):
        return False
    st.session_state[APPLIED] = True
    query = st.query_params.to_dict()
    if not query:
        return False
    s = store()
    names = [c.name for c in s.corpora()]
    current = st.session_state.get(state.CORPUS) if st.session_state.get(state.CORPUS) in names else None
    view = parse_view(query, corpora=names, models=[m.name for m in list_models(s)],
                      columns=lambda c: s.corpus(c).labels,
                      papers=lambda c: s.papers_frame(c, with_abstract=False)["id"].astype(str).tolist(),
                      default_corpus=current or fallback_corpus(names))  # what the sidebar will show
    if view.corpus:
        st.session_state[state.PENDING_CORPUS] = view.corpus
    if view.model:
        st.session_state[state.MODEL] = view.model
    values = {"method": view.method, "colour": view.colour, "highlight": view.highlight, "years": view.years,
              "paper": view.paper, "level": view.level, "zoom": view.zoom, **view.numbers,
              "play": next((label for label, token in PLAY_LINK.items() if token == view.play), None)}
    for name, value in values.items():
        if value is not None:
            st.session_state[MAP_KEYS[name]] = value
    if view.compare:  # the compare page's own choices (it checks them against its options)
        for name, key in COMPARE_KEYS.items():
            value = getattr(view, name)
            if value is not None:
                st.session_state[key] = value
    st.session_state[PROBLEMS] = view.problems
    return view.compare is not None


def link_problems() -> list[str]:
    """What the link asked for that could not be shown (said once), as Markdown-safe text: a link's parameters are a
    stranger's text (``?corpus=[x](http://…)`` must not become a link)."""
    return [md_escape(problem) for problem in st.session_state.pop(PROBLEMS, [])]


def show_link_problems(url_path: str) -> None:
    """On a page that does not show them itself (all but the Domain map and Compare): the link's problems."""
    if url_path not in ("", "compare"):
        for problem in link_problems():
            st.warning(problem)


def carry_selection() -> None:
    """Keep the sidebar's corpus and model in the address bar on every page, so a reload opens the same ones."""
    wanted = {name: str(value) for name, key in (("corpus", state.CORPUS), ("model", state.MODEL))
              if (value := st.session_state.get(key)) and st.query_params.get(name) != value}
    if wanted:  # one change of the address, replacing the page's history entry (ui/history.py: Back leaves the page)
        st.query_params.update(wanted)


def write_link(**view: object) -> None:
    """Put the map's current view into the address bar, so copying the URL shares it."""
    wanted = view_query(**view)  # type: ignore[arg-type]
    if st.query_params.to_dict() != wanted:
        st.query_params.from_dict(wanted)
