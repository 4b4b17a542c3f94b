"""The Excel reader: ``.xlsx`` workbooks (Scopus, Embase, Dimensions, EPPI-Reviewer, screening tools) via openpyxl,
and old ``.xls`` ones (Web of Science's Excel export) via xlrd (``excel_xls.py``).

The first sheet is read unless one is chosen; the header is found as in text tables (``layout.py``), so a
search-query preamble above it is passed over. Cells come out as text, numbers, or ISO dates.
"""

from __future__ import annotations

import datetime
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.errors import CorpusError
from core.io.cut_short import FIX, ZIP_MAGIC, zip_cut_short
from core.io.excel_lists import decoded, marked
from core.io.excel_xls import OLE_MAGIC, open_xls
from core.io.layout import HEADER_SEARCH_ROWS, Layout, header_index
from core.io.rows import NumberedRow, RowNumber
from core.io.safety import _expanded_limit, _name, _shown
from core.io.tabular import _unique_header
from core.records import RowError

BOMB_RATIO = 100  # a part expanding more than this many times over ...
BOMB_FLOOR = 32 * 2**20  # ... to more than this is a compression bomb (real sheets and shared strings: 3-30 times)


def _check_expansion(path: Path) -> None:
    """Refuse a workbook before openpyxl expands it (it holds all shared strings in memory; issue 41): the parts'
    sizes (zipfile reads no more than they declare) may add up to MIREAD_MAX_EXPANDED_BYTES, as a gzip upload may,
    and no part may expand like a compression bomb."""
    try:
        with zipfile.ZipFile(path) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        return  # openpyxl says what is wrong with it
    limit = _expanded_limit()
    if sum(p.file_size for p in parts) > limit:
        raise CorpusError(f"file '{_name(path)}' expands to more than {limit:,} bytes, over the limit set by "
                          "MIREAD_MAX_EXPANDED_BYTES")
    for part in parts:
        if part.file_size > BOMB_FLOOR and part.file_size > BOMB_RATIO * max(part.compress_size, 1):
            raise CorpusError(
                f"file '{_name(path)}' is refused: its part '{_shown(part.filename)}' expands "
                f"{part.file_size // max(part.compress_size, 1):,}-fold to {part.file_size // 2**20:,} MiB, as a "
                f"compression bomb does (a real workbook compresses at most ~{BOMB_RATIO}-fold; the expanded size of "
                "an upload is limited by MIREAD_MAX_EXPANDED_BYTES)")


def _workbook(path: Path) -> Any:
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    with open(path, "rb") as probe:
        magic = probe.read(8)
    if magic.startswith(OLE_MAGIC):  # an Excel 97-2003 workbook (.xls): Web of Science's Excel export
        try:
            return open_xls(path)
        except ValueError as exc:
            if "> file data size" in str(exc):  # xlrd: the workbook's stream runs past the file's end
                raise CorpusError(f"file '{_name(path)}' is an Excel 97-2003 workbook (.xls) whose end is missing "
                                  f"(xlrd: {_shown(str(exc))[:100]}): {FIX}") from None
            raise CorpusError(f"file '{_name(path)}' is not a readable Excel 97-2003 workbook (.xls: "
                              f"{_shown(str(exc))[:120]}); open it in Excel, save it as .xlsx or CSV and import "
                              "again") from None
    _check_expansion(path)
    try:
        # openpyxl refuses a name without an Excel extension: a workbook saved as .ris or .csv is given as a stream
        source = path if path.suffix.lower() in (".xlsx", ".xlsm", ".xltx", ".xltm") else open(path, "rb")  # noqa: SIM115
        return openpyxl.load_workbook(source, read_only=True, data_only=True)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError, ValueError):
        if magic.startswith(ZIP_MAGIC) and not zipfile.is_zipfile(path):
            raise zip_cut_short(_name(path)) from None
        raise CorpusError(f"file '{_name(path)}' is not a valid Excel workbook (.xlsx); open it in Excel, save it as "
                          ".xlsx or CSV and import again") from None


def _sheet(book: Any, path: Path, sheet: str | None) -> Any:
    if not sheet:
        return book.worksheets[0]
    if sheet in book.sheetnames:
        return book[sheet]
    if sheet.isdigit() and 1 <= int(sheet) <= len(book.sheetnames):
        return book.worksheets[int(sheet) - 1]
    raise CorpusError(f"file '{_name(path)}' has no sheet '{_shown(sheet)}' (sheets: {', '.join(book.sheetnames)})")


def _cell(value: Any) -> Any:
    if isinstance(value, (datetime.datetime, datetime.date)):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        return value.strip("\ufeff")
    return value


def excel_layout(path: Path, sheet: str | None = None, header_row: int | None = None) -> Layout:
    """Which sheet is read and which of its rows is the header (1-based)."""
    book = _workbook(path)
    try:
        chosen = _sheet(book, path, sheet)
        if header_row:
            return Layout(header_row=header_row, sheet=chosen.title, sheets=list(book.sheetnames))
        head = [list(r) for _, r in zip(range(HEADER_SEARCH_ROWS * 3), chosen.iter_rows(values_only=True))]
        index = header_index(head)
        if index is None:
            index = next((i for i, r in enumerate(head) if any(c not in (None, "") for c in r)), 0)
        return Layout(header_row=index + 1, sheet=chosen.title, sheets=list(book.sheetnames),
                      found_by_title=names_found(head, index))
    finally:
        book.close()


def names_found(head: list[list[Any]], index: int) -> bool:
    """Whether row ``index`` of a sheet's head names a title column."""
    return index < len(head) and header_index([head[index]]) == 0


def _excel_rows(path: Path, layout: Layout) -> Iterator[NumberedRow]:
    book = _workbook(path)
    try:
        rows = _sheet(book, path, layout.sheet).iter_rows(values_only=True, min_row=layout.header_row)
        header: list[str] | None = None
        forms = marked(book)  # the list and JSON columns of our own export
        number = 0
        for line, cells in enumerate(rows, start=layout.header_row or 1):  # the sheet's own row numbers
            values = [_cell(c) for c in cells]
            if not any(v not in (None, "") for v in values):
                continue
            if header is None:
                header = _unique_header(["" if v is None else str(v) for v in values])
                continue
            number += 1
            extra = [v for v in values[len(header):] if v not in (None, "")]
            if extra:
                yield number, RowError(RowNumber(number, line), f"row {line}: has {len(values)} values but the "
                                                                f"header has {len(header)} columns")
                continue
            row = {key: (values[i] if i < len(values) else None) for i, key in enumerate(header)}
            for key in forms.keys() & row.keys():
                row[key] = decoded(row[key], forms[key])
            yield RowNumber(number, line), row
    finally:
        book.close()
