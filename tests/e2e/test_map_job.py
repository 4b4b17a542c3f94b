"""Issue 44 in Chromium: a map fit is a job every tab sees. One tab asks for a t-SNE map (a real fit of a few
thousand papers); a second tab on another page shows it running in its sidebar and then its end, without a click,
because the jobs panel polls; one job whoever looks."""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np
import pytest

from core.embedding import get_model, vectors_fingerprint
from core.records import Paper
from core.store import Store
from core.training import jobs
from tests.e2e.conftest import VIEWPORT, Tab, embedded_store
from tests.e2e.server import TINY_ENV, streamlit_server
from tests.helpers import make_papers

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
BIG = 3000  # papers of corpus 'big': a t-SNE of them takes some seconds on two cores


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store]]:
    store: Store = embedded_store(tmp_path_factory, "mapjob", "c", make_papers(4), "make_papers")
    store.import_papers("big", [Paper(f"b{i}", f"Paper {i} on subject {i % 97}", f"Abstract {i} of {i % 13}.", {})
                                for i in range(BIG)], source="generated")
    hashes = sorted({p.hash for p in store.papers("big")})
    rng = np.random.default_rng(0)
    centres = rng.standard_normal((12, 32))
    vectors = centres[rng.integers(0, 12, len(hashes))] + 0.3 * rng.standard_normal((len(hashes), 32))
    store.add_embeddings(vectors_fingerprint(get_model("tiny", store)), hashes,
                         (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32))
    env = dict(TINY_ENV)
    with streamlit_server(store.root, env=env, timeout=240) as url:
        yield url, store


def sidebar_text(tab: Tab) -> str:
    return " ".join(tab.page.locator("[data-testid=stSidebar]").inner_text().split())


def _assert(condition, shown) -> None:
    assert condition, shown


def test_a_second_tab_sees_the_map_fit_run_and_end_without_a_click(browser, served):
    url, store = served
    first = Tab(browser.new_context(viewport=VIEWPORT).new_page(), f"{url}/map?corpus=big&model=tiny&method=tsne")
    first.page.goto(first.url)
    first.see(re.compile("Computing the TSNE map in the background"), "[data-testid=stProgress]")
    second = Tab(browser.new_context(viewport=VIEWPORT).new_page(), f"{url}/library?corpus=c&model=tiny")
    second.page.goto(second.url)
    second.eventually(lambda: _assert("Running: TSNE map of big with tiny" in sidebar_text(second),
                                      sidebar_text(second)))
    assert [j["kind"] for j in jobs.list_jobs(store)] == ["map"]  # one job, whoever looks
    second.eventually(lambda: _assert("Done: TSNE map of big with tiny" in sidebar_text(second), sidebar_text(second)))
    assert "Running: TSNE map" not in sidebar_text(second)
    [job] = jobs.list_jobs(store)
    assert job["status"] == "completed" and job["result"]["points"] == BIG
    first.eventually(lambda: _assert(not first.page.locator("[data-testid=stProgress]").filter(
        has_text="Computing the TSNE map").count(), "the first tab still shows the fit running"))
