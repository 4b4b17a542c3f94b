"""Format detection and the dispatch from a file and its format to that format's reader."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

from core.errors import CorpusError
from core.io.bibtex import _bibtex_rows
from core.io.jats import _jats_rows, is_jats
from core.io.pubmed import _pubmed_rows
from core.io.ris import _ris_rows
from core.io.rows import NumberedRow
from core.io.safety import _check_file, _decoding, _head_text, _name
from core.io.tabular import _csv_rows, _jsonl_rows, _parquet_rows, _tsv_rows

FORMATS: tuple[str, ...] = ("csv", "tsv", "jsonl", "parquet", "pubmed", "jats", "bibtex", "ris")

_FORMAT_NAMES = "CSV, TSV, JSONL, Parquet, PubMed XML, JATS XML (.xml, .nxml, .tar.gz), BibTeX or RIS"
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
    ".nxml": "jats",
    ".tar": "jats",
    ".tgz": "jats",
    ".bib": "bibtex",
    ".bibtex": "bibtex",
    ".ris": "ris",
}
_ALIASES = {"xml": "pubmed", "pmc": "jats", "nxml": "jats", "medline": "pubmed",
            "bib": "bibtex", "ndjson": "jsonl", "json": "jsonl"}
_PEEK_ROWS = 100


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
    if ext == ".xml" and path.is_file() and is_jats(_head_text(path)):
        return "jats"
    if ext in _EXTENSIONS:
        return _EXTENSIONS[ext]
    if ext == ".txt" and path.is_file() and _head_text(path).lstrip().startswith("TY  -"):
        return "ris"
    raise _unknown(path)


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
    if fmt == "jats":
        return _jats_rows(path)
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
