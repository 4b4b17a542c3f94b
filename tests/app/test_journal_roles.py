"""A page answers its own question: the Journals page suggests journals from the journal field, whatever its
count; a corpus without one gets one sentence and label values named as such (issue 29, section 2)."""

from __future__ import annotations

from pathlib import Path

from core.embedding import embed_corpus
from core.io import read_papers
from core.store import Store
from tests.app.test_pages import open_app, texts, widget
from tests.helpers import make_papers, register_tiny

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"


def _workspace(tmp_path, monkeypatch, tiny_model_dir, name, papers) -> Store:
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    store = Store(tmp_path / "ws")
    store.import_papers(name, papers, source="test")
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, name, "tiny")
    return store


def test_a_small_medline_export_gets_journal_suggestions(tmp_path, monkeypatch, tiny_model_dir):
    papers = list(read_papers(REAL / "pubmed_3.txt"))
    store = _workspace(tmp_path, monkeypatch, tiny_model_dir, "medline", papers)
    journals = set(store.papers_frame("medline")["journal"])
    at = open_app("app_pages/journals.py")
    assert at.selectbox(key="journal_target").value == "journal"
    at.text_input(key="journal_title").set_value(papers[0].title)
    at.text_area(key="journal_abstract").set_value(papers[0].abstract)
    widget(at.button, "Suggest journals").click().run()
    assert not at.exception and not at.error
    suggested = {e.label.split(" — ")[0] for e in at.expander if " — " in e.label}
    assert suggested and suggested <= journals  # journals, not years
    map_page = open_app("app_pages/map.py")
    colours = widget(map_page.selectbox, "Colour by").options
    assert "predicted journal" in colours and colours[0] == "journal" and "year" in colours


def test_a_corpus_without_a_journal_field_says_so_and_names_label_values(tmp_path, monkeypatch, tiny_model_dir):
    _workspace(tmp_path, monkeypatch, tiny_model_dir, "med", make_papers(label="disease"))
    at = open_app("app_pages/journals.py")
    assert "Corpus **med** has no journal field, so this page cannot suggest journals" in texts(at.info)
    target = at.selectbox(key="journal_target")
    assert target.value == "disease"
    assert widget(at.button, "Suggest values of disease")
    map_page = open_app("app_pages/map.py")
    assert "predicted journal" not in widget(map_page.selectbox, "Colour by").options
