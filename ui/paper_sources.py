"""A paper's source records in its side panel (not a page): every file and row it came from, the database, and
the rule that merged each record into it (``core.store.provenance``)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.display import plural
from core.errors import MireadError
from core.records import md_escape
from core.store.provenance import SourceRecord, paper_sources
from ui.resources import store


def sources_label(sources: list[SourceRecord]) -> str:
    """'Found in N sources (databases)': the exports a paper was found in; the same record of the same file read
    again (a file imported twice) is one source, said with how many times it was imported."""
    distinct = len({(s.file, s.row, s.id, s.title) for s in sources})
    again = f", imported {len(sources)} times" if distinct == 1 and len(sources) > 1 else ""
    databases = ", ".join(sorted({s.database for s in sources}))
    return f"Found in {plural(distinct, 'source')}{again} ({databases})"


def sources_expander(corpus: str, pid: str, key: str | None = None) -> None:
    """'Found in N sources': one row per source record of the paper (plain-text cells); with `key`, the table is
    made only while the expander is open (opening it reruns the fragment or page)."""
    try:
        with store().connect() as conn:
            sources = paper_sources(conn, corpus, pid)
    except MireadError:
        return
    box = st.expander(md_escape(sources_label(sources)), key=key, on_change="rerun" if key else "ignore")
    if key and not box.open:
        return
    with box:
        st.dataframe(pd.DataFrame([{"database": s.database, "file": s.file, "row": s.row, "id": s.id,
                                    "how": "first record" if s.rule == "added" else f"merged: {s.rule}",
                                    "title as that source gave it": s.title} for s in sources]),
                     width="stretch", hide_index=True)
        if len(sources) > 1:
            st.caption("A merge can be split back in the Library's import report.")
