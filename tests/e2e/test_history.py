"""Browser Back (helper qa16): the app wrote the corpus and then the model into the address, one history entry each,
so the history held half-written addresses ('?corpus=c' without its model) and Back went nowhere (the same page
again) once more than it needed before it left a page. One write of both leaves one entry per change. Streamlit
itself pushes the bare address of a page opened from the sidebar and then the address the app writes back: since
qa20 (ui/history.py) a push that keeps the page's path replaces its entry, so one Back press leaves a page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.conftest import VIEWPORT, Tab, embedded_store
from tests.e2e.server import TINY_ENV, streamlit_server
from tests.helpers import make_papers

pytestmark = pytest.mark.e2e

WATCH = """() => { window.__pushed = []; const push = history.pushState.bind(history);
  history.pushState = (s, t, u) => { window.__pushed.push(String(u)); return push(s, t, u); }; }"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = embedded_store(tmp_path_factory, "history", "c", make_papers(4), "make_papers")
    env = dict(TINY_ENV)
    with streamlit_server(store.root, env=env, timeout=240) as url:
        yield url


@pytest.fixture()
def tab(browser, server: str) -> Iterator[Tab]:
    context = browser.new_context(viewport=VIEWPORT)
    yield Tab(context.new_page(), f"{server}/similar?corpus=c&model=tiny").open()
    context.close()


def test_the_history_holds_no_half_written_address(tab: Tab) -> None:
    tab.page.evaluate(WATCH)
    tab.page.reload()  # a shared link opened again: the app settles its address as a fresh tab does
    tab.page.evaluate(WATCH)
    tab.idle()
    tab.go("Journals")
    tab.eventually(lambda: _assert_ends_with(tab, "/journals?corpus=c&model=tiny"))
    tab.go("Library")
    tab.eventually(lambda: _assert_ends_with(tab, "/library?corpus=c&model=tiny"))
    pushed = tab.page.evaluate("window.__pushed")
    assert not [u for u in pushed if "corpus=" in u and "model=" not in u], pushed  # corpus without its model
    assert len([u for u in pushed if u.startswith("/journals")]) <= 2, pushed
    for _ in range(3):  # back to Journals within two presses, then to Similar papers
        if "/journals" in tab.page.url:
            break
        tab.page.go_back()
        tab.idle()
    assert "/journals" in tab.page.url, tab.page.url


def _assert_ends_with(tab: Tab, tail: str) -> None:
    assert tab.page.url.endswith(tail), tab.page.url


def test_one_back_press_returns_to_the_page_before(tab: Tab) -> None:
    """The address written after a page opens (its corpus and model; the map's view) replaces that page's history
    entry instead of adding one: Back leaves a page in one press (qa20: two presses on every page)."""
    tab.idle()
    tab.go("Journals")
    tab.eventually(lambda: _assert_ends_with(tab, "/journals?corpus=c&model=tiny"))
    tab.go("Library")
    tab.eventually(lambda: _assert_ends_with(tab, "/library?corpus=c&model=tiny"))
    tab.page.go_back()
    tab.idle()
    tab.eventually(lambda: _assert_ends_with(tab, "/journals?corpus=c&model=tiny"))
    tab.see("Journals", "h1")
    tab.page.go_back()
    tab.idle()
    tab.eventually(lambda: _assert_ends_with(tab, "/similar?corpus=c&model=tiny"))
