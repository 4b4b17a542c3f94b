"""Old Excel 97-2003 workbooks (``.xls``; Web of Science's "Excel" export, ``savedrecs.xls``, is one) read with
xlrd and shown to the Excel reader (``excel.py``) as openpyxl's read-only workbook is: ``sheetnames``,
``worksheets``, ``book[name]``, a sheet's ``title`` and ``iter_rows(values_only=True, min_row=…)``, ``close()``."""

from __future__ import annotations

import io
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # the compound-document signature of an Excel 97-2003 workbook


class XlsSheet:
    """One sheet of an ``.xls`` workbook; cells come out as openpyxl gives them (text, numbers, datetimes, None)."""

    def __init__(self, sheet: Any, datemode: int) -> None:
        self._sheet, self._datemode = sheet, datemode
        self.title: str = sheet.name

    def iter_rows(self, values_only: bool = True, min_row: int = 1) -> Iterator[tuple[Any, ...]]:
        for index in range(max(min_row, 1) - 1, self._sheet.nrows):
            yield tuple(self._value(cell) for cell in self._sheet.row(index))

    def _value(self, cell: Any) -> Any:
        import xlrd

        kind = cell.ctype
        if kind in (xlrd.XL_CELL_EMPTY, xlrd.XL_CELL_BLANK, xlrd.XL_CELL_ERROR):
            return None
        if kind == xlrd.XL_CELL_DATE:
            try:
                return xlrd.xldate_as_datetime(cell.value, self._datemode)
            except (ValueError, OverflowError, xlrd.xldate.XLDateError):
                return cell.value
        if kind == xlrd.XL_CELL_BOOLEAN:
            return bool(cell.value)
        return cell.value


class XlsBook:
    """An ``.xls`` workbook, its sheets loaded when asked for."""

    def __init__(self, path: Path) -> None:
        import xlrd

        # xlrd writes its own notes ("WARNING *** file size … not 512 + multiple of sector size") to stdout: kept
        # out of the command line's output, the reader says what matters
        self._book = xlrd.open_workbook(str(path), on_demand=True, logfile=io.StringIO())
        self.sheetnames: list[str] = self._book.sheet_names()

    @property
    def worksheets(self) -> list[XlsSheet]:
        return [self[name] for name in self.sheetnames]

    def __getitem__(self, name: str) -> XlsSheet:
        return XlsSheet(self._book.sheet_by_name(name), self._book.datemode)

    def close(self) -> None:
        self._book.release_resources()


def open_xls(path: Path) -> XlsBook:
    """The workbook; ValueError (with xlrd's reason) when the file is not one xlrd can read."""
    import xlrd

    try:
        return XlsBook(path)
    except (xlrd.XLRDError, xlrd.compdoc.CompDocError, AssertionError, IndexError, KeyError, struct.error,
            OSError) as exc:
        raise ValueError(str(exc) or type(exc).__name__) from None
