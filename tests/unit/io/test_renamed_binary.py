"""A file of another format renamed (qa19): an Excel workbook saved as `.ris` is read as the workbook it is, the
reading saying why; an image or a PDF named `.csv` is refused as what it is, not as text to "save as UTF-8"."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io.plan import plan_import

WORKBOOK = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "tools" / "embase_10.xlsx"


def test_an_excel_workbook_named_ris_is_read_as_the_workbook_it_is(tmp_path: Path) -> None:
    renamed = tmp_path / "search.ris"
    shutil.copy(WORKBOOK, renamed)
    plan = plan_import(renamed, limit=20)
    assert plan.reading["reader"] == "excel"
    assert plan.papers == plan_import(WORKBOOK, limit=20).papers > 0
    assert "extension '.ris'" in plan.reading["format_note"]


@pytest.mark.parametrize(("head", "kind"), [(b"\x89PNG\r\n\x1a\n", "a PNG image"), (b"%PDF-1.7\n", "a PDF document"),
                                            (b"\xff\xd8\xff\xe0\x00\x10JFIF", "a JPEG image")])
def test_an_image_or_a_pdf_named_csv_is_refused_as_what_it_is(tmp_path: Path, head: bytes, kind: str) -> None:
    renamed = tmp_path / "export.csv"
    renamed.write_bytes(head + bytes(range(256)) * 20)
    with pytest.raises(CorpusError) as refused:
        plan_import(renamed, limit=20)
    message = str(refused.value)
    assert kind in message and "UTF-8" not in message, message
