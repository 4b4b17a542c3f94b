"""A user's journey on a lived-in workspace, in Chromium: every page, in the order people use them (issue 12).

The workspace already holds an embedded corpus whose label columns have holes (missing journals, missing and
float years, more journals than legend colours). Each step asserts that no exception box is on screen and that
what is shown belongs to the current inputs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.store import Store
from tests.app.test_lived_in import holey_papers
from tests.e2e.conftest import ARTIFACTS, VIEWPORT, Tab, embedded_store
from tests.e2e.server import TINY_ENV, streamlit_server
from tests.e2e.test_train import set_number
from tests.helpers import make_papers

pytestmark = pytest.mark.e2e

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"
CORPUS_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "corpus"
PHONE = {"width": 390, "height": 844}


REFERENCE_MANAGER = {"ris": "cochrane_endnote_3.ris", "bib": "scopus_3.bib"}  # real exports with abstracts


def export_file(kind: str) -> Path:
    """A real reference-manager export when the fixtures have one, else the hand-made one. Named, not the first of
    a glob: a new fixture (a file whose abstracts are all 'NA') must not change what this journey imports."""
    real = REAL / REFERENCE_MANAGER[kind]
    return real if real.exists() else CORPUS_FIXTURES / f"refs.{kind}"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return embedded_store(tmp_path_factory, "journey", "old", holey_papers(), "holey")


@pytest.fixture(scope="module")
def server(workspace: Store) -> Iterator[str]:
    env = dict(TINY_ENV)
    with streamlit_server(workspace.root, env=env, timeout=240) as url:
        yield url


@pytest.fixture(scope="module")
def tab(browser, server: str) -> Iterator[Tab]:
    context = browser.new_context(viewport=VIEWPORT)
    yield Tab(context.new_page(), server).open()
    context.close()


def calm(tab: Tab) -> None:
    """No exception box and no browser error on screen."""
    tab.idle()
    assert tab.page.locator("[data-testid=stException]").count() == 0, tab.page.locator(
        "[data-testid=stException]").first.inner_text()
    assert tab.errors == []


def sidebar_corpus(tab: Tab) -> str:
    return tab.page.locator("[data-testid=stSidebar] input[aria-label=Corpus]").first.input_value()


def choose_corpus(tab: Tab, name: str) -> None:
    tab.page.get_by_role("combobox", name="Corpus", exact=True).first.click()
    tab.page.get_by_role("option", name=re.compile(rf"^{re.escape(name)} \(")).click()
    tab.idle()


def upload(tab: Tab, path: Path, corpus: str) -> str:
    tab.page.locator("[data-testid=stFileUploader] input[type=file]").set_input_files(str(path))
    tab.see(f"Preview of {path.name}", "[data-testid=stCaptionContainer]")
    tab.idle()
    name = tab.page.locator("[data-testid=stTextInput] input[aria-label='Corpus name']").first
    tab.eventually(lambda: _equal(name.input_value(), path.name.split(".")[0]))  # this file's own name input
    tab.fill("Corpus name", corpus)
    tab.eventually(lambda: _equal(name.input_value(), corpus))
    tab.click("Import")
    return tab.see(re.compile(rf"Read \d+ records? into {re.escape(corpus)}"))



@pytest.mark.slow  # 50-140 s: in `make test-slow`, keeping `make test` near 20 min
def test_a_day_in_the_library(tab: Tab, workspace: Store):
    tab.choose("Model", "tiny")
    calm(tab)

    # 1. import a real BibTeX export next to the corpus that is already there: no crash, the new corpus is chosen
    tab.go("Library")
    bib = export_file("bib")
    report = upload(tab, bib, "refs")
    calm(tab)
    assert "refs" in sidebar_corpus(tab)
    tab.snap("journey-library-bibtex")
    # ... and a real RIS export into the same corpus (duplicates merge, nothing crashes)
    upload(tab, export_file("ris"), "refs")
    calm(tab)
    tab.click("Embed with tiny")
    tab.see(re.compile(r"Embedded \d+ new papers of refs with tiny"))
    calm(tab)
    assert report

    # 2. back to the lived-in corpus: the map with holes, coloured, highlighted and selected
    choose_corpus(tab, "old")
    tab.go("Domain map")
    calm(tab)
    tab.choose("Colour by", "journal")
    tab.fill("Highlight papers matching", "Rare Journal")
    expected = sum(1 for p in holey_papers() if str(p.fields.get("journal") or "").startswith("Rare Journal"))
    tab.see(f"{expected} papers match", "[data-testid=stCaptionContainer]")
    calm(tab)
    tab.lasso()
    tab.page.get_by_role("heading", name=re.compile(r"\d+ selected papers")).wait_for()
    calm(tab)
    tab.snap("journey-map-selected")

    # 3. search, then empty the query: only the error stays, never the old results
    tab.go("Similar papers")
    paper = make_papers()[4]
    tab.fill("Title", paper.title)
    tab.fill("Abstract", paper.abstract)
    tab.click("Find similar papers")
    tab.eventually(lambda: _startswith(tab.results(), f"1. {paper.title} · "))
    tab.fill("Title", "")
    tab.fill("Abstract", "")
    tab.click("Find similar papers")
    tab.see("the query is empty", "[data-testid=stAlert]")
    assert tab.results() == [] and tab.page.locator("[data-testid=stDataFrame]").count() == 0
    calm(tab)

    # 4. journals for an abstract, then another corpus: the suggestion names the corpus it was made on
    tab.go("Journals")
    tab.fill("Title", paper.title)
    tab.fill("Abstract", paper.abstract)
    tab.click("Suggest journals")
    tab.see("no trained journal head")
    calm(tab)
    choose_corpus(tab, "refs")
    calm(tab)
    # a suggestion made on 'old' is never shown under 'refs' (it used to be labelled with the new corpus's name)
    shown = " ".join(tab.page.locator("[data-testid=stAlert]").all_inner_texts())
    assert "no trained journal head" not in shown, shown
    assert tab.page.locator("[data-testid=stPlotlyChart]").count() == 0

    # 5. start a training run and cancel it
    choose_corpus(tab, "old")
    tab.go("Train")
    tab.choose("Base model", "tiny")
    tab.fill("New model name", "journey-model")
    set_number(tab, "Epochs", 100)
    set_number(tab, "Batch size", 2)
    tab.click("Start training")
    tab.see("→ model journey-model", "[data-testid=stMarkdownContainer]")
    tab.page.get_by_role("button", name="Cancel", exact=True).click()
    tab.see(re.compile(r"cancelled|stopping at the next step"), "[data-testid=stMarkdownContainer]")
    tab.see("cancelled", "[data-testid=stMarkdownContainer]")
    calm(tab)
    tab.snap("journey-train-cancelled")

    # 6. come back to the earlier pages: they still work and still show what belongs to their inputs
    tab.go("Domain map")
    calm(tab)
    tab.go("Similar papers")
    calm(tab)
    assert tab.results() == []  # the emptied query has no results, even after a round trip
    tab.go("Evaluate")
    calm(tab)
    tab.go("Library")
    calm(tab)


def test_the_import_preview_shows_the_reading_and_imports_titles_only_on_request(
    tab: Tab, workspace: Store, tmp_path: Path
):
    """Issue 19: an Embase-style CSV (query preamble, semicolons) and a PubMed CSV without abstracts."""
    tab.go("Library")
    embase = tmp_path / "embase-export.csv"
    embase.write_text("'asthma'/exp AND 'child'/exp\n------\n\n\nTITLE;ABSTRACT;SOURCE;PUBLICATION YEAR\n"
                      "Asthma in children;We studied asthma.;Thorax;2019\nInhalers;Inhalers work.;Chest;2020\n")
    tab.page.locator("[data-testid=stFileUploader] input[type=file]").set_input_files(str(embase))
    tab.see("header on row 5", "[data-testid=stCaptionContainer]")
    tab.see("separator semicolon", "[data-testid=stCaptionContainer]")
    tab.see("2 papers, 2 with an abstract; 0 rows will be skipped")
    calm(tab)
    # the last import's report is about another file: it goes when a new one is dropped
    assert tab.page.locator("[data-testid=stAlert]").filter(has_text=re.compile(r"Read \d+ records? into")).count() == 0
    tab.snap("journey-import-preview-preamble")

    pubmed = tmp_path / "csv-asthma-set.csv"
    pubmed.write_text("PMID,Title,Authors,Citation,First Author,Journal/Book,Publication Year,Create Date,PMCID,"
                      "NIHMS ID,DOI\n111,First title-only paper,Smith J,Nature. 2020,Smith J,Nature,2020,2020/01/01,,,"
                      "10.1/p1\n222,Second title-only paper,Doe A,BMJ. 2021,Doe A,BMJ,2021,2021/01/01,,,10.1/p2\n")
    # the uploader takes several files (one search from several databases): take the first one out, then drop the next
    tab.page.locator("[data-testid=stFileUploader] [data-testid=stFileChipDeleteBtn]").first.click()
    tab.idle()
    tab.page.locator("[data-testid=stFileUploader] input[type=file]").set_input_files(str(pubmed))
    tab.see("PubMed's CSV has no abstracts: save in PubMed format (.nbib) or as XML instead")
    tab.idle()  # the previous file's preview is gone once the run is over
    assert tab.page.get_by_role("button", name="Import", exact=True).is_disabled()
    tab.page.locator("[data-testid=stCheckbox]").filter(has_text="Titles only").first.click()
    tab.idle()
    tab.see("2 papers (2 title-only), 0 with an abstract; 0 rows will be skipped")
    calm(tab)
    tab.snap("journey-import-preview-title-only")
    tab.fill("Corpus name", "titles")
    tab.click("Import")
    tab.see(re.compile(r"Read 2 records into titles"))
    calm(tab)
    papers = workspace.papers_frame("titles")
    assert sorted(papers["title"]) == ["First title-only paper", "Second title-only paper"]
    assert list(papers["title_only"]) == [True, True] and sorted(papers["journal"]) == ["BMJ", "Nature"]


def test_a_shared_link_reproduces_the_map_view_in_another_browser(browser, server: str, workspace: Store):
    """Issue 17: the address bar carries the view; a second browser opening it sees the same map."""
    first_context = browser.new_context(viewport=VIEWPORT)
    first = Tab(first_context.new_page(), server).open()
    second_context = browser.new_context(viewport=VIEWPORT)
    try:
        choose_corpus(first, "old")
        first.go("Domain map")
        first.choose("Colour by", "journal")
        first.fill("Highlight papers matching", "Rare Journal")
        first.see(re.compile(r"\d+ papers match"), "[data-testid=stCaptionContainer]")
        first.eventually(lambda: _equal("highlight=Rare+Journal" in first.page.url, True))
        url = first.page.url
        assert "corpus=old" in url and "colour=journal" in url and "method=umap" in url

        second = Tab(second_context.new_page(), url + "&years=2001-2003").open()
        calm(second)
        assert "old" in sidebar_corpus(second)
        assert second.page.get_by_role("combobox", name="Colour by", exact=True).input_value() == "journal" or \
            "journal" in second.page.locator("[data-testid=stSelectbox]").filter(has_text="Colour by").inner_text()
        highlight = second.page.locator("[data-testid=stTextInput] input[aria-label='Highlight papers matching']")
        # the box can show "" for a moment after the first run settles (8 fresh tabs under load: once, for < 3 s)
        second.eventually(lambda: _equal(highlight.first.input_value(), "Rare Journal"))
        second.see(re.compile(r"\d+ papers from 2001–2003 drawn in front"), "[data-testid=stCaptionContainer]")
        second.snap("journey-shared-link")

        stale = Tab(second_context.new_page(), server + "/?corpus=gone&colour=nope&years=soon").open()
        stale.see("The link names corpus 'gone', which is not in this workspace")
        stale.see("are not a range like 1995-2005")
        calm(stale)
    finally:
        first_context.close()
        second_context.close()


def test_the_map_and_search_are_usable_on_a_phone(browser, server: str, workspace: Store):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    phone = Tab(context.new_page(), server).open()
    try:
        calm(phone)
        # a new session opens on the newest corpus; embed it if the journey did not
        plot = phone.map_drawn(embed=re.compile(r"^Embed .* with tiny$"))
        box = plot.bounding_box()
        assert box and box["width"] > 0.75 * PHONE["width"], box  # the plot, not the legend, has the width
        assert box["y"] < 1.2 * PHONE["height"], box  # compact controls: the map starts on the first screen or so
        ARTIFACTS.mkdir(exist_ok=True)
        phone.page.screenshot(path=str(ARTIFACTS / "phone-map-top.png"))
        plot.scroll_into_view_if_needed()
        phone.page.wait_for_timeout(300)
        phone.page.screenshot(path=str(ARTIFACTS / "phone-map.png"))
        phone.page.goto(f"{server}/similar")
        phone.idle()
        calm(phone)
        phone.page.screenshot(path=str(ARTIFACTS / "phone-similar.png"))
    finally:
        context.close()


def _equal(value: str, expected: str) -> None:
    assert value == expected, (value, expected)


def _startswith(items: list[str], prefix: str) -> None:
    assert items and items[0].startswith(prefix), items[:1]
