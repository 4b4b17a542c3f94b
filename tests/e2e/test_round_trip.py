"""The librarian's round trip in Chromium (issue 31): two real exports of overlapping searches into one corpus →
lasso a region → save it as a collection → colour the map by it → click a paper and read its abstract in the side
panel → export the collection as RIS → import that RIS as a new corpus → the same papers with the same text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.store import Store
from tests.conftest import SHARED_DATA
from tests.e2e.conftest import VIEWPORT, Tab, tiny_store
from tests.e2e.server import TINY_ENV, streamlit_server
from tests.e2e.test_journey import calm

pytestmark = pytest.mark.e2e

EXPORTS = SHARED_DATA / "exports" / "RIS"
SEARCHES = [EXPORTS / "_baseline_pubmed.ris", EXPORTS / "_baseline_webofscience.ris"]  # one search, two databases

@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Store:
    if not all(p.exists() for p in SEARCHES):
        pytest.skip(f"the shared exports are not at {EXPORTS}")
    return tiny_store(tmp_path_factory, "round-trip")


@pytest.fixture(scope="module")
def tab(browser, workspace: Store) -> Iterator[Tab]:
    env = dict(TINY_ENV)
    with streamlit_server(workspace.root, env=env, timeout=240) as url:
        context = browser.new_context(viewport=VIEWPORT, accept_downloads=True)
        yield Tab(context.new_page(), url).open()
        context.close()


def import_into(tab: Tab, files: list[Path], corpus: str, preview: str | None = None) -> str:
    """Upload files on the Library page and import them into `corpus`; the report's first line. With `preview`,
    the preview is photographed under that name first."""
    tab.go("Library")
    tab.page.locator("[data-testid=stFileUploader] input[type=file]").set_input_files([str(f) for f in files])
    tab.idle()
    tab.fill("Corpus name", corpus)
    if preview:
        tab.snap(preview)
    tab.click(f"Import {len(files)} files into corpus {corpus}" if len(files) > 1 else "Import")
    report = tab.see(re.compile(rf"Read .* into {re.escape(corpus)}"))
    calm(tab)
    return report


@pytest.mark.slow  # 50-140 s: in `make test-slow`, keeping `make test` near 20 min
def test_import_two_searches_keep_a_region_read_a_paper_export_it_and_import_it_back(tab: Tab, workspace: Store):
    report = import_into(tab, SEARCHES, "search")
    assert "merged" in report
    frame = workspace.papers_frame("search")
    assert len(frame) < 49 + 7  # the Web of Science records of PubMed papers merged (same DOI)
    tab.click("Embed with tiny")
    tab.see(re.compile(r"Embedded \d+ new papers of search with tiny"))

    # the map: lasso its left half and keep it as a collection
    tab.page.goto(f"{tab.url}/?corpus=search&model=tiny&method=pca")
    tab.idle()
    tab.lasso(0.0, 0.0, 0.55, 1.0)
    heading = tab.see(re.compile(r"\d+ selected papers"), "[data-testid=stHeading]")
    chosen = int(heading.split()[0])
    assert 1 < chosen < len(frame)
    tab.page.get_by_text(re.compile(r"Save the \d+ selected papers as a collection")).click()
    tab.fill("Name of a new collection", "left half")
    tab.page.get_by_role("button", name=re.compile(r"Add \d+ papers \(selection\)")).click()
    tab.see(re.compile(r"Collection left half now holds \d+ papers"))
    kept = workspace.collection_ids("search", "left half")
    assert len(kept) == chosen
    calm(tab)

    # colour by it
    tab.choose("Colour by", "collection")  # opened again when a click right after a form only focuses it
    names = tab.eventually(lambda: _named(tab, "left half"))
    assert "left half" in names
    calm(tab)

    # click one of its papers: the side panel shows its abstract
    row = int(frame.index[frame["id"].astype(str) == kept[0]][0])
    tab.click_point(row)
    abstract = str(frame["abstract"].iloc[row])
    tab.see(abstract[:60], "[data-testid=stMarkdownContainer]")
    assert f"paper={kept[0]}" in tab.page.url
    # its star is drawn on the map's overlay (one star, and the page settles: bench_interactions hung on a blinking one)
    tab.eventually(lambda: _one_star(tab))
    tab.snap("round-trip-map-panel")
    calm(tab)

    # export the collection as RIS from the Library
    tab.go("Library")
    tab.page.get_by_role("button", name="Export left half").click()
    with tab.page.expect_download() as download:
        tab.page.get_by_role("button", name=re.compile(rf"Download {chosen} papers")).last.click()
    path = Path(download.value.path())
    text = path.read_text(encoding="utf-8")
    assert text.count("TY  - ") == chosen and "KW  - collection: left half" in text
    exported = path.with_name("left-half.ris")
    path.rename(exported)

    # import it as a new corpus: the same papers with the same text
    import_into(tab, [exported], "kept")
    again = workspace.papers_frame("kept")
    before = frame.set_index(frame["id"].astype(str)).loc[kept]
    assert sorted(again["title"]) == sorted(before["title"])
    assert sorted(again["abstract"]) == sorted(before["abstract"])
    calm(tab)


def _named(tab: Tab, name: str) -> list[str]:
    labels = [e["text"].rsplit(" (", 1)[0] for e in tab.map_view()["legend"]]
    assert name in labels, labels
    return labels


def _one_star(tab: Tab) -> None:
    assert tab.map_view()["stars"] == 1, tab.map_view()["stars"]
