"""Papers as tables: plain-text cells, safe links, a paper's citations inside the corpus."""

from __future__ import annotations

from typing import Any

import streamlit as st

from core.display import blank_missing, plural
from core.labels import is_missing, label_text
from core.records import safe_link


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
        "score": st.column_config.ProgressColumn(
            "similarity", min_value=0.0, max_value=1.0, format="%.3f",
            help="Closeness in meaning (the cosine of the two embeddings)." + (
                " The rank also counts the query's words (see why), so a paper that has them can rank above one "
                "closer in meaning." if "why" in shown else "")),
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
