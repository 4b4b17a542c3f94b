"""Hostile data in a real browser (issue 41, item 1): a paper's side panel (title, authors, journal, DOI, abstract,
"Similar to this") and the Library's collections (Merge / Rename / Export / Remove / Delete labels) show hostile
strings as text. No <img> comes from data, no link leads to a foreign host and no request leaves 127.0.0.1
(Playwright's request log)."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import quote, urlsplit

import pytest

from core.store import Store
from tests.e2e.conftest import PATIENCE_MS, VIEWPORT, Tab, embedded_store
from tests.e2e.server import streamlit_server
from tests.hostile import EVIL, HOSTILE_COLLECTIONS, HOSTILE_CORPUS, HOSTILE_LABEL, hostile_papers

pytestmark = pytest.mark.e2e
LOCAL_HOSTS = {"127.0.0.1", "localhost"}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Store:
    store = embedded_store(tmp_path_factory, "hostile", HOSTILE_CORPUS, hostile_papers(), "hostile.ris")
    store.set_labels(HOSTILE_CORPUS, [HOSTILE_LABEL, "journal"])
    ids = store.paper_ids(HOSTILE_CORPUS)
    for name in HOSTILE_COLLECTIONS:
        store.save_collection(HOSTILE_CORPUS, name, ids[:4], note="a note")
    return store


@pytest.fixture(scope="module")
def session(browser, workspace: Store) -> Iterator[tuple[Tab, list[str]]]:
    """A tab on the app whose every request (documents, scripts, images, fetches, sockets) is logged."""
    with streamlit_server(workspace.root, env={"MIREAD_WARM_NUMBA": "0"}, timeout=240) as url:
        context = browser.new_context(viewport=VIEWPORT)
        requests: list[str] = []
        context.on("request", lambda request: requests.append(request.url))
        context.on("websocket", lambda socket: requests.append(socket.url))
        page = context.new_page()
        page.set_default_timeout(PATIENCE_MS)
        yield Tab(page, url), requests
        context.close()


def _foreign(requests: list[str]) -> list[str]:
    return [u for u in requests if urlsplit(u).scheme not in ("data", "blob")
            and urlsplit(u).hostname not in LOCAL_HOSTS]


def _assert_nothing_from_data(tab: Tab) -> None:
    """No image whose source came from data, no link to the hostile host or to anything but doi.org and the app."""
    sources = tab.page.eval_on_selector_all("img", "els => els.map(e => e.getAttribute('src') || '')")
    assert not [s for s in sources if EVIL in s], sources
    hrefs = tab.page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
    foreign = [h for h in hrefs if urlsplit(h).hostname not in LOCAL_HOSTS
               and not h.startswith("https://doi.org/10.") and "streamlit.io" not in h]
    assert not foreign, foreign
    assert not [h for h in hrefs if EVIL in (urlsplit(h).hostname or "")
                or urlsplit(h).scheme not in ("http", "https")], hrefs


def test_the_side_panel_and_the_collections_show_hostile_data_as_text(session: tuple[Tab, list[str]],
                                                                      workspace: Store):
    tab, requests = session
    pid = workspace.paper_ids(HOSTILE_CORPUS)[1]  # an odd paper: the DOI, which must not become a link
    tab.url = f"{tab.url}/?corpus={quote(HOSTILE_CORPUS)}&model=tiny&method=pca&paper={quote(pid, safe='')}"
    tab.open()
    main = tab.page.locator("[data-testid=stMain]")
    # the title, as text (a word joiner after "http:" keeps a viewer from making it a link; the Topics-over-time
    # chart, which showed the journal's text without one, now waits closed under the map)
    tab.eventually(lambda: _assert(f"http://{EVIL}/pixel.png" in main.inner_text().replace("\u2060", "")))
    tab.page.get_by_text("Similar to this").click()
    tab.idle()
    tab.snap("hostile-side-panel")
    _assert_nothing_from_data(tab)
    assert not _foreign(requests), _foreign(requests)
    assert tab.page.locator("[data-testid=stButton] button").filter(has_text=f"{EVIL}/phish").count()  # as text
    assert tab.page.locator("a[href^='https://doi.org/']").count() == 0  # '10.1000/x) ![p](…' is not a DOI

    tab.go("Library")
    tab.eventually(lambda: _assert(tab.page.locator("button").filter(has_text="Merge ").count() == 1))
    merge = tab.page.locator("button").filter(has_text="Merge ").first.inner_text()
    assert f"{EVIL}/c1" in merge and f"{EVIL}/c2.png" in merge  # a collection's name, as typed
    tab.snap("hostile-library")
    _assert_nothing_from_data(tab)
    assert not _foreign(requests), _foreign(requests)
    assert tab.errors == []


def _assert(condition: bool) -> None:
    assert condition
