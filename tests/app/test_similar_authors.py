"""Similar papers had no author filter (the CLI's and MCP's search take one: --filter authors=…), so a researcher
could not ask for the papers of one group close to a text (helper qa16)."""

from __future__ import annotations

from core.embedding import embed_corpus
from core.records import Paper
from core.store import Store
from tests.app.test_pages import empty_workspace, open_app, texts  # noqa: F401 (fixtures)
from tests.helpers import make_papers, register_tiny


def _corpus(folder, tiny_model_dir) -> Store:
    store = Store(folder)
    papers = [Paper(p.id, p.title, p.abstract, {**p.fields, "authors": ["Roe, Rita", f"Doe, J{i}"] if i % 4 == 0
                                                 else [f"Poe, E{i}"]})
              for i, p in enumerate(make_papers(per_topic=4))]
    store.import_papers("c", papers, source="make_papers")
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, "c", "tiny")
    return store


def test_part_of_an_authors_name_keeps_only_their_papers(empty_workspace, tiny_model_dir):  # noqa: F811
    store = _corpus(empty_workspace, tiny_model_dir)
    frame = store.papers_frame("c")
    theirs = {str(i) for i, a in zip(frame["id"], frame["authors"]) if "Roe, Rita" in list(a)}
    at = open_app("app_pages/similar.py")
    at.text_input(key="similar_author_c").set_value("rita ROE").run()  # any case, any order of the name's parts
    at.text_input(key="similar_title").set_value("galaxy stellar").run()
    assert not at.exception and not at.error
    shown = {str(i) for i in at.dataframe[0].value["id"]} if "id" in at.dataframe[0].value else None
    titles = set(at.dataframe[0].value["title"])
    assert titles == set(frame.loc[frame["id"].astype(str).isin(theirs), "title"]), titles
    assert shown is None or shown <= theirs
    assert all("Roe, Rita" in str(a) for a in at.dataframe[0].value["authors"])  # who matched, on each row


def test_a_name_no_author_has_says_no_paper_passes(empty_workspace, tiny_model_dir):  # noqa: F811
    _corpus(empty_workspace, tiny_model_dir)
    at = open_app("app_pages/similar.py")
    at.text_input(key="similar_author_c").set_value("Nobody, N").run()
    at.text_input(key="similar_title").set_value("galaxy stellar").run()
    assert not at.exception and not at.error
    assert "No paper passes the filters" in texts(at.info), texts(at.info)
    assert not at.dataframe
