"""Issue 29 §5: on a 390 px wide phone the Domain map starts on the first screen, not 1.5 screens down under large
titles and stacked controls; the controls stay usable."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.store import Store
from tests.e2e.conftest import ARTIFACTS, Tab, embedded_store
from tests.e2e.server import TINY_ENV, streamlit_server
from tests.helpers import make_papers

pytestmark = pytest.mark.e2e
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Corpus 'c' (60 papers of three journals, years 2000-2004: the Years and Play controls show) and 'tiny'."""
    store: Store = embedded_store(tmp_path_factory, "phone", "c", make_papers(20), "make_papers")
    env = dict(TINY_ENV)
    with streamlit_server(store.root, env=env, timeout=240) as url:
        yield f"{url}/?corpus=c&model=tiny&method=pca&colour=journal"


@pytest.fixture()
def phone(browser, server: str) -> Iterator[Tab]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    yield Tab(context.new_page(), server).open()
    context.close()


def test_the_map_starts_on_the_first_screen_of_a_phone(phone: Tab):
    page = phone.page
    page.get_by_role("heading", name="Domain map").wait_for()
    plot = phone.map_drawn()
    page.wait_for_timeout(800)
    top = page.evaluate("() => window.__mireadMaps.map.map.canvas"
                        ".getBoundingClientRect().top + (document.querySelector('[data-testid=stMain]')?.scrollTop || 0)"
                        " + window.scrollY")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "map-phone-first-screen.png"))
    assert top < 0.6 * PHONE["height"], f"the map starts {top:.0f} px down a {PHONE['height']} px screen"
    title = page.get_by_role("heading", name="Domain map").bounding_box()
    header = page.locator("[data-testid=stHeader]").bounding_box()
    assert title and header and title["y"] >= header["y"] + header["height"] - 4, (title, header)  # not under it
    box = plot.bounding_box()
    assert box and box["width"] > 0.85 * PHONE["width"], box  # and keeps the phone's width
    # what is drawn and how is said under the map: above it, those captions put the demo's map 640 px down
    said = page.locator("[data-testid=stCaptionContainer]").filter(has_text="drawing all").first.bounding_box()
    assert said and said["y"] > box["y"] + box["height"] - 4, (said, box)
    for label in ("Colour by", "Highlight papers matching", "Years", "Play through years"):  # all still there
        assert page.get_by_label(label, exact=True).count() >= 1 or page.get_by_text(label, exact=True).count(), label


INSIDE = """() => { const m = window.__mireadMaps.map.map, r = m.wrap.getBoundingClientRect();
    let worst = Infinity;
    for (let i = 0; i < m.n; i++) { const [x, y] = m.pageXY(i);
        worst = Math.min(worst, x - r.left, r.right - x, y - r.top, r.bottom - y); }
    return worst; }"""


def test_every_paper_lies_inside_the_phone_map_with_room_to_tap_it(phone: Tab):
    """A helper saw papers at a 390 px phone map's left edge on its border, not to be tapped. Not reproduced on this
    corpus nor on the demo (the nearest centre 14.6 px inside, before and after Whole map): this keeps it so."""
    phone.page.get_by_role("heading", name="Domain map").wait_for()
    phone.map_drawn()
    phone.page.wait_for_timeout(800)
    assert phone.page.evaluate(INSIDE) >= 4, "a paper's centre lies on the map's border"
    phone.page.locator(".miread-whole").first.click()
    phone.page.wait_for_timeout(800)
    assert phone.page.evaluate(INSIDE) >= 4, "after Whole map, a paper's centre lies on the map's border"


def test_a_map_made_narrow_keeps_its_papers_inside(browser, server: str):
    """A desktop window narrowed to a phone's width kept the wide map's view: a third of the papers lay beyond the map's
    sides (the nearest centre 76 px outside on the demo) until Whole map was pressed. The view now follows the size."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        tab = Tab(context.new_page(), server).open()
        tab.map_drawn()
        tab.page.wait_for_timeout(800)
        assert tab.page.evaluate(INSIDE) >= 4
        tab.page.set_viewport_size(PHONE)
        tab.eventually(lambda: _inside(tab))
        tab.page.set_viewport_size({"width": 1400, "height": 900})  # and back: the whole map again
        tab.eventually(lambda: _inside(tab))
    finally:
        context.close()


def _inside(tab: Tab) -> None:
    worst = tab.page.evaluate(INSIDE)
    marks = tab.page.evaluate("() => { const m = window.__mireadMaps.map.map; return { ...m.wrap.dataset, "
                              "size: m.wrap.clientWidth + 'x' + m.wrap.clientHeight, shown: m.shownBox, "
                              "renderer: m.rendererSize }; }")
    assert worst >= 4, (f"a paper's centre lies {worst:.0f} px inside the map's border (negative: outside); the "
                        f"map's marks: {marks}")


@pytest.mark.parametrize("start", ["phone", "narrowed"])
def test_on_a_phone_whole_map_undoes_a_pinch_and_a_find_and_a_tap_opens_the_paper(browser, server: str, start: str):
    """Issue 42 §3 and §5 at a phone's width, opened there or narrowed from a 1280 px window: after a two-finger
    zoom and after Find's flight (the map brought into view: Find lies under it), Whole map shows every paper inside
    the map with room to tap it; a tap on a paper pins its card and opens it (the star on it); a finger's lasso in
    Lasso mode selects papers."""
    first = PHONE if start == "phone" else {"width": 1280, "height": 900}
    context = browser.new_context(viewport=first, device_scale_factor=2, is_mobile=start == "phone", has_touch=True)
    try:
        tab = Tab(context.new_page(), server).open()
        tab.map_drawn()
        if start == "narrowed":
            tab.page.set_viewport_size(PHONE)
        tab.page.wait_for_timeout(800)
        tab.eventually(lambda: _inside(tab))
        cdp = tab.page.context.new_cdp_session(tab.page)
        box = _map_box(tab)
        cx, cy = box[0] + box[2] / 3, box[1] + box[3] / 2

        def touch(kind: str, *points: tuple[float, float]) -> None:
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
                {"x": x, "y": y, "id": k} for k, (x, y) in enumerate(points)]})
        touch("touchStart", (cx - 30, cy), (cx + 30, cy))  # two fingers spread: 60 → 240 px, the map 4× larger
        for k in range(1, 10):
            touch("touchMove", (cx - 30 - 10 * k, cy), (cx + 30 + 10 * k, cy))
        touch("touchEnd")
        # the camera is read from the map's drawn frames: on a busy machine the next frame came after 600 ms (CI)
        tab.eventually(lambda: _zoomed(tab, "the pinch did not zoom in"))
        whole(tab)
        tab.page.get_by_role("textbox", name="Find a paper").fill("number 7")
        tab.page.get_by_role("textbox", name="Find a paper").press("Enter")
        tab.idle()
        tab.eventually(lambda: _zoomed(tab))
        tab.eventually(lambda: _in_view(tab))  # Find lies under the map on a phone: the flight is brought into view
        ARTIFACTS.mkdir(exist_ok=True)
        tab.page.screenshot(path=str(ARTIFACTS / f"map-phone-{start}-find.png"))
        whole(tab)
        tab.page.screenshot(path=str(ARTIFACTS / f"map-phone-{start}-whole.png"))
        xy = tab.page.evaluate(f"() => {{ const m = {MAP_JS}; m.wrap.scrollIntoView({{block: 'center'}});"
                               " return m.pageXY(33); }")
        tab.page.touchscreen.tap(*xy)
        tab.eventually(lambda: _opened(tab, 33))
        tab.page.locator(".miread-map-outer button[data-mode=lasso]").first.click()
        box = _map_box(tab)  # where the map is now (Find and the tap scrolled the page)
        x0, y0, x1, y1 = box[0] + 8, box[1] + 8, box[0] + box[2] - 8, box[1] + box[3] - 8
        touch("touchStart", (x0, y0))
        for x, y in ((x1, y0), (x1, y1), (x0, y1), (x0, y0 + 2)):
            touch("touchMove", (x, y))
            tab.page.wait_for_timeout(60)
        touch("touchEnd")
        tab.eventually(lambda: _selected(tab))
    finally:
        context.close()


MAP_JS = "window.__mireadMaps.map.map"


def _map_box(tab: Tab) -> list[float]:
    """The map scrolled to the middle of the screen: its left, top, width and height."""
    return tab.page.evaluate(f"() => {{ const m = {MAP_JS}; m.wrap.scrollIntoView({{block: 'center'}});"
                             " const r = m.wrap.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; }")


def whole(tab: Tab) -> None:
    """Press Whole map and wait for every paper to lie inside the map."""
    tab.page.locator(".miread-whole").first.click()
    tab.idle()
    tab.eventually(lambda: _inside(tab))


def _in_view(tab: Tab) -> None:
    """The whole map on the screen, under the app's header (Find, typed below it on a phone, had left its top above
    the screen or under the header)."""
    shown = tab.page.evaluate(f"() => {{ const r = {MAP_JS}.wrap.getBoundingClientRect();"
                              " const h = document.querySelector('[data-testid=stHeader]');"
                              " const top = Math.max(h ? h.getBoundingClientRect().bottom : 0, 0);"
                              " return (Math.min(r.bottom, innerHeight) - Math.max(r.top, top)) / r.height; }")
    assert shown >= 0.97, f"{shown:.0%} of the map is on the screen after Find's flight"


def _zoomed(tab: Tab, what: str = "Find did not zoom onto its paper") -> None:
    assert tab.page.evaluate(INSIDE) < 0, what


def _opened(tab: Tab, row: int) -> None:
    got = tab.page.evaluate(f"() => {{ const m = {MAP_JS}, s = m.overlayState && m.overlayState.star;"
                            " return [m.pin.row, s ? s.row : null]; }")
    assert got == [row, row], got


def _selected(tab: Tab) -> None:
    n = tab.page.evaluate(f"() => {MAP_JS}.selection.length")
    assert n >= 30, n


def test_a_pinch_made_between_two_frames_is_drawn_and_reported(phone: Tab):
    """Seen in CI on a busy machine: a pinch whose finger moves all came between two of the browser's frames was
    drawn zoomed, but the map's view event never came (regl-scatterplot's `set({cameraView})` asks for its frame in
    a later animation frame, and the library's own frame before it took the camera's change without drawing): the
    stars and labels over the map, the zoom kept in the link and the next gesture all kept the old camera. Here the
    fingers' events are sent in one task, so they always fall between two frames."""
    phone.map_drawn()
    phone.page.wait_for_timeout(800)
    phone.eventually(lambda: _inside(phone))
    phone.page.evaluate(f"""() => {{ const m = {MAP_JS}, c = m.canvas, r = m.wrap.getBoundingClientRect();
        const cx = r.left + r.width / 3, cy = r.top + r.height / 2;
        const send = (type, id, x) => c.dispatchEvent(new PointerEvent(type, {{pointerType: 'touch', pointerId: id,
            isPrimary: id === 1, clientX: x, clientY: cy, bubbles: true, cancelable: true, composed: true}}));
        send('pointerdown', 1, cx - 30); send('pointerdown', 2, cx + 30);
        for (let k = 1; k < 10; k++) {{ send('pointermove', 1, cx - 30 - 10 * k); send('pointermove', 2, cx + 30 + 10 * k); }}
        send('pointerup', 1, cx - 120); send('pointerup', 2, cx + 120); }}""")
    phone.eventually(lambda: _zoomed(phone, "the map's camera (its view events) did not follow the pinch"))
    real = phone.page.evaluate(f"() => Array.from({MAP_JS}.plot.get('cameraView')).slice(0, 1)[0]")
    kept = phone.page.evaluate(f"() => {MAP_JS}.camera[0]")
    assert abs(real - kept) < 1e-6 * abs(real), (real, kept)  # what the overlay and reports use is what is drawn
