"""Extensions are evidence (issue 40 §2): a CSV whose quoted abstract holds RIS lines stays a CSV (before, it was
read as RIS: its rows vanished and one fake paper appeared), so our own CSV export of such a paper re-imports;
content overrules an extension only when the whole file is in that other format, and the reading says why."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from core.io import export_papers, plan_import, read_papers
from core.io.plan import describe_reading
from core.records import Paper

SCOPUS = Path("/work/shared/data/exports/CSV/_baseline_scopus.csv")
RIS = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "scopus_3.ris"
QUOTING_RIS = ("We describe how a record is written in RIS:\nTY  - JOUR\nTI  - An example title\nAB  - An example "
               "abstract\nER  - \nand how a reference manager reads it.")
pytestmark = pytest.mark.skipif(not SCOPUS.exists(), reason="the shared exports are not present")


def _papers(path: Path) -> list[Paper]:
    return [p for p in read_papers(path) if isinstance(p, Paper)]


@pytest.mark.parametrize("suffix", [".csv", ".tsv"])
def test_our_own_export_of_a_paper_quoting_ris_reimports_every_row(tmp_path: Path, suffix: str) -> None:
    papers = _papers(SCOPUS)[:3]
    papers[0] = dataclasses.replace(papers[0], abstract=QUOTING_RIS)  # the first row: TY on the file's 2nd line
    path = tmp_path / f"corpus{suffix}"
    export_papers(papers, path)
    again = _papers(path)
    assert [(p.id, p.title, p.abstract) for p in again] == [(p.id, p.title, p.abstract) for p in papers]
    plan = plan_import(path)
    assert plan.reading["reader"] == suffix[1:] and "format_note" not in plan.reading
    assert (plan.records, plan.papers) == (3, 3)


def test_an_ris_file_named_csv_is_read_as_ris_and_the_reading_says_why(tmp_path: Path) -> None:
    path = tmp_path / "scopus.csv"
    path.write_bytes(RIS.read_bytes())
    plan = plan_import(path)
    assert plan.reading["reader"] == "ris" and plan.papers == 3
    note = plan.reading["format_note"]
    assert note.startswith("not CSV as its extension '.csv' says")
    assert describe_reading(plan.reading)[0] == "read as RIS"
    assert note in describe_reading(plan.reading)
    assert "format_note" not in plan_import(RIS).reading  # an .ris read as RIS needs no note
