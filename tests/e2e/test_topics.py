"""The two-level topic map in Chromium (issue 17): switching the level changes the labels drawn on the map (the
coarse names stay, the fine ones appear inside them), and a renamed topic's name is drawn on the map."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from core.store import Store
from tests.e2e.conftest import Tab, app_tab, embedded_store
from tests.helpers import make_papers

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """Corpus 'c' (36 papers of three fields) embedded with the tiny model."""
    return embedded_store(tmp_path_factory, "topics", "c", make_papers(), "make_papers")


@pytest.fixture(scope="module")
def tab(browser, workspace: Store) -> Iterator[Tab]:
    with app_tab(browser, workspace) as tab:
        tab.url += "/?corpus=c&model=tiny&method=pca&colour=topics&k=8"  # a shared link to the topic map
        yield tab.open()


def drawn_labels(tab: Tab) -> list[str]:
    """The label texts the map component draws (at the topics' centres: coarse, then fine ones)."""
    view = tab.map_view()
    return [" ".join(t.split()) for t in (view or {}).get("labels", [])]


def test_switching_the_level_changes_the_labels_drawn(tab: Tab):
    coarse = tab.eventually(lambda: _two_labels(drawn_labels(tab)))
    assert all(re.match(r"^[A-Z]: \w", t) for t in coarse)
    tab.page.get_by_text("fine topics", exact=True).click()
    tab.idle()
    fine = tab.eventually(lambda: _more_than(drawn_labels(tab), 2))
    assert fine[:2] == coarse and len(fine) == 2 + 8  # the coarse names stay on top of the eight fine ones
    assert {t[0] for t in fine[2:]} <= {t[0] for t in coarse}  # a fine tag starts with its coarse letter
    assert "level=fine" in tab.page.url
    assert tab.errors == []


def test_a_renamed_topic_is_drawn_on_the_map(tab: Tab):
    tab.page.get_by_role("button", name=re.compile("Rename a topic")).click()
    box = tab.page.get_by_role("combobox", name=re.compile(r"^Topic \("))
    box.click()
    tab.page.get_by_role("option").first.click()
    tab.idle()
    tab.fill("New name", "Stars and galaxies")
    tab.click("Save name")
    tab.eventually(lambda: _contains(drawn_labels(tab), "Stars and galaxies"))
    assert tab.errors == []


def _two_labels(labels: list[str]) -> list[str]:
    assert len(labels) == 2, labels
    return labels


def _more_than(labels: list[str], n: int) -> list[str]:
    assert len(labels) > n, labels
    return labels


def _contains(labels: list[str], text: str) -> None:
    assert any(text in t for t in labels), labels
