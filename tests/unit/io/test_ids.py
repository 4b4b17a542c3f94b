"""Ids on import (issue 19, item 1): a placeholder or repeated id never folds different papers into one.

Only rows with the same normalised title+abstract are merged. A row whose id is already another paper's, with
other text, is kept under the id ``<id>~<row>`` and listed in the report's ``conflicts``. The reader passes over
an id column of placeholders or mostly repeated values for another id-like column with unique values, or none.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from core.io import read_papers
from core.io.ids import PLACEHOLDER_IDS
from core.records import Paper, duplicate_key
from core.store import Store
from tests.unit.io.support import papers_and_errors, write

TOPICS = ["aspirin and stroke", "statins in the elderly", "sleep apnea in snorers", "neutrophil migration",
          "malaria vaccines", "gut microbiome and obesity", "asthma in children", "retinal imaging with AI"]


def _csv(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return write(path, out.getvalue())


def _abstrackr(path: Path, internal_id: bool) -> Path:
    """Abstrackr's export: `pubmed id` is 0 on every row; `(internal) id` numbers the citations."""
    header = (["(internal) id"] if internal_id else []) + ["pubmed id", "title", "abstract", "journal"]
    rows = [([str(1000 + i)] if internal_id else []) + ["0", f"A study of {t}", f"We studied {t} in {i + 20} "
            "patients.", "J Test"] for i, t in enumerate(TOPICS)]
    return _csv(path / "abstrackr.csv", header, rows)


def test_abstrackr_placeholder_pubmed_ids_fall_back_to_the_unique_internal_id(tmp_path: Path) -> None:
    path = _abstrackr(tmp_path, internal_id=True)
    stream = read_papers(path)
    assert stream.id_column == "(internal) id"
    assert stream.id_note == ("column 'pubmed id' was not used for the ids: the first 8 rows hold no id or a "
                              "placeholder ('0'); used column '(internal) id' instead")
    report = Store(tmp_path / "ws").import_papers("abs", stream, source=path.name)
    assert (report.imported, report.added, report.merged, report.conflicts) == (8, 8, 0, [])
    doc = report.to_dict()
    assert doc["id_column"] == "(internal) id" and doc["conflicts"] == [] and doc["merged"] == 0


def test_abstrackr_without_another_id_column_gets_generated_ids(tmp_path: Path) -> None:
    path = _abstrackr(tmp_path, internal_id=False)
    store = Store(tmp_path / "ws")
    stream = read_papers(path)
    assert stream.id_column is None and "ids were generated instead" in stream.id_note
    report = store.import_papers("abs", stream, source=path.name)
    assert (report.imported, report.added, report.merged, len(report.conflicts)) == (8, 8, 0, 0)
    papers = store.papers("abs")
    assert [p.id for p in papers] == [duplicate_key(p.title, p.abstract)[:16] for p in papers]
    assert len({p.id for p in papers}) == 8 and "0" not in {p.id for p in papers}


def test_a_chosen_placeholder_id_column_still_keeps_every_paper(tmp_path: Path) -> None:
    path = _abstrackr(tmp_path, internal_id=True)
    stream = read_papers(path, id_column="pubmed id")
    assert stream.id_column == "pubmed id" and "(chosen for the id)" in stream.id_note
    report = Store(tmp_path / "ws").import_papers("abs", stream)
    assert (report.added, report.merged, report.conflicts) == (8, 0, [])


@pytest.mark.parametrize("placeholder", sorted(PLACEHOLDER_IDS | {"NA", "N/A", "NULL", "None", " 0 "}))
def test_placeholder_values_are_never_ids(tmp_path: Path, placeholder: str) -> None:
    path = _csv(tmp_path / "p.csv", ["id", "doi", "title", "abstract"],
                [[placeholder, placeholder, "First title", "First abstract."],
                 ["p2", "", "Second title", "Second abstract."]])
    papers, errors = papers_and_errors(path, id_column="id")
    assert errors == [] and papers[1].id == "p2"
    assert papers[0].id == duplicate_key("First title", "First abstract.")[:16]


def test_same_id_and_same_text_is_merged(tmp_path: Path) -> None:
    path = _csv(tmp_path / "d.csv", ["id", "title", "abstract"],
                [["a1", "One title", "One abstract."], ["a2", "Two title", "Two abstract."],
                 ["a1", "ONE  title", " one abstract. "]])
    report = Store(tmp_path / "ws").import_papers("d", read_papers(path))
    assert (report.imported, report.added, report.merged, report.conflicts) == (3, 2, 1, [])


def test_same_id_with_different_text_keeps_both_and_reports_the_row(tmp_path: Path) -> None:
    path = _csv(tmp_path / "c.csv", ["id", "title", "abstract"],
                [["a1", "One title", "One abstract."], ["a2", "Two title", "Two abstract."],
                 ["a1", "Third title", "Third abstract."]])
    store = Store(tmp_path / "ws")
    stream = read_papers(path)
    assert stream.id_column == "id" and stream.id_note == ""  # one repeat in three: the column stays
    report = store.import_papers("c", stream)
    assert (report.imported, report.added, report.merged) == (3, 3, 0)
    assert report.conflicts == [{
        "row": 4, "id": "a1", "kept_as": "a1~3",  # a spreadsheet's rows 4 and 2; the id counts records
        "reason": "row 4: id 'a1' is also the id of row 2, but the title and abstract differ: "
                  "kept as a separate paper with id 'a1~3'",
    }]
    assert [(p.id, p.title) for p in store.papers("c")] == [
        ("a1", "One title"), ("a2", "Two title"), ("a1~3", "Third title")]
    assert report.to_dict()["conflicts"] == report.conflicts
    with store.connect() as conn:
        saved = json.loads(conn.execute("SELECT report FROM imports WHERE corpus = 'c'").fetchone()[0])
    assert saved["conflicts"] == report.conflicts


def test_conflict_rows_count_skipped_rows_too(tmp_path: Path) -> None:
    path = _csv(tmp_path / "s.csv", ["id", "title", "abstract"],
                [["x", "One", "First."], ["y", "Two", ""], ["x", "Three", "Third."]])
    report = Store(tmp_path / "ws").import_papers("s", read_papers(path))
    assert report.skipped == 1 and [c["row"] for c in report.conflicts] == [4]  # a spreadsheet's row
    assert report.conflicts[0]["kept_as"] == "x~3"


def test_reimporting_the_same_file_merges_everything(tmp_path: Path) -> None:
    path = _csv(tmp_path / "r.csv", ["id", "title", "abstract"],
                [["a1", "One title", "One abstract."], ["a2", "Two title", "Two abstract."],
                 ["a1", "Third title", "Third abstract."]])
    store = Store(tmp_path / "ws")
    first = store.import_papers("r", read_papers(path))
    again = store.import_papers("r", read_papers(path))
    assert (first.added, len(first.conflicts)) == (3, 1)
    assert (again.imported, again.added, again.merged, again.conflicts) == (3, 0, 3, [])
    abstrackr = _abstrackr(tmp_path, internal_id=False)
    assert store.import_papers("a", read_papers(abstrackr)).added == 8
    twice = store.import_papers("a", read_papers(abstrackr))
    assert (twice.added, twice.merged, twice.conflicts) == (0, 8, [])


def test_reimport_with_a_taken_id_and_other_text_is_kept_and_reported(store) -> None:
    store.import_papers("k", [Paper("p1", "Old title", "Old abstract.")])
    report = store.import_papers("k", [Paper("p1", "New title", "New abstract."), Paper("p1", "Old title",
                                                                                          "old  abstract.")])
    assert (report.imported, report.added, report.merged) == (2, 1, 1)
    assert report.conflicts == [{
        "row": 1, "id": "p1", "kept_as": "p1~1",
        "reason": "row 1: id 'p1' is already the id of another paper in corpus 'k', but the title and abstract "
                  "differ: kept as a separate paper with id 'p1~1'",
    }]
    assert sorted(p.id for p in store.papers("k")) == ["p1", "p1~1"]


def test_a_derived_id_that_is_taken_gets_another_suffix(store) -> None:
    records = [Paper("z", "A", "a."), Paper("z~2", "B", "b."), Paper("z", "C", "c.")]
    report = store.import_papers("t", records)
    assert report.added == 3 and [c["kept_as"] for c in report.conflicts] == ["z~3"]
    report = store.import_papers("t", [Paper("z~2", "D", "d."), Paper("z", "E", "e.")])
    assert [c["kept_as"] for c in report.conflicts] == ["z~2~1", "z~2~2"]
    assert len({p.id for p in store.papers("t")}) == 5


def test_an_id_column_with_repeats_gives_way_to_a_unique_id_like_column(tmp_path: Path) -> None:
    rows = [["7", f"uid-{i}", f"Title {t}", f"Abstract about {t}."] for i, t in enumerate(TOPICS)]
    rows[0][0] = "8"
    path = _csv(tmp_path / "u.csv", ["pmid", "corpus id", "title", "abstract"], rows)
    stream = read_papers(path)
    assert stream.id_column == "corpus id"
    assert stream.id_note == ("column 'pmid' was not used for the ids: its 8 ids in the first 8 rows have only 2 "
                              "distinct values; used column 'corpus id' instead")
    papers = [p for p in stream if isinstance(p, Paper)]
    assert [p.id for p in papers] == [f"uid-{i}" for i in range(8)]
    assert all(p.fields["pmid"] in ("7", "8") for p in papers)  # the passed-over column is kept as a field


def test_a_sparse_but_unique_id_column_is_kept(tmp_path: Path) -> None:
    path = _csv(tmp_path / "sp.csv", ["id", "title", "abstract"],
                [["", "One", "First."], ["k2", "Two", "Second."], ["NA", "Three", "Third."]])
    stream = read_papers(path)
    assert stream.id_column == "id" and stream.id_note == ""
    assert [p.id for p in stream][1] == "k2"


RIS_DOI_AS_URL = """TY  - JOUR
T1  - Predictors of posttraumatic stress symptom trajectories after an earthquake
AB  - We analysed survey data from 412 residents after a 6.3 magnitude earthquake.
JF  - Journal of Traumatic Stress
PY  - 2019
DO  - http://dx.doi.org/10.1002/jts.22387
ER  - 

TY  - JOUR
T1  - Trajectories of PTSD among children after the Wenchuan earthquake
AB  - A four-year longitudinal study followed 301 children.
JF  - European Journal of Psychotraumatology
PY  - 2019
DO  - doi: 10.1080/20008198.2019.1586266
ER  - 
"""


@pytest.mark.parametrize("text", ["http://dx.doi.org/10.1/x", "https://doi.org/10.1/x", " doi:10.1/x ",
                                  "DOI: 10.1/x", "https://dx.doi.org/10.1/x"])
def test_a_doi_is_kept_as_the_doi_whatever_prefix_the_export_gave_it(tmp_path, text):
    """ProQuest and Ovid RIS exports write `DO  - http://dx.doi.org/10...`; the link and the id are the bare DOI."""
    path = write(tmp_path / "proquest.ris", RIS_DOI_AS_URL.replace("http://dx.doi.org/10.1002/jts.22387", text))
    papers, errors = papers_and_errors(path)
    assert not errors
    assert [p.fields["doi"] for p in papers] == ["10.1/x", "10.1080/20008198.2019.1586266"]
    assert [p.id for p in papers] == ["10.1/x", "10.1080/20008198.2019.1586266"]
