"""The Journals page's corpus-wide check as a table a person reads: counts beside shares, and the check's n."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.display import plural
from core.records import md_escape
from ui.table_download import table_download


def balance_frame(table: pd.DataFrame, column: str = "journal") -> pd.DataFrame:
    """``prediction_balance``'s table with readable columns: the value, its papers, the papers predicted to it, both
    shares in percent and predicted ÷ actual (empty where the value has no paper)."""
    return pd.DataFrame({
        column: table["label"],
        "papers": table["actual"].astype(int),
        "predicted for": table["predicted"].astype(int),
        "share of papers (%)": (100 * table["actual_share"]).round(1),
        "share predicted (%)": (100 * table["predicted_share"]).round(1),
        "predicted ÷ actual": table["ratio"].round(2),
    })


def balance_table(table: pd.DataFrame, corpus: str, column: str = "journal") -> None:
    """Draw the check's table under a caption naming how many papers were predicted (all, or a seeded sample)."""
    n, total = table.attrs.get("papers"), table.attrs.get("corpus_papers")
    if n is not None:
        scope = "every paper" if n == total else f"a seeded sample of {n:,} of its {total:,} papers"
        st.caption(f"Checked on {plural(n, 'paper')} of **{md_escape(corpus)}** ({scope}), each predicted from its "
                   "nearest other papers.")
    shown = balance_frame(table, column)
    st.dataframe(shown, width="stretch", hide_index=True)
    table_download(shown, f"journal_balance_csv_{column}", corpus, "predicted-balance")
