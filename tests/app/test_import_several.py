"""The Library takes several exports of one search at once (PubMed, Scopus, Web of Science): a summary per file, one
button that imports them into one corpus, and a report with a row per file, the totals, and skipped rows that name
their file. One file keeps the column-by-column preview."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.store import Store
from tests.app.test_pages import empty_workspace, open_app  # noqa: F401 (fixtures)
from tests.conftest import SHARED_DATA

EXPORTS = SHARED_DATA / "exports"
THREE = [EXPORTS / "RIS" / "_baseline_pubmed.ris", EXPORTS / "CSV" / "_baseline_scopus.csv",
         EXPORTS / "RIS" / "_baseline_webofscience.ris"]
pytestmark = pytest.mark.skipif(not THREE[0].exists(), reason="the shared exports are not present")


def _upload(at, paths: list[Path]) -> None:
    at.file_uploader[0].set_value([(p.name, p.read_bytes(), "text/plain") for p in paths]).run()
    assert not at.exception


def test_three_exports_are_previewed_per_file_and_imported_into_one_corpus(empty_workspace):  # noqa: F811
    at = open_app("app_pages/library.py", model=None)
    assert at.file_uploader[0].accept_multiple_files
    _upload(at, THREE)
    summary = at.dataframe[0].value
    assert list(summary["file"]) == [p.name for p in THREE]
    assert list(summary["papers"]) == [49, 10, 7] and list(summary["skipped"]) == [1, 0, 3]
    assert "doi" in summary["fields found"][1] and "abstract" in summary["fields found"][2]
    assert not [s for s in at.selectbox if s.label == "Title column"]  # no column choices for several files
    at.text_input[0].set_value("search").run()
    button = next(b for b in at.button if b.label == "Import 3 files into corpus search")
    button.click().run()
    assert not at.exception and not at.error
    assert Store(empty_workspace).corpus("search").papers == 64
    assert any(s.value.startswith("Read **70 records** from **3 files** into **search**: 64 new papers · "
                                  "2 duplicates merged within this import · 4 skipped records") for s in at.success)
    table = next(d.value for d in at.dataframe if "into earlier files" in d.value.columns)
    assert list(table["file"]) == [*(p.name for p in THREE), "total"]
    assert list(table["added"]) == [49, 10, 5, 64] and list(table["merged"]) == [0, 0, 2, 2]
    assert list(table["into earlier files"]) == [0, 0, 2, 2] and list(table["skipped"]) == [1, 0, 3, 4]
    skipped = next(d.value for d in at.dataframe if "reason" in d.value.columns)
    assert list(skipped["file"]) == ["_baseline_pubmed.ris", *["_baseline_webofscience.ris"] * 3]
    assert skipped["reason"][0] == "_baseline_pubmed.ris, row 13: empty abstract"


NO_ABSTRACTS = "this export has no abstracts: tick Titles only, or export again with abstracts"


@pytest.mark.parametrize("export", ["CSV/_baseline_pubmed.csv", "RIS/_baseline_googlescholar.ris"])
def test_a_file_without_abstracts_names_the_fix_and_titles_only_for_it_imports_it(empty_workspace,  # noqa: F811
                                                                                   export: str):
    """PubMed's CSV (no abstract column) and Google Scholar's RIS (an AB tag in no record) beside a Scopus export:
    the row said 'fields found: … abstract' (false) and the warning gave no reason; there was no Titles only."""
    at = open_app("app_pages/library.py", model=None)
    bare = EXPORTS / export
    _upload(at, [THREE[1], bare])
    summary = at.dataframe[0].value
    assert summary["fields found"][1] == NO_ABSTRACTS
    assert "abstract" in summary["fields found"][0]
    warning = next(w.value for w in at.warning if NO_ABSTRACTS in w.value)
    assert bare.name.replace("_", "\\_") in warning
    assert next(b for b in at.button if b.label.startswith("Import 2 files")).disabled
    next(c for c in at.checkbox if c.label == f"Titles only: {bare.name}".replace("_", "\\_")).check().run()
    summary = at.dataframe[0].value
    assert list(summary["papers"]) == [10, 10] and "abstract" not in summary["fields found"][1]
    assert not [w for w in at.warning if NO_ABSTRACTS in w.value]
    at.text_input[0].set_value("mixed").run()
    next(b for b in at.button if b.label == "Import 2 files into corpus mixed").click().run()
    assert not at.exception and not at.error
    table = next(d.value for d in at.dataframe if "into earlier files" in d.value.columns)
    assert list(table["read"]) == [10, 10, 20] and list(table["skipped"]) == [0, 0, 0]
    assert table["added"][2] + table["merged"][2] == 20  # every row read is a paper added or merged
    papers = Store(empty_workspace).papers("mixed")
    assert len(papers) == table["added"][2]
    assert any(p.fields.get("title_only") for p in papers)
    assert all(p.abstract for p in papers if not p.fields.get("title_only"))  # Scopus's papers kept their text


def test_removing_a_file_keeps_the_corpus_name_typed(empty_workspace):  # noqa: F811
    at = open_app("app_pages/library.py", model=None)
    _upload(at, [*THREE, EXPORTS / "RIS" / "_baseline_googlescholar.ris"])
    at.text_input[0].set_value("one search").run()
    _upload(at, THREE)  # the file without abstracts removed
    assert at.text_input[0].value == "one search"
    assert next(b for b in at.button if b.label == "Import 3 files into corpus one search")
    _upload(at, THREE[1:2])  # one file left: its own preview, the name still the one typed
    assert [s for s in at.selectbox if s.label == "Title column"] and at.text_input[0].value == "one search"
    _upload(at, [])  # all removed: the next drop is another upload, named after its file
    _upload(at, THREE[:1])
    assert at.text_input[0].value == "baseline_pubmed"


def test_one_file_keeps_the_column_preview_and_offers_a_name_it_accepts(empty_workspace):  # noqa: F811
    at = open_app("app_pages/library.py", model=None)
    _upload(at, THREE[1:2])
    assert [s for s in at.selectbox if s.label == "Title column"]
    assert at.text_input[0].value == "baseline_scopus"  # was '_baseline_scopus', refused on Import (no leading _)
    next(b for b in at.button if b.label == "Import").click().run()
    assert not at.exception and not at.error and Store(empty_workspace).corpus("baseline_scopus").papers == 10


def test_after_an_import_the_uploader_is_empty_so_the_next_file_is_not_added_to_the_imported_ones(
        empty_workspace):  # noqa: F811
    """A multi-file uploader keeps its files; a file dropped after an import joined them as a several-file upload
    (found by the Chromium journey, which imports a BibTeX export and then a RIS one)."""
    at = open_app("app_pages/library.py", model=None)
    _upload(at, THREE[:2])
    at.text_input[0].set_value("search").run()
    next(b for b in at.button if b.label == "Import 2 files into corpus search").click().run()
    assert Store(empty_workspace).corpus("search").papers == 59
    assert not at.file_uploader[0].value  # a new, empty uploader
    _upload(at, THREE[2:])
    assert any(c.value.startswith("Preview of **\\_baseline\\_webofscience.ris**") for c in at.caption), [
        c.value for c in at.caption][:5]


def test_the_report_adds_up_lists_each_merge_shows_the_overlap_and_splits_one_back(empty_workspace):  # noqa: F811
    """Every record accounted for (read = added + merged + skipped on every row), every merge listed with its rule,
    the databases' overlap shown, and one merge undone from the page."""
    at = open_app("app_pages/library.py", model=None)
    _upload(at, THREE)
    at.text_input[0].set_value("search").run()
    next(b for b in at.button if b.label == "Import 3 files into corpus search").click().run()
    assert not at.exception and not at.error
    table = next(d.value for d in at.dataframe if "within the file" in d.value.columns)
    assert list(table["database"])[:3] == ["PubMed", "Scopus", "Web of Science"]
    assert all(table["read"] == table["added"] + table["merged"] + table["skipped"])
    assert all(table["merged"] == table["within the file"] + table["into earlier files"] + table["into the corpus"])
    merges = next(d.value for d in at.dataframe if "into title" in d.value.columns)
    assert len(merges) == 2 and set(merges["file"]) == {"_baseline_webofscience.ris"}
    assert set(merges["rule"]) <= {"same DOI and title", "same Web of Science UT and title",
                                   "same title, year and first author", "same title and abstract"}
    overlap = next(d.value for d in at.dataframe if "unique to it" in d.value.columns)
    assert set(overlap["database"]) == {"PubMed", "Scopus", "Web of Science"}
    assert int(overlap["papers"].sum()) == 64 + 2  # two papers were found by two databases
    record = merges["id"][0]
    split = next(b for b in at.button if b.label.startswith(f"Split record {record} from paper"))
    split.click().run()
    assert not at.exception and not at.error
    assert Store(empty_workspace).corpus("search").papers == 65
    assert any(f"Record {record}" in s.value.replace("\\", "") and "is now paper" in s.value for s in at.success)


def test_a_file_saved_on_a_mac_names_its_encoding_and_the_one_chosen_rereads_it(empty_workspace,  # noqa: F811
                                                                                 tmp_path: Path):
    text = (EXPORTS / "CSV" / "_baseline_embase.csv").read_text(encoding="utf-8-sig")
    text = text.encode("mac_roman", "replace").decode("mac_roman")
    saved = tmp_path / "embase_mac.csv"
    saved.write_bytes(text.encode("mac_roman"))
    at = open_app("app_pages/library.py", model=None)
    _upload(at, [saved])
    assert any("encoding **Windows-1252**" in c.value for c in at.caption)  # few accents: detection guesses wrong
    encoding = next(s for s in at.selectbox if s.label == "Encoding")
    assert "detected: Windows-1252" in encoding.help
    encoding.set_value("Mac Roman").run()
    assert not at.exception and any("encoding **Mac Roman**" in c.value for c in at.caption)
    next(b for b in at.button if b.label == "Import").click().run()
    assert not at.exception and not at.error
    original = tmp_path / "embase_utf8.csv"
    original.write_text(text, encoding="utf-8")
    from core.io import read_papers
    from core.records import Paper

    expected = sorted(p.abstract for p in read_papers(original) if isinstance(p, Paper))
    assert sorted(p.abstract for p in Store(empty_workspace).papers("embase_mac")) == expected
