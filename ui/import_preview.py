"""The Library's import preview (not a page): how an uploaded file will be read, the column of each field as a
choice, what will be imported and skipped, then the Import button. Several files at once (one search exported by
several databases) get a summary per file and one button that imports them into one corpus in one transaction.
The reading and counting live in ``core.io.plan``, the import in ``core.store.import_file`` / ``import_files``;
this module only draws them and keeps the choices per uploaded file (or set of files)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from core.display import plural
from core.errors import MireadError
from core.io import FIELDS, ImportPlan, ReadOptions, columns_of, plan_import, preview
from core.io.layout import SEPARATOR_NAMES
from core.io.plan import PREVIEW_ROWS, describe_reading, field_sources
from core.io.safety import ENCODING_NAMES
from core.records import md_escape
from core.store import import_file, import_files
from core.store.field_roles import can_be_label, role_of
from ui import state
from ui.errors import show_error
from ui.resources import store
from ui.sidebar import select_corpus, sticky
from ui.table_download import table_download

AUTO, NONE = "(auto)", "(none)"
_REQUIRED = ("title", "abstract")
NO_ABSTRACTS = "this export has no abstracts: tick Titles only, or export again with abstracts"
SEVERAL_DEFAULT_NAME = "search"


@st.cache_data(show_spinner=False, max_entries=16)
def _plan(path: str, size: int, options: tuple[Any, ...], columns: tuple[tuple[str, str], ...],
          title_only: bool) -> ImportPlan:
    """The import plan of a file under the current choices (cached per file and choices)."""
    return plan_import(path, options=ReadOptions(*options), columns=dict(columns), title_only=title_only,
                       limit=PREVIEW_ROWS)


def _choice(key: str) -> Any:
    return st.session_state.get(key, AUTO)


def _chosen_columns(digest: str) -> dict[str, str]:
    """Field -> column the user chose ("" for none); fields left on (auto) are not in it."""
    chosen: dict[str, str] = {}
    for field in FIELDS:
        value = _choice(f"import_col_{field}_{digest}")
        if value == NONE:
            chosen[field] = ""
        elif value != AUTO:
            chosen[field] = value
    return chosen


def _options(digest: str) -> ReadOptions:
    sheet, header, separator, encoding = (_choice(f"import_{k}_{digest}") for k in ("sheet", "header", "sep", "enc"))
    return ReadOptions(sheet=None if sheet == AUTO else sheet,
                       header_row=None if header in (AUTO, 0, None) else int(header),
                       separator=None if separator == AUTO else separator,
                       encoding=None if encoding == AUTO else encoding)


def _encoding_widget(plan: ImportPlan | None, digest: str, slot: Any = st) -> None:
    """The text encoding: (auto) takes the detected one (named in the help); for text files, and whenever the file
    could not be read (a wrong encoding is one reason)."""
    detected = plan.reading.get("encoding") if plan else None
    if plan is not None and not detected:
        return  # Excel, Parquet, XML: the file names its own encoding
    slot.selectbox("Encoding", [AUTO, *ENCODING_NAMES.values()], key=sticky(f"import_enc_{digest}", AUTO),
                   help=f"(auto) = detected{': ' + detected if detected else ''}. Files saved by Excel on Windows "
                        "are often Windows-1252, on a classic Mac Mac Roman.")


def _layout_widgets(plan: ImportPlan | None, digest: str) -> None:
    """Sheet, header row, separator and text encoding, for the formats that have them."""
    reading = plan.reading if plan else {}
    if not reading.get("header_row"):
        if reading.get("encoding"):  # a tagged text (RIS, MEDLINE, BibTeX...): its encoding alone
            _encoding_widget(plan, digest, st.columns(4)[0])
        return
    slots = iter(st.columns(4))
    if plan and plan.sheets:
        next(slots).selectbox("Sheet", [AUTO, *plan.sheets], key=sticky(f"import_sheet_{digest}", AUTO),
                       help="(auto) = the first sheet")
    key = sticky(f"import_header_{digest}", 0)
    found = f"0: found, row {reading['header_row']}" if not st.session_state.get(key) else "0: find it"
    next(slots).number_input(f"Header row ({found})", min_value=0, max_value=10_000, step=1, key=key,
                             help="0 = the first row naming a title column, found in the file. Rows above the "
                                  "header (a search query, notes) are passed over.")
    if reading.get("reader") in ("csv", "tsv"):
        next(slots).selectbox("Separator", [AUTO, *SEPARATOR_NAMES.values()], key=sticky(f"import_sep_{digest}", AUTO),
                        help="(auto) = sniffed from the first rows")
    _encoding_widget(plan, digest, next(slots))


def _mapping_widgets(columns: list[str], plan: ImportPlan | None, digest: str) -> None:
    """One choice per field: (auto) takes what detection found (the caption above says what), (none) leaves an
    optional field out. Options and their labels never change between runs: Streamlit keeps a choice by its label."""
    grid = st.columns(4)
    for i, field in enumerate(FIELDS):
        options = [AUTO, *([] if field == "title" else [NONE]), *columns]
        key = f"import_col_{field}_{digest}"
        for stale in (key, f"_kept_{key}"):  # a column of another sheet or header row is no choice here
            if st.session_state.get(stale, AUTO) not in options:
                st.session_state[stale] = AUTO
        grid[i % 4].selectbox(
            f"{field.capitalize()} column", options, key=sticky(key, AUTO),
        )


def _plan_summary(plan: ImportPlan) -> None:
    reading = plan.reading
    st.caption(" · ".join(describe_reading(reading, plan.tool, mark=lambda v: f"**{md_escape(v)}**")))
    label, sources = field_sources(reading)  # a table's columns; a record format's fields (RIS has no 'journal')
    named = dict(sources)
    st.caption(f"{'Columns' if label == 'columns' else 'Fields read'}: " + " · ".join(
        (f"{field} ← **{md_escape(str(named[field]))}**" if named[field] else field) if field in named
        else f"{field} ← none" for field in (reading.get("columns") or {})))
    fix = why_nothing(plan, "")  # no paper can be imported: the same sentence a file among several gets
    (st.warning if plan.skipped or not plan.papers else st.success)(plan.summary() + "." + (
        f" {md_escape(fix[:1].upper() + fix[1:])}." if fix else ""))
    if plan.id_note:
        st.info(f"Ids: {md_escape(plan.id_note)}")
    if plan.skipped:
        with st.expander(f"Rows that will be skipped ({len(plan.skipped):,})"):
            st.dataframe(pd.DataFrame(plan.skipped), width="stretch", hide_index=True, placeholder="")
            table_download(plan.skipped, "preview_skipped_csv", "rows-to-skip")


def _label_widget(columns: list[str], plan: ImportPlan | None, digest: str) -> list[str]:
    """Which stored fields should be label columns: empty = the guess from roles and values (after import)."""
    mapping = (plan.reading.get("columns") or {}) if plan else {}
    mapped = {str(c) for c in mapping.values() if c}
    fields = [f for f, c in mapping.items() if c and f not in ("title", "abstract", "id")]
    fields += [str(c).strip().lower() for c in columns if str(c) not in mapped]
    options = [f for f in dict.fromkeys(fields) if can_be_label(f, {f: role_of(f)})]
    return st.multiselect("Label columns", options, key=sticky(f"import_labels_{digest}", []),
                          placeholder="Automatic: the journal and columns of repeated short values",
                          help="Columns to colour the map by, filter with and train on. The journal field is the "
                               "journal whatever its count; years, counts, pages, dates, ids and free text are "
                               "never labels. Change them later on the Library page.")


def _blank(path: Path, most: int = 65_536) -> bool:
    """Whether a file holds nothing but white space (a 0-byte download; small files only are read)."""
    try:
        size = path.stat().st_size
        return size == 0 or (size <= most and not path.read_bytes().strip())
    except OSError:
        return False


def import_preview(path: Path, name: str, digest: str) -> None:
    """Draw the preview of an uploaded file and its Import button."""
    if _blank(path):  # no encoding, column or reader choice can find papers in nothing
        st.error(f"**{md_escape(name)}** is empty ({plural(path.stat().st_size, 'byte')}, no text): there is "
                   "nothing to import. Export it again from the database or reference manager (a download that "
                   "failed or was stopped leaves such a file), then drop the new file here.")
        return
    options, chosen = _options(digest), _chosen_columns(digest)
    title_only = bool(st.session_state.get(f"import_title_only_{digest}", False))
    plan: ImportPlan | None = None
    try:
        plan = _plan(str(path), path.stat().st_size,
                     (options.sheet, options.header_row, options.separator, options.encoding),
                     tuple(sorted(chosen.items())), title_only)
    except MireadError as exc:
        show_error(exc)
        _encoding_widget(plan, digest)  # the file could not be read: another encoding may be why
    try:
        columns = plan.source_columns if plan else columns_of(path, options=options)
        head = preview(path, n=10, options=options)
    except MireadError as exc:
        if plan is not None:
            show_error(exc)
        return
    st.caption(f"Preview of **{md_escape(name)}**: nothing is stored until you press Import.")
    _layout_widgets(plan, digest)
    _mapping_widgets(columns, plan, digest)
    st.checkbox("Titles only: also import papers without an abstract", key=sticky(f"import_title_only_{digest}", False),
                help="For exports without abstracts (PubMed CSV, Google Scholar). Such papers are marked "
                     "'title only' wherever they appear; their embedding sees the title alone.")
    if plan is not None:
        _plan_summary(plan)
    st.dataframe(head, width="stretch", hide_index=True, height=240, placeholder="")
    # a corpus name starts with a letter or digit: '_baseline_scopus.csv' offers 'baseline_scopus'; a name typed for
    # several files of this upload stays when all but one were removed
    name_default = _typed_several_name() or Path(name).name.split(".")[0].lstrip("_-. ")[:40] or "corpus"
    # one input per uploaded file: a name typed for this file survives reruns and never carries over
    corpus = _corpus_name(f"corpus_name_{digest}", name_default)
    chosen_labels = _label_widget(columns, plan, digest)
    if st.button("Import", type="primary", disabled=plan is None or not plan.papers):
        try:
            with st.spinner("Importing…"):
                report = import_file(store(), path, corpus, source=name, columns=chosen, options=options,
                                     title_only=title_only, labels=chosen_labels)
        except MireadError as exc:
            show_error(exc)
        else:
            _imported(report.to_dict(max_errors=100_000))


def _corpus_name(key: str, default: str) -> str:
    """The corpus name input (one per upload: a name typed survives reruns and never carries over), with a warning
    when it names a corpus that exists."""
    corpus = st.text_input("Corpus name", key=sticky(key, default),
                           help="Importing into an existing corpus adds papers; duplicates are merged.")
    if corpus.strip() and store().has_corpus(corpus.strip()):  # a re-import names the corpus it adds to
        existing = store().corpus(corpus.strip())
        st.warning(f"Corpus **{md_escape(existing.name)}** exists with {existing.papers:,} "
                   f"paper{'s' if existing.papers != 1 else ''}: this import adds to it (duplicates are merged, "
                   "nothing is removed). Type another name for a new corpus.")
    return corpus


def _imported(report: dict[str, Any]) -> None:
    st.session_state[state.IMPORT_REPORT] = report
    # a multi-file uploader keeps its files: without a new key, the next file dropped would join the imported ones
    st.session_state[state.UPLOAD_ROUND] = st.session_state.get(state.UPLOAD_ROUND, 0) + 1
    select_corpus(report["corpus"])
    st.session_state[state.EMBED_TARGET] = report["corpus"]  # what a user embeds next
    st.rerun()


def _several_name_key() -> str:
    """The corpus name input of a several-file upload: one per upload round, so that adding or removing a file keeps
    the name typed (an import starts a new round, and a new name)."""
    return f"corpus_name_several_{st.session_state.get(state.UPLOAD_ROUND, 0)}"


def forget_several_name() -> None:
    """Forget the name typed for several files (the uploader is empty: the next files are another upload)."""
    for key in (_several_name_key(), f"_kept_{_several_name_key()}"):
        st.session_state.pop(key, None)


def _typed_several_name() -> str | None:
    """The name typed for several files of this upload, when one was typed."""
    key = _several_name_key()
    typed = st.session_state.get(key, st.session_state.get(f"_kept_{key}"))
    return typed.strip() if isinstance(typed, str) and typed.strip() not in ("", SEVERAL_DEFAULT_NAME) else None


def why_nothing(plan: ImportPlan | None, error: str) -> str:
    """Why no paper of a file can be imported, in one sentence naming the fix; "" when some can."""
    if plan is None:
        return NO_ABSTRACTS if "no abstract column" in error else error
    if plan.papers:
        return ""
    if plan.records and not plan.with_abstract and all("abstract" in s["reason"] for s in plan.skipped):
        return NO_ABSTRACTS
    first = plan.skipped[0]["reason"] if plan.skipped else "the file has no records"
    return f"no paper can be imported: {first}"


def file_summaries(plans: list[tuple[str, ImportPlan | None, str]]) -> pd.DataFrame:
    """One row per uploaded file: its name, reader, rows, papers, rows to skip and the fields found (or, when no
    paper can be imported, why and the fix). ``plans``: (name, plan or None, the error sentence when None)."""
    rows = []
    for name, plan, error in plans:
        reason = why_nothing(plan, error)
        if plan is None:
            rows.append({"file": name, "reader": "–", "rows": None, "papers": 0, "skipped": 0,
                         "fields found": reason})  # rows unknown: the file could not be read, not 0 rows
            continue
        # a tagged format maps every tag it knows whether or not a record has it: found means some record has it
        found = [f for f, column in (plan.reading.get("columns") or {}).items()
                 if column and (f != "abstract" or plan.with_abstract)
                 and (f in ("title", "abstract", "id") or f in plan.filled)]
        text = reason or ", ".join(found) + ("" if plan.complete else " (first rows checked)")
        rows.append({"file": name, "reader": plan.reader_name,
                     "rows": plan.records, "papers": plan.papers, "skipped": len(plan.skipped),
                     "fields found": text})
    return pd.DataFrame(rows).astype({"rows": "Int64"})


def rows_to_skip(plans: list[tuple[str, ImportPlan | None, str]]) -> pd.DataFrame:
    """Every row the import would skip, with its file, row and reason (columns file, row, reason)."""
    rows = [{"file": name, "row": skip.get("row"),
             "reason": re.sub(r"^row \d+: ", "", str(skip.get("reason", "")))}  # the row has its own column
            for name, plan, _ in plans if plan is not None for skip in plan.skipped]
    return pd.DataFrame(rows, columns=["file", "row", "reason"])


def title_only_keys(digests: list[str]) -> list[str]:
    """The Titles only box key of each uploaded file: its content digest (a tick survives adding or removing other
    files), numbered from the second copy on when the same bytes were dropped twice (one key per box)."""
    seen: Counter[str] = Counter()
    keys = []
    for digest in digests:
        seen[digest] += 1
        keys.append(f"import_title_only_{digest}" + (f"_{seen[digest]}" if seen[digest] > 1 else ""))
    return keys


def several_preview(files: list[tuple[Path, str, str]]) -> None:
    """Draw the preview of several uploaded files (a summary per file, Titles only per file) and one button importing
    them all into one corpus: one transaction, duplicates merged across the files and with the corpus (by DOI or
    title+abstract). ``files``: (path, name as uploaded, the file's digest)."""
    plans: list[tuple[str, ImportPlan | None, str]] = []
    keys = title_only_keys([digest for _, _, digest in files])
    flags = [bool(st.session_state.get(key, False)) for key in keys]
    for (path, name, _), title_only in zip(files, flags):
        try:
            plans.append((name, _plan(str(path), path.stat().st_size, (None, None, None, None), (), title_only), ""))
        except MireadError as exc:
            plans.append((name, None, str(exc)))
    st.caption(f"Preview of **{len(files)} files**: nothing is stored until you press Import. They go into one "
               "corpus in one step; a paper found in several files is kept once (same title and abstract; or a "
               "shared DOI, PMID or other id whose titles agree; or, without one, the same title, year and first "
               "author): the first file's text stays, later files fill the fields it lacked.")
    st.dataframe(file_summaries(plans), width="stretch", hide_index=True, placeholder="")
    skips = rows_to_skip(plans)
    if len(skips):
        with st.expander(f"Rows that will be skipped ({len(skips):,})"):
            st.dataframe(skips, width="stretch", hide_index=True, placeholder="")
            table_download(skips, "preview_skips_csv", "rows-to-skip")
            if skips["reason"].str.contains("abstract").any():
                st.caption("A row without an abstract is imported as a title-only paper when Titles only is "
                           "ticked for its file.")
    st.caption("Titles only: also import the papers of a file that have no abstract (marked 'title only').")
    slots = st.columns(min(len(files), 4))
    for i, ((_, name, _), key) in enumerate(zip(files, keys)):
        slots[i % len(slots)].checkbox(f"Titles only: {md_escape(name)}", key=sticky(key, False))
    unreadable = [(name, why_nothing(plan, error)) for name, plan, error in plans if plan is None or not plan.papers]
    if unreadable:
        these = "this file" if len(unreadable) == 1 else "these files"
        one = len(unreadable) == 1
        st.warning("\n".join(f"- **{md_escape(name)}**: {md_escape(reason)}" for name, reason in unreadable)
                   + f"\n\nNo paper can be imported from {these} as {'it is' if one else 'they are'}: fix "
                   f"{'it' if one else 'them'} as said, or remove {'it' if one else 'them'} from the upload to "
                   "import the others.")
    corpus = _corpus_name(_several_name_key(), SEVERAL_DEFAULT_NAME)
    if st.button(f"Import {len(files)} files into corpus {md_escape(corpus.strip()) or '…'}", type="primary",
                 key="import_several", disabled=bool(unreadable) or not corpus.strip()):
        try:
            with st.spinner(f"Importing {len(files)} files…"):
                report = import_files(store(), [path for path, _, _ in files], corpus, title_only=flags)
        except MireadError as exc:
            show_error(exc)
        else:
            _imported(report.to_dict(max_errors=100_000))
