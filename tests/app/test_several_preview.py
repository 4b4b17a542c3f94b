"""The preview of several files says, before anything is stored, which rows of which file will be skipped and why
(the one-file preview does; several files showed only a count per file), what makes two records one paper (the
rule the import applies, not 'same DOI'), and leaves the row count of a file it cannot read empty instead of 0."""

from __future__ import annotations

import pytest

from tests.app.test_import_several import EXPORTS, THREE, _upload
from tests.app.test_pages import empty_workspace, open_app  # noqa: F401 (fixtures)
from tests.conftest import ROOT

REAL = ROOT / "tests" / "fixtures" / "real" / "tools"

pytestmark = pytest.mark.skipif(not THREE[0].exists(), reason="the shared exports are not present")


def test_several_files_preview_lists_the_rows_to_skip_with_file_row_and_reason(empty_workspace):  # noqa: F811
    at = open_app("app_pages/library.py", model=None)
    _upload(at, THREE)
    skipped = next(d.value for d in at.dataframe if "reason" in d.value.columns)
    assert list(skipped["file"]) == ["_baseline_pubmed.ris", *["_baseline_webofscience.ris"] * 3]
    assert skipped["row"][0] == 13 and skipped["reason"][0] == "empty abstract"
    assert any(e.label == "Rows that will be skipped (4)" for e in at.expander)


def test_several_files_preview_states_the_merge_rule_the_import_applies(empty_workspace):  # noqa: F811
    at = open_app("app_pages/library.py", model=None)
    _upload(at, THREE)
    caption = next(c.value for c in at.caption if c.value.startswith("Preview of **3 files**"))
    assert "same DOI, or" not in caption  # a shared DOI with disagreeing titles is two papers
    assert "titles agree" in caption


def test_a_file_that_cannot_be_read_has_no_row_count_of_zero(empty_workspace):  # noqa: F811
    at = open_app("app_pages/library.py", model=None)
    bare = EXPORTS / "CSV" / "_baseline_googlescholar.csv"  # ten rows, no abstract column
    _upload(at, [THREE[1], bare])
    summary = at.dataframe[0].value
    assert summary["rows"][0] == 10 and summary["rows"].isna()[1], list(summary["rows"])
    # and the browser shows that cell empty: Streamlit draws a missing value as a grey "None" unless told otherwise
    assert at.dataframe[0].proto.HasField("placeholder") and at.dataframe[0].proto.placeholder == ""


def test_the_report_names_the_fix_for_rows_skipped_without_an_abstract(empty_workspace):  # noqa: F811
    at = open_app("app_pages/library.py", model=None)
    _upload(at, THREE)
    at.text_input[0].set_value("search").run()
    next(b for b in at.button if b.label == "Import 3 files into corpus search").click().run()
    assert any("Titles only" in c.value and "import its file again" in c.value for c in at.caption), [
        c.value for c in at.caption]


def test_fields_found_lists_only_fields_some_record_has(empty_workspace, tmp_path):  # noqa: F811
    """A RIS file of titles and abstracts only: its row said 'title, abstract, journal, year, doi, authors,
    keywords' (the fields RIS can carry), not what the file holds."""
    bare = tmp_path / "bare.ris"
    bare.write_text("TY  - JOUR\nTI  - A title\nAB  - An abstract\nER  - \n", encoding="utf-8")
    at = open_app("app_pages/library.py", model=None)
    at.file_uploader[0].set_value([(bare.name, bare.read_bytes(), "text/plain"),
                                   (THREE[1].name, THREE[1].read_bytes(), "text/plain")]).run()
    summary = at.dataframe[0].value
    assert summary["fields found"][0] == "title, abstract"
    assert summary["fields found"][1].startswith("title, abstract, id, journal, year, doi, authors")


def test_the_same_file_dropped_twice_is_previewed_and_imported_once_merged(empty_workspace):  # noqa: F811
    """Two byte-identical exports (Cochrane's ProCite and RefMan RIS are one file under two names) crashed the page:
    both files' Titles only boxes had the key of their shared content digest (StreamlitDuplicateElementKey)."""
    wos = REAL / "wos_plain_2025_3.txt"
    data = wos.read_bytes()
    at = open_app("app_pages/library.py", model=None)
    at.file_uploader[0].set_value([("a.txt", data, "text/plain"), ("b.txt", data, "text/plain"),
                                   (wos.name, data, "text/plain")]).run()
    assert not at.exception, at.exception
    assert list(at.dataframe[0].value["file"]) == ["a.txt", "b.txt", wos.name]
    assert len([c for c in at.checkbox if c.label.startswith("Titles only")]) == 3
    at.text_input[0].set_value("twice").run()
    next(b for b in at.button if b.label == "Import 3 files into corpus twice").click().run()
    assert not at.exception, at.exception
    headline = next(s.value for s in at.success if "Read" in s.value)
    assert "Read **9 records** from **3 files**" in headline and "3 new papers" in headline, headline


def test_one_file_without_abstracts_names_the_fix_as_several_files_do(empty_workspace):  # noqa: F811
    """A Web of Science Excel export without abstracts, dropped alone, said '0 papers, 0 with an abstract; 18 rows
    will be skipped' over a greyed Import; dropped with another file its row said 'tick Titles only'."""
    xls = REAL / "wos_savedrecs_excel_18.xls"
    at = open_app("app_pages/library.py", model=None)
    at.file_uploader[0].set_value([(xls.name, xls.read_bytes(), "application/vnd.ms-excel")]).run()
    assert not at.exception, at.exception
    warning = next(w.value for w in at.warning if w.value.startswith("0 papers"))
    assert "tick Titles only" in warning, warning
    assert next(b for b in at.button if b.label == "Import").disabled
    next(c for c in at.checkbox if c.label.startswith("Titles only")).check().run()
    assert not any("tick Titles only" in w.value for w in at.warning), [w.value for w in at.warning]
    assert not next(b for b in at.button if b.label == "Import").disabled
