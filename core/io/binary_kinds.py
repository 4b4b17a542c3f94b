"""What a file that is not text is, from its first bytes: an Excel workbook whatever its name (read as Excel), or an
image, a PDF or a Word document (refused by name, not as text to "save as UTF-8")."""

from __future__ import annotations

import zipfile
from pathlib import Path

from core.errors import CorpusError

_ZIP = b"PK\x03\x04"
_SIGNATURES = ((b"%PDF-", "a PDF document"), (b"\x89PNG\r\n\x1a\n", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
               (b"GIF87a", "a GIF image"), (b"GIF89a", "a GIF image"))


def _zip_names(path: Path) -> list[str]:
    try:
        with zipfile.ZipFile(path) as archive:
            return archive.namelist()
    except (zipfile.BadZipFile, OSError, ValueError):
        return []


def is_zipped_workbook(path: Path, magic: bytes) -> bool:
    """True when the file is an Excel workbook (.xlsx, .xlsm: a ZIP holding xl/workbook.xml), whatever its name."""
    return magic.startswith(_ZIP) and "xl/workbook.xml" in _zip_names(path)


def not_an_export(path: Path, magic: bytes) -> CorpusError | None:
    """The refusal of a PDF, an image or a Word document (by its first bytes), naming what it is; None otherwise."""
    kind = next((name for start, name in _SIGNATURES if magic.startswith(start)), None)
    if kind is None and magic.startswith(_ZIP) and "word/document.xml" in _zip_names(path):
        kind = "a Word document"
    if kind is None:
        return None
    return CorpusError(f"file '{path.name}' is {kind}, not an export of records: export the search from the "
                       "database or reference manager as RIS, BibTeX, CSV, Excel or its own text format, then import "
                       "that file")
