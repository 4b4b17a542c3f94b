"""Time on the map in Chromium (issue 17): ▶ Play and the animation's year slider change which papers are drawn in
front (the overlay traces of the plotly graph div) over the faded map drawn as a picture (as a large map does); the
Years slider still fades the papers outside its window."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from core.store import Store
from tests.e2e.conftest import ARTIFACTS, VIEWPORT, Tab, embedded_store
from tests.e2e.server import streamlit_server
from tests.helpers import make_papers

pytestmark = pytest.mark.e2e
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """Corpus 'c': 60 papers of three journals, years 2000-2004, embedded with 'tiny'."""
    return embedded_store(tmp_path_factory, "time", "c", make_papers(20), "make_papers")


@pytest.fixture(scope="module")
def server(workspace: Store) -> Iterator[str]:
    # the faded papers as a picture, as on a map of 20k+ papers (what a large map does while it plays)
    env = {"MIREAD_WARM_NUMBA": "0", "MIREAD_DEVICE": "cpu", "MIREAD_MODEL": "tiny", "MIREAD_MAP_PICTURE_ABOVE": "30"}
    with streamlit_server(workspace.root, env=env, timeout=240) as url:
        yield f"{url}/?corpus=c&model=tiny&method=pca&colour=journal"


@pytest.fixture()
def tab(browser, server: str) -> Iterator[Tab]:
    context = browser.new_context(viewport=VIEWPORT)
    yield Tab(context.new_page(), server).open()
    context.close()


def in_front(tab: Tab) -> dict[str, int]:
    """Per year, the number of papers the map draws in front now (its visible overlay traces)."""
    return tab.page.evaluate("""() => { const gd = document.querySelector('[data-testid=stPlotlyChart] .js-plotly-plot');
        return Object.fromEntries((gd._fullData || []).filter(t => t.legendgroup === 'years' && t.visible === true)
                                   .map(t => [t.name, t.x.length])); }""")


def per_year(workspace: Store) -> dict[str, int]:
    return {str(y): n for y, n in Counter(workspace.papers_frame("c")["year"].astype(int)).items()}


def test_play_moves_the_window_over_the_fixed_map(tab: Tab, workspace: Store):
    counts = per_year(workspace)
    tab.page.get_by_role("heading", name="Domain map").wait_for()
    tab.choose("Play through years", "1-year window")
    tab.eventually(lambda: _equal(in_front(tab), {"2000": counts["2000"]}))
    before = tab.page.evaluate("() => document.querySelector('[data-testid=stPlotlyChart] .js-plotly-plot')"
                               "._fullData.filter(t => t.legendgroup !== 'years').map(t => Array.from(t.x || []))")
    tab.page.locator("[data-testid=stPlotlyChart] .updatemenu-button").filter(has_text="Play").click()
    seen = tab.eventually(lambda: _later(in_front(tab)))
    assert all(counts[year] == n for year, n in seen.items())  # each frame draws exactly its year's papers
    assert tab.errors == []
    tab.page.locator("[data-testid=stPlotlyChart] .updatemenu-button").filter(has_text="Pause").click()
    after = tab.page.evaluate("() => document.querySelector('[data-testid=stPlotlyChart] .js-plotly-plot')"
                              "._fullData.filter(t => t.legendgroup !== 'years').map(t => Array.from(t.x || []))")
    assert after == before  # the map stays put while time moves
    paused = in_front(tab)
    tab.page.wait_for_timeout(2000)
    assert in_front(tab) == paused  # Pause stops it
    # the faded papers are one picture under the plot; a paper in front shows its hover card
    assert tab.page.evaluate("() => document.querySelector('[data-testid=stPlotlyChart] .js-plotly-plot')"
                             "._fullLayout.images.map(i => i.source.slice(0, 22))") == ["data:image/png;base64,"]
    where = tab.page.evaluate("""() => { const gd = document.querySelector('[data-testid=stPlotlyChart] .js-plotly-plot');
        const t = gd._fullData.find(t => t.legendgroup === 'years' && t.visible === true && t._length > 0);
        const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, r = gd.getBoundingClientRect();
        return [r.left + xa._offset + xa.d2p(t.x[0]), r.top + ya._offset + ya.d2p(t.y[0]), t.hovertext[0]]; }""")
    tab.page.mouse.move(where[0], where[1])
    card = tab.eventually(lambda: _nonempty(tab.page.locator(".hovertext").all_text_contents()))
    assert where[2].split("<br>")[0].replace("<b>", "").replace("</b>", "")[:20] in card[0]
    ARTIFACTS.mkdir(exist_ok=True)
    tab.page.screenshot(path=str(ARTIFACTS / "time-play.png"))
    # Pause interrupts Plotly.animate, whose promise plotly.js then rejects with no reason (console only)
    assert set(tab.errors) <= {"undefined"}


def test_the_animation_slider_jumps_to_a_year(tab: Tab, workspace: Store):
    counts = per_year(workspace)
    tab.choose("Play through years", "2-year window")
    tab.eventually(lambda: _equal(in_front(tab), {"2000": counts["2000"], "2001": counts["2001"]}))
    rail = tab.page.locator("[data-testid=stPlotlyChart] .slider-rail-rect").first
    box = rail.bounding_box()
    assert box
    tab.page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)  # the last window
    tab.eventually(lambda: _equal(in_front(tab), {"2003": counts["2003"], "2004": counts["2004"]}))


def test_the_years_slider_still_fades_papers_outside_its_window(tab: Tab, workspace: Store):
    papers = workspace.papers_frame("c")
    high = tab.page.locator("[data-testid=stSlider] input[aria-label='Years — end']").first
    high.focus()
    high.press("ArrowLeft")
    high.press("ArrowLeft")
    tab.idle()
    tab.see("drawn in front; the others are faded", "[data-testid=stCaptionContainer]")
    rows = tab.eventually(lambda: _nonempty(tab.page.evaluate(
        """() => document.querySelector('[data-testid=stPlotlyChart] .js-plotly-plot')._fullData
           .filter(t => t.name === 'highlighted').flatMap(t => Array.from(t.customdata)).map(Number)""")))
    assert sorted(rows) == sorted(papers.index[papers["year"] <= 2002].tolist())
    assert "years=2000-2002" in tab.page.url


def test_the_map_fills_the_screen_and_fits_a_phone(tab: Tab):
    plot = tab.page.locator("[data-testid=stPlotlyChart] .nsewdrag").first
    box = plot.bounding_box()
    # the map shares the main area with its side column (Find, the open paper, the selection: issue 32) and takes
    # most of it; the window's height is the map's
    main = tab.page.evaluate("""() => { const m = document.querySelector('[data-testid=stMainBlockContainer]');
        const s = getComputedStyle(m); return m.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight); }""")
    assert box and box["height"] > 0.6 * VIEWPORT["height"] and box["width"] > 0.6 * main, (box, main)
    tab.page.screenshot(path=str(ARTIFACTS / "time-map-1400.png"))
    tab.page.locator("[data-testid=stPlotlyChart]").first.hover()
    tab.page.locator(".st-key-corpus_map").get_by_role("button", name="Fullscreen").click()  # element toolbar
    tab.page.wait_for_timeout(800)
    tab.page.screenshot(path=str(ARTIFACTS / "time-map-fullscreen.png"))
    full = plot.bounding_box()
    assert full and full["width"] > 0.9 * VIEWPORT["width"] and full["height"] > 0.7 * VIEWPORT["height"], full
    tab.page.locator(".st-key-corpus_map").get_by_role("button", name="Close fullscreen").click()
    tab.page.wait_for_timeout(500)
    tab.page.set_viewport_size(PHONE)
    tab.page.wait_for_timeout(800)
    box = plot.bounding_box()
    assert box and box["width"] > 0.75 * PHONE["width"] and box["height"] < PHONE["height"], box
    tab.page.screenshot(path=str(ARTIFACTS / "time-map-phone.png"))


def _equal(got, expected):
    assert got == expected, got
    return got


def _later(shown: dict[str, int]) -> dict[str, int]:
    assert shown and "2000" not in shown, shown
    return shown


def _nonempty(rows: list[int]) -> list[int]:
    assert rows, rows
    return rows
