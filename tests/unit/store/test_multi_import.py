"""Several exports of one search (PubMed, Scopus, Web of Science...) imported at once into one corpus: one
transaction, duplicates merged across files and with the corpus by DOI or title+abstract, a report per file.

The files are the real exports of ../shared/data/exports (the same search exported by 20+ tools)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import read_papers
from core.records import Paper, duplicate_key
from core.store import MultiImportReport, Store, import_file, import_files
from core.store.database import SCHEMA

EXPORTS = Path("/work/shared/data/exports")
THREE = [EXPORTS / "RIS" / "_baseline_pubmed.ris", EXPORTS / "CSV" / "_baseline_scopus.csv",
         EXPORTS / "RIS" / "_baseline_webofscience.ris"]
pytestmark = pytest.mark.skipif(not THREE[0].exists(), reason="the shared exports are not present")


def _text_keys(paths: list[Path]) -> set[str]:
    """The distinct title+abstract keys of the files: the union a merge by text alone gives."""
    return {duplicate_key(p.title, p.abstract) for path in paths for p in read_papers(path)
            if isinstance(p, Paper) and p.abstract}


def test_three_databases_import_as_their_union_with_a_report_per_file(store):
    report = import_files(store, THREE, "search")
    assert isinstance(report, MultiImportReport) and report.corpus == "search"
    rows = {r["file"]: r for r in report.file_rows()}
    assert list(rows) == ["_baseline_pubmed.ris", "_baseline_scopus.csv", "_baseline_webofscience.ris"]
    assert [(r["rows"], r["added"], r["merged"], r["skipped"]) for r in rows.values()] == [
        (50, 49, 0, 1), (10, 10, 0, 0), (10, 5, 2, 3)]
    # the two Web of Science papers already read from PubMed differ in their text: only their DOI merges them
    wos = rows["_baseline_webofscience.ris"]
    assert (wos["merged by DOI"], wos["merged into earlier files"], wos["merged into the corpus"]) == (2, 2, 0)
    assert len(_text_keys(THREE)) == 66  # what merging by title+abstract alone (before the DOI) kept
    assert store.corpus("search").papers == report.added == 64
    assert (report.imported, report.merged, report.skipped) == (66, 2, 4)
    assert report.imported + report.skipped == sum(r["rows"] for r in rows.values())

    doc = report.to_dict()
    assert (doc["corpus"], doc["imported"], doc["added"], doc["merged"], doc["skipped"]) == ("search", 66, 64, 2, 4)
    assert [f["file"] for f in doc["files"]] == list(rows) and doc["files"][2]["merged_by_doi"] == 2
    assert len(doc["errors"]) == 4 and all(e["reason"].startswith(f"{e['file']}, row {e['row']}: ")
                                           for e in doc["errors"])
    with store.connect() as conn:
        done = conn.execute("SELECT file, status FROM imports WHERE corpus = 'search' ORDER BY id").fetchall()
    assert [tuple(r) for r in done] == [(p.name, "completed") for p in THREE]


def test_importing_the_same_files_again_adds_nothing_and_keeps_the_version(store):
    import_files(store, THREE, "search")
    before = store.corpus("search")
    again = import_files(store, THREE, "search")
    assert (again.added, again.merged, again.imported) == (0, 66, 66)
    assert [r.merged_into for r in again.files] == [{"this file": 0, "earlier files": 0, "corpus": n}
                                                   for n in (49, 10, 7)]
    after = store.corpus("search")
    assert (after.papers, after.version) == (64, before.version)  # nothing new: maps and embeddings stay valid


def test_one_export_folded_into_the_same_collection_from_four_tools(store):
    """Lens's RIS, CSV and Excel and Citavi's RIS of one 98-paper collection: one corpus of 98 papers. By text
    alone they made 150 (the CSV, Excel and Citavi abstracts differ in punctuation and labels)."""
    four = [EXPORTS / "RIS" / "_baseline.ris", EXPORTS / "CSV" / "_baseline.csv", EXPORTS / "XLSX" / "_baseline.xlsx",
            EXPORTS / "RIS" / "_baseline_citavi.ris"]
    assert len(_text_keys(four)) == 150
    report = import_files(store, four, "lens")
    assert [(r.added, r.merged, r.merged_by_doi) for r in report.files] == [(98, 0, 0), (0, 98, 8), (0, 98, 8),
                                                                            (0, 98, 44)]
    assert store.corpus("lens").papers == 98


def test_later_files_merge_into_papers_already_in_the_corpus(store):
    import_file(store, THREE[0], "search")
    report = import_files(store, THREE[1:], "search")
    assert [r.merged_into for r in report.files] == [{"this file": 0, "earlier files": 0, "corpus": 0},
                                                     {"this file": 0, "earlier files": 0, "corpus": 2}]
    assert store.corpus("search").papers == 64


@pytest.mark.parametrize("bad", ["CSV/_baseline_pubmed.csv", "RIS/_baseline_googlescholar.ris"])
def test_a_bad_file_in_the_set_leaves_the_corpus_as_it_was_and_is_named(store, bad):
    """A file refused on reading (no abstract column) or one with no usable paper, read after two good files
    were stored in the transaction: either way nothing of the upload is kept."""
    import_file(store, THREE[1], "search")
    before = store.corpus("search")
    with pytest.raises(CorpusError, match=Path(bad).name.replace(".", r"\.")):
        import_files(store, [THREE[0], THREE[2], EXPORTS / bad], "search")
    after = store.corpus("search")
    assert (after.papers, after.version, after.columns) == (before.papers, before.version, before.columns) == (
        10, before.version, before.columns)
    with store.connect() as conn:
        assert conn.execute("SELECT COUNT(*) FROM papers").fetchone()[0] == 10
    with pytest.raises(CorpusError, match="_baseline_googlescholar"):
        import_files(store, [THREE[0], EXPORTS / "RIS" / "_baseline_googlescholar.ris"], "fresh")
    assert not store.has_corpus("fresh")


def test_a_merge_keeps_the_first_record_and_fills_only_what_it_lacked(store):
    first = [Paper("a", "Aspirin and the heart", "", {"doi": "10.1000/ABC", "title_only": True, "journal": "J1"}),
             Paper("b", "Statins", "Statins lower cholesterol.", {"doi": "10.1000/s", "journal": "", "mesh": ["x"]})]
    store.import_papers("c", first, source="pubmed")
    later = [Paper("w1", "ASPIRIN AND THE HEART.", "Aspirin lowers the risk.", {"doi": "https://doi.org/10.1000/abc",
                                                                              "journal": "J2", "times cited": 4}),
             Paper("w2", "Statins!", "Statins lower cholesterol. (c) 2020 Elsevier.", {"doi": "doi: 10.1000/S",
                                                                                      "journal": "J3", "mesh": ["y"]})]
    report = store.import_papers("c", later, source="wos")
    assert (report.added, report.merged, report.merged_by_doi, report.filled) == (0, 2, 2, 2)
    a, b = store.papers("c")
    # the title-only paper took the abstract it lacked; its title, id and journal stayed; the new field came in
    assert (a.id, a.title, a.abstract) == ("a", "Aspirin and the heart", "Aspirin lowers the risk.")
    assert a.fields == {"doi": "10.1000/ABC", "journal": "J1", "times cited": 4}
    # the other kept its text and MeSH, and took the journal it had left empty
    assert (b.id, b.title, b.abstract) == ("b", "Statins", "Statins lower cholesterol.")
    assert b.fields == {"doi": "10.1000/s", "journal": "J3", "mesh": ["x"]}
    assert store.papers_frame("c")["title"].tolist() == ["Aspirin and the heart", "Statins"]
    # the filled abstract is the paper's text now: its own text merges into it, the old title-only key does not
    again = store.import_papers("c", [Paper("z", "Aspirin and the heart", "Aspirin lowers the risk.")])
    assert (again.added, again.merged, again.merged_by_doi) == (0, 1, 0)


def test_a_workspace_made_before_the_doi_column_gets_it_filled(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    conn = sqlite3.connect(root / "catalog.sqlite")
    conn.executescript(SCHEMA)  # the papers table as it was: no doi column
    conn.execute("INSERT INTO corpora(name, created, source) VALUES ('old', 0, 'x')")
    conn.execute("INSERT INTO papers(corpus, pid, seq, title, abstract, fields, hash, dkey) VALUES "
                 "('old', 'p1', 0, 'T', 'A.', ?, 'h', 'k')", (json.dumps({"doi": "10.5/XY"}),))
    conn.commit()
    conn.close()
    store = Store(root)
    with store.connect() as c:
        assert c.execute("SELECT doi FROM papers").fetchone()[0] == "10.5/xy"
    report = store.import_papers("old", [Paper("q", "T.", "Other abstract.", {"doi": "10.5/xy"})])
    assert (report.added, report.merged_by_doi) == (0, 1)


def test_the_cli_imports_several_exports_with_a_line_per_file_and_the_totals(tmp_path, capsys):
    from core.cli import main

    workspace = str(tmp_path / "ws")
    assert main(["--workspace", workspace, "import", *map(str, THREE), "--corpus", "search"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:5] == [
        "_baseline_pubmed.ris (medline): 50 records read: 49 new papers, 0 merged duplicates, 1 skipped record",
        "_baseline_scopus.csv (csv): 10 records read: 10 new papers, 0 merged duplicates, 0 skipped records",
        "_baseline_webofscience.ris (ris): 10 records read: 5 new papers, 2 merged duplicates (0 within the file, "
        "2 into earlier files, 0 into the corpus), 3 skipped records",
        "corpus search: read 70 records from 3 files: 64 new papers, 2 merged duplicates, 4 skipped records",
        "merged by rule: 2 same DOI and title (--json: every merge in 'merges')"]
    assert lines[5] == "  _baseline_pubmed.ris, row 13: empty abstract"
    assert main(["--workspace", workspace, "import", *map(str, THREE), "--corpus", "search", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["corpus"], doc["imported"], doc["added"], doc["merged"], doc["skipped"]) == ("search", 66, 0, 66, 4)
    assert [f["file"] for f in doc["files"]] == [p.name for p in THREE] and len(doc["errors"]) == 4


def test_full_text_merged_by_doi_gives_its_figures_to_the_paper_it_became(store, tmp_path):
    """A PubMed record first, then the article's PMC full text (other abstract): one paper, with the figures."""
    from core.io import bundle_files

    jats = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "real" / "jats").glob("*.xml"))
    title = ("Novel digital features discriminate between drought resistant and drought sensitive rice under "
             "controlled and field conditions.")  # PubMed's case and full stop: the titles agree
    store.import_papers("pmc", [Paper("pubmed-1", title, "PubMed's abstract.", {"doi": "10.3389/FPLS.2018.00492"})])
    report = import_file(store, bundle_files(jats, tmp_path), "pmc")
    assert (report.added, report.merged_by_doi, report.figures) == (2, 1, 18)
    assert {pid: len(figs) for pid, figs in store.figures("pmc").items()} == {
        "pubmed-1": 9, "PMC6035793": 6, "PMC6137811": 3}
    assert store.paper("pmc", "pubmed-1").abstract == "PubMed's abstract."  # the first record's text stays
