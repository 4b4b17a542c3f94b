"""Issue 40's leftover: a CSV/TSV/xlsx record skipped or in conflict is named by the row a spreadsheet shows it on
(the header is row 1, or the row the report says it found it on), not by its count of records after the header.
The ids a re-import matches on (``key~row``) keep counting records."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.io import read_papers
from core.io.plan import plan_import
from core.records import Paper, RowError


def _csv(tmp_path: Path, text: str, name: str = "rows.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return path


ROWS = ("id,title,abstract\r\n"
        "a,First paper,One abstract\r\n"
        "b,Second paper,\r\n"                                   # record 2, spreadsheet row 3: no abstract
        "c,Third paper,\"An abstract\r\nover three\r\nlines\"\r\n"  # record 3, rows 4-6 of the text
        "d,,Fourth abstract\r\n")                                # record 4: a spreadsheet shows it on row 5


def _skips(path: Path) -> list[RowError]:
    return [item for item in read_papers(path) if isinstance(item, RowError)]


def test_a_skipped_csv_row_is_named_by_its_spreadsheet_row(tmp_path) -> None:
    """The header is row 1, so the second record is row 3; a quoted abstract over three lines is one spreadsheet
    row, so the record after it is row 5 (a spreadsheet shows one row a record), not the text's line 7."""
    skips = _skips(_csv(tmp_path, ROWS))
    assert [s.reason for s in skips] == ["row 3: empty abstract", "row 5: empty title"]


def test_the_preview_and_the_report_show_the_spreadsheet_row(tmp_path, store) -> None:
    from core.store import import_file

    path = _csv(tmp_path, ROWS)
    plan = plan_import(path)
    assert [(s["row"], s["reason"]) for s in plan.skipped] == [(3, "row 3: empty abstract"),
                                                              (5, "row 5: empty title")]
    report = import_file(store, path, "c").to_dict()
    assert [(e["row"], e["reason"]) for e in report["errors"]] == [(3, "row 3: empty abstract"),
                                                                  (5, "row 5: empty title")]
    assert (report["imported"], report["added"], report["merged"], report["skipped"]) == (2, 2, 0, 2)


def test_a_header_below_a_preamble_counts_from_the_top_of_the_sheet(tmp_path) -> None:
    """A tool's preamble above the header (the report says "header on row 3"): the first record is row 4."""
    path = _csv(tmp_path, "Exported by a tool\r\nSearch: x\r\n" + ROWS)
    plan = plan_import(path)
    assert plan.reading.get("header_row") == 3
    assert [s["row"] for s in plan.skipped] == [5, 7]
    assert [s.reason for s in _skips(path)] == ["row 5: empty abstract", "row 7: empty title"]


def test_an_excel_text_tsv_row_is_its_spreadsheet_row(tmp_path) -> None:
    path = _csv(tmp_path, ROWS.replace(",", "\t").replace("\"An abstract\r\nover three\r\nlines\"", "Text"),
                "rows.txt")
    assert [s.reason for s in _skips(path)] == ["row 3: empty abstract", "row 5: empty title"]


def test_a_row_with_too_many_values_is_named_by_its_spreadsheet_row(tmp_path) -> None:
    path = _csv(tmp_path, "title,abstract\na,b\nc,d,e\n")
    assert [s.reason for s in _skips(path)] == ["row 3: has 3 values but the header has 2 columns"]


@pytest.mark.parametrize("preamble", [0, 2])
def test_an_xlsx_row_is_its_sheet_row(tmp_path, preamble: int) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    sheet = book.active
    for index in range(preamble):
        sheet.append([f"note {index}"])
    for row in (["id", "title", "abstract"], ["a", "First", "One"], [None, None, None], ["b", "Second", None],
                ["c", "Third", "Three"]):
        sheet.append(row)
    path = tmp_path / "rows.xlsx"
    book.save(path)
    # the blank row is a row of the sheet: the record without an abstract is on row 4 (6 below a preamble)
    assert [s.reason for s in _skips(path)] == [f"row {4 + preamble}: empty abstract"]


def test_an_id_conflict_names_spreadsheet_rows_and_keeps_the_record_count_in_its_id(tmp_path, store) -> None:
    """Two records with one id and different texts: the report names rows 2 and 3 of the sheet; the second paper
    keeps the id ``a~2`` (its record number), which a re-import of the same file matches on."""
    from core.store import import_file

    path = _csv(tmp_path, "id,title,abstract\na,First paper,One abstract\na,Other paper,Other abstract\n")
    report = import_file(store, path, "c").to_dict()
    conflict, = [c for c in report["conflicts"] if c.get("kind") != "shared id"]
    assert conflict["kept_as"] == "a~2" and conflict["row"] == 3
    assert conflict["reason"].startswith("row 3: id 'a' is also the id of row 2,")
    again = import_file(store, path, "c").to_dict()
    assert (again["added"], again["merged"]) == (0, 2)


def test_papers_read_from_a_csv_know_their_spreadsheet_row(tmp_path) -> None:
    papers = [p for p in read_papers(_csv(tmp_path, ROWS)) if isinstance(p, Paper)]
    assert [p.line for p in papers] == [2, 4]


def test_a_blank_row_moves_the_rows_after_it(tmp_path, store) -> None:
    """A spreadsheet shows a blank line as an empty row: the records after it are one row further down, and a
    conflict between records on both sides of it names both rows right."""
    from core.store import import_file

    path = _csv(tmp_path, "id,title,abstract\na,First,One\n\nb,Second,Two\na,Third,Three\nc,,Four\n")
    report = import_file(store, path, "c").to_dict()
    conflict, = [c for c in report["conflicts"] if c.get("kind") != "shared id"]
    assert conflict["reason"].startswith("row 5: id 'a' is also the id of row 2,") and conflict["kept_as"] == "a~3"
    assert [(e["row"], e["reason"]) for e in report["errors"]] == [(6, "row 6: empty title")]


def test_a_papers_sources_and_the_merges_table_name_the_spreadsheet_row(tmp_path, store) -> None:
    """The paper's side panel (its source records) and the merges table name a CSV record by its sheet row, as the
    report does; the stored row that splitting a merge back builds its id from (``key~row``) still counts records."""
    from core.store import import_file
    from core.store.provenance import merges, paper_sources, split_record

    path = _csv(tmp_path, "id,doi,title,abstract\nExported 2026\n\na,10.1/x,First paper,One abstract\n"
                          "b,,Other paper,Other abstract\na,10.1/x,First paper,The abstract again and longer\n")
    report = import_file(store, path, "c").to_dict()
    assert (report["added"], report["merged"], report["skipped"]) == (2, 1, 1)
    assert [m["row"] for m in report["merges"]] == [6]
    with store.connect() as conn:
        table = merges(conn, "c")
        sources = paper_sources(conn, "c", "a")
    assert [(m["row"], m["into row"]) for m in table] == [(6, 4)]
    assert [s.row for s in sources] == [4, 6]
    with store.connect() as conn:
        split_record(conn, "c", table[0]["record"])
    assert {p.id for p in store.papers("c")} == {"a", "b", "a~4"}  # the fourth record


@pytest.mark.parametrize("background", [False, True])
def test_rows_are_numbered_by_an_offset_where_it_changes_not_an_object_a_record(tmp_path, background: bool) -> None:
    """The reader gives a `RowNumber` only to the first record and the first after a blank row; the records after
    it are plain ints, and `read_papers` adds the offset back: every paper and every skipped row still knows its
    spreadsheet row (BENCHMARKS.md §25g), across blank rows, a short row, a row with too many values and a
    multi-line cell; read in this process or in a reading process (large files)."""
    from core.io.rows import RowNumber
    from core.io.tabular import _delimited_rows

    text = ("id,title,abstract\n" "a,One,First\n" "b,Two,Second\n" "\n" "c,Three,\"Third\nover lines\"\n"
            "d,Four,Fourth,extra\n" "e,,Fifth\n" "\n" "\n" "f,Six\n" "g,Seven,Seventh\n")
    path = _csv(tmp_path, text)
    numbers = [number for number, _ in _delimited_rows(path, ",")]
    assert numbers == [1, 2, 3, 4, 5, 6, 7]
    assert [type(n) is RowNumber for n in numbers] == [True, False, True, False, False, True, False]
    items = list(read_papers(path, background=background))
    assert [(p.id, p.line) for p in items if isinstance(p, Paper)] == [("a", 2), ("b", 3), ("c", 5), ("g", 11)]
    assert [(int(e.row), e.row.line, e.reason) for e in items if isinstance(e, RowError)] == [
        (4, 6, "row 6: has 4 values but the header has 3 columns"), (5, 7, "row 7: empty title"),
        (6, 10, "row 10: empty abstract")]
