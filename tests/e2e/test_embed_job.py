"""Issue 44 in Chromium: one embedding job seen from two tabs and a reload (one progress bar in each, no second Embed
on offer), cancelled from the other tab, keeping what it embedded."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from core.embedding import get_model, vectors_fingerprint
from core.records import Paper
from core.store import Store
from core.training import jobs
from tests.e2e.conftest import VIEWPORT, Tab, embedded_store
from tests.e2e.server import streamlit_server
from tests.helpers import make_papers

pytestmark = pytest.mark.e2e
BIG = 20_000  # papers of corpus 'big': with one paper per batch the tiny model takes a while on two cores


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store]]:
    store: Store = embedded_store(tmp_path_factory, "embedjob", "c", make_papers(4), "make_papers")
    store.import_papers("big", [Paper(f"b{i}", f"Paper {i} on subject {i % 97}",
                                      f"Abstract {i}: " + "measured words " * (5 + i % 40), {})
                                for i in range(BIG)], source="generated")
    env = {"MIREAD_WARM_NUMBA": "0", "MIREAD_DEVICE": "cpu", "MIREAD_MODEL": "tiny", "MIREAD_BATCH_SIZE": "1"}
    with streamlit_server(store.root, env=env, timeout=240) as url:
        yield url, store


def library(browser, url: str) -> Tab:
    context = browser.new_context(viewport=VIEWPORT)
    tab = Tab(context.new_page(), f"{url}/library?corpus=c&model=tiny").open()
    tab.choose("Corpus to embed", "big")
    return tab


def bar_text(tab: Tab) -> str:
    return " ".join(tab.page.locator("[data-testid=stProgress]").first.inner_text().split())


def test_two_tabs_and_a_reload_see_one_embedding_and_either_can_cancel_it(browser, served):
    url, store = served
    first = library(browser, url)
    first.click("Embed with tiny")
    first.eventually(lambda: _assert(re.search(r"Embedding big with tiny: \d+% · ", bar_text(first)), bar_text(first)))
    second = library(browser, url)  # another tab: the same job, its bar, and no second Embed
    second.eventually(lambda: _assert("Embedding big with tiny" in bar_text(second), bar_text(second)))
    assert second.page.get_by_role("button", name="Embed with tiny").is_disabled()
    second.page.goto(second.page.url)  # a reload
    second.idle()
    second.choose("Corpus to embed", "big")
    second.eventually(lambda: _assert("Embedding big with tiny" in bar_text(second), bar_text(second)))
    assert [j["kind"] for j in jobs.list_jobs(store)] == ["embed"]  # one job, whoever asked

    second.page.get_by_role("button", name="Cancel").first.click()
    first.see("Embedding cancelled; the papers embedded before it stopped are kept.")
    [job] = jobs.list_jobs(store)
    assert job["status"] == "cancelled"
    left = len(store.missing_hashes("big", vectors_fingerprint(get_model("tiny", store))))
    assert 0 < left <= BIG


def _assert(condition, shown) -> None:
    assert condition, shown
