"""One search exported by five databases, imported at once in Chromium (issue 40): the report adds up, every merge is
listed with its rule, the overlap says which database found which paper, a merge is split back, and the map coloured
by journal shows one name per journal. Screenshots go to test-artifacts/five-databases-*.png."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from core.store import Store
from tests.conftest import SHARED_DATA
from tests.e2e.conftest import Tab, app_tab, tiny_store
from tests.e2e.test_journey import calm
from tests.e2e.test_round_trip import import_into

pytestmark = pytest.mark.e2e

EXPORTS = SHARED_DATA / "exports"
FIVE = [EXPORTS / "RIS" / "_baseline_pubmed.ris", EXPORTS / "CSV" / "_baseline_scopus.csv",
        EXPORTS / "RIS" / "_baseline_webofscience.ris", EXPORTS / "RIS" / "_baseline_embase.ris",
        EXPORTS / "CSV" / "_baseline.csv"]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Store:
    if not all(p.exists() for p in FIVE):
        pytest.skip(f"the shared exports are not at {EXPORTS}")
    return tiny_store(tmp_path_factory, "five-databases")


@pytest.fixture(scope="module")
def tab(browser, workspace: Store) -> Iterator[Tab]:
    with app_tab(browser, workspace, env={"MIREAD_DEVICE": "cpu", "MIREAD_MODEL": "tiny"}) as opened:
        yield opened


def test_five_databases_report_merges_overlap_split_and_one_journal_name(tab: Tab, workspace: Store) -> None:
    headline = import_into(tab, FIVE, "five", preview="five-databases-preview")
    numbers = [int(n.replace(",", "")) for n in re.findall(r"[\d,]+", headline.split(" into ")[0] + " "
                                                           + headline.split(":", 1)[1])]
    read, _files, added, merged, skipped = numbers[:5]
    assert read == added + merged + skipped, headline
    assert added == workspace.corpus("five").papers
    tab.page.get_by_text(re.compile(r"What was merged, and why \(\d+ records\)")).click()
    tab.page.get_by_text(re.compile(r"Which databases found which papers")).click()
    tab.idle()
    cells = " ".join(tab.cells())
    for database in ("PubMed", "Scopus", "Web of Science", "Embase", "Lens"):
        assert database in cells
    assert "same DOI and title" in cells or "same title and abstract" in cells
    tab.snap("five-databases-report")

    # split the first listed merge back: one more paper
    before = workspace.corpus("five").papers
    tab.page.get_by_role("button", name=re.compile(r"Split record .* from paper")).first.click()
    tab.see(re.compile(r"Record .* is now paper .* of its own"))
    assert workspace.corpus("five").papers == before + 1
    calm(tab)

    # the map coloured by journal: one legend entry per journal, whatever the spelling
    tab.click("Embed with tiny")
    tab.see(re.compile(r"Embedded \d+ new papers of five with tiny"))
    tab.page.goto(f"{tab.url}/?corpus=five&model=tiny&method=pca")
    tab.idle()
    tab.map_drawn()
    tab.choose("Colour by", "journal")
    names = [e["text"].rsplit(" (", 1)[0] for e in tab.map_view()["legend"]]
    folded = [re.sub(r"\W+", " ", n).strip().lower() for n in names]
    assert len(folded) == len(set(folded)), names  # "PLoS ONE" and "PLOS ONE" are one journal
    tab.snap("five-databases-map-by-journal")
