"""Journals: "How often it is right: on N held-out papers…" left out, silently, the held-out papers whose journal no
reference paper has (a walk). Every place that shows the figure says how many were left out and why, in the same
words: the Journals page, the Evaluate page's journals task and the MCP tool (two pages must never contradict)."""

from __future__ import annotations

from core.embedding import embed_corpus
from core.evaluation import journal_accuracy
from core.evaluation.journal_finder import held_out_phrase
from core.mcp.papers import journal_accuracy_document
from core.mcp.workspace import Workspace
from core.records import Paper
from core.store import Store
from tests.app.test_pages import empty_workspace, open_app, texts, widget  # noqa: F401 (fixtures)
from tests.helpers import make_papers, register_tiny

LONELY = [Paper(id=f"lonely-{i}", title=f"A lone study number {i}", abstract=f"We study a lone subject {i} here.",
                fields={"journal": f"J. Lonely {i}"}) for i in range(12)]  # each the only paper of its journal


def test_the_held_out_papers_left_out_are_counted_alike_on_journals_and_mcp(empty_workspace, tiny_model_dir):  # noqa: F811
    store = Store(empty_workspace)
    store.import_papers("c", make_papers() + LONELY, source="make_papers")
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, "c", "tiny")
    found = journal_accuracy(store, "c", "tiny", "journal", "knn")
    assert found["left_out"] >= 1, found  # some lonely paper was held out: no reference paper has its journal
    said = held_out_phrase(found["papers"], found["left_out"])
    at = open_app("app_pages/journals.py")
    at.text_input(key="journal_title").set_value("galaxy redshift telescope survey")
    widget(at.button, "Suggest journals").click().run()
    assert not at.exception
    page = texts(at.success)
    assert held_out_phrase(found["papers"], found["left_out"], " of **c**") in page, page
    assert "no reference paper has their journal" in page
    mcp = journal_accuracy_document(Workspace(store), "c", "tiny", "journal", "knn")
    assert mcp["left_out"] == found["left_out"] and said.replace(" held-out papers", " held-out papers of c") in \
        mcp["sentence"], mcp


def test_the_evaluate_page_says_the_same_of_its_journals_task(tmp_path, monkeypatch, tiny_model_dir):
    from tests.app.background_jobs import wait_for_background
    from tests.app.test_evaluate_page import open_evaluate_page

    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    store = Store(tmp_path / "ws")
    register_tiny(store, tiny_model_dir)
    store.import_papers("c", make_papers() + LONELY, source="make_papers")
    embed_corpus(store, "c", "tiny")
    found = journal_accuracy(store, "c", "tiny", "journal", "knn")  # the Journals page's figure (default sample)
    at = open_evaluate_page()
    at.multiselect(key="eval_tasks").set_value(["journals"])
    next(b for b in at.button if b.label == "Run evaluation").click()
    wait_for_background(at.run())
    assert not at.exception and not at.error
    notes = [c.value for c in at.caption if "held-out papers" in c.value and "journal" in c.value.lower()]
    assert any(held_out_phrase(found["papers"], found["left_out"]) in n for n in notes), [c.value for c in at.caption]
