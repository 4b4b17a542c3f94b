"""The Library acts on the corpus the sidebar names: its 'Corpus to embed' (and with it the label columns, merged
records and export of that corpus) and 'Corpus to delete' start on the sidebar's corpus and follow it when it changes.
They started on the newest corpus, so a user working on corpus A read 'Merged records of B' and 'Export B'."""

from __future__ import annotations

from tests.app.test_pages import empty_workspace, open_app, workspace  # noqa: F401 (fixtures)
from tests.helpers import make_papers


def test_the_library_starts_on_and_follows_the_sidebar_corpus(workspace):  # noqa: F811
    workspace.import_papers("newer", make_papers(1), source="make_papers")  # listed first: the newest corpus
    at = open_app("app_pages/library.py")
    at.sidebar.selectbox(key="corpus").set_value("c").run()
    assert not at.exception
    assert at.selectbox(key="embed_target").value == "c"
    assert at.selectbox(key="delete_target").value == "c"
    assert any(e.label.startswith("Merged records of c") or e.label == "Label columns of c" for e in at.expander)
    at.sidebar.selectbox(key="corpus").set_value("newer").run()
    assert at.selectbox(key="embed_target").value == "newer"
    assert at.selectbox(key="delete_target").value == "newer"
    at.selectbox(key="embed_target").set_value("c").run()  # a choice made on the page stays until the sidebar moves
    at.run()
    assert at.selectbox(key="embed_target").value == "c"
