"""Imports not finished, said on the Library: one under way (another tab's, or this tab's before a reload: the page
that started it is gone, the import goes on) and one whose process died (nothing of it was kept)."""

from __future__ import annotations

import time

import streamlit as st

from core.display import plural
from core.records import md_escape
from ui.resources import store


def _ago(started: float | None) -> str:
    seconds = max(0, int(time.time() - (started or time.time())))
    if seconds < 90:
        return f"{seconds} s ago"
    return f"{seconds // 60} min ago" if seconds < 5400 else time.strftime("%Y-%m-%d %H:%M", time.localtime(started))


def imports_not_finished() -> None:
    """An info per import under way (with a button to look again) and one warning for the imports that died."""
    s = store()
    running = s.running_imports()
    for run in running:
        st.info(f"An import of **{md_escape(run['file'] or 'a file')}** into **{md_escape(run['corpus'])}** is under "
                f"way (started {_ago(run['started'])}); its papers and its report appear when it finishes. Importing "
                "the file again meanwhile would only merge its papers into the same ones.", icon=":material/sync:")
    if running:
        st.button("Look again", key="imports_look_again", icon=":material/refresh:")
    dead = s.unfinished_imports()
    if dead:
        names = "; ".join(f"**{md_escape(d['file'] or 'a file')}** into **{md_escape(d['corpus'])}** "
                          f"(started {_ago(d['started'])})" for d in dead[:5])
        more = f" and {len(dead) - 5} more" if len(dead) > 5 else ""
        one = len(dead) == 1
        st.warning(f"{plural(len(dead), 'import')} did not finish, because the app stopped while "
                   f"{'it' if one else 'they'} ran: {names}{more}. Nothing of {'it' if one else 'them'} was kept: "
                   f"import the file{'' if one else 's'} again to finish.", icon=":material/warning:")
