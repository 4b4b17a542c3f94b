"""Issue 40 §3 on screen: a journal exported under two spellings (PubMed's "PloS one", Web of Science's "PLOS ONE")
is one legend entry and one colour on the map, with a sentence saying so, and the Journals page lists its spellings."""

from __future__ import annotations

from pathlib import Path

from core.embedding import embed_corpus
from core.store import Store
from tests.app.map_component import legend_names
from tests.app.test_pages import chart, empty_workspace, open_app, texts  # noqa: F401
from tests.helpers import make_papers, register_tiny


def _two_spellings(root: Path, tiny_model_dir: Path) -> Store:
    papers = make_papers()
    for i, paper in enumerate(papers):
        if paper.id.startswith("astro"):
            paper.fields["journal"] = "PloS one" if i % 2 else "PLOS ONE"
    store = Store(root)
    store.import_papers("c", papers, source="test")
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, "c", "tiny")
    return store


def test_the_map_colours_one_journal_once_and_the_journals_page_lists_its_spellings(
        empty_workspace, tiny_model_dir):  # noqa: F811
    _two_spellings(empty_workspace, tiny_model_dir)
    at = open_app()
    assert not at.exception and at.selectbox(key="map_colour").value == "journal"
    entries = set(legend_names(at))
    assert {"PloS one", "J. Bio", "J. Econ"} <= entries and "PLOS ONE" not in entries
    assert "1 journal was exported under several spellings" in texts(at.caption)
    page = open_app("app_pages/journals.py")
    assert not page.exception and not page.error
    assert any(e.label == "One journal, one name: 1 journal exported under several spellings" for e in page.expander)
    [table] = [d.value for d in page.dataframe if "spellings" in d.value.columns]
    assert table.to_dict("records") == [{"journal": "PloS one", "papers": 12, "spellings": "PLOS ONE; PloS one",
                                         "issn": ""}]
