"""The sidebar's MCP configuration is drawn only while its expander is open (BENCHMARKS §31aa: two highlighted code
blocks in the closed expander cost every page's open ~0.2 s of the browser's syntax highlighter); a click opens it
and shows the configuration, a second click closes it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.conftest import VIEWPORT, Tab, embedded_store
from tests.e2e.server import TINY_ENV, streamlit_server
from tests.helpers import make_papers

pytestmark = pytest.mark.e2e

CODE = "[data-testid=stSidebar] [data-testid=stCode]"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = embedded_store(tmp_path_factory, "mcp", "c", make_papers(4), "make_papers")
    with streamlit_server(store.root, env=dict(TINY_ENV), timeout=240) as url:
        yield url


@pytest.fixture()
def tab(browser, server: str) -> Iterator[Tab]:
    context = browser.new_context(viewport=VIEWPORT)
    yield Tab(context.new_page(), f"{server}/similar?corpus=c&model=tiny").open()
    context.close()


def test_the_mcp_configuration_is_drawn_when_its_expander_opens(tab: Tab) -> None:
    page = tab.page
    tab.idle()
    assert page.locator(CODE).count() == 0  # closed: no code block on the page
    page.locator("[data-testid=stSidebar] summary", has_text="Use from an AI assistant (MCP)").click()
    tab.eventually(lambda: _assert(page.locator(CODE).count() == 2))
    assert "mcpServers" in page.locator(CODE).first.inner_text()
    page.locator("[data-testid=stSidebar] summary", has_text="Use from an AI assistant (MCP)").click()
    tab.eventually(lambda: _assert(page.locator(CODE).count() == 0))


def _assert(ok: bool) -> None:
    assert ok
