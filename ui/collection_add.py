"""Keeping papers: one form that adds chosen papers to a collection of the corpus, new or existing."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from core.display import plural
from core.records import md_escape
from ui.errors import guarded
from ui.resources import store

NEW = "New collection…"


def add_to_collection(corpus: str, pids: Sequence[str], key: str, what: str = "") -> None:
    """A small form: pick a collection of `corpus` (or name a new one, with a note) and add `pids` to it."""
    pids = [str(p) for p in pids]
    if message := st.session_state.pop(f"{key}_done", None):  # said after the rerun that shows the collection
        st.toast(message, icon=":material/bookmark_added:")
        st.success(message)
    if not pids:
        return
    names = [c.name for c in guarded(store().collections, corpus) or []]
    with st.form(f"{key}_form", border=False):
        target = st.selectbox("Collection", [NEW, *names], key=f"{key}_target",
                              help="Collections keep papers of this corpus under a name; they are listed on the "
                                   "Library page, colour the map and filter Similar papers and Journals.")
        name = st.text_input("Name of a new collection", key=f"{key}_name", max_chars=120,
                             placeholder="e.g. to read, included, background")
        note = st.text_input("Note (optional)", key=f"{key}_note", max_chars=500)
        label = f"Add {plural(len(pids), 'paper')}" + (f" ({what})" if what else "")
        if not st.form_submit_button(label, icon=":material/bookmark_add:"):
            return
    chosen = name.strip() if target == NEW else target
    if not chosen:
        st.warning("Give the new collection a name, or pick an existing one.")
        return
    before = len(guarded(store().collection_ids, corpus, chosen) or []) if chosen in names else 0
    kept = guarded(store().save_collection, corpus, chosen, pids, note=note.strip() or None)
    if kept is not None:  # the page runs again so the map's colours and the pages' choices know the collection
        st.session_state[f"{key}_done"] = _added_message(key, corpus, kept.name, pids, kept.papers,
                                                         kept.papers - before)
        st.rerun()


def _added_message(key: str, corpus: str, name: str, pids: list[str], holds: int, added: int) -> str:
    """What adding `pids` did. The same papers added to the same collection again (a double click's second click
    adds none) say what the first click added too, so "0 papers added" never hides the papers that were added."""
    request = (corpus, name, hash(tuple(sorted(pids))))
    last = st.session_state.get(f"{key}_last")
    again = added == 0 and last is not None and last[0] == request
    total = last[1] if again else added
    st.session_state[f"{key}_last"] = (request, total)
    already = len(pids) - total
    return (f"Collection **{md_escape(name)}** now holds {plural(holds, 'paper')} ({plural(total, 'paper')} added"
            + (f", {already:,} already in it" if already > 0 else "")
            + ("; adding them again changed nothing" if again else "") + ").")
