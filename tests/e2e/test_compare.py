"""Comparing two models in Chromium (issues 17, 42): a shared link opens the compare view, its two maps are two
instances of the WebGL map component; a lasso in one map highlights the same papers in the other, a clicked paper
is starred in both beside its neighbours under each model, a hovered paper is ringed (with its card, as text) in the
other map without a page run; a paper ticked in the moved-papers table is starred in both maps too."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from core.embedding import build_tiny_model, embed_corpus, get_model
from core.explore.compare import paper_neighbours
from core.store import Store
from tests.e2e.conftest import VIEWPORT, Tab
from tests.e2e.server import TINY_ENV, streamlit_server
from tests.helpers import add_fine_tuned_twin, make_papers, register_tiny

pytestmark = pytest.mark.e2e

A, B = "compare_a", "compare_b"
HOSTILE = 'Plain <img src=x onerror="window.__xss=1"> **bold** $x$ <b>tag</b>'


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """Corpus 'c' (60 papers, three journals, one with a hostile title) embedded with 'tiny' and 'tiny-ft'
    (registered as fine-tuned from it)."""
    root = tmp_path_factory.mktemp("compare")
    store = Store(root / "ws")
    papers = make_papers(20)
    papers[5] = replace(papers[5], title=HOSTILE)
    store.import_papers("c", papers, source="make_papers")
    register_tiny(store, build_tiny_model(root / "tiny"))
    embed_corpus(store, "c", "tiny")
    add_fine_tuned_twin(store, root / "tiny-ft")
    return store


@pytest.fixture(scope="module")
def tab(browser, workspace: Store) -> Iterator[Tab]:
    env = dict(TINY_ENV)
    with streamlit_server(workspace.root, env=env, timeout=240) as url:
        context = browser.new_context(viewport=VIEWPORT)
        yield Tab(context.new_page(), f"{url}/?corpus=c&model=tiny&compare=tiny-ft&method=pca").open()
        context.close()


def neighbours(workspace: Store, row: int) -> list[list[int]]:
    """The paper's nearest neighbours under A and under B."""
    return [sorted(paper_neighbours(workspace, "c", get_model(m, workspace), row).tolist())
            for m in ("tiny", "tiny-ft")]


def test_a_link_opens_the_compare_view_with_two_linked_maps(tab: Tab, workspace: Store):
    assert "/compare?" in tab.page.url and "compare=tiny-ft" in tab.page.url
    tab.page.get_by_role("heading", name="Compare models").wait_for()
    for hub in (A, B):
        tab.map_drawn(hub=hub)
    frame = workspace.papers_frame("c")
    a, b = tab.map_view(A), tab.map_view(B)
    assert a["drawn"] == b["drawn"] == len(frame) and a["highlighted"] == b["highlighted"] == []
    assert tab.page.locator("[data-testid=stPlotlyChart]").count() == 0  # no Plotly map left on the page

    # hover in A: the same paper ringed in B with its card; the hostile title is text in both cards
    row = frame["title"].tolist().index(HOSTILE)
    runs = (a["applied"], b["applied"])
    text = tab.hover_card(row=row, hub=A)
    assert HOSTILE in text and "neighbours changed:" in text

    def ringed() -> dict:
        view = tab.map_view(B)
        assert view["linked"] == row and view["card"] and HOSTILE in view["card"], view["linked"]
        return view
    view = tab.eventually(ringed)
    assert "<img" not in view["cardHtml"] and "&lt;img" in view["cardHtml"]
    assert tab.page.evaluate("() => window.__xss") is None and tab.dialogs == []
    assert (tab.map_view(A)["applied"], tab.map_view(B)["applied"]) == runs  # the browser alone: no page run
    tab.snap("compare-hover")
    tab.page.mouse.move(0, 0)
    tab.eventually(lambda: _equal(tab.map_view(B)["linked"], None))

    # a lasso in A: the same papers highlighted and selected in B, the caption under the maps
    tab.lasso(0.5, 0.0, 1.0, 1.0, hub=A)  # the right half of A (the hostile paper lies alone on the left)

    def linked() -> list[int]:
        a, b = tab.map_view(A), tab.map_view(B)
        assert a["highlighted"] and a["highlighted"] == b["highlighted"] == b["selection"], (a["highlighted"],
                                                                                            b["highlighted"])
        return a["highlighted"]
    rows = tab.eventually(linked)
    assert 1 < len(rows) < len(frame)
    tab.see(f"{len(rows)} selected papers highlighted in both maps", "[data-testid=stCaptionContainer]")
    tab.snap("compare-lasso")

    tab.click("Clear selection")
    tab.eventually(lambda: _equal([tab.map_view(h)["highlighted"] + tab.map_view(h)["selection"] for h in (A, B)],
                                  [[], []]))

    # a click on one paper in B: starred in both maps, each highlighting its neighbours under its own model
    tab.click_point(next(i for i, t in enumerate(frame["title"]) if "<" not in t), hub=B)

    def starred() -> str:
        stars = [tab.map_view(h)["starred"] for h in (A, B)]
        assert len(stars[0]) == 1 and stars[0] == stars[1], stars
        return stars[0][0]
    row = frame["title"].tolist().index(tab.eventually(starred))  # the paper the click hit (points may overlap)
    near = neighbours(workspace, row)
    tab.eventually(lambda: _equal([tab.map_view(h)["highlighted"] for h in (A, B)], near))
    tab.see("the chosen paper is starred (★) in both maps", "[data-testid=stCaptionContainer]")
    tab.see(f"{len(set(near[0]) & set(near[1]))} of 10 shared", "[data-testid=stMarkdownContainer]")
    tab.snap("compare-click")
    assert tab.page.locator("[data-testid=stException]").count() == 0 and tab.errors == []


def test_a_paper_ticked_in_the_table_is_starred_in_both_maps(tab: Tab, workspace: Store):
    grid = tab.page.locator("[data-testid=stDataFrame]").last
    grid.scroll_into_view_if_needed()
    top_id = grid.locator("[role=gridcell]").first.text_content().strip()  # the id of the paper that moved most
    box = grid.bounding_box()
    assert box
    tab.page.mouse.click(box["x"] + 14, box["y"] + 52)  # its tick box, in the grid's first column
    tab.idle()
    frame = workspace.papers_frame("c")
    row = frame["id"].tolist().index(top_id)
    near = neighbours(workspace, row)
    tab.eventually(lambda: _equal([tab.map_view(h)["highlighted"] for h in (A, B)], near))
    assert [tab.map_view(h)["starred"] for h in (A, B)] == [[frame["title"][row]]] * 2
    tab.see(f"{len(set(near[0]) & set(near[1]))} of 10 shared", "[data-testid=stMarkdownContainer]")
    tab.snap("compare-table-pick")
    assert tab.page.locator("[data-testid=stException]").count() == 0 and tab.errors == []


def _equal(value: object, expected: object) -> None:
    assert value == expected, (value, expected)
