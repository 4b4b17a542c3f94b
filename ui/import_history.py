"""The Library's record of a corpus's imports (not a page): each file's counts and the rows it skipped, read from the
store, so a reload or another tab still shows what an import did (the report itself lives in the session)."""

from __future__ import annotations

import time

import pandas as pd
import streamlit as st

from core.display import blank_missing, plural
from core.io.formulas import csv_bytes
from core.records import md_escape
from core.store.import_history import STORED_ERRORS, import_history
from ui.resources import store


def import_history_panel(corpus: str) -> None:
    """An expander listing every completed import into `corpus`: file, when, read = added + merged + skipped, and the
    skipped rows with file, row and reason."""
    files, skipped = import_history(store(), corpus)
    if not files:
        return
    read = sum(f["read"] for f in files)
    with st.expander(f"Imports into {md_escape(corpus)} ({plural(len(files), 'file')}, "
                     f"{plural(read, 'record')} read)", icon=":material/history:"):
        st.caption("What each import did: records read = papers added + records merged as duplicates (within the "
                   "import: into a paper of the same file or upload; or into papers already there before it) + rows "
                   "skipped (a merge split back since is a paper of its own now).")
        table = pd.DataFrame(files)
        table["imported"] = [time.strftime("%Y-%m-%d %H:%M", time.localtime(t)) if t else None
                             for t in table["imported"]]
        st.dataframe(blank_missing(table[["file", "imported", "read", "added", "merged", "within the import",
                                          "into papers already there", "skipped"]]), width="stretch", hide_index=True)
        if skipped:
            rows = pd.DataFrame(skipped)
            st.caption(f"Rows these imports skipped ({len(rows):,}), each with its file, row and reason"
                       + (f"; the first {STORED_ERRORS} of each file are kept" if any(
                           f["skipped"] > f["reasons kept"] for f in files) else "") + ".")
            st.dataframe(rows, width="stretch", hide_index=True)
            st.download_button("Download the skipped rows (CSV)", csv_bytes(rows),
                               file_name=f"{corpus}-skipped-rows.csv", mime="text/csv", key="history_skipped_csv")
