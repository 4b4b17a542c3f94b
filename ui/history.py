"""Browser Back leaves a page in one press. Streamlit pushes a page's bare address when it opens from the sidebar,
and each later change of its query string (the corpus and model written back by `carry_selection`, the map's view by
`write_link`) as another history entry, so Back first landed on the same page's bare address, which the app wrote
again, and the page stayed (docs/qa/qa20.md). A small component (height 0, in the sidebar) makes a push to the
address bar that keeps the page's path a replace: one history entry per page, Back returns to the page before."""

from __future__ import annotations

import streamlit as st

_JS = """
export default function () {
  if (window.__mireadOneEntryPerPage) return;
  window.__mireadOneEntryPerPage = true;
  const push = window.history.pushState.bind(window.history);
  window.history.pushState = (state, title, url) => {
    const next = url == null ? null : new URL(String(url), window.location.href);
    if (next && next.pathname === window.location.pathname) return window.history.replaceState(state, title, url);
    return push(state, title, url);
  };
}
"""

_component = st.components.v2.component("miread_history", js=_JS)


def one_entry_per_page() -> None:
    """Mount the history component (once per run, in the sidebar: nothing shown)."""
    with st.sidebar:
        _component(key="miread_history", height=0)
