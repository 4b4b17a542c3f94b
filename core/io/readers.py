"""Reading paper collections: format detection, streaming readers, column detection, validation, export.

Every reader streams: a file is never loaded whole, except BibTeX files and ``.json`` arrays, whose
parsers need the full text. Bad input raises ``CorpusError`` with one sentence; rows that cannot be
used come out of ``read_papers`` as ``RowError`` with their 1-based row number; a field that could not be
read whole (BibTeX LaTeX that does not decode, a repeated field or RIS tag) comes out as ``RowWarning``
after its row, whose paper is still imported.

What ``export_papers`` -> ``read_papers`` round-trips exactly:
- JSONL: every JSON value (strings, numbers, booleans, None, lists, dicts); other values become strings.
- Parquet: the same; columns of mixed or nested types are stored as JSON text and decoded on import.
- CSV/TSV: strings, lists and dicts (JSON-encoded); None and "" both come back as None;
  numbers and booleans come back as strings. On import, a CSV cell that is a JSON list or object
  (starts with ``[`` or ``{`` and parses) becomes that list or dict.
Ids, titles and abstracts round-trip in every format.
"""

from __future__ import annotations

import codecs
import csv
import functools
import gzip
import io
import itertools
import json
import os
import re
import tempfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from core.errors import CorpusError
from core.labels import is_missing
from core.records import Paper, RowError, duplicate_key

if TYPE_CHECKING:
    import pandas

FORMATS: tuple[str, ...] = ("csv", "tsv", "jsonl", "parquet", "pubmed", "bibtex", "ris")

MAX_EXPANDED_BYTES = 8 * 2**30
MAX_FIELD_CHARS = 50 * 2**20
MAX_LINE_CHARS = 2 * MAX_FIELD_CHARS

_FORMAT_NAMES = "CSV, TSV, JSONL, Parquet, PubMed XML, BibTeX or RIS"
_EXTENSIONS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json-lines": "jsonl",
    ".json": "jsonl",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".xml": "pubmed",
    ".bib": "bibtex",
    ".bibtex": "bibtex",
    ".ris": "ris",
}
_ALIASES = {"xml": "pubmed", "medline": "pubmed", "bib": "bibtex", "ndjson": "jsonl", "json": "jsonl"}
_HEAD_BYTES = 2**20
_ENTITY_SCAN_BYTES = 64 * 2**10
_PEEK_ROWS = 100
_GZIP_MAGIC = b"\x1f\x8b"
_JSON_COLUMNS_KEY = b"miread.json_columns"
_ABSENT_COLUMN_KEY = b"miread.absent_column"  # a list column naming the fields a row did not have

_TITLE_NAMES = ("title", "paper_title", "article_title", "document_title", "primary_title", "ti", "t1")
_ABSTRACT_NAMES = (
    "abstract", "abstract_text", "abstracttext", "paper_abstract", "article_abstract", "abstract_note",
    "summary", "ab", "n2", "notes_abstract", "description",
)
_ID_NAMES = (
    "id", "paper_id", "paperid", "article_id", "doc_id", "document_id", "record_id", "uid", "uuid",
    "pmid", "pubmed_id", "pmcid", "arxiv_id", "corpus_id", "corpusid", "eid", "ut_unique_wos_id",
    "accession_number", "key", "citation_key",
)
_SPACE = re.compile(r"\s+")
_NON_WORD = re.compile(r"[^a-z0-9]+")
_YEAR = re.compile(r"\b(\d{4})\b")

Row = dict[str, Any]
NumberedRow = tuple[int, "Row | RowError | RowWarning"]


@dataclass
class RowWarning:
    """A field of an imported row that could not be read whole: 1-based row number, column and reason."""

    row: int
    column: str
    reason: str


# ---------------------------------------------------------------------------------------------
# Formats and files


def _shown(text: str, limit: int = 80) -> str:
    """Text for a one-line message: control characters escaped (a tab as \\t), shortened to `limit`."""
    text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _name(path: Path) -> str:
    return _shown(path.name, 200)


def _check_file(path: Path) -> None:
    if not path.exists():
        raise CorpusError(f"file '{_name(path)}' was not found")
    if path.is_dir():
        raise CorpusError(f"'{_name(path)}' is a folder, not a file")
    if not path.is_file():
        raise CorpusError(f"'{_name(path)}' is not a regular file (a device, pipe or socket)")
    if path.stat().st_size == 0:
        raise CorpusError(f"file '{_name(path)}' is empty")


def _unknown(path: Path) -> CorpusError:
    return CorpusError(f"file '{_name(path)}' has an unknown format; use {_FORMAT_NAMES}")


def detect_format(path: str | Path, fmt: str | None = None) -> str:
    """The format of a file: ``fmt`` when given, else from its extension (``.gz`` allowed)."""
    path = Path(path)
    if fmt:
        key = _ALIASES.get(fmt.strip().lower(), fmt.strip().lower())
        if key not in FORMATS:
            raise CorpusError(f"format '{fmt}' is unknown; use one of {', '.join(FORMATS)}")
        return key
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes.pop()
    ext = suffixes[-1] if suffixes else ""
    if ext in _EXTENSIONS:
        return _EXTENSIONS[ext]
    if ext == ".txt" and path.is_file() and _head_text(path).lstrip().startswith("TY  -"):
        return "ris"
    raise _unknown(path)


def _expanded_limit() -> int:
    value = os.environ.get("MIREAD_MAX_EXPANDED_BYTES", "").strip()
    return int(value) if value.isdigit() else MAX_EXPANDED_BYTES


class _GuardedGzip(io.RawIOBase):
    """A gzip stream that refuses to expand past a limit and reports damage as CorpusError."""

    def __init__(self, path: Path, limit: int):
        self._path = path
        self._limit = limit
        self._total = 0
        self._inner = gzip.GzipFile(path, "rb")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        try:
            count = self._inner.readinto(buffer)
        except (EOFError, gzip.BadGzipFile, zlib.error):
            raise CorpusError(f"file '{_name(self._path)}' is truncated or not valid gzip") from None
        self._total += count
        if self._total > self._limit:
            raise CorpusError(
                f"file '{_name(self._path)}' expands to more than {self._limit:,} bytes, "
                "over the limit set by MIREAD_MAX_EXPANDED_BYTES"
            )
        return count

    def close(self) -> None:
        self._inner.close()
        super().close()


def _open_binary(path: Path) -> io.BufferedReader:
    """Open a file for reading bytes, decompressing (with guards) when it is gzip."""
    with open(path, "rb") as probe:
        magic = probe.read(2)
    if magic == _GZIP_MAGIC:
        return io.BufferedReader(_GuardedGzip(path, _expanded_limit()), buffer_size=2**16)
    return open(path, "rb")


def _encoding_of(head: bytes) -> str:
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    return "utf-8"


def _encoding_error(path: Path, position: int | None, encoding: str) -> CorpusError:
    if encoding == "utf-16":
        return CorpusError(f"file '{_name(path)}' is not valid UTF-16 text; save it as UTF-8 and import again")
    where = f" (invalid byte at position {position})" if position is not None else ""
    return CorpusError(f"file '{_name(path)}' is not UTF-8 text{where}; save it as UTF-8 and import again")


def _invalid_byte_position(path: Path) -> int | None:
    """Byte offset of the first invalid UTF-8 sequence in the (expanded) file, if any."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0
    with _open_binary(path) as stream:
        while True:
            chunk = stream.read(2**20)
            pending = len(decoder.getstate()[0])
            try:
                decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as error:
                return offset - pending + error.start
            if not chunk:
                return None
            offset += len(chunk)


def _head_text(path: Path) -> str:
    """Decode the first MiB of a text file, refusing empty or non-UTF-8/16 files."""
    with _open_binary(path) as stream:
        head = stream.read(_HEAD_BYTES)
        at_end = not stream.peek(1)
    encoding = _encoding_of(head)
    try:
        text = codecs.getincrementaldecoder(encoding.replace("-sig", ""))().decode(head, final=at_end)
    except UnicodeDecodeError as error:
        raise _encoding_error(path, error.start, encoding) from None
    if at_end and not text.lstrip("\ufeff").strip():
        raise CorpusError(f"file '{_name(path)}' is empty")
    return text.lstrip("\ufeff")


def _open_text(path: Path, newline: str | None = None) -> IO[str]:
    stream = _open_binary(path)
    return io.TextIOWrapper(stream, encoding=_encoding_of(stream.peek(4)[:4]), newline=newline)


def _decoding(path: Path, reader: Callable[[Path], Iterator[NumberedRow]]) -> Iterator[NumberedRow]:
    """Run a text reader, turning a decoding error anywhere in the file into one CorpusError."""
    _head_text(path)
    try:
        yield from reader(path)
    except UnicodeDecodeError as error:
        encoding = "utf-16" if "16" in (error.encoding or "") else "utf-8"
        position = _invalid_byte_position(path) if encoding == "utf-8" else None
        raise _encoding_error(path, position, encoding) from None


# ---------------------------------------------------------------------------------------------
# Readers: each yields (1-based row number, raw row dict or RowError)


def _unique_header(cells: Sequence[str]) -> list[str]:
    names: list[str] = []
    for index, cell in enumerate(cells, start=1):
        base = cell.strip() or f"column_{index}"
        name, suffix = base, 2
        while name in names:
            name, suffix = f"{base}_{suffix}", suffix + 1
        names.append(name)
    return names


def _delimited_rows(path: Path, delimiter: str) -> Iterator[NumberedRow]:
    csv.field_size_limit(MAX_FIELD_CHARS)
    number = 0
    with _open_text(path, newline="") as handle:
        reader = csv.reader(handle, delimiter=delimiter)
        try:
            header: list[str] | None = None
            for cells in reader:
                if not any(cell.strip() for cell in cells):
                    continue
                if header is None:
                    header = _unique_header(cells)
                    continue
                number += 1
                extra = [cell for cell in cells[len(header):] if cell.strip()]
                if extra:
                    yield number, RowError(
                        number, f"row {number}: has {len(cells)} values but the header has {len(header)} columns"
                    )
                    continue
                yield number, {key: (cells[i] if i < len(cells) else None) for i, key in enumerate(header)}
        except csv.Error as error:
            if "field larger than field limit" in str(error):
                raise CorpusError(
                    f"file '{_name(path)}' row {number + 1} has a field longer than "
                    f"{MAX_FIELD_CHARS:,} characters; shorten it and import again"
                ) from None
            raise CorpusError(f"file '{_name(path)}' row {number + 1} cannot be read ({error})") from None


def _csv_rows(path: Path) -> Iterator[NumberedRow]:
    return _delimited_rows(path, ",")


def _tsv_rows(path: Path) -> Iterator[NumberedRow]:
    return _delimited_rows(path, "\t")


def _json_object(path: Path, value: Any, where: str) -> Row:
    if not isinstance(value, dict):
        raise CorpusError(f"file '{_name(path)}' {where} is not a JSON object")
    return value


def _jsonl_rows(path: Path) -> Iterator[NumberedRow]:
    if _head_text(path).lstrip().startswith("["):
        yield from _json_array_rows(path)
        return
    number = 0
    with _open_text(path) as handle:
        for line_number in itertools.count(1):
            line = handle.readline(MAX_LINE_CHARS + 1)
            if not line:
                return
            if len(line) > MAX_LINE_CHARS:
                raise CorpusError(
                    f"file '{_name(path)}' line {line_number} is longer than {MAX_LINE_CHARS:,} characters"
                )
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except (ValueError, RecursionError):
                raise CorpusError(f"file '{_name(path)}' line {line_number} is not valid JSON") from None
            number += 1
            yield number, _json_object(path, value, f"line {line_number}")


def _json_array_rows(path: Path) -> Iterator[NumberedRow]:
    with _open_text(path) as handle:
        try:
            values = json.load(handle)
        except json.JSONDecodeError as error:
            raise CorpusError(f"file '{_name(path)}' is not valid JSON (line {error.lineno})") from None
        except (ValueError, RecursionError):
            raise CorpusError(f"file '{_name(path)}' is not valid JSON") from None
    for number, value in enumerate(values, start=1):
        yield number, _json_object(path, value, f"item {number}")


def _parquet_rows(path: Path) -> Iterator[NumberedRow]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    with open(path, "rb") as probe:
        gzipped = probe.read(2) == _GZIP_MAGIC
    with tempfile.TemporaryFile() as spill:
        source: Any = path
        if gzipped:
            with _open_binary(path) as stream:
                while chunk := stream.read(2**20):
                    spill.write(chunk)
            spill.seek(0)
            source = spill
        try:
            parquet = pq.ParquetFile(source)
            metadata = parquet.schema_arrow.metadata or {}
            json_columns = set(json.loads(metadata.get(_JSON_COLUMNS_KEY, b"[]")))
            absent_column = metadata.get(_ABSENT_COLUMN_KEY, b"").decode()
            number = 0
            for batch in parquet.iter_batches(batch_size=2048):
                for row in batch.to_pylist():
                    for column in (row.pop(absent_column, None) or []) if absent_column else []:
                        row.pop(column, None)
                    for column in json_columns & row.keys():
                        if isinstance(row[column], str):
                            row[column] = json.loads(row[column])
                    number += 1
                    yield number, row
        except (pa.ArrowException, OSError, ValueError):
            raise CorpusError(f"file '{_name(path)}' is not a valid Parquet file") from None


def _coded_names(value: str) -> list[str]:
    """'D000003:Abattoirs; D000818:Animals' -> ['Abattoirs', 'Animals']."""
    return [part.partition(":")[2].strip() or part.strip() for part in value.split("; ") if part.strip()]


def _year(value: Any) -> int | None:
    match = _YEAR.search(str(value or ""))
    return int(match.group(1)) if match else None


def _pubmed_row(article: dict[str, Any]) -> Row:
    authors = [
        " ".join(filter(None, (a.get("lastname", ""), a.get("initials", "") or a.get("forename", ""))))
        for a in article.get("authors") or []
    ]
    row: Row = {
        "pmid": article.get("pmid") or None,
        "title": article.get("title", ""),
        "abstract": re.sub(r"\n{3,}", "\n\n", article.get("abstract", "")),
        "journal": article.get("journal") or None,
        "journal_abbrev": article.get("medline_ta") or None,
        "year": _year(article.get("pubdate")),
        "pubdate": article.get("pubdate") or None,
        "doi": article.get("doi") or None,
        "authors": [a for a in authors if a],
        "mesh": _coded_names(article.get("mesh_terms", "")),
        "keywords": [k.strip() for k in (article.get("keywords") or "").split(";") if k.strip()],
        "publication_types": _coded_names(article.get("publication_types", "")),
        "chemicals": _coded_names(article.get("chemical_list", "")),
        "country": article.get("country") or None,
        "language": article.get("languages") or None,
        "issue": article.get("issue") or None,
        "pages": article.get("pages") or None,
        "issn": article.get("issn_linking") or None,
        "pmc": article.get("pmc") or None,
        "grants": article.get("grant_ids") or [],
    }
    return row


def _entities_refused(path: Path) -> CorpusError:
    return CorpusError(
        f"file '{_name(path)}' declares XML entities, which are refused for safety; "
        "remove the entity declarations and import again"
    )


def _pubmed_rows(path: Path) -> Iterator[NumberedRow]:
    from lxml import etree
    from pubmed_parser.medline_parser import parse_article_info, parse_grant_id

    with _open_binary(path) as stream:
        head = stream.read(_ENTITY_SCAN_BYTES)
    if not head.strip():
        raise CorpusError(f"file '{_name(path)}' is empty")
    if b"<!ENTITY" in head:
        raise _entities_refused(path)
    number = 0
    with _open_binary(path) as stream:
        events = etree.iterparse(
            stream, events=("end",), tag="PubmedArticle", resolve_entities=False,
            no_network=True, load_dtd=False, huge_tree=False, remove_comments=True,
        )
        try:
            for _, element in events:
                number += 1
                row: Row | RowError
                try:
                    article = parse_article_info(element, False, False, True, False)
                    article["grant_ids"] = parse_grant_id(element)
                    row = _pubmed_row(article)
                except (AttributeError, IndexError, KeyError, TypeError, ValueError):
                    row = RowError(number, f"row {number}: PubMed record could not be read")
                element.clear()
                while element.getprevious() is not None:
                    del element.getparent()[0]
                yield number, row
        except etree.XMLSyntaxError as error:
            if "entit" in str(error).lower():
                raise _entities_refused(path) from None
            raise CorpusError(f"file '{_name(path)}' is not valid XML (line {error.lineno})") from None


def _split_keywords(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v).strip() for v in value if str(v).strip()]
    return [part.strip() for part in re.split(r"[;,]", str(value or "")) if part.strip()]


# BibTeX: bibtexparser splits entries and fields, pylatexenc decodes the LaTeX in the values. Exporters such
# as EndNote and Scopus write plain text into BibTeX, so a bare "%", "&" or "~" there is that character, not
# a LaTeX comment, table column or non-breaking space: all three are kept as written.

_LATEX_MARKUP = re.compile(r"[\\{}$]|--|``|''|[!?]`")  # a value without any of these decodes to itself
_BARE_PERCENT = re.compile(r"(?<!\\)((?:\\\\)*)%")
_BARE_DOLLAR = re.compile(r"(?<!\\)((?:\\\\)*)\$")
_SYMBOL_MACROS = {  # what Zotero and JabRef write for characters that pylatexenc does not know
    "textless": "<", "textgreater": ">", "textbar": "|", "textunderscore": "_", "textasciicircum": "^",
    "textbraceleft": "{", "textbraceright": "}", "url": "%s",  # \url{x} is x, not <x>
}
_ARGUMENT_MACROS = (  # formatting commands whose argument is the text
    "textsuperscript", "textsubscript", "mkbibemph", "mkbibquote", "mkbibbold", "mkbibitalic", "enquote",
    "textnormal", "textup", "textsl", "textmd", "mbox", "hbox", "nocase", "NoCaseChange", "ensuremath",
)


@functools.lru_cache(maxsize=1)
def _latex_context() -> Any:
    """pylatexenc's LaTeX-to-text rules, with "&" and "~" kept literal and Zotero's symbol commands added."""
    from pylatexenc import latex2text

    context = latex2text.get_default_latex_context_db()
    macros = [latex2text.MacroTextSpec(name, simplify_repl=text) for name, text in _SYMBOL_MACROS.items()]
    macros += [latex2text.MacroTextSpec(name) for name in _ARGUMENT_MACROS if context.get_macro_spec(name) is None]
    specials = [latex2text.SpecialsTextSpec(char, simplify_repl=char) for char in ("&", "~")]
    context.add_context_category("miread-plain-text", prepend=True, macros=macros, specials=specials)
    return context


class _LatexText:
    """Decodes the LaTeX in BibTeX values to text, keeping what it cannot decode and saying so."""

    def __init__(self) -> None:
        from pylatexenc import latex2text, latexwalker

        class Decoder(latex2text.LatexNodes2Text):
            """pylatexenc's decoder, writing an unknown command and its braced arguments as they are."""

            unknown: list[str] = []
            after_unknown = False  # the braced groups right after an unknown command are its arguments

            def node_to_text(self, node: Any, prev_node_hint: Any = None, textcol: int = 0) -> str:
                if self.after_unknown and node is not None and node.isNodeType(latexwalker.LatexGroupNode):
                    text = self._groupnodecontents_to_text(node)
                    self.after_unknown = True
                    return f"{node.delimiters[0]}{text}{node.delimiters[1]}"
                self.after_unknown = False
                return str(super().node_to_text(node, prev_node_hint, textcol))

            def macro_node_to_text(self, node: Any) -> str:
                if self.latex_context.get_macro_spec(node.macroname) is None:
                    self.unknown.append(node.macroname)
                    self.after_unknown = True
                    return f"\\{node.macroname}"
                return str(super().macro_node_to_text(node))

        self._decoder = Decoder(latex_context=_latex_context(), math_mode="verbatim")

    def _nodes(self, source: str, tolerant: bool) -> Any:
        from pylatexenc import latexwalker

        return latexwalker.LatexWalker(source, tolerant_parsing=tolerant).get_latex_nodes()[0]

    def __call__(self, value: str) -> tuple[str, str | None]:
        """(text, None), or (text read as far as possible, why it is not whole)."""
        if not _LATEX_MARKUP.search(value):
            return value, None
        from pylatexenc import latexwalker

        # pylatexenc always reads "%" as a comment: a bare one is swapped for an unused character meanwhile
        percent = next(c for c in map(chr, itertools.count(0xE000)) if c not in value)
        source = _BARE_PERCENT.sub(lambda m: m.group(1) + percent, value)
        problems: list[str] = []
        self._decoder.unknown, self._decoder.after_unknown = [], False
        try:
            try:
                nodes = self._nodes(source, tolerant=False)
            except latexwalker.LatexWalkerError as error:
                try:  # an unmatched "$" is a dollar sign, not the start of math
                    nodes = self._nodes(_BARE_DOLLAR.sub(lambda m: m.group(1) + "\\$", source), tolerant=False)
                except latexwalker.LatexWalkerError:
                    nodes = self._nodes(source, tolerant=True)
                    problems.append(f"its LaTeX braces or math are unbalanced ({_shown(str(error).splitlines()[0])}),"
                                    " so it was read as far as possible")
            text = str(self._decoder.nodelist_to_text(nodes))
        except Exception as error:  # noqa: BLE001 - pylatexenc on untrusted text: keep the value, report it
            return value, f"its LaTeX could not be decoded ({type(error).__name__}), so it is kept as written"
        if self._decoder.unknown:
            names = ", ".join(dict.fromkeys("\\" + name for name in self._decoder.unknown))
            problems.append(f"unknown LaTeX command {_shown(names)} kept as written")
        return text.replace(percent, "%"), "; ".join(problems) or None


def _bibtex_row(entry: Any, number: int, latex: _LatexText) -> tuple[Row, list[RowWarning]]:
    """One entry as a row: LaTeX decoded; a repeated field kept under a numbered name; warnings per field."""
    warnings: list[RowWarning] = []
    fields: Row = {}
    for field in entry.fields:
        key = field.key.strip().lower()
        name, suffix = key, 2
        while name in fields:
            name, suffix = f"{key}_{suffix}", suffix + 1
        if name != key:
            warnings.append(RowWarning(number, key, f"field '{_shown(key)}' appears more than once in the entry; "
                                                    f"this value is kept as '{_shown(name)}'"))
        value, problems = field.value, []
        if isinstance(value, str):
            value, problem = latex(value)
            problems.append(problem)
        elif isinstance(value, list):  # names split by SeparateCoAuthors
            decoded = [latex(str(item)) for item in value]
            value, problems = [text for text, _ in decoded], [problem for _, problem in decoded]
        for problem in dict.fromkeys(p for p in problems if p):
            warnings.append(RowWarning(number, name, f"field '{_shown(name)}': {problem}"))
        fields[name] = value
    authors = fields.pop("author", [])
    row: Row = {
        "key": entry.key,
        "entrytype": entry.entry_type.lower(),
        "title": fields.pop("title", None),
        "abstract": fields.pop("abstract", None),
        "journal": fields.pop("journal", None) or fields.get("booktitle"),
        "year": _year(fields.pop("year", None)),
        "doi": fields.pop("doi", None),
        "authors": authors if isinstance(authors, list) else [authors],
        "keywords": _split_keywords(fields.pop("keywords", None)),
    }
    row.update(fields)
    return row, warnings


def _bibtex_library(text: str) -> Any:
    """Parse BibTeX with bibtexparser; an entry with a repeated field is kept (bibtexparser sets it aside)."""
    import bibtexparser
    from bibtexparser.middlewares import BlockMiddleware, SeparateCoAuthors, default_parse_stack
    from bibtexparser.model import DuplicateFieldKeyBlock

    class KeepRepeatedFields(BlockMiddleware):
        """Turns bibtexparser's DuplicateFieldKeyBlock back into its entry, every field kept."""

        def transform_failed_block(self, failed_block: Any, library: Any) -> Any:
            if isinstance(failed_block, DuplicateFieldKeyBlock):
                return failed_block.ignore_error_block
            return failed_block

    stack = [KeepRepeatedFields(allow_inplace_modification=True), *default_parse_stack(), SeparateCoAuthors()]
    return bibtexparser.parse_string(text, parse_stack=stack)


def _closed_entry(raw: str) -> tuple[Any, str] | None:
    """An entry that failed because a field's closing brace is missing, closed at its end: (entry, field)."""
    missing = raw.count("{") - raw.count("}")
    if not 0 < missing <= 16 or not raw.lstrip().startswith("@"):
        return None
    library = _bibtex_library(raw.rstrip() + "}" * missing)
    if len(library.entries) != 1 or library.failed_blocks or not library.entries[0].fields:
        return None
    entry = library.entries[0]
    return entry, entry.fields[-1].key.strip().lower()


def _bibtex_rows(path: Path) -> Iterator[NumberedRow]:
    from bibtexparser.model import DuplicateBlockKeyBlock, Entry, ParsingFailedBlock

    with _open_text(path) as handle:
        text = handle.read()
    library = _bibtex_library(text)
    latex = _LatexText()
    blocks = sorted([*library.entries, *library.failed_blocks], key=lambda block: block.start_line or 0)
    for number, block in enumerate(blocks, start=1):
        line = (block.start_line or 0) + 1
        if isinstance(block, Entry):
            row, warnings = _bibtex_row(block, number, latex)
            yield number, row
            yield from ((number, warning) for warning in warnings)
        elif isinstance(block, DuplicateBlockKeyBlock):
            yield number, RowError(number, f"row {number}: duplicate citation key '{block.key}' (line {line})")
        elif isinstance(block, ParsingFailedBlock):
            closed = _closed_entry(block.raw or "")
            if closed is None:
                yield number, RowError(number, f"row {number}: BibTeX entry at line {line} could not be parsed")
                continue
            entry, field = closed
            row, warnings = _bibtex_row(entry, number, latex)
            yield number, row
            yield number, RowWarning(number, field, f"field '{_shown(field)}' has no closing brace, so it was "
                                                    f"read to the end of the entry (line {line})")
            yield from ((number, warning) for warning in warnings)


def _ris_parser() -> Any:
    """rispy's parser, except that a repeated tag keeps every value and "AB  -text" keeps its first letter."""
    import rispy

    class Parser(rispy.RisParser):
        """rispy's RisParser with the two changes above."""

        def parse_line(self, line: str) -> tuple[str | None, str]:
            if line[2:5] == "  -" and line[:2].isupper() and line[:1].isalpha():
                return line[:2], line[5:].strip()
            return None, line.strip()

        def _add_single_value(self, record: dict, name: str, value: Any, is_multi: bool = False) -> None:
            current = record.get(name)
            if is_multi and isinstance(current, list) and current and isinstance(value, str):
                current[-1] = f"{current[-1]} {value}"  # a wrapped line continues the tag's latest value
                return
            super()._add_single_value(record, name, value, is_multi)

    return Parser(enforce_list_tags=False)


def _ris_row(record: Row, number: int) -> tuple[Row, list[RowWarning]]:
    """One record as a row; a value that differs from the one used (TI vs T1, AB vs N2) stays a field."""
    warnings: list[RowWarning] = []

    def take(role: str, *keys: str, join: bool = False) -> Any:
        chosen: Any = None
        for key in keys:
            value = record.get(key)
            if not value or value == chosen:
                record.pop(key, None)
            elif chosen is None:
                chosen = record.pop(key)
        if not isinstance(chosen, list):
            return chosen
        if join:  # a repeated title or abstract tag: every line is kept
            warnings.append(RowWarning(number, role, f"the record has {len(chosen)} {role} tags; they are joined "
                                                     "into one text, one per line"))
            return "\n".join(str(value) for value in chosen)
        record[f"{role}_all"] = chosen
        return chosen[0]

    authors = (record.pop("authors", None) or []) + (record.pop("first_authors", None) or [])
    urls = record.pop("urls", None) or []
    row: Row = {
        "id": take("id", "id"),
        "type": take("type", "type_of_reference"),
        "title": take("title", "title", "primary_title", join=True),
        "abstract": take("abstract", "abstract", "notes_abstract", join=True),
        "journal": take("journal", "journal_name", "secondary_title", "alternate_title3", "alternate_title1",
                        "alternate_title2"),
        "year": _year(take("year", "year", "publication_year", "date")),
        "doi": take("doi", "doi"),
        "authors": authors,
        "url": urls[0] if urls else None,
        "urls": urls,
        "keywords": record.pop("keywords", None) or [],
    }
    record.pop("end_of_reference", None)
    if "unknown_tag" in record:
        record["unknown_tag"] = dict(record["unknown_tag"])
    row.update(record)
    return row, warnings


def _ris_rows(path: Path) -> Iterator[NumberedRow]:
    parser = _ris_parser()
    number = 0
    chunk: list[str] = []

    def flush() -> Iterator[NumberedRow]:
        nonlocal number
        number += 1
        records = parser.parse_lines(iter([*chunk, "ER  - "]))
        if records:
            row, warnings = _ris_row(records[0], number)
            yield number, row
            yield from ((number, warning) for warning in warnings)
        else:
            yield number, RowError(number, f"row {number}: RIS record could not be read")

    with _open_text(path) as handle:
        for raw in handle:
            line = raw.rstrip("\r\n").lstrip("\ufeff")  # a byte order mark also starts files joined together
            if line.startswith("TY  -"):
                if chunk:
                    yield from flush()
                chunk = [line]
            elif chunk and line.startswith("ER  -"):
                yield from flush()
                chunk = []
            elif chunk:
                chunk.append(line)
    if chunk:
        yield from flush()


_TEXT_READERS: dict[str, Callable[[Path], Iterator[NumberedRow]]] = {
    "csv": _csv_rows,
    "tsv": _tsv_rows,
    "jsonl": _jsonl_rows,
    "bibtex": _bibtex_rows,
    "ris": _ris_rows,
}


def _numbered_rows(path: Path, fmt: str) -> Iterator[NumberedRow]:
    if fmt == "parquet":
        return _parquet_rows(path)
    if fmt == "pubmed":
        return _pubmed_rows(path)
    return _decoding(path, _TEXT_READERS[fmt])


def _open_rows(path: str | Path, fmt: str | None) -> tuple[list[str], Iterator[NumberedRow], Path, str]:
    """Open a file eagerly: check it, peek its first rows; return (columns, all rows, path, format)."""
    path = Path(path)
    _check_file(path)
    fmt = detect_format(path, fmt)
    rows = _numbered_rows(path, fmt)
    head = list(itertools.islice(rows, _PEEK_ROWS))
    columns: dict[str, None] = {}
    for _, row in head:
        if isinstance(row, dict):
            columns.update(dict.fromkeys(row))
    if not columns:
        kind = "rows" if fmt in ("csv", "tsv", "parquet") else "records"
        raise CorpusError(f"file '{_name(path)}' has no {kind}")
    return list(columns), itertools.chain(head, rows), path, fmt


# ---------------------------------------------------------------------------------------------
# Public reading API


@dataclass
class ColumnMap:
    """Which source columns hold the title, the abstract and (optionally) the id."""

    title: str
    abstract: str
    id: str | None = None


def _normal(name: str) -> str:
    return _NON_WORD.sub("_", str(name).strip().lower()).strip("_")


def _found(columns: Sequence[str]) -> str:
    shown = ", ".join(_shown(str(c), 60) for c in columns[:30])
    return shown + (", ..." if len(columns) > 30 else "")


def _pick(columns: Sequence[str], override: str | None, names: Sequence[str], role: str, source: str) -> str | None:
    if override:
        for matches in (lambda c: c == override, lambda c: c.strip().lower() == override.strip().lower()):
            hit = next((c for c in columns if matches(c)), None)
            if hit is not None:
                return hit
        raise CorpusError(f"{source} has no column '{_shown(override)}' for the {role} (found: {_found(columns)})")
    normal: dict[str, str] = {}
    for column in columns:  # the first spelling of a name wins, unless a later one is exactly that name
        name = _normal(column)
        if name not in normal or column == name:
            normal[name] = column
    return next((normal[name] for name in names if name in normal), None)


def detect_columns(
    columns: Sequence[str],
    *,
    title: str | None = None,
    abstract: str | None = None,
    id: str | None = None,
    source: str = "file",
) -> ColumnMap:
    """Find the title, abstract and id columns by common spellings, or check the given overrides."""
    columns = [str(c) for c in columns]
    found: dict[str, str | None] = {}
    for role, override, names in (("title", title, _TITLE_NAMES), ("abstract", abstract, _ABSTRACT_NAMES)):
        found[role] = _pick(columns, override, names, role, source)
        if found[role] is None:
            raise CorpusError(
                f"{source} has no {role} column (looked for {', '.join(names)}; found: {_found(columns)})"
            )
    if found["title"] == found["abstract"]:
        raise CorpusError(
            f"{source} uses column '{_shown(str(found['title']))}' for both title and abstract; pick two columns"
        )
    id_column = _pick(columns, id, _ID_NAMES, "id", source)
    if id_column in (found["title"], found["abstract"]):
        id_column = None
    return ColumnMap(title=str(found["title"]), abstract=str(found["abstract"]), id=id_column)


def read_rows(path: str | Path, fmt: str | None = None) -> Iterator[dict[str, Any]]:
    """Stream a file's raw rows as dicts with every column; unreadable rows are left out."""
    rows = _open_rows(path, fmt)[1]
    return (row for _, row in rows if isinstance(row, dict))


def columns_of(path: str | Path, fmt: str | None = None) -> list[str]:
    """The column names of a file: its header, or the keys of its first rows."""
    return _open_rows(path, fmt)[0]


def preview(path: str | Path, fmt: str | None = None, n: int = 20) -> pandas.DataFrame:
    """The first ``n`` raw rows of a file as a DataFrame, with every column."""
    import pandas

    columns, rows, _, _ = _open_rows(path, fmt)
    head = [row for _, row in itertools.islice(rows, n * 2 + _PEEK_ROWS) if isinstance(row, dict)][:n]
    return pandas.DataFrame(head, columns=columns)


def _missing(value: Any) -> bool:
    """None or NaN; blank text stays text here (readers decide what an empty cell means)."""
    return not isinstance(value, str) and is_missing(value)


def _text(value: Any) -> str | None:
    """A title/abstract cell as stripped text; None when missing or empty; ValueError when not text."""
    if _missing(value):
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise ValueError("not text")
    return value.strip() or None


def _id_text(value: Any) -> str | None:
    if _missing(value):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip() or None


def _field_value(value: Any, tabular: bool) -> Any:
    if _missing(value):
        return None
    if tabular and isinstance(value, str):
        if value == "":
            return None
        if value[:1] in "[{":
            try:
                decoded = json.loads(value)
            except (ValueError, RecursionError):
                return value
            if isinstance(decoded, (list, dict)):
                return decoded
    return value


_RESERVED_FIELDS = frozenset(("id", "title", "abstract"))  # export writes these columns itself


def _field_name(name: Any, taken: dict[str, Any]) -> str:
    base = str(name).strip().lower() or "column"
    key, suffix = base, 2
    while key in taken or key in _RESERVED_FIELDS:
        key, suffix = f"{base}_{suffix}", suffix + 1
    return key


def _paper(number: int, row: Row, columns: ColumnMap, tabular: bool) -> Paper | RowError:
    try:
        title, abstract = _text(row.get(columns.title)), _text(row.get(columns.abstract))
    except ValueError:
        return RowError(number, f"row {number}: title or abstract is not text")
    empty = [name for name, value in (("title", title), ("abstract", abstract)) if value is None]
    if empty:
        return RowError(number, f"row {number}: empty {' and '.join(empty)}")
    fields: dict[str, Any] = {}
    for key, value in row.items():
        if key not in (columns.title, columns.abstract, columns.id):
            fields[_field_name(key, fields)] = _field_value(value, tabular)
    title = _SPACE.sub(" ", str(title))
    paper_id = (
        (_id_text(row.get(columns.id)) if columns.id else None)
        or _id_text(fields.get("doi"))
        or duplicate_key(title, str(abstract))[:16]
    )
    return Paper(id=paper_id, title=title, abstract=str(abstract), fields=fields)


def read_papers(
    path: str | Path,
    *,
    fmt: str | None = None,
    title_column: str | None = None,
    abstract_column: str | None = None,
    id_column: str | None = None,
) -> Iterator[Paper | RowError | RowWarning]:
    """Stream validated papers; unusable rows come out as RowError, fields not read whole as RowWarning."""
    columns, rows, file, fmt = _open_rows(path, fmt)
    mapping = detect_columns(
        columns, title=title_column, abstract=abstract_column, id=id_column, source=f"file '{_name(file)}'"
    )
    tabular = fmt in ("csv", "tsv")
    return (
        row if isinstance(row, (RowError, RowWarning)) else _paper(number, row, mapping, tabular)
        for number, row in rows
    )


# ---------------------------------------------------------------------------------------------
# Export


def _record(paper: Paper) -> Row:
    record: Row = {"id": paper.id, "title": paper.title, "abstract": paper.abstract}
    for key, value in paper.fields.items():
        name = key
        while name in record:
            name = f"{name}_original"
        record[name] = value
    return record


def _kind(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int" if -(2**63) <= value < 2**63 else "json"
    if isinstance(value, (float, str)):
        return type(value).__name__
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return "list_str"
    return "json"


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)


def _open_output(path: Path) -> IO[str]:
    if path.suffix.lower() == ".gz":
        return gzip.open(path, "wt", encoding="utf-8", newline="")
    return open(path, "w", encoding="utf-8", newline="")


def _write_parquet(records: Iterable[Row], path: Path, kinds: dict[str, set[str]], sparse: bool) -> None:
    """Write rows with one typed column per field; `sparse`: some rows lack some fields (recorded per row)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    native = {"str": pa.string(), "int": pa.int64(), "float": pa.float64(), "bool": pa.bool_(),
              "list_str": pa.list_(pa.string())}
    json_columns = [c for c, k in kinds.items() if len(k) > 1 or (k and next(iter(k)) not in native)]
    fields = [pa.field(c, pa.string() if c in json_columns or not k else native[next(iter(k))])
              for c, k in kinds.items()]
    metadata = {_JSON_COLUMNS_KEY: json.dumps(json_columns).encode()}
    absent = ""
    if sparse:
        absent = next(name for n in itertools.count() if (name := "_absent" + "_" * n) not in kinds)
        fields.append(pa.field(absent, pa.list_(pa.string())))
        metadata[_ABSENT_COLUMN_KEY] = absent.encode()
    schema = pa.schema(fields, metadata=metadata)
    records = iter(records)
    with pq.ParquetWriter(path, schema) as writer:
        while batch := list(itertools.islice(records, 10_000)):
            rows = [
                {c: (json.dumps(r.get(c), ensure_ascii=False, default=str) if c in json_columns
                     and r.get(c) is not None else r.get(c)) for c in kinds}
                | ({absent: [c for c in kinds if c not in r] or None} if absent else {})
                for r in batch
            ]
            writer.write_table(pa.Table.from_pylist(rows, schema=schema))


def export_papers(
    papers: Iterable[Paper | RowError | RowWarning], path: str | Path, fmt: str | None = None
) -> int:
    """Write papers (id, title, abstract and every field) as CSV, TSV, JSONL or Parquet; returns the count.

    RowError and RowWarning items are skipped. ``fmt`` defaults to the format of the path's extension.
    """
    path = Path(path)
    fmt = detect_format(path, fmt)
    if fmt not in ("csv", "tsv", "jsonl", "parquet"):
        raise CorpusError(f"papers can be exported as CSV, TSV, JSONL or Parquet, not {fmt}")
    records = (_record(p) for p in papers if isinstance(p, Paper))
    if fmt == "jsonl":
        count = 0
        with _open_output(path) as out:
            for record in records:
                out.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
                count += 1
        return count
    kinds: dict[str, set[str]] = {"id": {"str"}, "title": {"str"}, "abstract": {"str"}}
    present: dict[str, int] = {}
    count = 0
    with tempfile.TemporaryFile("w+", encoding="utf-8") as spill:
        for record in records:
            for key, value in record.items():
                kind = _kind(value)
                kinds.setdefault(key, set()).update([kind] if kind else [])
                present[key] = present.get(key, 0) + 1
            spill.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
            count += 1
        spill.seek(0)
        spilled = (json.loads(line) for line in spill)
        if fmt == "parquet":
            _write_parquet(spilled, path, kinds, sparse=any(n < count for n in present.values()))
            return count
        with _open_output(path) as out:
            # "\r\n" (RFC 4180) makes the writer quote cells holding a bare "\r", which "\n" would not
            writer = csv.writer(out, delimiter="," if fmt == "csv" else "\t", lineterminator="\r\n")
            writer.writerow(list(kinds))
            for record in spilled:
                writer.writerow([_csv_cell(record.get(c)) for c in kinds])
    return count
