"""The map answers in the browser first (issue 42, BENCHMARKS §31f): a colour the browser knows is drawn before the
page's run comes back (the side column, Topics over time and the link follow; a reload keeps it), topics already
computed too, with their legend and labels (§31j), and a clicked paper's card is pinned at once (its text from data
shown as typed, never as HTML)."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, urlparse

import pytest

from core.io import read_papers
from tests.e2e.conftest import FIXTURES, Tab, app_tab, open_final_map, tiny_store
from ui.views import TOPICS

pytestmark = pytest.mark.e2e

CORPUS = "answered"
MAP = "window.__mireadMaps.map.map"
# the page's states kept from the map (its runs still happen): what the map draws then, the browser drew by itself
BLOCK = f"() => {{ const m = {MAP}; m.__apply = m.apply; m.apply = () => Promise.resolve(); }}"
UNBLOCK = f"() => {{ const m = {MAP}; if (m.__apply) {{ m.apply = m.__apply; delete m.__apply; }} }}"


@pytest.fixture(scope="module")
def tab(browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tab]:
    from core.embedding import embed_corpus

    store = tiny_store(tmp_path_factory, "map-answers")
    store.import_papers(CORPUS, read_papers(FIXTURES / "papers.csv"), source="papers.csv")
    embed_corpus(store, CORPUS, "tiny")
    with app_tab(browser, store) as tab:
        open_final_map(tab)
        yield tab


def _colour(tab: Tab) -> str | None:
    return parse_qs(urlparse(tab.page.url).query).get("colour", [None])[0]


def _check(ok: bool, shown: object) -> None:
    assert ok, shown


def test_a_colour_is_drawn_in_the_browser_and_the_page_follows(tab: Tab):
    tab.idle()
    box = tab.page.get_by_role("combobox", name="Colour by", exact=True)
    assert box.input_value() == "journal" and len(tab.map_view()["legend"]) >= 2
    # Topics over time waits closed (BENCHMARKS §31h); opened, it follows the colour
    assert tab.page.get_by_text("with a year, by journal").count() == 0
    tab.page.locator("[data-testid=stExpander] summary", has_text="Topics over time").first.click()
    tab.page.get_by_text("with a year, by journal").first.wait_for()
    tab.idle()
    tab.page.evaluate(BLOCK)
    try:
        tab.choose("Colour by", "(none)")
        view = tab.eventually(lambda: _check(tab.map_view()["legend"] == [], tab.map_view()["legend"]))
        assert len(set(tab.map_view()["codes"])) == 1, view
    finally:
        tab.page.evaluate(UNBLOCK)
    tab.idle()
    assert _colour(tab) == "(none)"  # the link follows
    assert tab.page.get_by_text("with a year, by journal").count() == 0  # Topics over time follows
    # unblocked: the points drawn once (the browser's answer); the page's run that confirms it draws them no more
    tab.page.evaluate(f"() => {{ const m = {MAP}, draw = m.redraw.bind(m); m.__draws = 0;"
                      "m.redraw = () => { m.__draws += 1; return draw(); }; }")
    tab.choose("Colour by", "journal")
    tab.eventually(lambda: _check(len(tab.map_view()["legend"]) >= 2, tab.map_view()["legend"]))
    tab.idle()
    assert tab.page.evaluate(f"() => {MAP}.__draws") == 1
    tab.page.evaluate(f"() => {{ delete {MAP}.redraw; }}")
    assert _colour(tab) == "journal"
    tab.page.get_by_text("with a year, by journal").first.wait_for()
    legend = [e["text"] for e in tab.map_view()["legend"]]
    tab.snap("map-answers-colour")
    # a reload keeps the colour: the box and the map
    tab.choose("Colour by", "(none)")
    tab.page.reload()
    tab.map_drawn()
    tab.eventually(lambda: _check(tab.map_view()["legend"] == [], tab.map_view()["legend"]))
    assert box.input_value() == "(none)"
    tab.choose("Colour by", "journal")
    tab.eventually(lambda: _check([e["text"] for e in tab.map_view()["legend"]] == legend, tab.map_view()["legend"]))


def test_a_click_pins_the_papers_card_at_once_as_typed(tab: Tab):
    titles = tab.map_view()["titles"]
    row = next(i for i, t in enumerate(titles) if "onerror" in t)
    pinned = tab.page.locator(".miread-map-outer .miread-pinned").first
    # the click's event kept from the page: the card is the browser's own answer
    tab.page.evaluate("""() => { const l = window.__mireadMaps.map.listeners.events;
        l.__send = l.setTriggerValue; l.setTriggerValue = () => {}; }""")
    try:
        tab.click_point(row)
        pinned.wait_for(state="visible", timeout=3000)
        text = pinned.text_content() or ""
        assert titles[row][:100] in text, (titles[row], text)  # the markup as text, never parsed
        html = pinned.inner_html()
        assert "<img" not in html and tab.page.evaluate("() => window.__xss") is None and tab.dialogs == []
        assert pinned.get_attribute("data-row") == str(row)
    finally:
        tab.page.evaluate("""() => { const l = window.__mireadMaps.map.listeners.events;
            if (l.__send) { l.setTriggerValue = l.__send; delete l.__send; } }""")
    tab.page.keyboard.press("Escape")
    other = next(i for i, t in enumerate(titles) if "<" not in t and i != row)
    tab.click_point(other)
    tab.see(titles[other][:40], "[data-testid=stMarkdownContainer]")  # the side panel follows
    assert pinned.is_visible() and pinned.get_attribute("data-row") == str(other)  # the card stays with its paper
    tab.snap("map-answers-pinned")
    pinned.get_by_role("button", name="×").click()
    assert not pinned.is_visible()


def _frames_still(tab: Tab) -> int:
    """The map's frame count once no frame has come for 0.6 s (the hover's ring is a frame of its own)."""
    last = -1
    while (now := tab.map_view()["frames"]) != last:
        last = now
        tab.page.wait_for_timeout(600)
    return last


def test_a_click_on_a_paper_draws_no_frame_of_the_points(tab: Tab):
    """BENCHMARKS §31t: regl-scatterplot's answer to a click selects the paper, which draws every point again (1-2 s
    a frame at 1,000,000 papers in a GPU-less browser). The paper is marked by the page's star and its pinned card,
    on layers of their own: a click with nothing selected draws no frame, and the side panel still opens it."""
    tab.idle()
    tab.page.keyboard.press("Escape")
    close = tab.page.locator(".st-key-map_panel_close button").first
    if close.count():
        close.click()
        tab.idle()
    titles = tab.map_view()["titles"]
    row = next(i for i, t in enumerate(titles) if "<" not in t and t.strip())
    tab.map_drawn()
    tab.page.locator(".miread-map-outer button[data-mode=panZoom]").first.click()
    x, y = tab.map_point(row)
    tab.page.mouse.move(x, y, steps=2)
    frames = _frames_still(tab)
    tab.page.mouse.click(x, y)
    pinned = tab.page.locator(".miread-map-outer .miread-pinned").first
    pinned.wait_for(state="visible", timeout=3000)
    assert pinned.get_attribute("data-row") == str(row)
    tab.idle()
    tab.see(titles[row][:40], "[data-testid=stMarkdownContainer]")  # the side panel opened it
    tab.eventually(lambda: _check(tab.map_view()["starred"] == [titles[row]], tab.map_view()["starred"]))
    assert _frames_still(tab) == frames, "the click drew the points again"
    assert tab.page.evaluate(f"() => {MAP}.plot.get('selectedPoints').length") == 0
    # a click on the void (no paper under the mouse) takes the card away, as a deselection did
    box = tab.page.locator(".miread-map").first.bounding_box()
    corner = (box["x"] + 3, box["y"] + box["height"] - 3)
    tab.page.mouse.move(*corner)
    tab.page.mouse.click(*corner)
    tab.eventually(lambda: _check(not pinned.is_visible(), "the card stayed"))
    # with papers selected (a lasso's), a click is regl-scatterplot's as before: the paper replaces the selection
    tab.lasso(0.0, 0.0, 1.0, 1.0)
    tab.eventually(lambda: _check(len(tab.map_view()["selection"]) > 1, tab.map_view()["selection"]))
    tab.idle()
    tab.click_point(row)
    pinned.wait_for(state="visible", timeout=3000)
    assert tab.page.evaluate(f"() => Array.from({MAP}.plot.get('selectedPoints'))") == [row]
    tab.page.keyboard.press("Escape")
    tab.idle()


def test_topics_are_left_to_the_page_and_leaving_them_clears_their_labels(tab: Tab):
    """Topics not computed yet are nothing the browser has: the map waits for the page's run (which computes them); a
    colour it knows, chosen after them, is drawn at once and takes the topic labels away with their colours."""
    answered = "() => Number(window.__mireadMaps.map.map.wrap.dataset.answered || 0)"
    before = tab.page.evaluate(answered)
    tab.page.evaluate(BLOCK)
    try:
        tab.choose("Colour by", TOPICS)
        tab.page.wait_for_timeout(500)
        assert tab.page.evaluate(answered) == before and len(tab.map_view()["legend"]) == 3  # still journal
    finally:
        tab.page.evaluate(UNBLOCK)
    tab.choose("Colour by", "(none)")  # the blocked run's state is never applied: a new choice brings one
    tab.choose("Colour by", TOPICS)
    tab.eventually(lambda: _check(tab.map_view()["labels"] != [], tab.map_view()["labels"]))
    tab.page.evaluate(BLOCK)
    try:
        tab.choose("Colour by", "journal")
        tab.eventually(lambda: _check(tab.map_view()["labels"] == [] and len(tab.map_view()["legend"]) == 3,
                                      tab.map_view()))
        assert tab.page.evaluate(answered) > before
    finally:
        tab.page.evaluate(UNBLOCK)
    tab.idle()


# what the map's overlay paints: each label's text and level
LABELS = f"() => {MAP}.overlayState.labels.map(l => [String(l.text), l.level])"
DRAWS = (f"() => {{ const m = {MAP}, draw = m.__draw || m.redraw.bind(m); m.__draw = draw; m.__draws = 0;"
         "m.redraw = () => { m.__draws += 1; return draw(); }; }")


def _legend(tab: Tab) -> list[str]:
    return [e["text"] for e in tab.map_view()["legend"]]


def _level(tab: Tab, text: str) -> None:
    """Click the Topic level radio's option `text` (“coarse topics”, “fine topics”)."""
    tab.page.locator(".st-key-map_level label").filter(has_text=text).first.click()


def test_topics_already_computed_are_drawn_in_the_browser_with_their_labels(tab: Tab):
    """Topics computed once (by the page, above) are an option the browser draws by itself (BENCHMARKS §31j): the
    level the page had, its legend and its labels at cluster centres, before the page's run; the run that follows
    draws no second frame; the level radio is answered the same way; a reload keeps the choice."""
    tab.idle()
    tab.choose("Colour by", TOPICS)
    tab.eventually(lambda: _check(tab.page.evaluate(LABELS) != [], tab.map_view()))
    tab.idle()
    coarse = (_legend(tab), tab.page.evaluate(LABELS))
    _level(tab, "fine topics")
    tab.eventually(lambda: _check(any(level == "fine" for _, level in tab.page.evaluate(LABELS)), tab.map_view()))
    tab.idle()
    fine = (_legend(tab), tab.page.evaluate(LABELS))
    assert fine != coarse and {level for _, level in coarse[1]} == {"coarse"}
    tab.choose("Colour by", "journal")
    tab.eventually(lambda: _check(tab.page.evaluate(LABELS) == [] and len(_legend(tab)) == 3, tab.map_view()))
    tab.idle()
    answered = "() => [Number(window.__mireadMaps.map.map.wrap.dataset.answered || 0)," \
               " window.__mireadMaps.map.map.wrap.dataset.answeredColour]"
    before = tab.page.evaluate(answered)[0]
    tab.page.evaluate(BLOCK)  # the page's states kept from the map: what it draws now is the browser's own
    try:
        tab.choose("Colour by", TOPICS)
        tab.eventually(lambda: _check((_legend(tab), tab.page.evaluate(LABELS)) == fine, tab.map_view()))
        assert tab.page.evaluate(answered) == [before + 1, f"{TOPICS}:fine"]
    finally:
        tab.page.evaluate(UNBLOCK)
    tab.idle()
    # unblocked: one frame a choice (the browser's); the page's run that confirms it draws none
    tab.choose("Colour by", "journal")
    tab.eventually(lambda: _check(tab.page.evaluate(LABELS) == [] and len(_legend(tab)) == 3, tab.map_view()))
    tab.idle()
    tab.page.evaluate(DRAWS)
    tab.choose("Colour by", TOPICS)
    tab.eventually(lambda: _check((_legend(tab), tab.page.evaluate(LABELS)) == fine, tab.map_view()))
    tab.idle()
    assert tab.page.evaluate(f"() => {MAP}.__draws") == 1
    assert (_legend(tab), tab.page.evaluate(LABELS)) == fine  # the page's own state: the same legend and labels
    tab.snap("map-answers-topics-fine")
    # the level radio, answered the same way
    tab.page.evaluate(BLOCK)
    try:
        _level(tab, "coarse topics")
        tab.eventually(lambda: _check((_legend(tab), tab.page.evaluate(LABELS)) == coarse, tab.map_view()))
        assert tab.page.evaluate(answered)[1] == f"{TOPICS}:coarse"
    finally:
        tab.page.evaluate(UNBLOCK)
    tab.idle()
    _level(tab, "fine topics")
    tab.eventually(lambda: _check((_legend(tab), tab.page.evaluate(LABELS)) == fine, tab.map_view()))
    tab.idle()
    tab.page.evaluate(f"() => {{ delete {MAP}.redraw; }}")
    # a reload keeps the choice: the box, the level and the map
    tab.page.reload()
    tab.map_drawn()
    tab.eventually(lambda: _check((_legend(tab), tab.page.evaluate(LABELS)) == fine, tab.map_view()))
    assert tab.page.get_by_role("combobox", name="Colour by", exact=True).input_value() == TOPICS
    assert _colour(tab) == TOPICS
    tab.choose("Colour by", "journal")
    tab.eventually(lambda: _check(tab.page.evaluate(LABELS) == [] and len(_legend(tab)) == 3, tab.map_view()))


def test_a_hover_card_is_shown_in_the_mouse_moves_own_task(tab: Tab):
    """regl-scatterplot announces a hovered point after drawn frames (BENCHMARKS §31i); the map reads the hovered
    point in the mouse move's own task (§31k). A listener added after the map's sees the card in the same move."""
    titles = tab.map_view()["titles"]
    row = next(i for i, t in enumerate(titles) if "<" not in t)
    tab.map_drawn()
    x, y = tab.page.evaluate("""row => { const m = window.__mireadMaps.map.map;
        m.wrap.scrollIntoView({block: 'center'});
        if (m.pin.row !== null) m.pin.hide();
        window.__hoverSeen = [];
        window.addEventListener('mousemove', () => window.__hoverSeen.push(
            m.card.style.display === 'block' ? m.card.dataset.row : null));
        return m.pageXY(row); }""", row)
    tab.page.mouse.move(5, 5)
    tab.page.mouse.move(x, y)
    seen = tab.page.evaluate("() => window.__hoverSeen")
    assert str(row) in seen, seen  # shown within a mouse move's own dispatch, not a task later


def test_the_mouse_leaving_the_map_draws_no_frame_unless_a_paper_was_hovered(tab: Tab):
    """BENCHMARKS §31v: regl-scatterplot drew every point again whenever the mouse left the map, a paper hovered or
    not, so going from the map to the Colour by box or the Highlight field cost a frame of every point (0.8-1.6 s at
    1,000,000 papers in a GPU-less browser) just as the action began. Leaving from the void draws nothing; leaving
    from a hovered paper draws its ring away (one frame)."""
    tab.idle()
    tab.page.keyboard.press("Escape")
    tab.map_drawn()
    tab.page.locator(".miread-map-outer button[data-mode=panZoom]").first.click()
    box = tab.page.locator(".miread-map").first.bounding_box()
    corner = (box["x"] + 3, box["y"] + box["height"] - 3)  # the void: no paper under the mouse
    tab.page.mouse.move(*corner, steps=2)
    frames = _frames_still(tab)
    tab.page.mouse.move(box["x"] + 3, box["y"] - 40, steps=2)  # off the map, above it
    assert _frames_still(tab) == frames, "leaving the map from the void drew the points again"
    titles = tab.map_view()["titles"]
    row = next(i for i, t in enumerate(titles) if t.strip())
    tab.page.mouse.move(*tab.map_point(row), steps=2)
    hovered = _frames_still(tab)
    assert hovered == frames + 1, (frames, hovered)  # the hover's ring
    tab.page.mouse.move(box["x"] + 3, box["y"] - 40, steps=2)
    assert _frames_still(tab) == hovered + 1, "the ring of the paper left stayed drawn"



# what happens from a press on an option of an open list on, in order: the option's click (the select box's change),
# the page's websocket sends, the map's applies (a state drawn) and frames
ORDER = f"""() => {{ const o = window.__order = {{seq: [], armed: false}}, m = {MAP}, w = m.wrap;
    if (!WebSocket.prototype.__send) {{
        WebSocket.prototype.__send = WebSocket.prototype.send;
        WebSocket.prototype.send = function (d) {{ const o = window.__order;
            if (o && o.armed) o.seq.push('sent'); return this.__send(d); }};
    }}
    if (!m.__applyNow) {{
        m.__applyNow = m.applyNow;
        m.applyNow = function (...a) {{ const o = window.__order; if (o && o.armed) o.seq.push('apply');
            return m.__applyNow.apply(m, a); }};
    }}
    const on = e => e.target.closest && e.target.closest('[role=option]');
    document.addEventListener('pointerdown', e => {{ if (on(e)) o.armed = true; }}, true);
    document.addEventListener('click', e => {{ if (on(e) && o.armed) o.seq.push('click'); }}, true);
    new MutationObserver(() => {{ if (o.armed) o.seq.push('frame'); }})
        .observe(w, {{attributes: true, attributeFilter: ['data-frames']}}); }}"""


def test_a_colour_pressed_is_drawn_after_the_box_has_changed(tab: Tab):
    """The browser's own colour (its apply and frame) comes after the option's click, the select box's change that
    asks for the page's run (BENCHMARKS §31ab): drawn in the press's own task, before the click, it held the rerun
    request (and so the settled page) back by the draw's work (80-110 ms at 3k papers)."""
    tab.idle()
    box = tab.page.get_by_role("combobox", name="Colour by", exact=True)
    target = "(none)" if box.input_value() != "(none)" else "journal"
    tab.page.evaluate(ORDER)
    tab.choose("Colour by", target)
    tab.eventually(lambda: _check("frame" in tab.page.evaluate("() => window.__order.seq"),
                                  tab.page.evaluate("() => window.__order")))
    seq = tab.page.evaluate("() => window.__order.seq")
    assert "click" in seq and "apply" in seq and seq.index("click") < seq.index("apply"), seq
    assert "sent" in seq and seq.index("sent") < seq.index("frame"), seq
    tab.idle()
    assert _colour(tab) == target and box.input_value() == target  # the page followed
