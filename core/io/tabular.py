"""Readers of tabular files: CSV/TSV, JSONL and JSON arrays, and Parquet, each yielding numbered raw rows."""

from __future__ import annotations

import collections
import csv
import itertools
import json
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from core.errors import CorpusError
from core.io.api_json import api_records
from core.io.cut_short import (
    ends_inside_quotes,
    json_line_refusal,
    json_refusal,
    last_value_cut,
    quoted_value_cut,
    record_cut_error,
    record_cut_warning,
)
from core.io.europe_pmc import europe_pmc_records
from core.io.inspire import inspire_records
from core.io.rows import NumberedRow, Row, RowNumber
from core.io.safety import _GZIP_MAGIC, _head_text, _name, _open_binary, _open_text
from core.io.search_apis import search_api_records
from core.io.vocabulary import normal, spellings
from core.io.wos_api import wos_api_records
from core.records import RowError

MAX_FIELD_CHARS = 50 * 2**20
MAX_LINE_CHARS = 2 * MAX_FIELD_CHARS

_JSON_COLUMNS_KEY = b"miread.json_columns"
_ABSENT_COLUMN_KEY = b"miread.absent_column"  # a list column naming the fields a row did not have


def _unique_header(cells: Sequence[str]) -> list[str]:
    """Column names: a blank cell is `column_N`, a repeated one gets the first free `_2`, `_3`, … (a set and each
    name's next suffix: a one-line file of 60,000 equal cells took cubic time with a list)."""
    names: list[str] = []
    taken: set[str] = set()
    next_suffix: dict[str, int] = {}
    for index, cell in enumerate(cells, start=1):
        base = cell.strip() or f"column_{index}"
        name, suffix = base, next_suffix.get(base, 2)
        while name in taken:
            name, suffix = f"{base}_{suffix}", suffix + 1
        next_suffix[base] = suffix
        names.append(name)
        taken.add(name)
    return names


def _is_gzip(path: Path) -> bool:
    with open(path, "rb") as probe:
        return probe.read(2) == _GZIP_MAGIC


def _tail(path: Path) -> bytes:
    """A plain file's last 4 bytes (a gzip file's are known only once read through: `_LastLine`)."""
    with open(path, "rb") as probe:
        probe.seek(max(0, probe.seek(0, 2) - 4))
        return probe.read()


class _LastLine:
    """The lines of a text stream, keeping the last one read: a gzip-compressed file's end, known without reading
    it a second time."""

    def __init__(self, lines: Iterator[str]) -> None:
        self._lines, self.last = lines, ""

    def __iter__(self) -> _LastLine:
        return self

    def __next__(self) -> str:
        self.last = next(self._lines)
        return self.last


def _title_at(header: Sequence[str]) -> int | None:
    """The header's column a title is read from unless the user names one (the vocabulary's first spelling the
    header has), or None."""
    names = [normal(c) for c in header]
    return next((names.index(name) for name in spellings("title", header) if name in names), None)


def _lines(path: Path) -> Iterator[str]:
    """A text file's lines with their own line ends ("\r" alone too), for a second reading by the csv module."""
    with _open_text(path, newline="") as handle:
        yield from handle


def _unquoted_cut(tail: bytes, values: list[str]) -> bool:
    """Whether the file ends inside its last, unquoted value (`values`: that column's last values, the file's
    last one last): no line break at the end, no quote closing it, and the value visibly cut
    (`cut_short.last_value_cut`)."""
    if not tail or tail.rstrip(b"\x00").endswith((b"\n", b"\r", b'"')):
        return False
    return last_value_cut(values[-1], values[:-1])


def _delimited_rows(path: Path, delimiter: str, header_row: int = 1) -> Iterator[NumberedRow]:
    """Rows of a delimited text whose header is the record starting on line ``header_row`` (or the next one). A
    spreadsheet shows one row a record, blank ones too: the first record, and the first after a blank row, is
    numbered with that row (`RowNumber`); the records after it get plain numbers, their rows that far below (a
    per-file offset, not an object a record; `core.io.papers` adds it back). A skipped row's error names its row."""
    csv.field_size_limit(MAX_FIELD_CHARS)
    number = line = 0
    gzipped = _is_gzip(path)
    with _open_text(path, newline="") as handle:
        lines = _LastLine(handle) if gzipped else handle
        reader = csv.reader(lines, delimiter=delimiter)
        tail = (lambda: lines.last[-4:].encode("utf-8", "surrogateescape")) if gzipped else (lambda: _tail(path))
        try:
            header: list[str] | None = None
            ended = 0  # the line the previous record ended on: a preamble before the header is passed over
            for cells in reader:
                started, ended = ended + 1, reader.line_num
                if started < header_row or not any(map(str.strip, cells)):
                    continue
                header, line = _unique_header(cells), started
                break
            width = len(header or ())
            moved = True  # the row minus the record number changed since the last record (the first; a blank row)
            short: tuple[Any, Row, int, int, int] | None = None  # a row of fewer columns, held till a row follows
            before = (0, width)  # the last short row's (line, columns), flushed: the columns the row after it follows
            recent: collections.deque = collections.deque(maxlen=6)  # the last full rows' (number, last value)
            for cells in reader:  # the hot loop: a full row is zipped with the header, nothing else
                line += 1
                if short is not None:
                    before = short[3], short[2]
                    yield short[0], short[1]
                    short = None
                if len(cells) == width and (cells[0].strip() or any(map(str.strip, cells))):
                    number += 1
                    recent.append((number, cells[-1]))
                    if moved:
                        moved = False
                        yield RowNumber(number, line), dict(zip(header, cells))  # type: ignore[arg-type]
                        continue
                    yield number, dict(zip(header, cells))  # type: ignore[arg-type]
                    continue
                if not any(map(str.strip, cells)):
                    moved = True
                    continue
                number += 1
                if len(cells) > width and any(map(str.strip, cells[width:])):
                    yield number, RowError(
                        RowNumber(number, line), f"row {line}: has {len(cells)} values but the header has {width} "
                                                 "columns")
                    continue
                at, moved = RowNumber(number, line) if moved else number, False
                row = {key: (cells[i] if i < len(cells) else None) for i, key in enumerate(header)}
                if len(cells) < width:  # held: the last row cut short? (fewer columns than the record before it)
                    short = at, row, len(cells), line, before[1] if before[0] == line - 1 else width
                    continue
                yield at, row
            if number and ends_inside_quotes(tail(), lambda: _lines(path), delimiter):
                if short is not None:
                    yield short[0], short[1]
                yield number, quoted_value_cut(number, header[-1] if header else "")
            elif (short is not None and short[2] < short[4] and number > 1
                  and not tail().rstrip(b"\x00").endswith((b"\n", b"\r"))):
                how = f"{short[2]} of the header's {width} columns, no line break after them"
                title = _title_at(header or [])
                if title is not None and title < short[2] and str(short[1].get((header or [])[title]) or "").strip():
                    yield short[0], short[1]  # its title was read: imported, its last value perhaps not whole
                    yield short[0], record_cut_warning(short[0], (header or [""])[short[2] - 1], how)
                else:
                    yield short[0], record_cut_error(short[0], how, shown=short[3])
            elif short is not None:
                yield short[0], short[1]
            elif recent and recent[-1][0] == number and _unquoted_cut(tail(), [v for _, v in recent]):
                yield number, record_cut_warning(number, header[-1] if header else "",
                                                 f"its last value, '{recent[-1][1]}', is shorter than the same "
                                                 "column's in the rows before it, and no line break follows")
        except csv.Error as error:
            if "field larger than field limit" in str(error):
                raise CorpusError(
                    f"file '{_name(path)}' row {line + 1} has a field longer than "
                    f"{MAX_FIELD_CHARS:,} characters; shorten it and import again"
                ) from None
            raise CorpusError(f"file '{_name(path)}' row {line + 1} cannot be read ({error})") from None


def _json_object(path: Path, value: Any, where: str) -> Row:
    if not isinstance(value, dict):
        raise CorpusError(f"file '{_name(path)}' {where} is not a JSON object")
    return value


def _json_item(path: Path, value: Any, number: int, where: str) -> Row | RowError:
    """An item of a JSON list or line: an object, or ``null`` as a skipped row (Semantic Scholar's batch answer
    for an id it did not find); anything else refuses the file."""
    if value is None:
        return RowError(number, f"row {number}: {where} is null (no record: an id the database did not find)")
    return _json_object(path, value, where)


# where an API response keeps its records: OpenAlex ("results"), Semantic Scholar and DataCite ("data"), CSL-JSON
# wrappers
_RECORD_LISTS = ("results", "data", "items", "records")


def _wrapped(value: Any, path: Path) -> list | None:
    """The records of an API response (Crossref, DataCite, ISTEX: `core.io.api_json`; else an object with a list
    under ``results``, ``data``, ... and no title of its own); None for anything else."""
    if not isinstance(value, dict):
        return None
    epmc = europe_pmc_records(value)  # Europe PMC's answer, pygetpapers' file (core.io.europe_pmc)
    if epmc is not None:
        return epmc
    records = api_records(value, _name(path))
    if records is None:  # a Solr answer (ERIC, PLOS), a bioRxiv/medRxiv answer (core.io.search_apis)
        records = search_api_records(value)
    if records is None:  # an INSPIRE-HEP search answer (core.io.inspire)
        records = inspire_records(value)
    if records is None:  # the Web of Science Starter API's answer (core.io.wos_api)
        records = wos_api_records(value)
    if records is not None or "title" in value:
        return records
    return next((value[key] for key in _RECORD_LISTS if isinstance(value.get(key), list)), None)


def _first_line_is_json(head: str) -> bool:
    try:
        json.loads(head.lstrip().split("\n", 1)[0])  # not splitlines(): U+0085, U+2028 may sit inside a string
    except (ValueError, RecursionError, IndexError):
        return False
    return True


def _jsonl_rows(path: Path) -> Iterator[NumberedRow]:
    head = _head_text(path).lstrip()
    if head.startswith("["):
        yield from _json_array_rows(path)
        return
    if head.startswith("{") and not _first_line_is_json(head):  # one JSON document over several lines
        yield from _json_document_rows(path)
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
            except (ValueError, RecursionError) as error:
                raise json_line_refusal(_name(path), line_number, error, not handle.read(2**16).strip()) from None
            records = _wrapped(value, path)
            if records is not None:  # an API response saved on one line (curl, a browser's raw view)
                for index, item in enumerate(records, start=1):
                    number += 1
                    yield number, _json_item(path, item, number, f"line {line_number} item {index}")
                continue
            number += 1
            yield number, _json_item(path, value, number, f"line {line_number}")


def _load_json(path: Path) -> Any:
    with _open_text(path) as handle:
        try:
            return json.load(handle)
        except json.JSONDecodeError as error:
            raise json_refusal(_name(path), error) from None
        except (ValueError, RecursionError):
            raise CorpusError(f"file '{_name(path)}' is not valid JSON") from None


def _json_array_rows(path: Path, values: Any = None) -> Iterator[NumberedRow]:
    values = _load_json(path) if values is None else values
    for number, value in enumerate(values, start=1):
        yield number, _json_item(path, value, number, f"item {number}")


def _json_document_rows(path: Path) -> Iterator[NumberedRow]:
    """A JSON object spread over several lines: an API response whose records are under ``results`` (OpenAlex)
    or ``data`` (Semantic Scholar), else one record."""
    document = _load_json(path)
    records = _wrapped(document, path)
    if records is not None:
        yield from _json_array_rows(path, records)
        return
    yield 1, _json_object(path, document, "document")


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
            raise CorpusError(f"file '{_name(path)}' is not a valid Parquet file; it may be cut short or "
                              "damaged: export it again") from None
