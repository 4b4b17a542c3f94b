"""The lasso's selection list drawn by the map bundle in the side column (issue 42, BENCHMARKS §31ad): it shows every
selected paper from the text the browser holds (no table of rows from Python), sorts the whole selection by a header,
opens a paper on a row's click as a click on its point does, rings the row's point on a hover, is reachable by the
keyboard, shows hostile titles as typed, and fits a phone's width."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.store import Store
from tests.e2e.conftest import ARTIFACTS, TOOLS, VIEWPORT, Tab, app_tab, open_final_map
from tests.e2e.test_map_component import CORPUS, rows_of
from tests.e2e.test_map_component import store as store  # noqa: F401 (the module's fixture, the hostile titles)

pytestmark = pytest.mark.e2e

LIST = ".miread-list"
ROWS = f"{LIST} .miread-list-row"


@pytest.fixture(scope="module")
def tab(browser, store: Store) -> Iterator[Tab]:  # noqa: F811
    with app_tab(browser, store, env={"MIREAD_MAP_SELECT_LISTED": "10"}) as tab:
        open_final_map(tab)
        yield tab


def listed(tab: Tab) -> list[dict]:
    """The list's rows in the DOM (the visible ones and a few beyond): row, title, year, journal, author."""
    return tab.page.evaluate(f"""() => {{
        const all = [];
        const walk = (node) => {{ for (const e of node.querySelectorAll('*')) {{
            if (e.matches('{ROWS}')) all.push(e); if (e.shadowRoot) walk(e.shadowRoot); }} }};
        walk(document);
        return all.filter(e => e.style.display !== 'none').map(e => ({{row: Number(e.dataset.row),
            title: e.querySelector('.miread-cell-title').textContent,
            year: e.querySelector('.miread-cell-year').textContent,
            journal: e.querySelector('.miread-cell-journal').textContent,
            author: e.querySelector('.miread-cell-author').textContent,
            html: e.querySelector('.miread-cell-title').innerHTML,
            top: e.getBoundingClientRect().top}})).sort((a, b) => a.top - b.top); }}""")


def body_scroll(tab: Tab, to: int | None = None) -> int:
    """The list's scroll position (set first to `to`, the end when it is -1)."""
    return tab.page.evaluate(f"""(to) => {{ const find = (node) => {{ for (const e of node.querySelectorAll('*')) {{
        if (e.matches('{LIST} .miread-list-body')) return e; if (e.shadowRoot) {{ const f = find(e.shadowRoot);
        if (f) return f; }} }} return null; }}; const b = find(document);
        if (to !== null) b.scrollTop = to < 0 ? b.scrollHeight : to; return b.scrollTop; }}""", to)


def close_panel(tab: Tab) -> None:
    close = tab.page.locator(".st-key-map_panel_close button").first
    if close.count():
        close.click()
        tab.idle()


def lasso_all(tab: Tab) -> list[int]:
    close_panel(tab)
    tab.lasso(0.0, 0.0, 1.0, 1.0)
    tab.page.locator(f"{TOOLS} button[data-mode=panZoom]").first.click()
    chosen = tab.map_view()["selection"]
    assert len(chosen) >= 20, chosen
    tab.page.locator(LIST).first.wait_for(state="visible")
    return chosen


def test_a_lasso_lists_its_papers_drawn_by_the_map_and_sorts_them_by_year(tab: Tab, store: Store):  # noqa: F811
    chosen = lasso_all(tab)
    titles = rows_of(store)
    frame = store.papers_frame(CORPUS)
    box = tab.page.locator(LIST).first
    assert int(box.get_attribute("data-count")) == len(chosen)
    assert box.get_attribute("aria-label") == f"{len(chosen)} selected papers"
    rows = listed(tab)
    assert 0 < len(rows) < len(chosen) + 1
    assert [r["row"] for r in rows] == chosen[:len(rows)]  # the selection's order: by row
    assert [r["title"] for r in rows] == [titles[r] for r in chosen[:len(rows)]]
    # no Streamlit table: the list is the map's own
    assert tab.page.locator("[data-testid=stDataFrame]").count() == 0
    tab.page.locator(f"{LIST} button.miread-sort-year").click()
    years = [int(r["year"]) for r in listed(tab) if r["year"]]
    wanted = sorted(int(y) for y in frame["year"].iloc[chosen].dropna())
    assert years == wanted[:len(years)], (years, wanted)
    assert tab.page.locator(f"{LIST} button.miread-sort-year").get_attribute("aria-sort") == "ascending"
    tab.page.locator(f"{LIST} button.miread-sort-year").click()
    years = [int(r["year"]) for r in listed(tab) if r["year"]]
    assert years == sorted(wanted, reverse=True)[:len(years)]
    # the last rows come into the DOM when the list scrolls (only the rows in view are drawn)
    body_scroll(tab, -1)
    tab.page.wait_for_timeout(300)
    tail = [int(r["year"]) for r in listed(tab) if r["year"]]
    assert tail[-1] == min(wanted)
    tab.snap("map-selection-list")


def test_a_click_on_a_row_opens_its_paper_as_a_click_on_its_point(tab: Tab, store: Store):  # noqa: F811
    chosen = lasso_all(tab)
    titles = rows_of(store)
    assert body_scroll(tab, -1) > 0
    tab.page.evaluate("() => { window.__mireadMaps.map.list.root.__probe = 1; }")
    tab.page.wait_for_timeout(300)
    plain = next(r for r in reversed(listed(tab)) if "<" not in r["title"] and len(r["title"]) > 10)
    tab.page.locator(f"{ROWS}[data-row='{plain['row']}']").hover()
    tab.eventually(lambda: _check(tab.map_view()["linked"] == plain["row"], tab.map_view()["linked"]))
    tab.page.locator(f"{ROWS}[data-row='{plain['row']}']").click()
    tab.idle()
    tab.see(titles[plain["row"]][:50], "[data-testid=stMarkdownContainer]")
    assert "paper=" in tab.page.url
    tab.eventually(lambda: _check(tab.map_view()["stars"] == 1, tab.map_view()["stars"]))
    assert tab.map_view()["selection"] == chosen  # the selection and its list stay, at the place and row clicked
    tab.page.locator(LIST).first.wait_for(state="visible")
    assert body_scroll(tab) > 0, tab.page.evaluate("""() => { const l = window.__mireadMaps.map.list;
        return {probe: l.root.__probe || 0, kept: {...l.kept, rows: (l.kept.rows || []).length}, h: l.body.clientHeight,
                top: l.body.scrollTop, sh: l.body.scrollHeight, connected: l.root.isConnected}; }""")
    assert tab.page.locator(f"{ROWS}.miread-active").first.get_attribute("data-row") == str(plain["row"])
    # the keyboard: the list takes the focus, an arrow moves along the rows, Enter opens one
    tab.page.locator(LIST).first.focus()
    tab.page.keyboard.press("Home")
    tab.page.keyboard.press("ArrowDown")
    tab.page.keyboard.press("Enter")
    tab.idle()
    second = tab.page.locator(f"{ROWS}.miread-active").first.get_attribute("data-row")
    tab.see(titles[int(second)][:40].split("<")[0], "[data-testid=stMarkdownContainer]")


def test_hostile_titles_in_the_list_stay_text(tab: Tab, store: Store):  # noqa: F811
    lasso_all(tab)
    hostile = [t for t in rows_of(store) if "onerror" in t or "<" in t]
    assert hostile
    shown = {r["title"] for r in listed(tab)}
    body = tab.page.locator(LIST).first
    for _ in range(10):  # through the whole list: the hostile rows come into view
        shown |= {r["title"] for r in listed(tab)}
        body.press("PageDown")
    assert any(t in shown for t in hostile), shown
    assert all("<img" not in r["html"] for r in listed(tab))
    assert tab.page.evaluate("() => window.__xss") is None and tab.dialogs == []


def test_the_list_fits_a_phone_and_comes_back_with_the_kept_selection(tab: Tab):
    chosen = lasso_all(tab)
    tab.go("Similar papers")
    tab.go("Domain map")
    tab.page.locator(LIST).first.wait_for(state="visible")
    tab.eventually(lambda: _check(int(tab.page.locator(LIST).first.get_attribute("data-count")) == len(chosen),
                                  "the kept selection is not listed on return"))
    tab.page.set_viewport_size({"width": 390, "height": 844})
    tab.page.wait_for_timeout(600)
    box = tab.page.locator(LIST).first.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1, box
    tab.page.locator(LIST).first.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    tab.page.screenshot(path=str(ARTIFACTS / "map-selection-list-phone.png"))
    tab.page.set_viewport_size(VIEWPORT)


def _check(ok: bool, detail: object) -> None:
    assert ok, detail
