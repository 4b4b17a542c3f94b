"""A huge one-line file (qa19): a CSV whose only line holds 60,000 cells of the same name is refused at once as a file
without rows; naming its columns (`a`, `a_2`, `a_3`, …) once took cubic time, so the Library's preview never ended."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io.plan import plan_import
from core.io.tabular import _unique_header


@pytest.mark.timeout(120)  # a guard, not a timing: before the fix this did not end in an hour
def test_a_one_line_csv_of_60000_equal_cells_is_refused_as_a_file_without_rows(tmp_path: Path) -> None:
    path = tmp_path / "one-line.csv"
    path.write_text("a," * 60_000, encoding="utf-8")
    with pytest.raises(CorpusError, match="no rows"):
        plan_import(path, limit=20)


def test_repeated_and_blank_header_cells_get_the_same_names_as_before() -> None:
    assert _unique_header(["a", "a", " ", "a_2", "a", "b", ""]) == ["a", "a_2", "column_3", "a_2_2", "a_3", "b",
                                                                   "column_7"]
    names = _unique_header(["x"] * 50_000)
    assert names[:3] == ["x", "x_2", "x_3"] and names[-1] == "x_50000" and len(set(names)) == 50_000
