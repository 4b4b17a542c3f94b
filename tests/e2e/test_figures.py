"""In Chromium: import a PMC package (JATS articles with their images), then see each paper's visual summary,
caption and thumbnail, in the similar-paper results and the map's selection table (issue 15)."""

from __future__ import annotations

import io
import re
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.store import Store
from tests.e2e.conftest import Tab, app_tab, tiny_store
from tests.e2e.test_journey import calm, upload

pytestmark = pytest.mark.e2e

JATS = Path(__file__).resolve().parents[1] / "fixtures" / "real" / "jats"
SHOTS = Path("/tmp/figures-shots")


def package(folder: Path) -> Path:
    """A PMC-style .tar.gz: each article's XML in its own folder with a generated picture per graphic."""
    from lxml import etree
    from PIL import Image, ImageDraw

    path = folder / "pmcpack.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for number, article in enumerate(sorted(JATS.glob("*.xml"))):
            tar.add(article, arcname=f"{article.stem}/{article.stem}.nxml")
            tree = etree.fromstring(article.read_bytes(), etree.XMLParser(resolve_entities=False, no_network=True))
            hrefs = tree.xpath("//fig/graphic/@xlink:href", namespaces={"xlink": "http://www.w3.org/1999/xlink"})
            for i, href in enumerate(hrefs):
                image = Image.new("RGB", (320, 200), (40 + 60 * number, 120, 200 - 20 * i))
                ImageDraw.Draw(image).text((20, 90), f"{article.stem} figure {i + 1}", fill=(255, 255, 255))
                data = io.BytesIO()
                image.save(data, format="JPEG")
                info = tarfile.TarInfo(f"{article.stem}/{href}.jpg")
                info.size = data.tell()
                tar.addfile(info, io.BytesIO(data.getvalue()))
    return path


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return tiny_store(tmp_path_factory, "figures")


@pytest.fixture(scope="module")
def tab(browser, workspace: Store) -> Iterator[Tab]:
    with app_tab(browser, workspace, {"MIREAD_DEVICE": "cpu", "MIREAD_MODEL": "tiny"}) as tab:
        yield tab


def shot(tab: Tab, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    tab.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.mark.slow  # 50-140 s: in `make test-slow`, keeping `make test` near 20 min
def test_an_imported_pmc_package_shows_visual_summaries(tab: Tab, workspace: Store, tmp_path: Path):
    tab.choose("Model", "tiny")
    tab.go("Library")
    report = upload(tab, package(tmp_path), "pmc")
    assert "· 18 figures" in report, report
    calm(tab)
    tab.click("Embed with tiny")
    tab.see(re.compile(r"Embedded \d+ new papers of pmc with tiny"))
    shot(tab, "library")

    tab.go("Similar papers")
    tab.page.get_by_text("Pick a paper from the corpus", exact=True).click()
    tab.idle()
    tab.click("Find similar papers")
    tab.eventually(lambda: len(tab.results()) == 2 or (_ for _ in ()).throw(AssertionError(tab.results())))
    calm(tab)
    captions = {f["caption"] for figs in workspace.figures("pmc").values() for f in figs}
    cells = tab.cells()
    assert any(" — " in c and c.lower().startswith("fig") for c in cells), cells
    first_title = tab.results()[0].split(". ", 1)[1].rsplit(" · ", 1)[0]
    tab.page.locator("[data-testid=stExpander] summary").filter(has_text=first_title).first.click()
    tab.see("Visual summary", "[data-testid=stMarkdownContainer]")
    shown = " ".join(" ".join(t.split()) for t in tab.page.locator("[data-testid=stCaptionContainer]").all_inner_texts())
    assert any(" ".join(c.split())[:60] in shown for c in captions)
    assert tab.page.locator("[data-testid=stExpander] [data-testid=stImage] img").count() >= 1  # the thumbnail
    calm(tab)
    shot(tab, "similar")

    tab.go("Domain map")
    calm(tab)
    tab.lasso()
    tab.page.get_by_role("heading", name=re.compile(r"\d+ selected papers")).wait_for()
    cells = tab.cells()
    assert any(" — " in c and c.lower().startswith("fig") for c in cells), cells
    calm(tab)
    shot(tab, "map")
