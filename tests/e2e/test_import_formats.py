"""Issue 40 in Chromium: a drop of two exports where one has no abstracts (the row names the fix, each file has its
own Titles only, removing a file keeps the corpus name typed), and a CSV saved by Excel on Windows (its encoding
named, a choice offered). Screenshots in test-artifacts/import-*.png."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.store import Store
from tests.e2e.conftest import Tab, app_tab, tiny_store

pytestmark = pytest.mark.e2e

TOOLS = Path(__file__).resolve().parents[1] / "fixtures" / "real" / "tools"
NO_ABSTRACTS = "this export has no abstracts: tick Titles only, or export again with abstracts"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return tiny_store(tmp_path_factory, "formats")


@pytest.fixture(scope="module")
def tab(browser, workspace: Store) -> Iterator[Tab]:
    with app_tab(browser, workspace) as tab:
        yield tab


def _calm(tab: Tab) -> None:
    tab.idle()
    assert tab.page.locator("[data-testid=stException]").count() == 0
    assert tab.errors == []


def _drop(tab: Tab, *paths: Path) -> None:
    tab.page.locator("[data-testid=stFileUploader] input[type=file]").set_input_files([str(p) for p in paths])
    tab.idle()


def test_a_drop_with_a_file_without_abstracts_then_a_windows_csv(tab: Tab, workspace: Store, tmp_path: Path) -> None:
    tab.go("Library")
    scopus, scholar = TOOLS / "scopus_3.csv", TOOLS / "scholar_3.csv"
    _drop(tab, scopus, scholar)
    assert "scholar_3.csv" in tab.see(NO_ABSTRACTS)  # the warning names the file and the fix (the table too)
    assert tab.page.get_by_role("button", name=re.compile("^Import 2 files")).is_disabled()
    tab.fill("Corpus name", "one search")
    _calm(tab)
    tab.snap("import-several-no-abstracts")
    tab.page.locator("[data-testid=stCheckbox]").filter(has_text="Titles only: scholar_3.csv").click()
    tab.idle()
    assert tab.page.locator("[data-testid=stAlert]").filter(has_text=NO_ABSTRACTS).count() == 0
    assert not tab.page.get_by_role("button", name="Import 2 files into corpus one search").is_disabled()
    _calm(tab)
    tab.snap("import-several-titles-only")
    # removing the file without abstracts: one file left, its own preview, the name typed kept
    chips = tab.page.locator("[data-testid=stFileUploader] [data-testid=stFileChip]")
    chips.filter(has_text="scholar_3.csv").locator("[data-testid=stFileChipDeleteBtn]").click()
    tab.idle()
    assert tab.page.locator("[data-testid=stTextInput] input[aria-label='Corpus name']").input_value() == "one search"
    tab.page.locator("[data-testid=stFileUploader] [data-testid=stFileChipDeleteBtn]").first.click()
    tab.idle()

    windows = tmp_path / "scopus_windows.csv"
    windows.write_bytes(scopus.read_text(encoding="utf-8-sig").encode("cp1252", "replace"))
    _drop(tab, windows)
    tab.see("encoding Windows-1252", "[data-testid=stCaptionContainer]")
    tab.see("3 papers, 3 with an abstract; 0 rows will be skipped")
    _calm(tab)
    tab.snap("import-windows-encoding")
    field = tab.page.locator("[data-testid=stTextInput] input[aria-label='Corpus name']")
    assert field.input_value() == "scopus_windows"  # the upload emptied in between: a name of its own
    tab.fill("Corpus name", "windows")
    tab.click("Import")
    tab.see(re.compile(r"Read 3 records into windows"))
    _calm(tab)
    assert len(workspace.papers("windows")) == 3
