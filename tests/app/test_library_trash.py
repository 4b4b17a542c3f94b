"""The Library deletes only the corpus it names, into the trash, with Undo and Restore (issue 29, section 1)."""

from __future__ import annotations

from core.records import Paper
from tests.app.test_pages import empty_workspace, open_app, texts, widget, workspace  # noqa: F401
from tests.helpers import make_papers


def _three_corpora(store) -> None:
    for name in ("a", "b"):
        papers = [Paper(f"{name}-{p.id}", f"{name}: {p.title}", p.abstract, p.fields) for p in make_papers(1)]
        store.import_papers(name, papers, source="make_papers")


def test_a_confirmation_belongs_to_one_corpus_and_repeated_clicks_delete_nothing_else(workspace):  # noqa: F811
    _three_corpora(workspace)
    at = open_app("app_pages/library.py")
    at.selectbox(key="delete_target").set_value("a").run()
    at.checkbox(key="delete_confirm:corpus:a").check().run()
    widget(at.button, "Delete corpus a").click().run()
    assert not at.exception and not at.error
    assert sorted(c.name for c in workspace.corpora()) == ["b", "c"]
    # the selector moved on to another corpus: its box starts unticked and its button is disabled
    moved_to = at.selectbox(key="delete_target").value
    assert moved_to in ("b", "c")
    assert not at.checkbox(key=f"delete_confirm:corpus:{moved_to}").value
    assert widget(at.button, f"Delete corpus {moved_to}").disabled
    at.run()
    assert widget(at.button, f"Delete corpus {moved_to}").disabled
    assert sorted(c.name for c in workspace.corpora()) == ["b", "c"]
    assert "Moved corpus 'a' (3 papers) to the trash." in texts(at.success)


def test_undo_restores_the_deleted_corpus_whole_and_the_trash_restores_too(workspace):  # noqa: F811
    _three_corpora(workspace)
    before = workspace.papers_frame("a")
    at = open_app("app_pages/library.py")
    at.selectbox(key="delete_target").set_value("a").run()
    at.checkbox(key="delete_confirm:corpus:a").check().run()
    widget(at.button, "Delete corpus a").click().run()
    assert [t.name for t in workspace.trash()] == ["a"]
    widget(at.button, "Undo").click().run()
    assert not at.exception and not at.error
    assert workspace.papers_frame("a").equals(before) and workspace.trash() == []
    assert at.sidebar.selectbox(key="corpus").value == "a"  # the restored corpus is the current one

    at.selectbox(key="delete_target").set_value("b").run()
    at.checkbox(key="delete_confirm:corpus:b").check().run()
    widget(at.button, "Delete corpus b").click().run()
    item = workspace.trash()[0]
    widget(at.button, "Restore").click().run()
    assert not at.exception and workspace.corpus("b").papers == 3 and workspace.trash() == []
    assert item.name == "b"


def test_label_columns_are_marked_in_the_library(workspace):  # noqa: F811
    at = open_app("app_pages/library.py")
    assert at.dataframe[0].value.set_index("corpus").loc["c", "journal field"] == "journal"
    select = at.multiselect(key=f"labels_c_{workspace.corpus('c').version}")
    assert select.value == ["journal"] and "year" not in select.options
    select.set_value([]).run()
    widget(at.button, "Save label columns").click().run()
    assert not at.exception and workspace.corpus("c").labels == [] and workspace.corpus("c").labels_chosen


def test_a_corpus_whose_name_was_taken_again_is_restored_under_a_name_typed_on_the_page(workspace):  # noqa: F811
    """Delete corpus a, import another a, press Restore: the page said 'restore this one under another name (restore
    1 --as NEW-NAME)', a command line the Library has no place for, so the trashed corpus could not come back here."""
    _three_corpora(workspace)
    workspace.delete_corpus("a")
    workspace.import_papers("a", [Paper("new-1", "A newer paper", "Its abstract.", {})], source="test")
    at = open_app("app_pages/library.py")
    assert not [b for b in at.button if b.label == "Restore"]  # it would only fail: the name is taken
    assert any("A corpus named **a** exists now" in c.value for c in at.caption), texts(at.caption)
    at.text_input(key=f"restore_as-{workspace.trash()[0].id}").set_value("a old").run()
    widget(at.button, "Restore as a old").click().run()
    assert not at.exception and not at.error, texts(at.error)
    assert workspace.corpus("a old").papers == 3 and workspace.corpus("a").papers == 1 and workspace.trash() == []
    assert at.sidebar.selectbox(key="corpus").value == "a old"


def test_undo_is_not_offered_once_the_name_is_taken_again(workspace):  # noqa: F811
    """Undo right after a delete would fail the same way once another corpus took the name: the notice says where
    it can be restored instead."""
    _three_corpora(workspace)
    at = open_app("app_pages/library.py")
    at.selectbox(key="delete_target").set_value("a").run()
    at.checkbox(key="delete_confirm:corpus:a").check().run()
    widget(at.button, "Delete corpus a").click().run()
    workspace.import_papers("a", [Paper("new-1", "A newer paper", "Its abstract.", {})], source="test")
    at.run()
    assert not [b for b in at.button if b.label == "Undo"]
    assert "with Restore as another name" in texts(at.success), texts(at.success)


def test_a_paper_is_deleted_from_the_library_and_undo_or_the_trash_brings_it_back(workspace):  # noqa: F811
    """A librarian's wrong record: the Library had no way to delete one paper. Found by its title words, named,
    ticked, deleted into the trash; Undo brings it back, and so does Restore in the Trash."""
    at = open_app("app_pages/library.py")
    before = workspace.corpus("c").papers
    victim = workspace.papers("c")[0]
    words = " ".join(victim.title.split()[:3])
    at.text_input(key="delete_papers_find:c").set_value(words).run()
    pick = at.multiselect(key=f"delete_papers_pick:c:{words}")
    assert f"{victim.title} ({victim.id})" in pick.options
    pick.set_value([victim.id]).run()
    delete = widget(at.button, "Delete 1 paper")
    assert delete.disabled
    at.checkbox(key=f"delete_papers_sure:c:{victim.id}").check().run()
    widget(at.button, "Delete 1 paper").click().run()
    assert not at.exception and not at.error, texts(at.error)
    assert workspace.corpus("c").papers == before - 1
    assert f"Moved paper '{victim.title}' of corpus 'c' to the trash." in texts(at.success)
    widget(at.button, "Undo").click().run()
    assert not at.exception and workspace.corpus("c").papers == before
    assert [p.id for p in workspace.papers("c")][0] == victim.id
    workspace.delete_papers("c", [victim.id])  # again, then Restore from the Trash
    at.run()
    widget(at.button, "Restore").click().run()
    assert not at.exception and workspace.corpus("c").papers == before and workspace.trash() == []
