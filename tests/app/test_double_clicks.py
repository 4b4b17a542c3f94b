"""A double click says what the action did: Add to a new collection clicked twice, Restore from the trash clicked
twice (qa19 left both: the second click's "0 papers added" hid the first's "67 added"; a restore left no lasting
confirmation)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from core.store import Store
from tests.app.test_pages import empty_workspace, open_app, texts, widget  # noqa: F401
from tests.helpers import make_papers


def _add_page(corpus: str, pids: list[str]) -> None:
    from ui.collection_add import add_to_collection

    add_to_collection(corpus, pids, key="test_collect", what="selection")


def test_add_to_a_new_collection_clicked_twice_says_the_papers_it_added(empty_workspace):  # noqa: F811
    store = Store(empty_workspace)
    store.import_papers("c", make_papers(2), source="make_papers")
    pids = [str(i) for i in store.papers_frame("c")["id"]][:5]
    at = AppTest.from_function(_add_page, args=("c", pids), default_timeout=60).run()
    at.text_input(key="test_collect_name").input("left half")  # typed in the form, sent by its button
    widget(at.button, "Add 5 papers (selection)").click().run()
    assert "5 papers added" in texts(at.success), texts(at.success)
    widget(at.button, "Add 5 papers (selection)").click().run()  # the second click of a double click
    assert not at.exception and store.collection_ids("c", "left half") == pids
    said = texts(at.success)
    assert "now holds 5 papers" in said and "5 papers added" in said, said


def test_a_restore_from_the_trash_says_what_came_back_after_the_next_rerun_too(empty_workspace):  # noqa: F811
    store = Store(empty_workspace)
    store.import_papers("c", make_papers(2), source="make_papers")
    store.save_collection("c", "Stars", ["astro-0", "astro-1", "bio-0"])
    store.delete_collection("c", "Stars")
    at = open_app("app_pages/library.py", model=None)
    widget(at.button, "Restore").click().run()
    assert not at.exception and store.collection_ids("c", "Stars") == ["astro-0", "astro-1", "bio-0"]
    assert "Restored collection 'Stars' of corpus 'c' (3 papers)." in texts(at.success), texts(at.success)
    at.run()  # the second click of a double click lands on a Restore button that is gone: a plain rerun
    assert "Restored collection 'Stars' of corpus 'c' (3 papers)." in texts(at.success), texts(at.success)
