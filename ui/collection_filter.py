"""Narrowing a page to one collection: the choice, and the ids of its papers now in the corpus."""

from __future__ import annotations

import streamlit as st

from ui.errors import guarded
from ui.resources import store
from ui.sidebar import sticky

NONE = "(all papers)"


def collection_choice(corpus: str, key: str, what: str) -> tuple[str, list[str]] | None:
    """A 'Only papers in collection' choice for `corpus` (none when it has no collection); the chosen collection's
    name and ids, or None for all papers. `what` says what the collection limits (for the help text)."""
    names = [c.name for c in guarded(store().collections, corpus) or []]
    if not names:
        return None
    widget = sticky(f"{key}_{corpus}")
    if st.session_state.get(widget) not in (NONE, *names):
        st.session_state.pop(widget, None)
    chosen = st.selectbox("Only papers in collection", [NONE, *names], key=widget,
                          help=f"Limit {what} to the papers of one of your collections of this corpus.")
    if chosen == NONE:
        return None
    return chosen, guarded(store().collection_ids, corpus, chosen) or []
