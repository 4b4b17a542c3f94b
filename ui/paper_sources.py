"""A paper's source records in its side panel (not a page): every file and row it came from, the database, and
the rule that merged each record into it (``core.store.provenance``)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.errors import MireadError
from core.records import md_escape
from core.store.provenance import paper_sources
from ui.resources import store


def sources_expander(corpus: str, pid: str) -> None:
    """'Found in N sources': one row per source record of the paper (plain-text cells)."""
    try:
        with store().connect() as conn:
            sources = paper_sources(conn, corpus, pid)
    except MireadError:
        return
    label = "source" if len(sources) == 1 else "sources"
    databases = sorted({s.database for s in sources})
    with st.expander(f"Found in {len(sources)} {label} ({md_escape(', '.join(databases))})"):
        st.dataframe(pd.DataFrame([{"database": s.database, "file": s.file, "row": s.row, "id": s.id,
                                    "how": "first record" if s.rule == "added" else f"merged: {s.rule}",
                                    "title as that source gave it": s.title} for s in sources]),
                     width="stretch", hide_index=True)
        if len(sources) > 1:
            st.caption("A merge can be split back in the Library's import report.")
