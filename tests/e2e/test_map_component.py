"""The Domain map component in a real browser (regl-scatterplot on SwiftShader): click → panel, lasso → list →
collection, hover → card (hostile titles shown as typed), legend toggle, play, Whole map, the URL round trip."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from core.io import read_papers
from core.store import Store
from tests.e2e.conftest import FIXTURES, VIEWPORT, Tab, app_tab, open_final_map, tiny_store

pytestmark = pytest.mark.e2e

CSV = FIXTURES / "papers.csv"
CORPUS = "mapped"
PAPERS = 30


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """The fixture CSV imported and embedded with the tiny model."""
    from core.embedding import embed_corpus

    store = tiny_store(tmp_path_factory, "map-component")
    store.import_papers(CORPUS, read_papers(CSV), source=CSV.name)
    embed_corpus(store, CORPUS, "tiny")
    return store


@pytest.fixture(scope="module")
def tab(browser, store: Store) -> Iterator[Tab]:
    # a selection of more than 10 papers goes back to the map as one bit a paper (2,000 in the product)
    with app_tab(browser, store, env={"MIREAD_MAP_SELECT_LISTED": "10"}) as tab:
        open_final_map(tab)
        yield tab


def rows_of(store: Store) -> list[str]:
    return store.papers_frame(CORPUS)["title"].astype(str).tolist()


def test_hover_shows_a_card_with_hostile_titles_as_typed(tab: Tab, store: Store):
    hostile = next(t for t in rows_of(store) if "onerror" in t)
    text = tab.hover_card(title=hostile.split("<")[0].strip())
    assert hostile[:100] in text  # the markup is text: shown literally, never parsed
    assert tab.page.evaluate("() => window.__xss") is None and tab.dialogs == []
    tab.snap("map-component-hover")


def test_the_points_come_without_their_text_and_the_cards_read_it_after(tab: Tab, store: Store):
    """The points' message holds x, y and the year only: the cards' text (title, author, journal) comes in its own
    message after the page's state (BENCHMARKS §31u), is taken by the map drawn with the same key, and a hover shows
    it."""
    tab.map_drawn()
    seen = tab.page.evaluate("""() => { const e = window.__mireadMaps.map, m = e.map;
        return {key: m.key, text: m.wrap.dataset.text || null, sent: e.text ? e.text.key : null,
                columns: e.text && e.text.points ? e.text.points.schema.fields.map((f) => f.name) : []}; }""")
    assert seen["text"] == seen["key"] == seen["sent"], seen
    assert {"title", "author", "journal"} <= set(seen["columns"]) and "x" not in seen["columns"], seen
    titles = rows_of(store)
    row = next(i for i, t in enumerate(titles) if "<" not in t and len(t) > 20)
    assert titles[row][:60] in tab.hover_card(title=titles[row])


def test_a_click_opens_the_paper_beside_the_map_and_stars_it(tab: Tab, store: Store):
    titles = rows_of(store)
    row = next(i for i, t in enumerate(titles) if "<" not in t)
    tab.click_point(row)
    tab.see(titles[row][:50], "[data-testid=stMarkdownContainer]")
    assert "paper=" in tab.page.url
    tab.eventually(lambda: _check(tab.map_view()["stars"] == 1, tab.map_view()))
    tab.snap("map-component-click")


def test_the_legend_hides_and_shows_a_group(tab: Tab):
    view = tab.eventually(lambda: _legend(tab))
    entry = tab.page.locator(".miread-map-outer .miread-legend-entry").first
    entry.click()
    hidden = tab.map_view()
    assert hidden["legend"][0]["hidden"] and hidden["shown"] < view["drawn"]
    # the map's own count says how many are shown, not only how many are drawn (qamap10: "30 papers drawn" stayed)
    from tests.e2e.conftest import map_js

    status = lambda: tab.page.evaluate(f"() => {map_js()}.status.textContent")  # noqa: E731
    assert f"{hidden['shown']} shown" in status(), status()
    tab.snap("map-component-legend")
    entry.click()
    assert tab.map_view()["shown"] == view["drawn"]
    assert "shown" not in status(), status()


def test_a_long_legend_entry_keeps_its_count_in_view_and_names_itself_in_full(tab: Tab):
    """A long journal name ran past the entry's 320 px and was clipped with its count (the export's legend too);
    the entry's tooltip did not name it either (qamap10)."""
    from tests.e2e.conftest import map_js

    long = "Comptes rendus hebdomadaires des seances de l'Academie des sciences. Serie D: Sciences naturelles"
    seen = tab.page.evaluate(f"""(label) => {{ const m = {map_js()};
        m.drawLegend([{{label, count: 4417, code: 0, colour: '#ff0000'}}]);
        const row = m.legend.querySelector('.miread-legend-entry'), box = row.getBoundingClientRect();
        const walk = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
        let node; while ((node = walk.nextNode()) && !node.textContent.includes('(4417)'));
        const range = document.createRange(), at = node.textContent.indexOf('(4417)');
        range.setStart(node, at); range.setEnd(node, at + 6);
        const count = range.getBoundingClientRect();
        return {{right: count.right, left: count.left, rowRight: box.right, rowLeft: box.left, title: row.title,
                 text: row.textContent}}; }}""", long)
    try:
        assert seen["text"] == f"{long} (4417)"
        assert seen["rowLeft"] <= seen["left"] and seen["right"] <= seen["rowRight"] + 0.5, seen  # the count is shown
        assert long in seen["title"], seen
    finally:
        tab.page.evaluate(f"() => {{ const m = {map_js()}; m.drawLegend(m.state.state.legend || []); }}")


def test_a_topic_label_near_the_edge_stays_inside_the_map(tab: Tab):
    """A cluster at the map's right edge had its label drawn centred on it and cut off by the edge ("C: clinical,
    treatment, outcome" on a phone, qamap10)."""
    from tests.e2e.conftest import map_js

    text = "C: clinical, treatment, outcomes of the very long topic"
    drawn = tab.page.evaluate(f"""(text) => {{ const m = {map_js()}, g = m.overlay.getContext('2d'), calls = [];
        const [x0, x1, y0, y1] = m.bbox(), before = m.overlayState;
        g.fillText = function (t, x, y) {{ const w = this.measureText(String(t)).width;
            const left = this.textAlign === 'center' ? x - w / 2 : this.textAlign === 'right' ? x - w : x;
            calls.push({{t: String(t), left, right: left + w}}); }};
        try {{
            for (const x of [x1 - 0.005 * (x1 - x0), x0 + 0.005 * (x1 - x0)]) {{
                m.overlayState = {{...before, star: null, stars: [], labels: [{{text, x, y: (y0 + y1) / 2,
                                                                                level: 'coarse'}}]}};
                m.paint();
            }}
        }} finally {{ delete g.fillText; m.overlayState = before; m.paint(); }}
        return {{calls: calls.filter(c => c.t === text), width: m.wrap.clientWidth}}; }}""", text)
    assert len(drawn["calls"]) == 2, drawn
    for call in drawn["calls"]:
        assert call["left"] >= 0 and call["right"] <= drawn["width"], drawn


def test_a_group_hidden_in_the_legend_comes_back_with_another_colour(tab: Tab):
    """Hiding a legend group, then colouring by something else: the new legend hides nothing, so every paper is
    drawn again. The hidden papers used to stay filtered out of the map, under a legend that showed none hidden."""
    view = tab.eventually(lambda: _legend(tab))
    tab.page.locator(".miread-map-outer .miread-legend-entry").first.click()
    assert tab.map_view()["filtered"] < view["drawn"]
    tab.choose("Colour by", "(none)")
    tab.eventually(lambda: _check(len(set(tab.map_view()["codes"])) == 1, set(tab.map_view()["codes"])))
    tab.idle()
    after = tab.map_view()
    assert after["filtered"] == after["shown"] == view["drawn"], after
    tab.choose("Colour by", "journal")
    tab.eventually(lambda: _legend(tab))


def test_new_points_of_the_same_size_show_every_group(tab: Tab):
    """A map whose points change for as many others (the UMAP map replacing its PCA preview, an overview's next
    window of 200,000) shows every group: the group hidden on the last points is not left filtered out."""
    view = tab.eventually(lambda: _legend(tab))
    tab.page.locator(".miread-map-outer .miread-legend-entry").first.click()
    assert tab.map_view()["filtered"] < view["drawn"]
    tab.page.evaluate("""() => { const m = window.__mireadMaps.map.map;
        const points = {x: Array.from(m.x).reverse(), y: Array.from(m.y), title: Array.from(m.text.title || [])};
        // as mount does: the new points, then the page's state for them (a state names the map it is for)
        const state = Object.assign({}, m.state, {state: Object.assign({}, m.state.state, {map: 'same size, new points'})});
        return m.enqueue(() => m.load({meta: {key: 'same size, new points', unit: m.unit}, points}))
            .then(() => m.enqueue(() => m.applyNow(state, true, true))); }""")
    after = tab.map_view()
    assert after["drawn"] == view["drawn"] and after["filtered"] == view["drawn"], after
    assert not any(entry["hidden"] for entry in after["legend"])
    # the page's own map again for the next tests: its key is not the parked map's, so it is drawn anew
    tab.go("Similar papers")
    tab.go("Domain map")
    tab.eventually(lambda: _check(tab.map_view()["key"] == view["key"], tab.map_view()["key"]))
    tab.map_drawn()


def test_a_lasso_lists_the_papers_and_saves_them_as_a_collection(tab: Tab, store: Store):
    close = tab.page.locator(".st-key-map_panel_close button").first  # the open paper has a collection form too
    if close.count():
        close.click()
        tab.idle()
    tab.lasso(0.0, 0.0, 1.0, 1.0)
    heading = tab.see(re.compile(r"\d+ selected papers"), "[data-testid=stHeading]")
    chosen = int(heading.split()[0])
    assert PAPERS * 0.8 <= chosen <= PAPERS  # the lasso's corners are rounded: a paper at the very edge may stay out
    tab.idle()
    # the map table is made when its button is pressed (a deferred download): every selected paper, with x and y
    popover = tab.page.get_by_role("button", name=f"Export the {chosen} selected papers")
    popover.click()
    with tab.page.expect_download() as download:
        tab.page.get_by_role("button", name="Map table with x, y (CSV)").click()
    table = pd.read_csv(download.value.path())
    assert len(table) == chosen and {"x", "y", "title"} <= set(table.columns)
    popover.click()  # closed again: it covers the collection's form
    tab.idle()
    name = tab.page.locator("[data-testid=stTextInput] input[aria-label='Name of a new collection']").first

    summary = tab.page.locator("[data-testid=stExpander] summary").filter(has_text="selected papers as a collection")

    def expanded() -> None:
        if not name.is_visible():
            summary.first.click()
            tab.page.wait_for_timeout(500)
            tab.idle()
        if not name.is_visible():
            tab.snap("map-component-lasso-debug")
        assert name.is_visible(), summary.count()
    tab.eventually(expanded)
    tab.fill("Name of a new collection", "everything")
    tab.page.get_by_role("button", name=f"Add {chosen} papers (selection)").click()
    tab.see("Collection everything now holds")
    assert len(store.collection_ids(CORPUS, "everything")) == chosen
    tab.snap("map-component-lasso")
    tab.page.locator(".miread-map-outer button[data-mode=panZoom]").first.click()


def test_a_second_box_replaces_the_first_on_the_map_and_in_the_list(tab: Tab):
    """The side fragment sent its kept selection with the run the new selection came in on: the map drew the old
    papers selected again while the list beside it named the new ones (qamap10)."""
    from tests.e2e.conftest import TOOLS, draw_lasso

    close = tab.page.locator(".st-key-map_panel_close button").first
    if close.count():
        close.click()
        tab.idle()
    heading = tab.page.locator("[data-testid=stHeading]").filter(has_text=re.compile(r"\d+ selected papers?"))

    def agree() -> int:
        tab.idle()
        listed = int(heading.first.inner_text().split()[0]) if heading.count() else 0
        drawn = len(tab.map_view()["selection"])
        _check(listed == drawn, (listed, drawn))
        return listed
    for right in (0.5, 1.0, 0.5):  # a box, a larger one, a smaller one again
        draw_lasso(tab.page, 0.0, 0.0, right, 1.0, mode="rectangle")
        tab.idle()
        tab.page.wait_for_timeout(1500)
        chosen = tab.eventually(agree)
        assert chosen >= (PAPERS * 0.8 if right == 1.0 else 1), (right, chosen)
    tab.page.locator(f"{TOOLS} button[data-mode=panZoom]").first.click()


def test_escape_that_closes_a_menu_keeps_the_selection(tab: Tab):
    """Escape anywhere on the page cleared the map's selection (regl-scatterplot's own key handler on the window):
    closing the selection's Export menu, or a select box, with Escape lost the papers just lassoed (qamap10). Escape
    with the mouse on the map still clears it."""
    from tests.e2e.conftest import MAP, TOOLS

    tab.lasso(0.0, 0.0, 1.0, 1.0)
    heading = tab.see(re.compile(r"\d+ selected papers"), "[data-testid=stHeading]")
    chosen = int(heading.split()[0])
    tab.page.mouse.move(1, 1)
    tab.page.get_by_role("button", name=f"Export the {chosen} selected papers").click()
    tab.page.get_by_role("button", name="Map table with x, y (CSV)").wait_for()
    tab.page.keyboard.press("Escape")
    tab.page.wait_for_timeout(1500)
    tab.idle()
    assert len(tab.map_view()["selection"]) == chosen
    assert tab.page.get_by_role("heading", name=f"{chosen} selected papers").count() == 1
    box = tab.page.locator(f"{MAP} canvas").first.bounding_box()
    assert box
    tab.page.mouse.move(box["x"] + 5, box["y"] + 5)
    tab.page.keyboard.press("Escape")
    tab.eventually(lambda: _check(tab.map_view()["selection"] == [], len(tab.map_view()["selection"])))
    tab.eventually(lambda: _check(tab.page.get_by_role("heading", name=re.compile("selected papers")).count() == 0,
                                  "the list is still there"))
    tab.page.locator(f"{TOOLS} button[data-mode=panZoom]").first.click()


def test_a_lasso_draws_its_path_and_the_map_once_when_let_go(tab: Tab):
    """regl-scatterplot's own lasso drew every paper on each mouse move (~80 ms a move at 50,000 papers in a
    GPU-less browser, ~1 s at 1M: the line lagged the mouse). The path is drawn on a layer of its own: no frame of the
    map while the mouse moves, one when it is let go; Escape drops the path and selects nothing."""
    from tests.e2e.conftest import MAP, TOOLS, map_js

    tab.idle()
    tab.page.locator(f"{TOOLS} button[data-mode=lasso]").first.click()
    canvas = tab.page.locator(f"{MAP} canvas").first
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    assert box
    box["height"] = min(box["height"], VIEWPORT["height"] - box["y"])  # the mouse stays on the map: leaving it draws
    ink = f"""() => {{ const c = {map_js()}.lassoLayer, d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0; for (let k = 3; k < d.length; k += 4) if (d[k]) n += 1; return n; }}"""
    frames = lambda: tab.map_view()["frames"]  # noqa: E731
    mouse = tab.page.mouse
    x0, y0, x1, y1 = box["x"] + 4, box["y"] + 4, box["x"] + box["width"] - 4, box["y"] + box["height"] - 4
    mouse.move(x0, y0)
    mouse.down()
    tab.page.wait_for_timeout(300)  # a hover or the mode's own frame, before the path starts
    before = frames()
    for x, y in ((x1, y0), (x1, y1), (x0, y1)):
        mouse.move(x, y, steps=10)
    tab.page.wait_for_timeout(300)
    assert tab.page.evaluate(ink) > 100, "the lasso's path is not drawn while the mouse moves"
    assert frames() == before, (before, frames())  # the map itself was not drawn again
    mouse.move(x0, y0 + 2, steps=4)
    mouse.up()
    tab.eventually(lambda: _check(len(tab.map_view()["selection"]) >= PAPERS * 0.8, tab.map_view()["selection"]))
    assert tab.page.evaluate(ink) == 0
    assert frames() >= before + 1
    tab.idle()
    chosen = tab.map_view()["selection"]
    # Escape drops a path half drawn: the selection stays what it was
    mouse.move(x0 + 10, y0 + 10)
    mouse.down()
    mouse.move(x0 + 60, y0 + 60, steps=6)
    tab.page.keyboard.press("Escape")
    assert tab.page.evaluate(ink) == 0
    mouse.move(x0 + 10, y0 + 60, steps=4)
    mouse.up()
    tab.page.wait_for_timeout(500)
    assert tab.map_view()["selection"] == chosen
    tab.page.locator(f"{TOOLS} button[data-mode=panZoom]").first.click()


def test_the_png_carries_the_legend_under_the_map(tab: Tab):
    """The PNG held the map alone: its colours could not be read once the picture left the app (the map
    walk-through's leftover). The legend (swatch, name, count) is drawn under it."""
    import io

    from PIL import Image

    from tests.e2e.conftest import MAP, TOOLS

    tab.idle()
    legend = tab.map_view()["legend"]
    assert legend
    canvas = tab.page.locator(f"{MAP} canvas").first.bounding_box()
    with tab.page.expect_download() as download:
        tab.page.locator(f"{TOOLS} button.miread-png").first.click()
    picture = Image.open(io.BytesIO(Path(download.value.path()).read_bytes())).convert("RGB")
    ratio = picture.width / canvas["width"]
    assert picture.height > canvas["height"] * ratio + 10, (picture.size, canvas)  # a band under the map
    band = picture.crop((0, int(canvas["height"] * ratio) + 2, picture.width, picture.height))
    dark = sum(1 for r, g, b in band.getdata() if r + g + b < 200)
    assert dark > 50, dark  # the entries' names are drawn there
    # on white, as the map shows: no transparent (black once flattened) background where no paper is
    assert picture.getpixel((2, 2)) == (255, 255, 255)


def test_fingers_pan_pinch_and_draw_a_lasso(tab: Tab):
    """On a phone the map hears fingers (regl-scatterplot hears only the mouse: a finger could tap a paper but not
    move the map or draw a lasso): one finger pans in Pan mode, two pinch-zoom about their centre, one draws the
    lasso in Lasso mode, and the map is not drawn again while the path is drawn."""
    from tests.e2e.conftest import MAP, TOOLS, map_js

    tab.idle()
    tab.page.locator(f"{TOOLS} button[data-mode=panZoom]").first.click()
    canvas = tab.page.locator(f"{MAP} canvas").first
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    assert box
    cx, cy = box["x"] + box["width"] / 2, box["y"] + min(box["height"], VIEWPORT["height"] - box["y"]) / 2
    cdp = tab.page.context.new_cdp_session(tab.page)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})

    def touch(kind: str, *points: tuple[float, float]) -> None:
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
            {"x": x, "y": y, "id": k} for k, (x, y) in enumerate(points)]})

    camera = f"() => Array.from({map_js()}.plot.get('cameraView'))"
    try:
        start = tab.page.evaluate(camera)
        touch("touchStart", (cx, cy))
        for k in range(1, 11):
            touch("touchMove", (cx + 8 * k, cy))
        touch("touchEnd")
        panned = tab.page.evaluate(camera)
        per_px = 2 / box["height"]  # the camera's frame: 2 units over the map's height on both axes
        assert abs((panned[12] - start[12]) - 80 * per_px) < 6 * per_px, (start, panned)
        assert abs(panned[13] - start[13]) < 1e-6 and abs(panned[0] - start[0]) < 1e-6
        # two fingers 100 px apart spread to 200 px about the same centre: the map is twice as large
        touch("touchStart", (cx - 50, cy), (cx + 50, cy))
        for k in range(1, 11):
            touch("touchMove", (cx - 50 - 5 * k, cy), (cx + 50 + 5 * k, cy))
        touch("touchEnd")
        pinched = tab.page.evaluate(camera)
        assert abs(pinched[0] / panned[0] - 2) < 0.05, (panned, pinched)
        # one finger in Lasso mode draws a path, not the map; let go, the papers inside are selected
        tab.page.locator(f"{TOOLS} button[data-mode=lasso]").first.click()
        tab.page.locator(f"{TOOLS} button.miread-whole").first.click()
        tab.page.wait_for_timeout(800)
        frames = tab.map_view()["frames"]
        x0, y0 = box["x"] + 6, box["y"] + 6
        x1, y1 = box["x"] + box["width"] - 6, box["y"] + min(box["height"], VIEWPORT["height"] - box["y"]) - 6
        touch("touchStart", (x0, y0))
        for x, y in ((x1, y0), (x1, y1), (x0, y1), (x0, y0 + 2)):
            touch("touchMove", (x, y))
            tab.page.wait_for_timeout(60)
        assert tab.map_view()["frames"] == frames
        touch("touchEnd")
        tab.eventually(lambda: _check(len(tab.map_view()["selection"]) >= PAPERS * 0.8, tab.map_view()["selection"]))
    finally:
        cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": False})
        tab.page.locator(f"{TOOLS} button[data-mode=panZoom]").first.click()
        tab.page.locator(f"{TOOLS} button.miread-whole").first.click()
        tab.idle()


# Marked slow (run by `make test-e2e`, not `make test`): in both clean-clone CI runs of 2026-11-29's fourth session, run
# after the AppTests, the shared zoomed link stayed on the whole map (span 2.0) for the whole 240 s patience; it passes
# alone, alone under two busy loops, and after all of tests/app (session 5). An open bug of issue 42 (a shared zoomed
# link can open whole), not a passing test: on failure the assertion now shows the map's camera state (`_why`).
@pytest.mark.slow
def test_zoom_goes_into_the_url_and_whole_map_returns(browser, tab: Tab):
    canvas = tab.map_drawn()
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    tab.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(4):
        tab.page.mouse.wheel(0, -300)
        tab.page.wait_for_timeout(100)
    zoomed, span = tab.eventually(lambda: _zoom_settled(tab))  # the last of the wheel's reports, not the first
    tab.page.locator(".miread-map-outer button.miread-whole").first.click()
    tab.eventually(lambda: _check("zoom=" not in tab.page.url, (tab.page.url, tab.page.evaluate(
        "() => [window.__mireadMaps.map.map.wrap.dataset.lastzoom, window.__mireadMaps.map.map.bbox()]"))))
    # the shared link opens zoomed in another browser: the map flies to the window it names
    context = browser.new_context(viewport=VIEWPORT)
    try:
        shared = Tab(context.new_page(), zoomed).open()
        shared.map_drawn()
        shared.eventually(lambda: _check(abs(_span(shared) - span) < 0.1 * span, (_span(shared), span, _why(shared))))
        shared.snap("map-component-url-zoom")
    finally:
        context.close()


def test_an_open_draws_its_points_once_coloured_and_a_shared_zoom_in_that_frame(browser, tab: Tab):
    """Issue 42 (BENCHMARKS §31s): at 1M papers a frame of every point is 1–2.5 s in a GPU-less browser. The map
    opened in a tab, then again in the same tab (its points from Streamlit's cache, before the page's state: they
    were drawn uncoloured, then again coloured), hands its points over once and draws one frame, with the colours;
    a link with a zoom is drawn zoomed in that frame (the flight after it was a transition of several frames)."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        fresh = Tab(context.new_page(), tab.url)
        for k in range(2):  # a fresh tab, then a warm open in the same tab
            fresh.page.goto(tab.page.url)
            _opened_once(fresh)
        codes = fresh.map_view()["codes"]
        assert len(set(codes)) > 1, codes  # drawn coloured: the state's codes (journals), not all one grey
        canvas = fresh.map_drawn()
        box = canvas.bounding_box()
        fresh.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        for _ in range(4):
            fresh.page.mouse.wheel(0, -300)
            fresh.page.wait_for_timeout(100)
        zoomed, span = fresh.eventually(lambda: _zoom_settled(fresh))
        fresh.page.goto(zoomed)  # the shared link, opened in the same tab
        _opened_once(fresh)
        assert abs(_span(fresh) - span) < 0.1 * span, (_span(fresh), span, _why(fresh))
    finally:
        context.close()


def _opened_once(tab: Tab) -> None:
    """The map opened (drawn, its state applied, the page idle, a moment for any frame left) with one hand-over of
    its points and one frame."""
    tab.page.wait_for_function("() => { const m = window.__mireadMaps && window.__mireadMaps.map && "
                               "window.__mireadMaps.map.map; return m && m.wrap.dataset.ready === '1' && "
                               "m.wrap.dataset.applied; }", timeout=120_000)
    tab.idle()
    tab.page.wait_for_timeout(1500)
    marks = tab.page.evaluate("() => Object.assign({}, window.__mireadMaps.map.map.wrap.dataset)")
    assert (marks.get("pointDraws"), marks.get("frames")) == ("1", "1"), marks


def test_a_highlight_a_colour_and_a_year_window_keep_the_drawn_map(tab: Tab):
    """A caption that comes or goes above the map must not move it: a moved element is remounted, every point drawn
    again from scratch (and a play or a selection in progress lost)."""
    tab.page.evaluate("() => { window.__mireadMaps.map.map.__kept = 'the first instance'; }")
    kept = "() => { const m = window.__mireadMaps.map && window.__mireadMaps.map.map; return m ? m.__kept : null; }"
    applied = tab.map_view()["applied"]
    tab.fill("Highlight papers matching", "the")
    tab.eventually(lambda: _check(tab.map_view()["faded"] > 0, tab.map_view()["faded"]))
    assert tab.page.evaluate(kept) == "the first instance"
    tab.fill("Highlight papers matching", "")
    tab.choose("Play through years", "1-year window")
    tab.choose("Play through years", "off")
    assert tab.page.evaluate(kept) == "the first instance"
    assert tab.map_view()["applied"] > applied  # the new colours came as state, to the same map


def test_one_change_one_frame_and_a_confirming_run_none(tab: Tab):
    """A frame of every point is the map's dearest work in a GPU-less browser (~80 ms at 50,000 papers). A year step
    is drawn once, at once, in the browser; the page run that confirms the same window draws nothing more (it drew
    it twice again). A colour is one frame, not two (regl-scatterplot's set() asked for a frame of its own)."""
    tab.idle()
    view = tab.map_view()
    end = tab.page.locator("[data-testid=stSlider] input[aria-label='Years — end']").first
    end.focus()
    end.press("ArrowLeft")
    tab.eventually(lambda: _check(tab.map_view()["applied"] > view["applied"], tab.map_view()["applied"]))
    tab.idle()
    after = tab.map_view()
    assert after["faded"] > 0 and after["frames"] == view["frames"] + 1, (view["frames"], after["frames"])
    tab.choose("Colour by", "(none)")
    tab.eventually(lambda: _check(len(set(tab.map_view()["codes"])) == 1, set(tab.map_view()["codes"])))
    tab.idle()
    assert tab.map_view()["frames"] == after["frames"] + 1
    tab.choose("Colour by", "journal")
    end.focus()
    end.press("ArrowRight")
    tab.eventually(lambda: _check(tab.map_view()["faded"] == 0, tab.map_view()["faded"]))


def test_play_runs_through_the_years_in_the_browser(tab: Tab):
    tab.choose("Play through years", "1-year window")
    button = tab.page.locator(".miread-map-outer button.miread-play").first
    button.wait_for(state="visible")
    runs = tab.page.evaluate("() => window.__mireadMaps.map.map.wrap.dataset.applied")
    button.click()
    tab.eventually(lambda: _check(_frame(tab) is not None, _frame(tab)))
    first = _frame(tab)
    tab.eventually(lambda: _check(_frame(tab) != first, _frame(tab)))
    assert tab.page.evaluate("() => window.__mireadMaps.map.map.wrap.dataset.applied") == runs  # no page run
    tab.snap("map-component-play")
    button.click()
    # paused: the page's map again, every paper in front (the play's last window is not left behind)
    tab.eventually(lambda: _check(tab.map_view()["faded"] == 0, tab.map_view()["faded"]))
    tab.choose("Play through years", "off")


def test_play_goes_on_through_a_run_that_leaves_its_years_alone(tab: Tab):
    """A page run landing while Play runs (here a highlight) must not stop it. In CI a run that landed just after the
    click left Play on its first year: every new state reset the play, whatever it changed."""
    tab.choose("Play through years", "1-year window")
    button = tab.page.locator(".miread-map-outer button.miread-play").first
    button.wait_for(state="visible")
    tab.eventually(lambda: _check(tab.map_view()["play"] is not None, tab.map_view()["play"]))
    # 3 s a year: the highlight's run lands long before the last year, however loaded the machine
    tab.page.evaluate("() => { const m = window.__mireadMaps.map.map; m.play = Object.assign({}, m.play, {ms: 3000}); }")
    applied = tab.map_view()["applied"]
    button.click()
    tab.eventually(lambda: _check(_frame(tab) is not None, _frame(tab)))
    tab.fill("Highlight papers matching", "the")
    tab.eventually(lambda: _check(tab.map_view()["applied"] > applied, tab.map_view()["applied"]))
    landed = _frame(tab)
    assert button.text_content() == "❚❚ Pause", (landed, button.text_content())  # "⏸" lacks a glyph in common fonts
    tab.eventually(lambda: _check(_frame(tab) != landed, (landed, _frame(tab))))
    button.click()
    assert button.text_content() == "▶ Play"
    tab.fill("Highlight papers matching", "")
    tab.choose("Play through years", "off")


def test_coming_back_to_the_map_shows_the_same_drawn_map_with_its_state(tab: Tab):
    """Another page and back: the map drawn before comes back (its points are not read and drawn again), with the
    colour, legend and highlight of the page's state."""
    tab.fill("Highlight papers matching", "the")
    tab.eventually(lambda: _check(tab.map_view()["faded"] > 0, tab.map_view()["faded"]))
    before = tab.map_view()
    tab.page.evaluate("() => { window.__mireadMaps.map.map.__kept = 'drawn before'; }")
    tab.go("Similar papers")
    tab.go("Domain map")
    tab.map_drawn()
    kept = "() => { const m = window.__mireadMaps.map && window.__mireadMaps.map.map; return m ? m.__kept : null; }"
    tab.eventually(lambda: _check(tab.page.evaluate(kept) == "drawn before", tab.page.evaluate(kept)))
    box = tab.page.locator("[data-testid=stTextInput] input[aria-label='Highlight papers matching']").first
    # the kept map shows the page's state now, never the one it had when it left: the highlight the box holds
    after = tab.eventually(lambda: _check_view(tab, before, box.input_value()))
    assert after["drawn"] == PAPERS and tab.page.locator(".miread-map-outer").count() == 1
    tab.snap("map-component-back")
    tab.fill("Highlight papers matching", "")
    tab.eventually(lambda: _check(tab.map_view()["faded"] == 0, tab.map_view()["faded"]))


def test_coming_back_the_colour_box_shows_the_colour_the_map_is_drawn_with(tab: Tab):
    """The colour came back to the map but not to its box: the map was coloured by the chosen column while the box
    showed the first option (Streamlit draws a value put back on another page's run as the widget's default;
    qamap10)."""
    box = tab.page.get_by_role("combobox", name="Colour by", exact=True)
    tab.choose("Colour by", "(none)")
    tab.eventually(lambda: _check(tab.map_view()["legend"] == [], tab.map_view()["legend"]))
    try:
        tab.go("Similar papers")
        tab.page.wait_for_timeout(1500)
        tab.idle()
        tab.go("Domain map")
        tab.map_drawn()
        assert tab.map_view()["legend"] == []  # the map: no colour
        tab.page.wait_for_timeout(1000)
        assert box.input_value() == "(none)"  # and its box says so
    finally:
        tab.choose("Colour by", "journal")


def _check_view(tab: Tab, before: dict, highlight: str) -> dict:
    view = tab.map_view()
    faded = before["faded"] if highlight == "the" else 0
    assert view is not None and view["faded"] == faded and view["legend"] == before["legend"], (view, highlight)
    return view


def _frame(tab: Tab) -> str | None:
    view = tab.map_view()
    assert view is not None, "the map was unmounted"
    return view["frame"]


def _zoom_settled(tab: Tab) -> tuple[str, float]:
    """The address bar once the zoom has stopped moving: it names a window, the map shows less than the whole of it,
    and neither changed for a second. Each wheel step is reported (300 ms after it stops); on a loaded machine the
    URL of the first step (a window barely smaller than the whole map) can be there before the last."""
    url, span = tab.page.url, _span(tab)
    _check("zoom=" in url and span < 1.9, (url, span))
    tab.page.wait_for_timeout(1000)
    _check(tab.page.url == url and _span(tab) == span, (url, tab.page.url, span, _span(tab)))
    return url, span


def test_a_page_run_after_the_open_draws_the_map_it_has_and_a_lost_map_is_sent_again(tab: Tab, store: Store):
    """A page run after the open sends the heavy instances their meta alone (ui/map/component.py `_mount_once`,
    BENCHMARKS §31x): the map stays drawn with its points and cards, nothing asked again. A page that lost the points
    and text (its parked map let go after 10 minutes: simulated by forgetting them here, then another page and back)
    asks for them (`missing`) and draws them again, never a blank map or an error."""
    tab.map_drawn()
    asked = lambda: tab.page.evaluate("() => Number(document.body.dataset.mapAsked || 0)")  # noqa: E731
    before = asked()  # (an earlier test's lost map asked once)
    tab.choose("Colour by", "(none)")
    tab.eventually(lambda: _check(len(set(tab.map_view()["codes"])) == 1, set(tab.map_view()["codes"])))
    tab.idle()
    view = tab.map_view()
    key = view["key"]
    assert view["ready"] == "1" and view["drawn"] == PAPERS, view
    assert asked() == before  # the meta alone, and the page had what it names
    titles = rows_of(store)
    row = next(i for i, t in enumerate(titles) if "<" not in t and len(t) > 20)
    assert titles[row][:60] in tab.hover_card(title=titles[row])
    tab.page.evaluate("""() => { const e = window.__mireadMaps.map; e.map.key = 'lost'; e.map.wanted = null;
        e.text = null; }""")
    tab.go("Similar papers")  # parked under a key it lost, then mounted again: the meta alone names points not here
    tab.go("Domain map")
    tab.eventually(lambda: _check(asked() >= before + 2, (before, asked())))  # the points and the text
    tab.eventually(lambda: _check(tab.map_view()["key"] == key and tab.map_view()["ready"] == "1", tab.map_view()))
    tab.idle()
    assert tab.map_view()["drawn"] == PAPERS
    assert tab.page.evaluate("() => window.__mireadMaps.map.text && window.__mireadMaps.map.text.key") == key
    assert titles[row][:60] in tab.hover_card(title=titles[row])
    assert not tab.page.locator("[data-testid=stException]").count()


def _why(tab: Tab) -> object:
    """What the map knows of its camera: the address bar, its data attributes, its flight and its state's zoom."""
    return tab.page.url, tab.page.evaluate("""() => { const m = window.__mireadMaps.map.map, e = window.__mireadMaps.map;
        return [Object.assign({}, m.wrap.dataset), m.flight, e.state && e.state.state && e.state.state.zoom,
                e.state && e.state.state && e.state.state.flight, Object.keys(e.parts || {})]; }""")


def _span(tab: Tab) -> float:
    return tab.page.evaluate("() => { const b = window.__mireadMaps.map.map.bbox(); return b[1] - b[0]; }")


def _legend(tab: Tab) -> dict:
    view = tab.map_view()
    assert view and len(view["legend"]) >= 2, view
    return view


def _check(ok: bool, shown: object) -> None:
    assert ok, shown

