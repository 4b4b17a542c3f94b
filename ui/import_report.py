"""The Library's import report (not a page): the four numbers (read = added + merged + skipped), the per-file table,
every merge with its rule (a table, a CSV, and a button that splits one back), and which databases found which
papers (the overlap). The facts come from ``core.store.provenance``; this module only draws them."""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core.display import plural
from core.errors import MireadError
from core.io.formulas import csv_bytes
from core.records import md_escape
from core.store.merging import TEXT_RULE
from core.store.provenance import database_of, import_databases, merges, overlap, overlap_rows, split_record
from ui.errors import show_error
from ui.resources import store

_SPLIT_DONE = "import_report_split_done"


def merge_kinds(report: dict[str, Any]) -> tuple[int, int] | None:
    """(records merged into a paper of this same import, records merged into papers already in the corpus), from
    each file's ``merged_into``; None when the report does not tell them apart or they do not add up to merged."""
    parts = [f.get("merged_into") for f in report["files"]] if report.get("files") else [report.get("merged_into")]
    if any(not part for part in parts):
        return None
    within = sum(part.get("this file", 0) + part.get("earlier files", 0) for part in parts)
    already = sum(part.get("corpus", 0) for part in parts)
    return (within, already) if within + already == report["merged"] else None


def _merged_phrase(report: dict[str, Any]) -> str:
    """The merged count, saying into what: duplicates within this import, papers already there, or both."""
    merged, kinds = report["merged"], merge_kinds(report)
    if not merged:
        return "0 merged"
    if kinds is None:
        return f"{plural(merged, 'duplicate')} merged"
    within, already = kinds
    if not already:
        return f"{plural(within, 'duplicate')} merged within this import"
    if not within:
        return f"{already:,} merged into papers already there"
    return (f"{merged:,} merged ({plural(within, 'duplicate')} within this import, "
            f"{already:,} into papers already there)")


def headline(report: dict[str, Any]) -> str:
    """One sentence whose numbers add up: records read = new papers + merged + skipped; a merge is called one into
    "papers already there" only when the paper was in the corpus before this import."""
    files = report.get("files") or []
    read = report.get("read", report["imported"] + report["skipped"])
    return (f"Read **{plural(read, 'record')}**" + (f" from **{len(files)} files**" if files else "")
            + f" into **{md_escape(report['corpus'])}**: {plural(report['added'], 'new paper')} · "
            f"{_merged_phrase(report)} · {plural(report['skipped'], 'skipped record')}"
            + (f" · {plural(report['figures'], 'figure')}" if "figures" in report else ""))


def files_table(files: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per file of a several-file import, then the totals: read = added + merged + skipped on every row,
    and merged = within the file + into earlier files + into the corpus."""
    rows = []
    with store().connect() as conn:
        dbs = import_databases(conn, {f["import_id"] for f in files if f.get("import_id") is not None})
    for f in files:
        into = f.get("merged_into") or {}
        database = dbs.get(f.get("import_id"), database_of(f["file"]))
        rows.append({"file": f["file"], "database": database, "read": f["imported"] + f["skipped"],
                     "added": f["added"], "merged": f["merged"], "within the file": into.get("this file", 0),
                     "into earlier files": into.get("earlier files", 0), "into the corpus": into.get("corpus", 0),
                     "skipped": f["skipped"]})
    if not rows:
        return pd.DataFrame([])
    total = {"file": "total", "database": "", **{k: sum(r[k] for r in rows) for k in rows[0]
                                                 if k not in ("file", "database")}}
    return pd.DataFrame([*rows, total])


def _import_ids(report: dict[str, Any]) -> list[int]:
    ids = report.get("import_ids") or [report.get("import_id")]
    return [int(i) for i in ids if i is not None]


def merges_panel(report: dict[str, Any]) -> None:
    """Every merge of the import just made: what went into what, by which rule; a CSV; a button undoing one."""
    if message := st.session_state.pop(_SPLIT_DONE, None):
        st.success(message)
    ids = _import_ids(report)
    if report.get("merged") and ids:
        rules = report.get("merge_rules") or {}
        why = "; ".join(f"{n:,} by {rule}" for rule, n in sorted(rules.items(), key=lambda kv: -kv[1]))
        _merges_view(report["corpus"], ids, "What was merged, and why", why, "report")


def corpus_merges_panel(corpus: str) -> None:
    """Every merge ever made in a corpus (all its imports), with the same table, CSV and split button."""
    if message := st.session_state.pop(_SPLIT_DONE, None):
        st.success(message)
    with store().connect() as conn:
        count = conn.execute("SELECT COUNT(*) FROM merged_records WHERE corpus = ?", (corpus,)).fetchone()[0]
    if count:
        _merges_view(corpus, None, f"Merged records of {md_escape(corpus)}", "", "corpus")


def _merges_view(corpus: str, ids: list[int] | None, title: str, why: str, key: str) -> None:
    s = store()
    with s.connect() as conn:
        rows = merges(conn, corpus, ids)
    with st.expander(f"{title} ({plural(len(rows), 'record')})", icon=":material/merge:"):
        st.caption((f"{why}. " if why else "") + "Each merged record is kept whole with the paper it went into: "
                   "its own title, abstract and fields are not lost, and a merge by a shared id or by title, year and "
                   "first author can be split back.")
        if not rows:
            st.info("Every merge here has been split back.")
            return
        table = pd.DataFrame(rows)[["file", "row", "id", "title", "rule", "into", "into file", "into row",
                                    "into title", "record"]]
        st.dataframe(table, width="stretch", hide_index=True, placeholder="", column_config={
            "title": st.column_config.TextColumn("title", width="medium"),
            "into title": st.column_config.TextColumn("into title", width="medium")})
        st.download_button("Download the merges (CSV)", _csv(table), file_name=f"{corpus}-merges.csv",
                           mime="text/csv", key=f"merges_csv_{key}")
        choices = {r["record"]: r for r in rows if r["rule"] != TEXT_RULE}
        if len(choices) < len(rows):
            st.caption(f"{plural(len(rows) - len(choices), 'record')} merged by the same title and abstract "
                       "cannot be split: as two papers they could not be told apart.")
        if not choices:
            return
        record = st.selectbox("Split a merged record back into a paper of its own", list(choices),
                              format_func=lambda k: (f"{choices[k]['file']} row {choices[k]['row']} "
                                                     f"({choices[k]['id']}) → {choices[k]['into']}"),
                              key=f"split_record_{key}")
        chosen = choices[record]
        if st.button(f"Split record {md_escape(chosen['id'])} from paper {md_escape(chosen['into'])}",
                     key=f"split_button_{key}"):
            try:
                with s.transaction() as conn:
                    new_id = split_record(conn, corpus, int(record))
            except MireadError as exc:
                show_error(exc)
            else:
                st.session_state[_SPLIT_DONE] = (
                    f"Record {md_escape(chosen['id'])} ({md_escape(chosen['file'])}, row {chosen['row']}) is now "
                    f"paper {md_escape(new_id)} of its own; paper {md_escape(chosen['into'])} gave back what it "
                    "had taken from it. Embed the corpus again to place it on the map.")
                st.rerun()


def overlap_panel(report: dict[str, Any]) -> None:
    """After a several-file import: papers per database, found by one or several, unique to each (CiteSource's
    view), as a table, a chart of the database combinations, and a CSV."""
    if len(report.get("files") or []) < 2:
        return
    corpus = report["corpus"]
    with store().connect() as conn:
        summary = overlap(conn, corpus)
    if len(summary["papers"]) < 2:
        return
    with st.expander(f"Which databases found which papers ({len(summary['papers'])} sources)",
                     icon=":material/join_inner:"):
        counts = " · ".join(f"{plural(n, 'paper')} found by {k} source{'s' if k > 1 else ''}"
                            for k, n in summary["by_count"].items())
        st.caption(f"{plural(summary['total'], 'paper')} in **{md_escape(corpus)}**: {counts}. A source is the "
                   "database a file's name says it came from, else the file itself.")
        rows = pd.DataFrame(overlap_rows(summary))
        st.dataframe(rows, width="stretch", hide_index=True)
        st.plotly_chart(combinations_figure(summary), width="stretch", key="overlap_chart")
        st.download_button("Download the overlap (CSV)", _csv(rows), file_name=f"{corpus}-overlap.csv",
                           mime="text/csv", key="overlap_csv")


def combinations_figure(summary: dict[str, Any], top: int = 15) -> go.Figure:
    """An UpSet-style chart: the papers of each combination of sources (bars), most common first."""
    combos = list(summary["combinations"].items())[:top]
    labels = [" + ".join(c).replace("<", "‹").replace(">", "›") for c, _ in combos]  # Plotly reads tags in labels
    fig = go.Figure(go.Bar(x=[n for _, n in combos], y=labels, orientation="h", text=[n for _, n in combos],
                           textangle=0, textposition="auto", cliponaxis=False,  # a count stays level, on a phone too
                           hovertemplate="%{y}: %{x} papers<extra></extra>"))
    fig.update_layout(height=80 + 26 * len(combos), margin={"l": 10, "r": 10, "t": 30, "b": 10},
                      yaxis={"autorange": "reversed"}, xaxis_title="papers",
                      title="Papers found by exactly these sources")
    return fig


def _csv(table: pd.DataFrame) -> bytes:
    return csv_bytes(table)  # no live spreadsheet formulas from data (issue 41)
