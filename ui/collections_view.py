"""The Library's collections (not a page): the table of every collection, and for the chosen one its note, a new
name, its papers with the ticked ones removable, a merge with another collection of its corpus, and delete into the
trash (named, confirmed) with Undo."""

from __future__ import annotations

import time
from functools import partial
from typing import Any

import pandas as pd
import streamlit as st

from core.display import plural
from core.records import md_escape
from ui.errors import guarded
from ui.export_menu import export_menu
from ui.library_trash import RESTORED, undo_notice
from ui.resources import papers_frame, store

PICK = "collections_pick"  # (corpus, name) of the collection chosen in the panel
_PENDING = "collections_pick_next"  # the pick to show after a rename (set before the selectbox exists)
TICKED = "collections_ticked"  # (corpus, name, [paper ids]) ticked in the chosen collection's papers table
ROUND = "collections_table_round"  # a new table key after a removal, so its ticks start empty
LAST_DELETED = "collections_last_deleted"  # (trash id, description) of the last collection deleted: Undo's object
MAX_SHOWN = 2000  # papers listed in a collection's table


def _when(stamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))


def collections_table(found: list[Any]) -> pd.DataFrame:
    """The collections as the Library lists them."""
    return pd.DataFrame([{"corpus": c.corpus, "name": c.name, "papers": c.papers, "missing": c.missing,
                          "note": c.note, "updated": _when(c.updated)} for c in found],
                        columns=["corpus", "name", "papers", "missing", "note", "updated"])


def _undo_notice() -> None:
    """Right after a collection is deleted: what went to the trash, and Undo (the collection is chosen again)."""
    undo_notice(LAST_DELETED, "undo_collection",
                on_restored=lambda item: st.session_state.__setitem__(_PENDING, (item.corpus, item.name)))


def _tick(key: str, corpus: str, name: str, ids: list[str]) -> None:
    """Rows ticked in a collection's papers table, kept as paper ids for the Remove button."""
    event = st.session_state.get(key)
    rows = event.selection.rows if event and event.get("selection") else []
    st.session_state[TICKED] = (corpus, name, [ids[i] for i in rows if i < len(ids)])


def _rerun_on(corpus: str, name: str) -> None:
    st.session_state[_PENDING] = (corpus, name)
    st.rerun()


def _papers(collection: Any) -> None:
    """The collection's papers (in the order they were added), ticked ones removable."""
    s = store()
    corpus, name = collection.corpus, collection.name
    if not s.has_corpus(corpus):
        st.info(f"Corpus **{md_escape(corpus)}** is not in the workspace now. Import it again under the same name "
                f"and this collection finds its {plural(collection.missing, 'paper')} again.")
        return
    ids = s.collection_ids(corpus, name)
    frame = papers_frame(corpus)
    info = s.corpus(corpus)
    columns = ["id", "title", *[c for c in (info.journal, info.year) if c and c in frame.columns]]
    table = frame.set_index(frame["id"].astype(str), drop=False).reindex(ids[:MAX_SHOWN])[columns]
    if len(ids) > MAX_SHOWN:
        st.caption(f"The first {MAX_SHOWN:,} of its {len(ids):,} papers.")
    key = f"collection_papers:{corpus}:{name}:{st.session_state.get(ROUND, 0)}"
    shown = table["id"].astype(str).tolist()
    st.dataframe(table, width="stretch", hide_index=True, key=key, selection_mode="multi-row",
                 on_select=partial(_tick, key, corpus, name, shown),
                 column_config={"title": st.column_config.TextColumn("title", width="large")})
    with st.popover(f"Export {md_escape(name)}", icon=":material/download:"):
        export_menu(corpus, ids, name, key=f"collection_export:{corpus}:{name}")
    held = st.session_state.get(TICKED)
    ticked = held[2] if held and held[:2] == (corpus, name) else []
    if st.button(f"Remove {plural(len(ticked), 'ticked paper')} from {md_escape(name)}", disabled=not ticked,
                 key=f"collection_remove:{corpus}:{name}"):
        gone = guarded(s.remove_from_collection, corpus, name, ticked)
        if gone is not None:
            st.session_state.pop(TICKED, None)
            st.session_state[ROUND] = st.session_state.get(ROUND, 0) + 1
            st.toast(f"Removed {plural(gone, 'paper')} from {md_escape(name)}")
            _rerun_on(corpus, name)


def _edit(collection: Any, found: list[Any]) -> None:
    """Note, name, merge and delete of the chosen collection."""
    s = store()
    corpus, name = collection.corpus, collection.name
    at = f"{corpus}:{name}"
    note = st.text_area("Note", value=collection.note, key=f"collection_note:{at}", max_chars=5000)
    if st.button("Save the note", disabled=note.strip() == collection.note, key=f"collection_note_save:{at}"):
        if guarded(s.set_collection_note, corpus, name, note) is not None:
            _rerun_on(corpus, name)
    left, right = st.columns(2)
    new_name = left.text_input("New name", value=name, key=f"collection_rename:{at}", max_chars=120)
    if left.button(f"Rename {md_escape(name)}", disabled=new_name.strip() in ("", name),
                   key=f"collection_rename_go:{at}"):
        renamed = guarded(s.rename_collection, corpus, name, new_name)
        if renamed is not None:
            _rerun_on(corpus, renamed.name)
    others = [c.name for c in found if c.corpus == corpus and c.name != name]
    if others:
        other = right.selectbox("Merge another collection into this one", others, key=f"collection_merge:{at}")
        drop = right.checkbox(f"Then move {md_escape(other)} to the trash", key=f"collection_merge_drop:{at}:{other}")
        if right.button(f"Merge {md_escape(other)} into {md_escape(name)}", key=f"collection_merge_go:{at}"):
            merged = guarded(s.merge_collections, corpus, [name, other], into=name, keep_sources=not drop)
            if merged is not None:
                st.toast(f"{md_escape(name)} now holds {plural(merged.papers, 'paper')}")
                _rerun_on(corpus, name)
    sure = st.checkbox(f"Yes, move collection **{md_escape(name)}** of {md_escape(corpus)} to the trash (its papers "
                       "stay in the corpus)", key=f"collection_delete_confirm:{at}")
    if st.button(f"Delete collection {md_escape(name)}", disabled=not sure, key=f"collection_delete:{at}"):
        item = guarded(s.delete_collection, corpus, name)
        if item is not None:
            st.session_state[LAST_DELETED] = (item.id, item.describe())
            st.session_state.pop(RESTORED, None)  # a new delete: the last restore's confirmation goes
            st.session_state.pop(PICK, None)
            st.rerun()


def collections_panel(corpus: str | None = None) -> None:
    """Every collection (of one corpus, or of all), and the chosen one's papers and actions."""
    st.subheader("Collections")
    _undo_notice()
    found = guarded(store().collections, corpus)
    if found is None:
        return
    if not found:
        st.caption("No collections yet. Keep papers under a name from the Domain map (lasso or box), a topic, "
                   "search results or ticked rows; they are listed here.")
        return
    st.dataframe(collections_table(found), width="stretch", hide_index=True)
    options = [(c.corpus, c.name) for c in found]
    pending = st.session_state.pop(_PENDING, None)
    if pending in options:
        st.session_state[PICK] = pending
    if st.session_state.get(PICK) not in options:
        st.session_state.pop(PICK, None)
    several = len({c.corpus for c in found}) > 1
    chosen = st.selectbox("Collection", options, key=PICK,
                          format_func=lambda o: f"{o[1]} ({o[0]})" if several else o[1])
    collection = next(c for c in found if (c.corpus, c.name) == chosen)
    if collection.missing:
        st.caption(f"{plural(collection.missing, 'paper')} of {md_escape(collection.name)} "
                   f"{'is' if collection.missing == 1 else 'are'} not in corpus {md_escape(collection.corpus)} now; "
                   "kept, and found again when the papers are imported again.")
    _papers(collection)
    _edit(collection, found)
