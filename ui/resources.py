"""Cached resources shared by the pages: this run's settings, one Store per workspace, loaded encoders, papers
frames, the device."""

from __future__ import annotations

from typing import Any

import numpy as np
import streamlit as st

from core.config import Settings, resolve_device
from core.embedding import ModelSpec, fingerprint, get_model
from core.store import Store
from ui import state


def begin_run() -> Settings:
    """Build the Settings of this script run from the environment: app.py calls it once at the top of every run, and
    every page helper reads that one object (`settings()`) and hands its values down to core."""
    st.session_state[state.SETTINGS] = Settings()
    return st.session_state[state.SETTINGS]


def settings() -> Settings:
    """This run's Settings (built by `begin_run`; a page run on its own, as in a test, builds them on first use)."""
    current = st.session_state.get(state.SETTINGS)
    return current if isinstance(current, Settings) else begin_run()


@st.cache_resource(show_spinner=False)
def get_store(workspace: str) -> Store:
    """One Store per workspace folder for the whole server; uploads an earlier run left behind are removed."""
    from core.store.uploads import clean_uploads

    opened = Store(workspace)
    clean_uploads(opened.root)
    return opened


def store() -> Store:
    return get_store(str(settings().workspace))


@st.cache_resource(show_spinner="Loading the model…", max_entries=4)
def _encoder(name: str, fp: str, location: str, workspace: str, device: str, batch_size: int) -> Any:
    from core.embedding import Encoder

    return Encoder(get_model(name, get_store(workspace)), device=device, batch_size=batch_size)


def encoder(spec: ModelSpec) -> Any:
    """A loaded Encoder, cached per model fingerprint."""
    s = settings()
    return _encoder(spec.name, fingerprint(spec), spec.location, str(s.workspace), s.device, s.batch_size)


@st.cache_resource(show_spinner=False, max_entries=4)
def _frame(workspace: str, corpus: str, version: int) -> Any:
    """One frame object per corpus version, shared by every run and session (read-only: a page that adds a column
    takes a shallow copy first). Not `cache_data`, whose copy per run cost ~0.2 s at 42k papers (~4 s at 1M), and
    whose new object each run would rebuild every per-frame value (`core.frames`: id index, the map's id digest)."""
    return get_store(workspace).papers_frame(corpus)


def highlight_rows(frame: Any, query: str) -> np.ndarray:
    """The rows of a corpus's `frame` (`papers_frame`, one object per corpus version) matching a highlight query: its
    text and its last queries' rows kept with the frame (core.explore.kept_highlight; read-only)."""
    from core.explore import kept_highlight

    return kept_highlight(frame, query)


def papers_frame(corpus: str) -> Any:
    """The corpus's papers as a DataFrame, cached per corpus version: shared, never to be changed in place."""
    info = store().corpus(corpus)
    return _frame(str(settings().workspace), corpus, info.version)


@st.cache_data(show_spinner=False, ttl=600)
def hub_reachable() -> bool:
    """Whether the Hugging Face hub is allowed and answers, checked at most every 10 minutes."""
    from core.embedding.hub import hub_reachable as reachable

    return reachable()


@st.cache_resource(show_spinner=False)
def _device(requested: str) -> str:
    return resolve_device(requested)


def device() -> str:
    return _device(settings().device)


@st.cache_data(show_spinner=False, max_entries=64)
def _embedded(workspace: str, corpus: str, version: int, fp: str, vectors: tuple[int, int]) -> bool:
    return get_store(workspace).is_embedded(corpus, fp)


def is_embedded(corpus: str, spec: ModelSpec) -> bool:
    """Whether every paper of the corpus has a vector of the model; asked once per corpus version and change of the
    model's stored vectors (0.1 s at 50k papers, on every rerun of every page before)."""
    from core.embedding import vectors_fingerprint

    fp = vectors_fingerprint(spec)
    return _embedded(str(settings().workspace), corpus, store().corpus(corpus).version, fp,
                     store().vectors_revision(fp))


def embeddings(corpus: str, spec: ModelSpec) -> np.ndarray:
    from core.embedding import vectors_fingerprint

    return store().embeddings(corpus, vectors_fingerprint(spec))
