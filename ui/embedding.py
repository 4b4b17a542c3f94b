"""Embedding a corpus from a page: a progress bar with an ETA, and the stop-and-offer when vectors are missing."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

import streamlit as st

from core.display import plural
from core.embedding import ModelSpec
from core.eta import Eta
from ui import background
from ui.errors import guarded
from ui.resources import encoder, is_embedded, settings, store

EMBEDDING = "embedding_running"  # the session's embedding in its background thread (ui.background)


def embed_with_progress(corpus: str, spec: ModelSpec, clock: Callable[[], float] = time.perf_counter) -> Any:
    """Embed a corpus showing a progress bar with an ETA; return core's EmbedReport, whose seconds are the whole wait
    the user had (loading the model included), read from `clock`."""
    from core.embedding import embed_corpus

    bar = st.progress(0.0, text="Loading the model…")
    started = clock()
    eta = Eta(clock)  # the rate of the last minute of work, from the first batch on (not the model load)

    def update(done: int, total: int) -> None:
        if total <= 0:
            return
        bar.progress(min(done / total, 1.0), text=f"Embedding {done:,}/{plural(total, 'paper')} · {eta.text()}")

    report = embed_corpus(store(), corpus, spec, device=settings().device, batch_size=settings().batch_size,
                          progress=update, encoder=encoder(spec), work=eta.update)
    # the wait the user had: loading the model and reading the store count, not the encoding alone
    report = dataclasses.replace(report, seconds=clock() - started)
    bar.progress(1.0, text=f"Embedded {report.new:,} new papers ({report.cached:,} cached) in {report.seconds:.1f} s")
    return report


def embed_in_background(corpus: str, spec: ModelSpec) -> None:
    """Embed a corpus in a background thread (the page stays usable; a second click finds the running one); its
    progress with an ETA shows where `embedding_progress` is drawn."""
    from core.embedding import embed_corpus

    s, conf = store(), settings()

    def compute(progress: background.Progress) -> Any:
        progress(0.0, "loading the model")
        eta = Eta()

        def update(done: int, total: int) -> None:
            if total <= 0:
                return
            progress(done / total, f"{done:,}/{plural(total, 'paper')} · {eta.text()}")

        # core's process-wide encoder cache: the page's st.cache_resource needs the script's thread
        return embed_corpus(s, corpus, spec, device=conf.device, batch_size=conf.batch_size, progress=update,
                            work=eta.update)

    background.start(EMBEDDING, f"Embedding {corpus} with {spec.name}", compute, inputs=(corpus, spec.name))


def embedding_progress(on_done: Callable[[Any, float], None]) -> None:
    """The running embedding's progress (a fragment); when it ends, `on_done(report, seconds)` with the whole wait
    the user had (loading the model included), then the page reruns."""
    background.watch(EMBEDDING, lambda task: on_done(task.result, task.seconds))


def need_embeddings(corpus: str | None, spec: ModelSpec) -> bool:
    """Stop the page with a clear message (and an Embed button) unless the corpus is embedded with the model."""
    if corpus is None:
        st.info("Import a corpus on the **Library** page first.")
        st.page_link("app_pages/library.py", label="Go to the Library", icon=":material/library_books:")
        return False
    if is_embedded(corpus, spec):
        return True
    st.warning(f"Corpus **{corpus}** is not embedded with model **{spec.name}** yet.")
    if st.button(f"Embed {corpus} with {spec.name}", type="primary"):
        if guarded(embed_with_progress, corpus, spec) is not None:
            st.rerun()  # only on success: a failure stays on screen as its one sentence
    return False
