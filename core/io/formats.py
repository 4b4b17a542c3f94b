"""Format detection (by content first, then extension) and the dispatch from a file to its format's reader.

Content wins where a format has a signature: MEDLINE text saved as ``.ris`` or ``.txt`` is MEDLINE, an RIS file
saved as ``.txt`` is RIS, ``.xml`` is PubMed or EndNote XML by its elements. An extension is evidence too: a file
named ``.csv`` or ``.tsv`` whose first rows read as a table with a header naming a title column is that table,
whatever its cells hold (an abstract quoting RIS lines, ``TY  - JOUR``, stays an abstract); content overrules such
an extension only when the file does not read as a table, and the reading then says why (``format_note``).
Tables (CSV, TSV, Excel) are read with a ``Layout``: the header row found under any preamble, the separator
sniffed, the sheet chosen.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import CorpusError
from core.io.api_json import unread_json
from core.io.arxiv_atom import arxiv_atom_rows, looks_like_arxiv_atom
from core.io.bibtex import _bibtex_rows, looks_like_bibtex
from core.io.binary_kinds import is_zipped_workbook, not_an_export
from core.io.citavi import citavi_rows, looks_like_citavi, looks_like_citavi_backup
from core.io.dspace import dspace_rows, looks_like_dspace
from core.io.ebsco_xml import ebsco_xml_rows, looks_like_ebsco_xml
from core.io.endnote import _endnote_rows, looks_like_endnote
from core.io.europe_pmc import europe_pmc_table
from core.io.europe_pmc_xml import europe_pmc_xml_rows, looks_like_europe_pmc_xml
from core.io.excel import _excel_rows, excel_layout
from core.io.field_blocks import field_block_rows, looks_like_field_blocks
from core.io.id_lists import looks_like_pmid_list, pmid_list_error
from core.io.jats import _jats_rows, is_jats
from core.io.json_records import json_rows
from core.io.layout import Layout, separator_of, sniff_text
from core.io.marcxml import binary_marc_error, is_binary_marc, looks_like_marcxml, marcxml_rows
from core.io.medline import _medline_rows, looks_like_medline, looks_like_pubmed_display, pubmed_display_error
from core.io.mods import looks_like_mods, mods_rows
from core.io.noteexpress import looks_like_noteexpress, noteexpress_rows
from core.io.ovid import looks_like_ovid, ovid_rows
from core.io.ovid_table import ovid_table
from core.io.plain_exports import PLAIN_NAMES, PLAIN_READERS, plain_export_format
from core.io.printed import looks_like_printed_bibliography, printed_bibliography_error
from core.io.pubmed import _pubmed_rows
from core.io.refworks import looks_like_refworks, refworks_rows
from core.io.ris import _ris_rows, looks_like_ris
from core.io.rows import NumberedRow
from core.io.safety import (
    _check_file,
    _decoding,
    _head_text,
    _name,
    _open_binary,
    text_encoding,
    with_encoding,
    xml_head,
)
from core.io.tabular import _delimited_rows, _jsonl_rows, _parquet_rows
from core.io.tagged import _cochrane_rows, _refer_rows, _wos_rows, looks_like_cochrane, looks_like_refer, looks_like_wos
from core.io.zotero_rdf import looks_like_zotero_rdf, zotero_rdf_rows
from core.records import RowError

FORMATS: tuple[str, ...] = ("csv", "tsv", "excel", "jsonl", "parquet", "pubmed", "jats", "medline", "bibtex", "ris",
                            "endnote", "refer", "wos", "cochrane", "ovid", "refworks", "zotero", "noteexpress",
                            "dspace", "arxiv", "mods", "marcxml", "citavi", "europepmc", "ebsco", *PLAIN_READERS)
FORMAT_NAMES = {"csv": "CSV", "tsv": "TSV", "excel": "Excel (.xlsx, .xls)",
                "jsonl": "JSONL/JSON (incl. CSL JSON, OpenAlex, Semantic Scholar, Europe PMC, Crossref, DataCite, "
                         "ISTEX, ERIC, PLOS, bioRxiv, INSPIRE-HEP)",
                "parquet": "Parquet", "pubmed": "PubMed XML",
                "jats": "JATS / PMC full text (.xml, .nxml, .tar.gz)", "medline": "MEDLINE / PubMed format (.nbib)",
                "bibtex": "BibTeX", "ris": "RIS", "endnote": "EndNote XML",
                "refer": "EndNote tagged / Refer text (.enw)", "wos": "Web of Science plain text",
                "cochrane": "Cochrane CENTRAL text",
                "ovid": "Ovid tagged text (MEDLINE, Embase, PsycINFO… via Ovid)",
                "refworks": "RefWorks tagged text (RefWorks, CNKI)", "zotero": "Zotero RDF",
                "noteexpress": "NoteExpress text (.net; CNKI)",
                "dspace": "DSpace Dublin Core XML (dublin_core.xml)",
                "arxiv": "arXiv API answer (Atom XML, .xml or .atom)",
                "mods": "MODS XML (Zotero, library catalogues)", "marcxml": "MARC XML (MARC 21 slim; catalogues)",
                "citavi": "Citavi XML (.xml, .ctv6bak)", "europepmc": "Europe PMC API XML",
                "ebsco": "EBSCOhost XML (PsycInfo, CINAHL, Academic Search…)", **PLAIN_NAMES}
_EXTENSIONS = {
    ".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json-lines": "jsonl",
    ".json": "jsonl", ".parquet": "parquet", ".pq": "parquet", ".xml": "pubmed", ".bib": "bibtex",
    ".bibtex": "bibtex", ".ris": "ris", ".nbib": "medline", ".medline": "medline", ".xlsx": "excel",
    ".xlsm": "excel", ".xls": "excel", ".ciw": "wos", ".enw": "refer", ".refer": "refer", ".nxml": "jats",
    ".tar": "jats", ".tgz": "jats", ".rdf": "zotero", ".net": "noteexpress", ".atom": "arxiv",
    ".ctv6bak": "citavi", ".ctv5bak": "citavi", ".ctv6": "citavi", ".ctv5": "citavi",
}
_ALIASES = {"pmc": "jats", "nxml": "jats",
            "xml": "pubmed", "pubmed-xml": "pubmed", "nbib": "medline", "pubmed-text": "medline", "bib": "bibtex",
            "ndjson": "jsonl", "json": "jsonl", "csl": "jsonl", "xlsx": "excel", "endnote-xml": "endnote",
            "web-of-science": "wos", "isi": "wos", "enw": "refer", "endnote-tagged": "refer", "ovid-tagged": "ovid",
            "refworks-tagged": "refworks", "zotero-rdf": "zotero", "rdf": "zotero",
            "net": "noteexpress", "atom": "arxiv", "arxiv-atom": "arxiv", "mods-xml": "mods", "marc-xml": "marcxml",
            "marc": "marcxml", "marc21": "marcxml", "ebsco-xml": "ebsco", "ebscohost": "ebsco"}
_TEXT_FORMATS = frozenset(("csv", "tsv", "jsonl", "medline", "bibtex", "ris", "refer", "wos", "cochrane", "ovid",
                            "refworks", "noteexpress", *PLAIN_READERS))
_TEXT_TABLE_EXTENSIONS = (".txt", "")  # tables saved as .txt (RefWorks, Web of Science tab-delimited)
_TABLE_EXTENSIONS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv"}  # extensions that stand when the rows agree
# .xml names them all: no note between them
_XML_FORMATS = frozenset(("pubmed", "jats", "endnote", "dspace", "arxiv", "mods", "marcxml", "citavi", "europepmc",
                          "ebsco"))
_PEEK_ROWS = 100
_BINARY_MARC_EXTENSIONS = (".mrc", ".marc", ".iso2709")  # refused whatever they hold, unless it is text read by content
_JSON_START = re.compile(r'(\{\s*"|\[\s*[{\]])')  # how a JSON object or a list of objects starts


def _unknown(path: Path) -> CorpusError:
    names = ", ".join(FORMAT_NAMES[f] for f in FORMATS)
    return CorpusError(f"file '{_name(path)}' has an unknown format; use {names}")


def _json_object_line(text: str) -> bool:
    try:
        return isinstance(json.loads(text.splitlines()[0]), dict)
    except (ValueError, RecursionError, IndexError):
        return False


def _reads_as_table(text: str, ext: str) -> bool:
    """Whether a text's first rows read as a table under its extension: a header row naming a title column."""
    return sniff_text(text, "\t" if _TABLE_EXTENSIONS[ext] == "tsv" else ",").found_by_title


def _extension(path: Path) -> str:
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes.pop()
    return suffixes[-1] if suffixes else ""


def format_note(path: Path, fmt: str) -> str:
    """Why a file is read in another format than its extension names ("" when it is not): content overruled it."""
    ext = _extension(path)
    named = _EXTENSIONS.get(ext)
    if named is None or named == fmt or {named, fmt} <= _XML_FORMATS:
        return ""
    why = (f"its first rows do not read as a table with a title column, and its content is {FORMAT_NAMES[fmt]}"
           if named in ("csv", "tsv") else f"its content is {FORMAT_NAMES[fmt]}")
    return f"not {FORMAT_NAMES[named]} as its extension '{ext}' says: {why}"


def _by_content(path: Path, ext: str) -> str | None:
    """The format a file's first bytes show, when they show one."""
    with _open_binary(path) as stream:
        magic = stream.read(8)
    if magic.startswith(b"PK\x03\x04") and ext not in (".xlsx", ".xlsm", ".xls") and looks_like_citavi_backup(path):
        return "citavi"
    if magic.startswith(b"PK\x03\x04") or magic.startswith(b"\xd0\xcf\x11\xe0"):
        # a workbook is Excel whatever its name (one saved as .ris or .csv too); another zip is left to its extension
        return "excel" if ext in (".xlsx", ".xlsm", ".xls", ".txt", "") or is_zipped_workbook(path, magic) else None
    if refused := not_an_export(path, magic):
        raise refused
    if magic.startswith(b"PAR1"):
        return "parquet"
    try:
        head = _head_text(path)
    except CorpusError:
        return None  # the reader chosen by extension says what is wrong with the text
    text = head.lstrip()
    if text.startswith("{") and _json_object_line(text):
        return "jsonl"  # JSON lines, whatever the file is called: no table starts with a whole JSON object
    if ext in _TABLE_EXTENSIONS and _reads_as_table(text, ext):
        return None  # the extension stands: the file is the table it says it is
    if looks_like_medline(text):
        return "medline"
    if looks_like_wos(text):
        return "wos"
    if looks_like_ovid(text):
        return "ovid"
    if looks_like_refworks(text):
        return "refworks"
    if looks_like_noteexpress(text):
        return "noteexpress"
    if looks_like_ris(text):  # before Cochrane: its RIS exports start with the same "Record #1 of N" preamble
        return "ris"
    if looks_like_bibtex(text):  # before Cochrane too: its BibTeX heads each entry with "Record #1 of N"
        return "bibtex"
    if found := plain_export_format(text):  # after BibTeX: Scopus' BibTeX opens as Scopus' plain text does
        return found
    if looks_like_cochrane(text):
        return "cochrane"
    if looks_like_refer(text):
        return "refer"
    if ext in _TEXT_TABLE_EXTENSIONS and _JSON_START.match(text):
        return "jsonl"  # a JSON document (an API response) saved as .txt
    if text.startswith("<"):
        if looks_like_endnote(text.encode()):
            return "endnote"
        if looks_like_zotero_rdf(text):
            return "zotero"
        if looks_like_dspace(text):
            return "dspace"
        if looks_like_arxiv_atom(text):
            return "arxiv"
        for found, looks_like in (("mods", looks_like_mods), ("marcxml", looks_like_marcxml),
                                  ("citavi", looks_like_citavi), ("europepmc", looks_like_europe_pmc_xml),
                                  ("ebsco", looks_like_ebsco_xml)):
            if looks_like(text):
                return found
        if "<PubmedArticle" in text[:20000] or "<MedlineCitation" in text[:20000]:
            return "pubmed"
        return "jats" if is_jats(text[:20000]) else None
    if ext in _TEXT_TABLE_EXTENSIONS and looks_like_printed_bibliography(text):
        return None  # not a table because of its commas: refused in detect_format
    if ext in _TEXT_TABLE_EXTENSIONS:
        first = next((line for line in text.splitlines() if line.strip()), "")
        if first.count("\t") >= 2:
            return "tsv"
        if first.count(",") >= 2 or first.count(";") >= 2:
            return "csv"
    return None


def _pubmed_display(path: Path) -> bool:
    try:
        return looks_like_pubmed_display(_head_text(path))
    except CorpusError:
        return False


def _printed(path: Path) -> bool:
    try:
        return looks_like_printed_bibliography(_head_text(path))
    except CorpusError:
        return False


def _pmid_list(path: Path) -> bool:
    try:
        return looks_like_pmid_list(_head_text(path))
    except CorpusError:
        return False


def detect_format(path: str | Path, fmt: str | None = None) -> str:
    """The format of a file: ``fmt`` when given, else from its content, else from its extension (``.gz`` allowed)."""
    path = Path(path)
    if fmt:
        key = _ALIASES.get(fmt.strip().lower(), fmt.strip().lower())
        if key not in FORMATS:
            raise CorpusError(f"format '{fmt}' is unknown; use one of {', '.join(FORMATS)}")
        return key
    ext = _extension(path)
    if path.is_file() and is_binary_marc(path):  # before the text checks: its first "line" may read as CSV
        raise binary_marc_error(_name(path))
    by_content = _by_content(path, ext) if path.is_file() and ext not in (".tar", ".tgz") else None
    if by_content:
        return by_content
    if ext in _EXTENSIONS:
        return _EXTENSIONS[ext]
    if ext in _TEXT_TABLE_EXTENSIONS and path.is_file() and _pubmed_display(path):
        raise pubmed_display_error(_name(path))
    if ext in _TEXT_TABLE_EXTENSIONS and path.is_file() and _printed(path):
        raise printed_bibliography_error(_name(path))
    if ext in _TEXT_TABLE_EXTENSIONS and path.is_file() and _pmid_list(path):
        raise pmid_list_error(_name(path))
    if ext in _BINARY_MARC_EXTENSIONS:
        raise binary_marc_error(_name(path))
    if ext == ".enl":  # EndNote's own database file, not an export (a Refer text saved as .enl is read by content)
        raise CorpusError(f"file '{_name(path)}' is an EndNote library (EndNote's own database), not an export; in "
                          "EndNote choose File > Export and save as RIS or XML, then import that file")
    raise _unknown(path)


@dataclass
class ReadOptions:
    """A user's choices about how a file is read: the sheet, the header row, the separator, the text encoding."""

    sheet: str | None = None
    header_row: int | None = None
    separator: str | None = None
    encoding: str | None = None  # a codecs name or a label of safety.ENCODING_NAMES; None: detected


@dataclass
class Opened:
    """A file opened for reading: its columns, all its rows (the first ones already peeked), its format, layout."""

    columns: list[str]
    rows: Iterator[NumberedRow]
    path: Path
    fmt: str
    layout: Layout = field(default_factory=Layout)
    encoding: str | None = None  # the text encoding read in (None: a binary or XML format, which names its own)
    format_note: str = ""  # why the content overruled the extension, when it did


_LIBRARY_READERS = {"mods": mods_rows, "marcxml": marcxml_rows, "citavi": citavi_rows, "europepmc": europe_pmc_xml_rows,
                    "ebsco": ebsco_xml_rows}
_TEXT_READERS: dict[str, Callable[[Path], Iterator[NumberedRow]]] = {
    "bibtex": _bibtex_rows, "ris": _ris_rows, "medline": _medline_rows, "wos": _wos_rows, "cochrane": _cochrane_rows,
    "refer": _refer_rows, "ovid": ovid_rows, "refworks": refworks_rows,
    "noteexpress": noteexpress_rows, **PLAIN_READERS,
}


def _numbered_rows(path: Path, fmt: str, options: ReadOptions) -> tuple[Iterator[NumberedRow], Layout]:
    if fmt == "parquet":
        return _parquet_rows(path), Layout()
    if fmt == "pubmed":
        return _pubmed_rows(path), Layout()
    if fmt == "jats":
        return _jats_rows(path), Layout()
    if fmt == "endnote":
        return _endnote_rows(path), Layout()
    if fmt == "zotero":
        return zotero_rdf_rows(path), Layout()
    if fmt == "dspace":
        return dspace_rows(path), Layout()
    if fmt == "arxiv":
        return arxiv_atom_rows(path), Layout()
    if fmt in _LIBRARY_READERS:  # MODS, MARC XML, Citavi, Europe PMC's XML, EBSCOhost XML
        return _LIBRARY_READERS[fmt](path), Layout()
    if fmt == "excel":
        layout = excel_layout(path, options.sheet, options.header_row)
        return _excel_rows(path, layout), layout
    if fmt in ("csv", "tsv"):
        default = "\t" if fmt == "tsv" else ","
        head = _head_text(path)
        if fmt == "csv" and options.header_row is None and looks_like_field_blocks(head):
            return _decoding(path, field_block_rows), Layout()  # Embase: one field per row, records in blocks
        layout = sniff_text(head, default, options.header_row, separator_of(options.separator))
        reader = functools.partial(_delimited_rows, delimiter=layout.separator or default,
                                   header_row=layout.header_row)
        return ovid_table(europe_pmc_table(_decoding(path, reader))), layout  # Europe PMC's, Ovid's CSV
    if fmt == "jsonl":
        return json_rows(_decoding(path, _jsonl_rows)), Layout()
    return _decoding(path, _TEXT_READERS[fmt]), Layout()


_XML_ROOT = re.compile(rb"<([A-Za-z_][\w.:-]*)")  # the first element after the declaration, comments and DOCTYPE
_XML_PREAMBLE = re.compile(rb"^(?:\s+|<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>]*>)*", re.DOTALL)


def _unknown_xml(path: Path) -> CorpusError | None:
    """The refusal of an XML file whose root element no reader knows (a Citavi or an OAI-PMH file), naming it and the
    XML exports that are read; None when it is PubMed's or unreadable."""
    try:
        head = xml_head(path).lstrip(b"\xef\xbb\xbf")
    except (CorpusError, OSError):
        return None
    found = _XML_ROOT.match(head, _XML_PREAMBLE.match(head).end())
    root = found.group(1).decode("ascii", "replace") if found else None
    if root is None or root in ("PubmedArticleSet", "PubmedArticle", "PubmedBookArticleSet"):
        return None
    return CorpusError(f"file '{_name(path)}' is XML whose root element is <{root}>, which no reader here knows: "
                       "PubMed XML, EndNote XML, Zotero RDF, DSpace Dublin Core, arXiv's and Europe PMC's API answers, "
                       "EBSCOhost XML, MODS, MARC XML and JATS (PMC) XML are read; export the records as RIS or BibTeX "
                       "(or one of those XML kinds) and import that file")


def _open_rows(path: str | Path, fmt: str | None, options: ReadOptions | None = None) -> Opened:
    """Open a file eagerly: check it, peek its first rows; return its columns, all its rows, format and layout."""
    options = options or ReadOptions()
    path = with_encoding(Path(path), options.encoding)
    _check_file(path)
    given = fmt
    fmt = detect_format(path, fmt)
    rows, layout = _numbered_rows(path, fmt, options)
    head = list(itertools.islice(rows, _PEEK_ROWS))
    columns: dict[str, None] = {}
    for _, row in head:
        if isinstance(row, dict):
            columns.update(dict.fromkeys(row))
    if not columns and fmt == "pubmed" and not given and (refusal := _unknown_xml(path)):
        raise refusal  # an .xml read as PubMed XML by its extension alone: say what it is instead
    if not columns:
        kind = "rows" if fmt in ("csv", "tsv", "parquet", "excel") else "records"
        skipped = next((row.reason for _, row in head if isinstance(row, RowError)), None)  # say why (issue 41)
        raise CorpusError(f"file '{_name(path)}' has no usable {kind}: {skipped}" if skipped else
                          f"file '{_name(path)}' has no {kind}")
    if fmt == "jsonl" and len(head) == 1 and (refusal := unread_json(_name(path), head[0][1])):
        raise refusal  # one JSON document of no known shape, its records under a key no reader knows
    encoding = text_encoding(path) if fmt in _TEXT_FORMATS else None
    note = "" if given else format_note(path, fmt)
    return Opened(list(columns), itertools.chain(head, rows), path, fmt, layout, encoding, note)
