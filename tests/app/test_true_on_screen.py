"""Issue 29 §5: the app says what is true on screen (map controls across corpora, the URL on every page, model
labels, the journal filter)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.embedding import embed_corpus
from core.records import Paper
from core.store import Store
from tests.app.map_component import legend_names
from tests.app.test_pages import APP, open_app, texts, widget
from tests.helpers import make_papers, register_tiny


def other_papers() -> list[Paper]:
    """Corpus 'd': a 'field' column (no journal), years 1990 and 2000-2004 (nine empty years between)."""
    papers = make_papers(6, label="field")
    papers[0].fields["year"] = 1990
    return papers


@pytest.fixture()
def two_corpora(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny_model_dir: Path) -> Store:
    """Corpus 'c' (journal, 2000-2004) and corpus 'd' (field, 1990-2004), both embedded with 'tiny'."""
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    store = Store(tmp_path / "ws")
    store.import_papers("c", make_papers(), source="test")
    store.import_papers("d", other_papers(), source="test")
    register_tiny(store, tiny_model_dir)
    for corpus in ("c", "d"):
        embed_corpus(store, corpus, "tiny")
    return store


def test_a_year_range_chosen_on_one_corpus_is_not_kept_on_another(two_corpora: Store):
    at = open_app("app_pages/map.py")
    at.selectbox(key="corpus").set_value("c").run()
    widget(at.slider, "Years").set_value((2003, 2004)).run()
    assert "drawn in front" in texts(at.caption)
    at.selectbox(key="corpus").set_value("d").run()
    assert not at.exception
    assert widget(at.slider, "Years").value == (1990, 2004)  # d's whole span, not c's 2003-2004
    assert "drawn in front" not in texts(at.caption)
    assert "years" not in at.query_params


def test_colour_by_follows_the_corpus_when_it_lacks_the_chosen_column(two_corpora: Store):
    at = open_app("app_pages/map.py")
    at.selectbox(key="corpus").set_value("c").run()
    assert widget(at.selectbox, "Colour by").value == "journal"
    at.selectbox(key="corpus").set_value("d").run()
    colour = widget(at.selectbox, "Colour by")
    assert colour.value == "field" and colour.proto.raw_value == "field"  # what the widget shows, too
    names = set(legend_names(at))
    assert "J. Astro" in names and at.query_params.get("colour") == "field"


def test_an_unknown_job_parameter_of_the_train_page_is_not_a_problem_of_the_link(two_corpora: Store):
    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params.update({"corpus": "d", "job": "abc123", "method": "pca"})
    at.run()
    assert not at.exception
    assert "does not know" not in texts(at.warning)


def test_the_url_carries_the_corpus_on_every_page_so_a_reload_keeps_it(two_corpora: Store):
    for page in ("app_pages/library.py", "app_pages/train.py", "app_pages/similar.py"):
        at = open_app(page)
        at.selectbox(key="corpus").set_value("d").run()
        assert at.query_params.get("corpus") == "d", page
        reloaded = AppTest.from_file(APP, default_timeout=90)  # a reload: a new session on the same URL
        reloaded.query_params.update(at.query_params)
        reloaded.switch_page(page).run()
        assert not reloaded.exception
        assert reloaded.selectbox(key="corpus").value == "d", page


def test_the_url_names_a_chosen_model_without_vectors(two_corpora: Store, tmp_path: Path):
    from core.embedding import build_tiny_model

    register_tiny(two_corpora, build_tiny_model(tmp_path / "tiny-2"), name="tiny-2")
    at = open_app("app_pages/map.py")
    assert at.query_params.get("model") == "tiny"
    at.selectbox(key="model").set_value("tiny-2").run()
    assert "is not embedded with model **tiny-2**" in texts(at.warning)
    assert at.query_params.get("model") == "tiny-2"


def test_hub_models_say_they_need_the_hub_when_it_is_offline(two_corpora: Store, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-hf-cache"))  # nothing cached
    at = open_app("app_pages/map.py")
    options = at.selectbox(key="model").options
    assert "scibert (needs the Hugging Face hub)" in options and "mired (needs the Hugging Face hub)" in options
    assert "minilm" in options and "tiny" in options  # packaged and local models: no such note
    at.selectbox(key="model").set_value("scibert").run()
    assert "cannot reach" in texts(at.sidebar.caption)


def test_the_journal_filter_matches_what_is_typed_not_a_fuzzy_subsequence(two_corpora: Store):
    from streamlit.proto.SelectWidgetFilterMode_pb2 import SelectWidgetFilterMode

    at = open_app("app_pages/similar.py")
    at.selectbox(key="corpus").set_value("c").run()
    journal = widget(at.multiselect, "Only journal")
    # fuzzy: typing 'bio' matched "J. Bio" and any name holding b…i…o in order, and "Select 3 matches" took them all
    assert journal.proto.filter_mode == SelectWidgetFilterMode.FILTER_MODE_CONTAINS


def test_result_tables_show_empty_cells_not_none_and_counts_say_one_paper(two_corpora: Store):
    papers = make_papers(2)
    papers[0].fields["journal"] = None  # a paper without a journal
    papers[1].fields.pop("year")
    two_corpora.import_papers("gaps", papers, source="test")
    embed_corpus(two_corpora, "gaps", "tiny")
    at = open_app("app_pages/similar.py")
    at.selectbox(key="corpus").set_value("gaps").run()
    at.radio[0].set_value("Pick a paper from the corpus").run()
    widget(at.selectbox, "Paper").set_value(2).run()
    widget(at.button, "Find similar papers").click().run()
    assert not at.exception and not at.error
    results = at.dataframe[0].value
    assert len(results) == 5
    cells = [v for column in results.columns if column not in ("rank", "score") for v in results[column]]
    assert not any(v is None or (isinstance(v, float) and v != v) or v == "None" for v in cells), results

    at.switch_page("app_pages/map.py").run()
    widget(at.text_input, "Highlight papers matching").set_value(papers[3].title).run()
    assert "1 paper matches" in texts(at.caption) and "1 papers" not in texts(at.caption)
