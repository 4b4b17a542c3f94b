"""The Domain map's stable-map pieces (issue 31): which papers are new since the map was fitted, the "Re-fit the
map" action with its background progress, how far the re-fit moved papers, and its undo."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import streamlit as st

from core.display import plural
from core.embedding import ModelSpec
from core.explore import StableMap, not_kept_reason, refit_job, stable_map, start_refit, undo_refit
from core.records import md_escape
from ui.errors import guarded, show_error
from ui.resources import store


def resolve_stable(corpus: str, spec: ModelSpec, method: str, params: dict[str, Any]) -> StableMap | None:
    """The map as the user knows it, papers added since placed on it; None while no map is fitted (or kept)."""
    return guarded(stable_map, store(), corpus, spec, method, params)


def marked(stable: StableMap | None) -> np.ndarray | None:
    """The papers to ring on the figure: new since the map was fitted."""
    return stable.new if stable is not None and stable.added else None


def new_caption(stable: StableMap) -> str:
    """One sentence on the papers marked new."""
    return (f"{plural(stable.added, 'paper')} added since this map was fitted "
            f"{'is' if stable.added == 1 else 'are'} marked new (placed {stable.placement}).")


def show_stable_controls(stable: StableMap | None, corpus: str, spec: ModelSpec, method: str,
                         params: dict[str, Any]) -> None:
    """Under the map: the new papers' caption, why the map was fitted afresh, re-fit (with progress), its undo."""
    if stable is None:  # a preview while the map is fitted: say why the old one was not kept
        reason = guarded(not_kept_reason, store(), corpus, spec, method, params)
        if reason:
            st.info(f"The previous {method.upper()} map is fitted afresh: {md_escape(reason)}.")
        return
    if stable.added:
        st.caption(new_caption(stable))
    if stable.reason:
        st.caption(f"This map was fitted afresh: {md_escape(stable.reason)}.")
    job = guarded(refit_job, store(), corpus, spec, method, params)
    running = job is not None and not job.done
    if job is not None and job.error:
        show_error(f"{job.error.rstrip('.')}. The map on screen is unchanged.")
    left, right = st.columns(2)
    if left.button("Re-fit the map", key="map_refit", icon=":material/refresh:", disabled=running,
                   help=f"Fit a fresh {method.upper()} map of all {len(stable.coords):,} papers in the background, "
                        "turned and scaled onto this one; papers may move. This map is kept, so the re-fit can be "
                        "undone."):
        if guarded(start_refit, store(), corpus, spec, method, params) is not None:
            st.rerun()
    if stable.previous and not running:
        if right.button(f"Undo re-fit: back to {md_escape(stable.previous)}", key="map_undo_refit",
                        icon=":material/undo:"):
            if guarded(undo_refit, store(), corpus, spec, method, params) is not None:
                st.rerun()
    if stable.movement is not None and stable.previous:
        st.caption(f"Re-fitted: {stable.movement.describe()}.")
    if running:
        _watch(job, method, len(stable.coords))


def _watch(job: Any, method: str, papers: int) -> None:
    @st.fragment(run_every=1.5)
    def watch_refit() -> None:
        """Progress of the background re-fit; the whole page reruns to show the new map when it is ready."""
        if job.done:
            st.rerun(scope="app")
        st.progress(job.fraction, text=f"Re-fitting the {method.upper()} map of {papers:,} papers in the background "
                                       f"({job.message}, {time.time() - job.started:.0f} s)…")

    watch_refit()
