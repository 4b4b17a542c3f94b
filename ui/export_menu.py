"""The export menu pages share: a format choice and one download button for a corpus, a selection, a topic or a
collection, as a file Zotero, EndNote, Mendeley or a spreadsheet reads. The bytes come from
core.store.export_corpus_file, made only when the button is pressed (Streamlit's deferred download)."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Mapping, Sequence

import streamlit as st

from core.display import plural
from core.io import EXPORT_FORMATS
from core.store import Store, export_corpus_file
from ui.resources import store

_UNSAFE = re.compile(r"[^\w.-]+")


def export_file_name(corpus: str, label: str, fmt: str) -> str:
    """``<corpus>-<label>.<ext>`` with anything but letters, digits, "." and "-" turned into "-"."""
    stem = "-".join(part for part in (_UNSAFE.sub("-", corpus).strip("-."), _UNSAFE.sub("-", label).strip("-."))
                    if part) or "papers"
    return stem + EXPORT_FORMATS[fmt][1]


def with_collections(workspace: Store, corpus: str, tags: Mapping[str, Mapping[str, list[str]]] | None
                     ) -> dict[str, dict[str, list[str]]]:
    """`tags` plus each paper's collections, as keywords ("collection: NAME") and a note, as Zotero shows them."""
    merged: dict[str, dict[str, list[str]]] = {pid: {k: list(v) for k, v in extra.items()}
                                               for pid, extra in (tags or {}).items()}
    for pid, names in workspace.collection_membership(corpus).items():
        entry = merged.setdefault(pid, {})
        entry.setdefault("keywords", []).extend(f"collection: {name}" for name in names)
        entry.setdefault("notes", []).append("MIReAD collections: " + "; ".join(names))
    return merged


def export_menu(corpus: str, pids: Sequence[str] | None, label: str, key: str,
                tags: Mapping[str, Mapping[str, list[str]]] | Callable[[], Mapping[str, Mapping[str, list[str]]]]
                | None = None) -> None:
    """Draw the format selectbox and the download button: the whole corpus when `pids` is None, else those papers;
    `tags` (or a function giving them, called on the click) adds keywords and notes per paper id (its topic); each
    paper's collections are always added. `pids` is read for its length here and in full only on the click (a map
    selection's ids are taken from the frame then: BENCHMARKS §31q)."""
    fmt = st.selectbox("Export as", list(EXPORT_FORMATS), format_func=lambda f: EXPORT_FORMATS[f][0],
                       key=f"{key}-export-format")
    workspace = store()
    count = len(pids) if pids is not None else workspace.corpus(corpus).papers

    def data() -> bytes:
        buffer = io.BytesIO()
        chosen = list(pids) if pids is not None else None
        extra = tags() if callable(tags) else tags
        export_corpus_file(workspace, corpus, buffer, fmt, pids=chosen, tags=with_collections(workspace, corpus, extra))
        return buffer.getvalue()

    st.download_button(f"Download {plural(count, 'paper')}", data=data,
                       file_name=export_file_name(corpus, label, fmt), mime=EXPORT_FORMATS[fmt][2],
                       key=f"{key}-export-download", disabled=count == 0, icon=":material/download:")
