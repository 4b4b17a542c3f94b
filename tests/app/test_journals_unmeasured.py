"""Journals on a corpus too small to measure: the suggestions came with percentages and nothing said how often they
are right, or that it could not be measured there (a verdict must say how sure it is, or that it cannot say)."""

from __future__ import annotations

from core.embedding import embed_corpus
from core.store import Store
from tests.app.test_pages import empty_workspace, open_app, texts, widget  # noqa: F401 (fixtures)
from tests.helpers import make_papers, register_tiny


def test_a_corpus_too_small_to_measure_says_so_beside_the_suggestions(empty_workspace, tiny_model_dir):  # noqa: F811
    store = Store(empty_workspace)
    store.import_papers("small", make_papers(per_topic=2), source="make_papers")  # 6 papers: under the task's 10
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, "small", "tiny")
    at = open_app("app_pages/journals.py")
    at.text_input(key="journal_title").set_value("galaxy redshift telescope survey")
    widget(at.button, "Suggest journals").click().run()
    assert any(" — " in e.label for e in at.expander)  # the suggestions are there
    said = texts(at.info) + texts(at.warning) + texts(at.caption) + texts(at.success)
    assert "How often it is right is not measured on **small**" in said, said
    assert "at least 10 papers with a journal" in said, said
