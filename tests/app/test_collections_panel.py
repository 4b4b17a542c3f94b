"""The Library's collections: listed with their papers and missing papers; the chosen one's note, name, ticked
papers removed, merged with another, deleted into the trash by name with Undo."""

from __future__ import annotations

from core.store import Store
from tests.app.test_pages import empty_workspace, open_app, texts, widget  # noqa: F401
from tests.helpers import make_papers
from ui.collections_view import PICK, TICKED


def _library(empty_workspace) -> tuple[Store, object]:  # noqa: F811
    store = Store(empty_workspace)
    store.import_papers("c", make_papers(2), source="make_papers")
    store.save_collection("c", "Stars", ["astro-0", "astro-1", "bio-0"], note="to read")
    store.save_collection("c", "Cells", ["bio-1"])
    return store, open_app("app_pages/library.py", model=None)


def _table(at) -> dict:
    frame = next(d.value for d in at.dataframe if "missing" in d.value.columns)
    return frame.set_index("name")[["corpus", "papers", "missing", "note"]].to_dict("index")


def test_the_library_lists_collections_and_edits_the_chosen_one(empty_workspace):  # noqa: F811
    store, at = _library(empty_workspace)
    assert "Collections" in texts(at.subheader)
    assert _table(at) == {"Cells": {"corpus": "c", "papers": 1, "missing": 0, "note": ""},
                          "Stars": {"corpus": "c", "papers": 3, "missing": 0, "note": "to read"}}
    at.selectbox(key=PICK).set_value(("c", "Stars")).run()
    papers = at.dataframe[-1].value
    assert papers["id"].tolist() == ["astro-0", "astro-1", "bio-0"] and "journal" in papers.columns

    at.text_area(key="collection_note:c:Stars").input("why these three").run()
    widget(at.button, "Save the note").click().run()
    assert store.collection("c", "Stars").note == "why these three"

    remove = widget(at.button, "Remove 0 ticked papers from Stars")
    assert remove.disabled  # nothing ticked yet
    at.session_state[TICKED] = ("c", "Stars", ["astro-1", "bio-0"])  # what ticking two rows leaves
    at.run()
    widget(at.button, "Remove 2 ticked papers from Stars").click().run()
    assert not at.exception and not at.error
    assert store.collection_ids("c", "Stars") == ["astro-0"]

    at.selectbox(key="collection_merge:c:Stars").set_value("Cells").run()
    widget(at.button, "Merge Cells into Stars").click().run()
    assert store.collection_ids("c", "Stars") == ["astro-0", "bio-1"] and store.collection("c", "Cells").papers == 1

    at.text_input(key="collection_rename:c:Stars").input("Stars and cells").run()
    widget(at.button, "Rename Stars").click().run()
    assert not at.error and [c.name for c in store.collections("c")] == ["Cells", "Stars and cells"]
    assert at.selectbox(key=PICK).value == ("c", "Stars and cells")  # the renamed collection stays chosen


def test_a_deleted_collection_is_named_and_undo_brings_it_back(empty_workspace):  # noqa: F811
    store, at = _library(empty_workspace)
    at.selectbox(key=PICK).set_value(("c", "Stars")).run()
    assert widget(at.button, "Delete collection Stars").disabled
    at.checkbox(key="collection_delete_confirm:c:Stars").check().run()
    widget(at.button, "Delete collection Stars").click().run()
    assert not at.exception and not at.error
    assert [c.name for c in store.collections("c")] == ["Cells"]
    assert "Moved collection 'Stars' of corpus 'c' (3 papers) to the trash." in texts(at.success)
    at.button(key=f"undo_collection-{store.trash()[0].id}").click().run()
    assert not at.exception and store.trash() == []
    assert store.collection_ids("c", "Stars") == ["astro-0", "astro-1", "bio-0"]
    assert at.selectbox(key=PICK).value == ("c", "Stars")


def test_a_collection_of_a_deleted_corpus_counts_its_papers_as_missing(empty_workspace):  # noqa: F811
    store, _ = _library(empty_workspace)
    store.import_papers("d", make_papers(1), source="make_papers")
    store.delete_corpus("c")
    at = open_app("app_pages/library.py", model=None)
    assert _table(at)["Stars"] == {"corpus": "c", "papers": 0, "missing": 3, "note": "to read"}
    at.selectbox(key=PICK).set_value(("c", "Stars")).run()
    assert not at.exception and not at.error
    assert "Corpus **c** is not in the workspace now" in texts(at.info)
    assert "3 papers of Stars are not in corpus c now" in texts(at.caption)


def test_a_trashed_collection_whose_name_was_taken_again_is_restored_under_a_name_typed_here(empty_workspace):  # noqa: F811,E501
    """Delete collection Stars, save another Stars from the map, then Restore the first from the Trash: the page
    offered a plain Restore that only failed with 'restore 1 --as NEW-NAME' (a command line), as it once did for
    corpora; Undo failed the same way. Now Undo is not offered and the Trash has Restore as, as for a corpus."""
    store, at = _library(empty_workspace)
    at.session_state[PICK] = ("c", "Stars")
    at.run()
    at.checkbox(key="collection_delete_confirm:c:Stars").check().run()
    widget(at.button, "Delete collection Stars").click().run()
    store.save_collection("c", "stars", ["bio-1"])  # the other tab, the map's lasso: the name is taken again
    at.run()
    assert not at.exception, at.exception
    assert not [b for b in at.button if b.label in ("Undo", "Restore")], [b.label for b in at.button]
    item = store.trash()[0]
    at.text_input(key=f"restore_as-{item.id}").set_value("Stars old").run()
    widget(at.button, "Restore as Stars old").click().run()
    assert not at.exception and not at.error, texts(at.error)
    names = {c.name: c.papers for c in store.collections("c")}
    assert names == {"Stars old": 3, "stars": 1, "Cells": 1}, names
    assert store.trash() == []
