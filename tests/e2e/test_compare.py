"""Comparing two models in Chromium (issue 17): a shared link opens the compare view; a lasso in one map highlights
the same papers in the other; a paper ticked in the moved-papers table is starred in both maps, beside its
neighbours under each model."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from core.embedding import build_tiny_model, embed_corpus, get_model
from core.explore.compare import paper_neighbours
from core.store import Store
from tests.e2e.conftest import VIEWPORT, Tab
from tests.e2e.server import streamlit_server
from tests.helpers import make_papers, register_tiny

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """Corpus 'c' (60 papers, three journals) embedded with 'tiny' and 'tiny-ft' (registered as fine-tuned from it)."""
    root = tmp_path_factory.mktemp("compare")
    store = Store(root / "ws")
    store.import_papers("c", make_papers(20), source="make_papers")
    register_tiny(store, build_tiny_model(root / "tiny"))
    spec = register_tiny(store, build_tiny_model(root / "tiny-ft", seed=7), name="tiny-ft")
    store.save_model("tiny-ft", {**spec.to_dict(), "base": "tiny"})
    embed_corpus(store, "c", "tiny")
    embed_corpus(store, "c", "tiny-ft")
    return store


@pytest.fixture(scope="module")
def tab(browser, workspace: Store) -> Iterator[Tab]:
    env = {"MIREAD_WARM_NUMBA": "0", "MIREAD_DEVICE": "cpu", "MIREAD_MODEL": "tiny"}
    with streamlit_server(workspace.root, env=env, timeout=240) as url:
        context = browser.new_context(viewport=VIEWPORT)
        yield Tab(context.new_page(), f"{url}/?corpus=c&model=tiny&compare=tiny-ft&method=pca").open()
        context.close()


def highlighted(tab: Tab) -> list[list[int]]:
    """Per map, the corpus rows drawn in its 'highlighted' trace (from the live plotly DOM)."""
    return tab.page.evaluate("""() => [...document.querySelectorAll('[data-testid=stPlotlyChart] .js-plotly-plot')]
        .map(gd => (gd._fullData || []).filter(t => t.name === 'highlighted')
                   .flatMap(t => Array.from(t.customdata || [])).map(Number).sort((a, b) => a - b))""")


def stars(tab: Tab) -> list[list[str]]:
    """Per map, the label of the starred 'chosen paper'."""
    return tab.page.evaluate("""() => [...document.querySelectorAll('[data-testid=stPlotlyChart] .js-plotly-plot')]
        .map(gd => (gd._fullData || []).filter(t => t.name === 'chosen paper').flatMap(t => Array.from(t.text)))""")



def test_a_link_opens_the_compare_view_and_selections_are_linked(tab: Tab, workspace: Store):
    assert "/compare?" in tab.page.url and "compare=tiny-ft" in tab.page.url
    tab.page.get_by_role("heading", name="Compare models").wait_for()
    tab.page.locator("[data-testid=stPlotlyChart] .nsewdrag").first.wait_for()  # the Compare maps: Plotly
    expect(tab.page.locator("[data-testid=stPlotlyChart] .nsewdrag")).to_have_count(2)
    assert highlighted(tab) == [[], []]

    tab.plotly_lasso(right=0.5)  # the left half of map A (the Compare page's maps are Plotly still)

    def linked() -> list[int]:
        a, b = highlighted(tab)
        assert a and a == b, (a, b)
        return a
    rows = tab.eventually(linked)
    assert 0 < len(rows) < workspace.corpus("c").papers
    tab.see("selected papers highlighted in both maps", "[data-testid=stCaptionContainer]")
    tab.snap("compare-lasso")

    tab.click("Clear selection")
    tab.eventually(lambda: _equal(highlighted(tab), [[], []]))

    grid = tab.page.locator("[data-testid=stDataFrame]").last
    grid.scroll_into_view_if_needed()
    top_id = grid.locator("[role=gridcell]").first.text_content().strip()  # the id of the paper that moved most
    box = grid.bounding_box()
    assert box
    tab.page.mouse.click(box["x"] + 14, box["y"] + 52)  # its tick box, in the grid's first column
    tab.idle()
    frame = workspace.papers_frame("c")
    row = frame["id"].tolist().index(top_id)
    near = [sorted(paper_neighbours(workspace, "c", get_model(m, workspace), row).tolist()) for m in ("tiny", "tiny-ft")]
    tab.eventually(lambda: _equal(highlighted(tab), near))  # each map: the paper's neighbours under its model
    assert stars(tab) == [[frame["title"][row]]] * 2  # and the paper itself starred in both
    tab.see(f"{len(set(near[0]) & set(near[1]))} of 10 shared", "[data-testid=stMarkdownContainer]")
    tab.snap("compare-table-pick")
    assert tab.page.locator("[data-testid=stException]").count() == 0 and tab.errors == []


def _equal(value: object, expected: object) -> None:
    assert value == expected, (value, expected)
