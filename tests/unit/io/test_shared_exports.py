"""The 43 real exports of ../shared/data/exports (asreview/citation-file-formatting: the same search exported by 20+
tools) each import as the number of papers EXPECTED.tsv gives (title and abstract, duplicates in the file folded);
"-" marks exports without abstracts, refused with one sentence or giving no paper with an abstract."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import plan_import, read_papers
from core.records import Paper, duplicate_key

EXPORTS = Path("/work/shared/data/exports")
ROWS = ([line.split("\t") for line in (EXPORTS / "EXPECTED.tsv").read_text(encoding="utf-8").splitlines() if line]
        if (EXPORTS / "EXPECTED.tsv").exists() else [])


@pytest.mark.skipif(not ROWS, reason="the shared exports are not present")
@pytest.mark.parametrize(("name", "expected"), ROWS, ids=[row[0] for row in ROWS])
def test_every_shared_export_imports_its_count(name: str, expected: str) -> None:
    try:
        papers = [p for p in read_papers(EXPORTS / name) if isinstance(p, Paper) and p.abstract]
    except CorpusError as error:
        assert expected == "-" and "no abstract column" in str(error)
        return
    count = len({duplicate_key(p.title, p.abstract) for p in papers})
    assert str(count) == expected or (expected == "-" and count == 0)


_TITLES = ("title", "article title", "title primary")  # generic; CINAHL; RefWorks


def _records_in(path: Path) -> int:
    """The records of an export counted without the importer: RIS ``TY  -`` lines, MEDLINE ``PMID-`` lines, and the
    non-empty rows of a table below its header (the first row naming a title column, under any preamble)."""
    import csv
    import io
    import re

    if path.suffix == ".xlsx":
        import openpyxl

        sheet = openpyxl.load_workbook(path, read_only=True).worksheets[0]
        rows = [[str(c or "") for c in row] for row in sheet.iter_rows(values_only=True)]
    else:
        text = path.read_bytes().decode("utf-8-sig")
        if path.suffix == ".ris":
            tagged = re.findall(r"^\s*TY  -", text, re.M) or re.findall(r"^PMID-", text, re.M)
            return len(tagged)
        separator = "\t" if path.suffix == ".tsv" else (";" if text.split("\n")[0].count(";") > 2 else ",")
        rows = list(csv.reader(io.StringIO(text), delimiter=separator))
    rows = [row for row in rows if any(cell.strip() for cell in row)]
    header = next(i for i, row in enumerate(rows) if any(cell.strip().lower() in _TITLES for cell in row))
    return len(rows) - header - 1


@pytest.mark.skipif(not ROWS, reason="the shared exports are not present")
@pytest.mark.parametrize("name", [row[0] for row in ROWS])
def test_every_record_of_every_shared_export_is_imported_or_skipped_with_a_reason(name: str) -> None:
    """Issue 40's invariant: records in the file = records read = papers + skipped (titles only, so that exports
    without abstracts are read too), each skipped row with its reason."""
    plan = plan_import(EXPORTS / name, title_only=True)
    assert plan.records == _records_in(EXPORTS / name) == plan.papers + len(plan.skipped)
    assert all(s["reason"] for s in plan.skipped)
