"""The Library's destructive actions (not a page): delete a corpus or a model into the trash, each confirmed for
the one object it names; Undo at once; the trash with Restore per item and Empty; a corpus's label columns."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import streamlit as st

from core.display import clipped, plural
from core.records import md_escape
from ui import state
from ui.errors import guarded
from ui.resources import papers_frame, store
from ui.sidebar import select_corpus

LAST_TRASHED = "library_last_trashed"  # (trash id, description) of the last delete: the Undo button's object
RESTORED = "library_restored"  # (where: the notice key or "trash", what came back): said until the next delete
_CONFIRM = "delete_confirm"  # + ":" + kind + ":" + name: one confirmation per named object


def _confirmed(kind: str, name: str) -> bool:
    """A checkbox naming the one object; its key holds the name, so choosing another object starts unticked."""
    key = f"{_CONFIRM}:{kind}:{name}"
    for stale in [k for k in st.session_state if str(k).startswith(f"{_CONFIRM}:{kind}:") and k != key]:
        del st.session_state[stale]  # a tick given to another object never carries over
    what = "and its papers, links and maps" if kind == "corpus" else "and its weights"
    return st.checkbox(f"Yes, move {kind} **{md_escape(name)}** {what} to the trash", key=key)


def _trashed(item) -> None:  # noqa: ANN001 - a core.store.TrashItem
    st.session_state[LAST_TRASHED] = (item.id, item.describe())
    st.session_state.pop(RESTORED, None)
    st.session_state.pop(f"{_CONFIRM}:{item.kind}:{item.name}", None)
    st.rerun()


_FOLLOWED = "library_followed_corpus"  # the sidebar corpus the Library's selectors were last set to


def follow_sidebar(corpora: list[str]) -> None:
    """Set the Library's corpus selectors (to embed, with its labels, merges and export; to delete) to the sidebar's
    corpus when it is new or changed since they last followed it; a choice made on the page stays until then."""
    current = st.session_state.get(state.CORPUS)
    if current in corpora and st.session_state.get(_FOLLOWED) != current:
        st.session_state[state.EMBED_TARGET] = st.session_state["delete_target"] = current
        st.session_state[_FOLLOWED] = current


def delete_panel(corpora: list[str]) -> None:
    """Delete a corpus (or a fine-tuned model): the button names it and acts only on the ticked one."""
    s = store()
    victim = st.selectbox("Corpus to delete", corpora, key="delete_target")
    sure = _confirmed("corpus", victim)
    if st.button(f"Delete corpus {md_escape(victim)}", disabled=not sure, key="delete_corpus_button"):
        item = guarded(s.delete_corpus, victim)
        if item is not None:
            if (st.session_state.get(state.IMPORT_REPORT) or {}).get("corpus") == victim:
                st.session_state.pop(state.IMPORT_REPORT, None)  # its report would name a corpus that is gone
            _trashed(item)
    models = [m["name"] for m in s.saved_models()]
    if models:
        with st.expander("Delete a fine-tuned model"):
            model = st.selectbox("Model to delete", models, key="delete_model_target")
            sure_model = _confirmed("model", model)
            if st.button(f"Delete model {md_escape(model)}", disabled=not sure_model, key="delete_model_button"):
                item = guarded(s.delete_model, model)
                if item is not None:
                    _trashed(item)


def _restore(item_id: int, key: str = LAST_TRASHED, on_restored: Callable[[Any], None] | None = None,
             as_name: str | None = None, where: str | None = None) -> None:
    """Bring a trashed item back (under `as_name` when given); a restored corpus becomes the current one; its Undo
    notice (under `key`) goes; `on_restored(item)` lets the caller show what came back. What came back is said
    where it was restored (`where`: the Undo notice's key by default) until the next delete or restore, so a
    second click of a double click, which finds its button gone, does not take the confirmation away."""
    restored = guarded(store().restore, item_id, as_name)
    if st.session_state.get(key, (None,))[0] == item_id:
        st.session_state.pop(key, None)
    if restored is not None:
        if restored.kind == "corpus":
            select_corpus(restored.name)
        if on_restored is not None:
            on_restored(restored)
        st.session_state[RESTORED] = (where or key, f"Restored {restored.describe()}.")
        st.toast(f"Restored {md_escape(restored.describe())}")
        st.rerun()


def restored_notice(where: str) -> bool:
    """Say what the last restore (made at `where`) brought back; whether it was said."""
    said = st.session_state.get(RESTORED)
    if not said or said[0] != where:
        return False
    st.success(md_escape(said[1]))
    return True


def undo_notice(key: str = LAST_TRASHED, button: str = "undo",
                on_restored: Callable[[Any], None] | None = None) -> None:
    """Right after a delete (the (item id, description) kept under `key`): what went to the trash, and Undo."""
    last = st.session_state.get(key)
    if not last:
        restored_notice(key)
        return
    item_id, described = last
    left, right = st.columns([4, 1])
    item = next((i for i in store().trash() if i.id == item_id), None)
    if item is not None and _name_taken(item):
        left.success(f"Moved {md_escape(described)} to the trash. A {item.kind} named **{md_escape(item.name)}** "
                     "exists now: restore this one from the trash below, with Restore as another name.")
        return
    left.success(f"Moved {md_escape(described)} to the trash.")
    if right.button("Undo", key=f"{button}-{item_id}", type="primary"):
        _restore(item_id, key, on_restored)


def _names_taken(item) -> set[str]:  # noqa: ANN001 - a core.store.TrashItem
    """The names an item of this kind could not be restored under now (a collection's: in its corpus, case aside,
    each name in both cases)."""
    s = store()
    if item.kind == "corpus":
        return {c.name for c in s.corpora()}
    if item.kind == "model":
        return {m["name"] for m in s.saved_models()}
    if item.kind == "collection" and s.has_corpus(item.corpus):
        names = [c.name for c in s.collections(item.corpus)]
        return {*names, *(n.casefold() for n in names)}
    return set()


def _name_taken(item) -> bool:  # noqa: ANN001 - a core.store.TrashItem
    """Whether a corpus, model or collection (in its corpus) of this item's name exists now."""
    taken = _names_taken(item)
    return item.name in taken or (item.kind == "collection" and item.name.casefold() in taken)


def trash_panel() -> None:
    """What the trash holds, each with Restore; Empty the trash, confirmed with what it deletes for good."""
    s = store()
    items = s.trash()
    restored_notice("trash")
    if not items:
        return
    with st.expander(f"Trash ({len(items):,} item{'s' if len(items) != 1 else ''}, kept "
                     f"{s.TRASH_KEEP_DAYS:.0f} days)"):
        for item in items:
            left, right = st.columns([4, 1])
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(item.deleted))
            left.markdown(f"{md_escape(item.describe())} · deleted {when}")
            if _name_taken(item):
                _restore_as(item, _names_taken(item))
            elif right.button("Restore", key=f"restore-{item.id}"):
                _restore(item.id, where="trash")
        names = ", ".join(i.name for i in items)
        sure = st.checkbox(f"Yes, delete for good: {md_escape(names)}", key=f"empty_trash_confirm:{names}")
        if st.button("Empty the trash", disabled=not sure, key="empty_trash_button"):
            if guarded(s.empty_trash) is not None:
                st.session_state.pop(LAST_TRASHED, None)
                st.rerun()


def _restore_as(item, taken: set[str]) -> None:  # noqa: ANN001 - a core.store.TrashItem
    """A trashed item whose name another one has taken since: restored under a name typed here."""
    st.caption(f"A {item.kind} named **{md_escape(item.name)}** exists now: restore this one under another name.")
    names = (f"{item.name[:50]}-restored" + ("" if i == 1 else f"-{i}") for i in range(1, len(taken) + 2))
    default = next(n for n in names if n not in taken and n.casefold() not in taken)
    name = st.text_input("Restore as", key=f"restore_as-{item.id}", value=default).strip()
    if st.button(f"Restore as {md_escape(name)}", key=f"restore_as_button-{item.id}",
                 disabled=not name or name in taken or (item.kind == "collection" and name.casefold() in taken)):
        _restore(item.id, as_name=name, where="trash")


def labels_panel(corpus: str) -> None:
    """Mark or unmark the label columns of a corpus (the journal and year fields keep their roles)."""
    s = store()
    info = s.corpus(corpus)
    with st.expander(f"Label columns of {md_escape(corpus)}"):
        roles = ", ".join(f"{role}: {field}" for field, role in sorted(info.roles.items())
                          if role in ("journal", "year"))
        st.caption("Label columns can colour the map, filter results and be trained on. "
                   + (f"Fixed fields — {md_escape(roles)}. " if roles else "")
                   + ("Chosen by you." if info.labels_chosen else "Guessed from the fields' names and values."))
        options = info.markable()
        key = f"labels_{corpus}_{info.version}"
        chosen = st.multiselect("Label columns", options, default=[c for c in info.labels if c in options], key=key)
        left, right = st.columns(2)
        if left.button("Save label columns", key=f"save_{key}", disabled=chosen == info.labels):
            if guarded(s.set_labels, corpus, chosen) is not None:
                st.toast(f"Label columns of {md_escape(corpus)}: {md_escape(', '.join(chosen)) or 'none'}")
                st.rerun()
        if info.labels_chosen and right.button("Guess them again", key=f"reset_{key}"):
            if guarded(s.set_labels, corpus, None) is not None:
                st.session_state.pop(key, None)
                st.rerun()


_MATCHES = 50  # papers offered for one search text


def delete_papers_panel(corpus: str) -> None:
    """Delete single papers of a corpus (a wrong record, a paper outside the search) into the trash, found by title
    words or id, confirmed for the ones named; Undo, or Restore from the trash."""

    with st.expander(f"Delete papers from {md_escape(corpus)}", icon=":material/delete:"):
        text = st.text_input("Find papers by title words or id", key=f"delete_papers_find:{corpus}",
                             placeholder="e.g. erratum, 10.1000/xyz, WOS:000…").strip()
        if not text:
            st.caption("The papers go to the trash with the records merged into them; Undo or Restore brings "
                       "them back; collections count them as missing meanwhile.")
            return
        frame = papers_frame(corpus)
        ids, titles = frame["id"].astype(str), frame["title"].astype(str)
        words = text.casefold().split()
        hit = ids.str.casefold().eq(text.casefold()) | titles.str.casefold().map(lambda t: all(w in t for w in words))
        found = frame[hit].head(_MATCHES)
        if found.empty:
            st.info(f"No paper of **{md_escape(corpus)}** has **{md_escape(text)}** in its title or as its id.")
            return
        names = {str(r.id): f"{clipped(r.title, 100)} ({r.id})" for r in found.itertuples()}
        chosen = st.multiselect(f"Papers to delete ({plural(len(found), 'paper')} found"
                                + (f", the first {_MATCHES}" if int(hit.sum()) > _MATCHES else "") + ")",
                                list(names), format_func=names.get, key=f"delete_papers_pick:{corpus}:{text}")
        if not chosen:
            return
        sure = st.checkbox(f"Yes, move {plural(len(chosen), 'paper')} of **{md_escape(corpus)}** to the trash",
                           key=f"delete_papers_sure:{corpus}:{'|'.join(chosen)}")
        if st.button(f"Delete {plural(len(chosen), 'paper')}", disabled=not sure,
                     key=f"delete_papers_go:{corpus}"):
            item = guarded(store().delete_papers, corpus, chosen)
            if item is not None:
                st.session_state.pop(f"delete_papers_find:{corpus}", None)
                _trashed(item)
