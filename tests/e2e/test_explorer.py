"""The explorer in a real browser: upload → import report → embed → map → similar papers → journals."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator

import pytest

from core.embedding import embed_corpus, get_model, vectors_fingerprint
from core.io import read_papers
from core.store import Store
from tests.e2e.conftest import FIXTURES, Tab, app_tab, tiny_store

pytestmark = pytest.mark.e2e

CSV = FIXTURES / "papers.csv"
CORPUS = "explorer"
with CSV.open(encoding="utf-8", newline="") as _fh:
    ROWS = {row["id"]: row for row in csv.DictReader(_fh)}
JOURNALS = sorted({row["journal"] for row in ROWS.values()})
PAPERS = 30  # of 32 rows, one repeats econ-02's text (merged) and one has no abstract (skipped)
UNTRUSTED = ["astro-06", "bio-03", "econ-09"]  # titles carrying <img onerror>, <script>, <svg onload=alert>


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """An empty workspace that knows the tiny random model as 'tiny'."""
    return tiny_store(tmp_path_factory, "e2e")


@pytest.fixture(scope="module")
def tab(browser, workspace: Store) -> Iterator[Tab]:
    """One app server and one browser tab for the whole module."""
    with app_tab(browser, workspace) as tab:
        yield tab


@pytest.fixture()
def imported(workspace: Store) -> Store:
    """The CSV's corpus, imported through core when the upload test has not run first."""
    if not workspace.has_corpus(CORPUS):
        workspace.import_papers(CORPUS, read_papers(CSV), source=CSV.name)
    return workspace


def ask(tab: Tab, pid: str) -> None:
    """Paste a corpus paper's own title and abstract into the page's query fields."""
    tab.fill("Title", ROWS[pid]["title"])
    tab.fill("Abstract", ROWS[pid]["abstract"])


def top_hit(tab: Tab, title: str) -> list[str]:
    """Wait until the first similar-papers result is `title`; return all result lines."""
    def check() -> list[str]:
        results = tab.results()
        assert results and results[0].startswith(f"1. {title} · "), results[:1]
        return results
    return tab.eventually(check)


def assert_no_script_ran(tab: Tab) -> None:
    assert tab.page.evaluate("() => window.__xss") is None
    assert tab.dialogs == []


def test_a_newcomer_uploads_a_csv_embeds_it_and_explores_it(tab: Tab):
    tab.go("Library")
    tab.choose("Model", "tiny")
    tab.page.locator("[data-testid=stFileUploader] input[type=file]").set_input_files(str(CSV))
    tab.see("Preview of papers.csv", "[data-testid=stCaptionContainer]")
    tab.fill("Corpus name", CORPUS)
    tab.click("Import")
    assert tab.see("Read 32 records") == (
        f"Read 32 records into {CORPUS}: {PAPERS} new papers · 1 duplicate merged within this import · 1 skipped record")
    tab.page.get_by_text("Skipped rows (1)").click()
    tab.page.get_by_role("button", name="Download the import report (CSV)").wait_for()
    # the row a spreadsheet shows it on: the header is row 1, the 32nd record row 33
    tab.eventually(lambda: _assert_in("row 33: empty abstract", tab.cells()))
    tab.see(f"{PAPERS} papers of {CORPUS} still need embedding with tiny.", "[data-testid=stCaptionContainer]")
    tab.snap("library-imported")

    tab.click("Embed with tiny")
    tab.see(f"Embedded {PAPERS} new papers of {CORPUS} with tiny")
    tab.see(re.compile(rf"^0 papers of {CORPUS} still need embedding with tiny"), "[data-testid=stCaptionContainer]")
    tab.snap("library-embedded")

    tab.go("Domain map")
    tab.see(f"drawing all {PAPERS} papers", "[data-testid=stCaptionContainer]")
    tab.map_drawn()
    view = tab.eventually(lambda: _legend_full(tab.map_view()))
    assert view["drawn"] == PAPERS
    assert sorted(e["text"].rsplit(" (", 1)[0] for e in view["legend"]) == JOURNALS
    tab.snap("map")

    tab.go("Similar papers")
    ask(tab, "bio-05")
    tab.click("Find similar papers")
    results = top_hit(tab, ROWS["bio-05"]["title"])
    assert len(results) == 10 and results[0].endswith(" · 1.000")
    tab.snap("similar")

    tab.go("Journals")
    ask(tab, "econ-04")
    tab.click("Suggest journals")
    assert "tiny has no trained journal head" in tab.see("has no trained journal head")
    [bars] = tab.charts()[0]
    assert bars["type"] == "bar" and sum(bars["x"]) == pytest.approx(1.0, abs=0.01)
    suggestions = [e for e in tab.expanders() if " — " in e]
    assert sorted(s.split(" — ")[0] for s in suggestions) == JOURNALS
    assert all(re.search(r" — \d+\.\d%( · \d+ of \d+ nearest papers \(\d+% of the vote\))?$", s) for s in suggestions), suggestions
    assert ROWS["econ-04"]["title"] in tab.cells()  # its own paper is evidence for its journal
    measured = tab.see("How often it is right")  # the journals task on held-out papers of this corpus
    assert re.search(rf"on \d+ held-out papers of {CORPUS}, each queried by its title and abstract, the true journal "
                     r"is among the top 5 suggestions "
                     r"\d+ % of the time \(95 % interval \d+–\d+ %\); a BM25 text search, as JANE-style finders use, "
                     r"\d+ %", measured), measured
    tab.snap("journals")
    assert tab.errors == []
    assert_no_script_ran(tab)


def test_the_packaged_minilm_model_finds_papers_by_meaning(tab: Tab, imported: Store):
    tab.go("Similar papers")
    tab.choose("Model", "minilm")
    tab.click(f"Embed {CORPUS} with minilm")
    ask(tab, "astro-03")
    tab.click("Find similar papers")
    assert top_hit(tab, ROWS["astro-03"]["title"])[0].endswith(" · 1.000")

    tab.fill("Title", "How central bank rate decisions move what households think prices will do")
    tab.fill("Abstract", "We look at announcements of interest rate changes and surveys of expected "
                         "inflation among consumers and forecasters.")
    tab.click("Find similar papers")
    top_hit(tab, ROWS["econ-01"]["title"])
    tab.snap("similar-minilm")

    tab.go("Journals")
    tab.fill("Title", "Spectroscopy of a transiting planet's atmosphere")
    tab.fill("Abstract", "Infrared spectra taken while the planet crosses its host star show absorption by "
                         "water and methane in the atmosphere.")
    tab.click("Suggest journals")
    tab.see("minilm has no trained journal head")
    suggestions = [e for e in tab.expanders() if " — " in e]
    assert suggestions[0].startswith("The Astrophysical Journal — ")
    tab.snap("journals-minilm")
    assert tab.errors == []


def test_untrusted_html_in_titles_is_shown_as_text_and_never_runs(tab: Tab, imported: Store):
    on_map_with_tiny(tab, imported)
    hovered = [hover_card(tab, pid) for pid in UNTRUSTED]
    assert "Dark matter halos <img src=x onerror=" in hovered[0] and "window.__xss=1" in hovered[0]
    assert "<script>window.__xss=1</script>" in hovered[1]
    assert "<svg/onload=alert('xss')>" in hovered[2]
    tab.snap("map-untrusted-hover")

    tab.go("Similar papers")
    for pid in UNTRUSTED:
        ask(tab, pid)
        tab.click("Find similar papers")
        top_hit(tab, ROWS[pid]["title"])
        assert ROWS[pid]["title"] in tab.cells()
    tab.snap("similar-untrusted")

    tab.go("Journals")
    ask(tab, "bio-03")
    tab.click("Suggest journals")
    tab.eventually(lambda: _assert_in(ROWS["bio-03"]["title"], tab.cells()))
    tab.go("Library")
    tab.snap("library-untrusted")
    assert_no_script_ran(tab)


def test_map_hover_cards_show_double_quotes_as_typed(tab: Tab, imported: Store):
    on_map_with_tiny(tab, imported)
    assert '<img src=x onerror="window.__xss=1">' in hover_card(tab, "astro-06")


def on_map_with_tiny(tab: Tab, store: Store) -> None:
    """Open the map of the corpus embedded with the tiny model."""
    if store.missing_hashes(CORPUS, vectors_fingerprint(get_model("tiny", store))):
        embed_corpus(store, CORPUS, "tiny")
    tab.go("Domain map")
    tab.choose("Model", "tiny")
    tab.see(f"drawing all {PAPERS} papers", "[data-testid=stCaptionContainer]")


def hover_card(tab: Tab, pid: str) -> str:
    """Move the mouse onto a paper's map point and return its hover card's text."""
    return tab.hover_card(title=ROWS[pid]["title"].split("<")[0].strip())


def _legend_full(view: dict | None) -> dict:
    assert view and view["legend"], view
    return view


def _assert_in(item: str, items: list[str]) -> None:
    assert item in items, f"{item!r} not among {items[:12]}"
