"""Issue 29 §5 in Chromium: after the sidebar switches corpus, the map's controls show what the map draws (Colour by
names the new corpus's column, not one it lacks), the address bar names the corpus on every page, and a reload of
another page keeps it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.store import Store
from tests.e2e.conftest import VIEWPORT, Tab, embedded_store
from tests.e2e.server import TINY_ENV, streamlit_server
from tests.helpers import make_papers

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Corpus 'c' (a journal column) and corpus 'd' (a 'field' column, no journal), both embedded with 'tiny'."""
    from core.embedding import embed_corpus

    store: Store = embedded_store(tmp_path_factory, "switch", "c", make_papers(6), "make_papers")
    store.import_papers("d", make_papers(6, label="field"), source="make_papers")
    embed_corpus(store, "d", "tiny")
    env = dict(TINY_ENV)
    with streamlit_server(store.root, env=env, timeout=240) as url:
        yield url


@pytest.fixture()
def tab(browser, server: str) -> Iterator[Tab]:
    context = browser.new_context(viewport=VIEWPORT)
    yield Tab(context.new_page(), f"{server}/?corpus=c&model=tiny&method=pca&colour=journal").open()
    context.close()


def shown(tab: Tab, label: str) -> str:
    """The value a select box displays."""
    return tab.page.get_by_role("combobox", name=label, exact=True).first.input_value(timeout=20_000)


def test_colour_by_and_the_url_follow_the_corpus(tab: Tab, server: str):
    tab.page.get_by_role("heading", name="Domain map").wait_for()
    assert shown(tab, "Colour by") == "journal"
    tab.choose("Corpus", "d (18)")
    tab.eventually(lambda: _equal(shown(tab, "Colour by"), "field"))  # not 'journal', which d does not have
    assert "corpus=d" in tab.page.url and "colour=field" in tab.page.url

    tab.go("Library")
    tab.eventually(lambda: _contains(tab.page.url, "corpus=d"))
    tab.page.goto(tab.page.url)  # a reload of /library
    tab.idle()
    tab.page.get_by_role("heading", name="Library").first.wait_for()
    assert shown(tab, "Corpus") == "d (18)"


def test_a_zoom_and_a_selection_stay_with_their_corpus(tab: Tab):
    """Issue 42 §5: a zoom belongs to its corpus and map. Zoomed into corpus c and with all its papers lassoed, the
    sidebar's switch to d opened d at c's camera (the address bar then kept that zoom for d) and d's first papers
    ringed as selected while its side column listed none."""
    canvas = tab.map_drawn()
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    tab.lasso(0.02, 0.02, 0.98, 0.98)
    tab.eventually(lambda: _true(len(tab.map_view()["selection"]) > 0, tab.map_view()["selection"]))
    tab.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(4):
        tab.page.mouse.wheel(0, -300)
        tab.page.wait_for_timeout(100)
    tab.eventually(lambda: _contains(tab.page.url, "zoom="))
    tab.choose("Corpus", "d (18)")
    tab.eventually(lambda: _contains(tab.page.url, "corpus=d"))
    tab.map_drawn()
    tab.eventually(lambda: _true(tab.map_view()["key"] is not None and "zoom=" not in tab.page.url, tab.page.url))
    tab.eventually(lambda: _true(_span(tab) >= 1.9, _span(tab)))  # the whole map, not c's window
    view = tab.map_view()
    assert view["selection"] == [] and view["rings"] == 0, view["selection"]
    assert tab.page.evaluate("() => window.__mireadMaps.map.map.plot.get('selectedPoints').length") == 0


def _span(tab: Tab) -> float:
    return tab.page.evaluate("() => { const b = window.__mireadMaps.map.map.bbox(); return b[1] - b[0]; }")


def _true(ok: bool, shown: object) -> None:
    assert ok, shown


def _equal(got, expected):
    assert got == expected, got
    return got


def _contains(text: str, part: str) -> str:
    assert part in text, text
    return text
