"""Deleting in a real browser: the Library deletes corpus A into the trash, repeated clicks touch nothing else,
Undo and Restore bring A back whole, and B is untouched throughout (issue 29, section 1)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.records import Paper
from core.store import Store
from tests.e2e.conftest import Tab, app_tab, tiny_store
from tests.helpers import make_papers

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Store:
    store = tiny_store(tmp_path_factory, "trash")
    for name, per_topic in (("alpha", 2), ("beta", 3)):
        papers = [Paper(f"{name}-{p.id}", f"{name}: {p.title}", p.abstract, p.fields) for p in make_papers(per_topic)]
        store.import_papers(name, papers, source=f"{name}.csv")
    return store


@pytest.fixture(scope="module")
def tab(browser, workspace: Store) -> Iterator[Tab]:
    with app_tab(browser, workspace) as tab:
        yield tab


def _delete_button(tab: Tab, name: str):
    return tab.page.get_by_role("button", name=f"Delete corpus {name}", exact=True)


def test_delete_a_click_again_undo_then_delete_and_restore_from_the_trash(tab: Tab, workspace: Store):
    beta = workspace.papers_frame("beta")
    alpha = workspace.papers_frame("alpha")
    tab.go("Library")
    tab.choose("Corpus to delete", "alpha")
    tab.page.get_by_text("Yes, move corpus alpha and its papers, links and maps to the trash").click()
    tab.idle()
    button = _delete_button(tab, "alpha")
    button.click()
    tab.idle()
    tab.see("Moved corpus 'alpha' (6 papers) to the trash.")
    # the selector moved on to beta: its box is unticked, its button disabled; pressing it again does nothing
    moved = _delete_button(tab, "beta")
    assert moved.is_disabled()
    moved.click(force=True)
    moved.click(force=True)
    tab.idle()
    assert [c.name for c in workspace.corpora()] == ["beta"]
    assert workspace.papers_frame("beta").equals(beta)
    tab.snap("library-deleted")

    tab.click("Undo")
    tab.eventually(lambda: _assert(workspace.has_corpus("alpha")))
    assert workspace.papers_frame("alpha").equals(alpha) and workspace.trash() == []

    tab.choose("Corpus to delete", "alpha")
    tab.page.get_by_text("Yes, move corpus alpha and its papers, links and maps to the trash").click()
    tab.idle()
    _delete_button(tab, "alpha").click()
    tab.idle()
    tab.see("Moved corpus 'alpha' (6 papers) to the trash.")
    tab.page.get_by_text("Trash (1 item, kept 30 days)").click()
    tab.click("Restore")
    tab.eventually(lambda: _assert(workspace.has_corpus("alpha")))
    assert workspace.papers_frame("alpha").equals(alpha) and workspace.papers_frame("beta").equals(beta)
    assert sorted(c.name for c in workspace.corpora()) == ["alpha", "beta"]
    tab.snap("library-restored")
    assert tab.errors == []


def _assert(condition: bool) -> None:
    assert condition


def test_an_error_about_an_upload_names_the_file_the_user_chose(tab: Tab):
    tab.go("Library")
    upload = tab.page.locator("[data-testid=stFileUploader] input[type=file]")
    upload.set_input_files(files=[{"name": "empty.csv", "mimeType": "text/csv", "buffer": b""}])
    tab.idle()
    error = tab.see("empty.csv")
    assert "da39a3ee5e6b" not in error and "uploads" not in error, error  # never the workspace's own copy
