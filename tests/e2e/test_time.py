"""Time on the map in Chromium (issues 17, 42): ▶ Play on the map component moves a window of years over the fixed map
in the browser (no page run per frame); the Years slider fades the papers outside its window."""

from __future__ import annotations

import json
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


MAP_JS = "window.__mireadMaps.map.map"


def in_front(tab: Tab) -> dict[str, int]:
    """Per year, the number of papers the map draws in front now (weight 1; the others faded)."""
    return tab.page.evaluate(f"""() => {{ const m = {MAP_JS}; const out = {{}};
        for (let i = 0; i < m.n; i++) if (m.weight[i] >= 1) {{ const y = String(m.years[i]);
            out[y] = (out[y] || 0) + 1; }}
        return out; }}""")


def per_year(workspace: Store) -> dict[str, int]:
    return {str(y): n for y, n in Counter(workspace.papers_frame("c")["year"].astype(int)).items()}


def test_play_moves_the_window_over_the_fixed_map(tab: Tab, workspace: Store):
    counts = per_year(workspace)
    tab.map_drawn()
    tab.choose("Play through years", "1-year window")
    button = tab.page.locator(".miread-map-outer button.miread-play").first
    button.wait_for(state="visible")
    before = tab.page.evaluate(f"() => Array.from({MAP_JS}.x)")
    runs = tab.page.evaluate(f"() => {MAP_JS}.wrap.dataset.applied")
    button.click()
    seen = tab.eventually(lambda: _later(in_front(tab)))
    assert len(seen) == 1 and all(counts[year] == n for year, n in seen.items())  # a frame: exactly its year
    assert tab.errors == []
    button.click()  # Pause: back to the page's own state
    assert tab.page.evaluate(f"() => Array.from({MAP_JS}.x)") == before  # the map stays put while time moves
    assert tab.page.evaluate(f"() => {MAP_JS}.wrap.dataset.applied") in (runs, str(int(runs) + 1))  # no page run
    paused = in_front(tab)
    tab.page.wait_for_timeout(2000)
    assert in_front(tab) == paused  # Pause stops it
    tab.snap("time-play")


def test_the_years_slider_still_fades_papers_outside_its_window(tab: Tab, workspace: Store):
    papers = workspace.papers_frame("c")
    tab.map_drawn()
    high = tab.page.locator("[data-testid=stSlider] input[aria-label='Years — end']").first
    high.focus()
    high.press("ArrowLeft")
    high.press("ArrowLeft")
    tab.idle()
    tab.see("drawn in front; the others are faded", "[data-testid=stCaptionContainer]")
    expected = {str(y): n for y, n in Counter(papers["year"][papers["year"] <= 2002].astype(int)).items()}
    tab.eventually(lambda: _equal(in_front(tab), expected))
    assert "years=2000-2002" in tab.page.url


def test_the_map_follows_the_years_slider_while_it_is_dragged(tab: Tab, workspace: Store):
    """Issue 42: the year window is drawn in the browser as the thumb moves, before any page run (the slider sends
    its value when the thumb is let go); the page's run then confirms the same window."""
    papers = workspace.papers_frame("c")
    tab.map_drawn()
    applied = tab.page.evaluate(f"() => {MAP_JS}.wrap.dataset.applied")
    end = tab.page.locator("[data-testid=stSlider] input[aria-label='Years — end']").first
    thumb = end.locator("xpath=..")
    box = thumb.bounding_box()
    track = tab.page.locator("[data-testid=stSlider]").first.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    tab.page.mouse.move(x, y)
    tab.page.mouse.down()
    # 2000-2004 on the track: a quarter of its width back is one year less (the thumb snaps to whole years)
    tab.page.mouse.move(x - 0.3 * track["width"], y, steps=6)
    held = tab.eventually(lambda: _moved(tab.page.evaluate(f"() => {MAP_JS}.wrap.dataset.followed || ''")))
    lo, hi = json.loads(held)
    expected = {str(yr): n for yr, n in Counter(papers["year"][(papers["year"] >= lo) & (papers["year"] <= hi)]
                                                 .astype(int)).items()}
    assert hi < 2004 and in_front(tab) == expected  # drawn while the mouse is still down ...
    assert tab.page.evaluate(f"() => {MAP_JS}.wrap.dataset.applied") == applied  # ... with no state from a page run
    assert "years=" not in tab.page.url
    tab.page.mouse.up()
    tab.idle()
    tab.eventually(lambda: _contains(tab.page.url, f"years={lo}-{hi}"))  # the page run names the same window
    assert in_front(tab) == expected and tab.errors == []
    tab.snap("time-years-followed")


def test_the_map_fills_the_screen_and_fits_a_phone(tab: Tab):
    canvas = tab.map_drawn()
    box = canvas.bounding_box()
    # the map shares the main area with its side column (Find, the open paper, the selection: issue 32) and takes
    # most of it; the window's height is the map's
    main = tab.page.evaluate("""() => { const m = document.querySelector('[data-testid=stMainBlockContainer]');
        const s = getComputedStyle(m); return m.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight); }""")
    assert box and box["height"] > 0.6 * VIEWPORT["height"] and box["width"] > 0.6 * main, (box, main)
    tab.page.screenshot(path=str(ARTIFACTS / "time-map-1400.png"))
    tab.page.set_viewport_size(PHONE)
    tab.page.wait_for_timeout(800)
    box = canvas.bounding_box()
    assert box and box["width"] > 0.75 * PHONE["width"] and box["height"] < PHONE["height"], box
    tab.page.screenshot(path=str(ARTIFACTS / "time-map-phone.png"))


def _equal(got, expected):
    assert got == expected, got
    return got


def _moved(followed: str) -> str:
    assert followed and followed != "null", followed
    return followed


def _contains(text: str, part: str) -> str:
    assert part in text, text
    return text


def _later(shown: dict[str, int]) -> dict[str, int]:
    assert shown and "2000" not in shown, shown
    return shown


def _nonempty(rows: list[int]) -> list[int]:
    assert rows, rows
    return rows
