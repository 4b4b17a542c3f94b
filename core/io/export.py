"""Export of papers as CSV, TSV, JSONL, Parquet or Excel (.xlsx: text cells, never formulas); RIS, BibTeX and CSL
JSON are written by core.io.reference_export (`fmt` ris, bibtex, csl, or a .ris, .bib, .json path).

What ``export_papers`` -> ``read_papers`` round-trips exactly:
- JSONL: every JSON value (strings, numbers, booleans, None, lists, dicts); other values become strings.
- Parquet: the same; columns of mixed or nested types are stored as JSON text and decoded on import.
- CSV/TSV: strings, lists and dicts (JSON-encoded); None and "" both come back as None; a text a spreadsheet
  would run as a formula (= + - @ tab CR first) is written with a leading apostrophe that the import removes
  (core.io.formulas);
  numbers and booleans come back as strings. On import, a CSV cell that is a JSON list or object
  (starts with ``[`` or ``{`` and parses) becomes that list or dict.
- Excel (.xlsx): lists, dicts and texts; lists of texts are joined by "; " for people to read, and the workbook
  names its list columns so the import splits them back exactly (core.io.excel_lists).
Ids, titles and abstracts round-trip in every format.
"""

from __future__ import annotations

import csv
import gzip
import itertools
import json
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from core.errors import CorpusError
from core.io.excel_lists import cell_text, column_forms, mark
from core.io.formats import detect_format
from core.io.formulas import neutralise
from core.io.reference_export import REFERENCE_FORMATS, write_references
from core.io.rows import Row, RowWarning
from core.io.tabular import _ABSENT_COLUMN_KEY, _JSON_COLUMNS_KEY
from core.records import Paper, RowError

_REFERENCE_KEYS = {"bib": "bibtex", "csl-json": "csl", ".ris": "ris", ".bib": "bibtex", ".bibtex": "bibtex",
                   ".json": "csl"}


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
    """A CSV/TSV cell: lists and dicts as JSON, a text a spreadsheet would run as a formula neutralised."""
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return neutralise(str(value))


_XLSX_CELL = 32_767  # the most characters an Excel cell holds


def _write_xlsx(records: Iterable[Row], path: Path, kinds: dict[str, set[str]]) -> None:
    """One sheet, a header row then a row per paper: numbers as numbers, lists of texts joined by "; ", other lists
    and dicts as JSON, every other value
    a text cell (never a formula: a text a spreadsheet would run is quote-prefixed, as Excel marks text typed after
    an apostrophe). Characters XML cannot hold are dropped, and a cell is cut at Excel's 32,767 characters. List
    and JSON columns are named in the workbook, so an import reads them back as they were (core.io.excel_lists)."""
    import openpyxl
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("papers")
    columns, forms = list(kinds), column_forms(kinds)
    mark(book, forms)

    def cell(value: Any, form: str | None = None) -> Any:
        if value is None or (isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) < 1e15):
            return value
        text = cell_text(value, form)  # lists of texts as Scopus and Embase sheets list authors and keywords
        text = ILLEGAL_CHARACTERS_RE.sub("", text)[:_XLSX_CELL]
        out = WriteOnlyCell(sheet, value=text)
        out.data_type = "s"  # openpyxl makes a text starting with "=" a formula
        out.quotePrefix = neutralise(text) != text
        return out

    sheet.append([cell(name) for name in columns])
    for record in records:
        sheet.append([cell(record.get(name), forms.get(name)) for name in columns])
    book.save(path)


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
    """Write papers (id, title, abstract and every field) as CSV, TSV, JSONL or Parquet, or as RIS, BibTeX or CSL
    JSON (the fields reference managers know); returns the count.

    RowError and RowWarning items are skipped. ``fmt`` defaults to the format of the path's extension.
    """
    path = Path(path)
    suffixes = [s.lower() for s in path.suffixes if s.lower() != ".gz"]
    key = (fmt or "").strip().lower() or (suffixes[-1] if suffixes else "")
    if (key := _REFERENCE_KEYS.get(key, key)) in REFERENCE_FORMATS:
        with _open_output(path) as out:
            return write_references(papers, out, key)
    fmt = "xlsx" if key in ("xlsx", ".xlsx") else detect_format(path, fmt)
    if fmt not in ("csv", "tsv", "jsonl", "parquet", "xlsx"):
        raise CorpusError(f"papers can be exported as CSV, TSV, JSONL, Parquet or Excel (.xlsx), not {fmt}")
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
        if fmt == "xlsx":
            _write_xlsx(spilled, path, kinds)
            return count
        with _open_output(path) as out:
            # "\r\n" (RFC 4180) makes the writer quote cells holding a bare "\r", which "\n" would not
            writer = csv.writer(out, delimiter="," if fmt == "csv" else "\t", lineterminator="\r\n")
            writer.writerow([neutralise(str(c)) for c in kinds])
            for record in spilled:
                writer.writerow([_csv_cell(record.get(c)) for c in kinds])
    return count
