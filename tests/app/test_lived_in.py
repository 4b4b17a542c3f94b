"""Pages on a lived-in workspace: a corpus with holes already there, then what a user does next (issue 12)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.embedding import ModelSpec, embed_corpus
from core.records import Paper
from core.store import Store
from tests.app.background_jobs import wait_for_background
from tests.app.map_component import card_years, column, legend_names, map_sent
from tests.app.test_pages import open_app, texts, widget
from tests.helpers import make_papers, register_tiny


def holey_papers() -> list[Paper]:
    """make_papers() with the holes real corpora have: missing journals, missing and float years, 16 journals."""
    papers = make_papers()
    for i, paper in enumerate(papers):
        if i % 7 == 3:
            paper.fields["journal"] = None
        elif i % 5 == 0:
            paper.fields["journal"] = f"Rare Journal {i}"  # more journals than legend colours
        if i % 6 == 2:
            paper.fields["year"] = None
        elif i % 4 == 1:
            paper.fields["year"] = 2019.0
    return papers


@pytest.fixture()
def lived_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny_model_dir: Path) -> Store:
    """A workspace that already holds an embedded corpus 'old' with missing values in its label columns."""
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    store = Store(tmp_path / "ws")
    store.import_papers("old", holey_papers(), source="holey")
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, "old", "tiny")
    return store


def test_importing_a_second_corpus_selects_it_without_an_exception(lived_in: Store, tmp_path: Path):
    at = open_app("app_pages/library.py")
    assert at.selectbox(key="corpus").value == "old"
    upload = tmp_path / "second.csv"
    upload.write_text("title,abstract,journal\nA new paper,About a new thing entirely,J. New\n"
                      "Another paper,About another thing,J. New\n", encoding="utf-8")
    # AppTest has no file uploader: import through the same code path the button runs, then rerun.
    from core.io import read_papers
    from ui import state

    report = lived_in.import_papers("second", read_papers(upload), source="second.csv")
    at.session_state[state.IMPORT_REPORT] = report.to_dict()
    at.session_state[state.PENDING_CORPUS] = "second"
    at.run()
    assert not at.exception
    assert at.selectbox(key="corpus").value == "second"
    assert "Read **2 records** into **second**" in texts(at.success)


def test_highlight_on_a_corpus_with_missing_values_counts_matches(lived_in: Store):
    at = open_app("app_pages/map.py")
    widget(at.text_input, "Highlight papers matching").set_value("Rare Journal").run()
    assert not at.exception
    expected = sum(1 for p in holey_papers() if str(p.fields.get("journal") or "").startswith("Rare Journal"))
    assert f"{expected:,} papers match" in texts(at.caption)
    bits = column(map_sent(at)["page"], "mask")
    assert bits is not None and int(np.unpackbits(bits.astype(np.uint8)).sum()) == expected


def test_hover_cards_show_the_real_journal_even_when_the_legend_folds_it_into_other(lived_in: Store):
    at = open_app("app_pages/map.py")
    widget(at.selectbox, "Colour by").set_value("journal").run()
    widget(at.number_input, "Legend entries").set_value(3).run()
    assert not at.exception
    sent = map_sent(at)
    legend = sent["page"]["state"]["legend"]
    other = next(e["code"] for e in legend if e["label"] == "other")
    folded = column(sent["page"], "codes") == other
    # the card's journal line is the paper's own (the browser leaves out an 'other' colour line)
    assert any(j.startswith("Rare Journal") for j in sent["points"]["journal"][folded])
    names = [e["label"] for e in legend]
    assert len([n for n in names if n not in ("other", "(none)")]) == 3


def test_the_map_legend_sits_under_the_map_in_rows(lived_in: Store):
    at = open_app("app_pages/map.py")
    widget(at.selectbox, "Colour by").set_value("journal").run()
    assert legend_names(at)  # drawn by the component under the map, in rows (ui/map/static: .miread-legend)


def test_a_year_column_reads_2019_on_the_map_cards(lived_in: Store):
    at = open_app("app_pages/map.py")
    widget(at.selectbox, "Colour by").set_value("year").run()
    years = card_years(map_sent(at))
    assert "2019" in years and not any("2019.0" in y for y in years)


def test_a_hub_model_that_cannot_load_keeps_its_error_on_screen(lived_in: Store):
    lived_in.save_model("broken-hub", ModelSpec(name="broken-hub", source="hub", location="nobody/no-such-model",
                                                pooling="cls", max_length=128).to_dict())
    at = open_app("app_pages/map.py", model="broken-hub")
    widget(at.button, "Embed old with broken-hub").click().run()
    at = wait_for_background(at)  # the embedding job fails in its process; the page reports it when it ends
    assert not at.exception
    assert at.error and "broken-hub" in texts(at.error) or "no-such-model" in texts(at.error)
    # another tab (a new session), or this one reloaded: the page still says why the corpus has no vectors yet
    again = open_app("app_pages/map.py", model="broken-hub")
    assert not again.exception
    said = texts(again.error)
    assert "last embedding of old with broken-hub failed" in said and "no-such-model" in said, said


def test_an_empty_query_shows_only_its_error_not_the_previous_results(lived_in: Store):
    at = open_app("app_pages/similar.py")
    paper = make_papers()[4]
    at.text_input(key="similar_title").set_value("galaxy")
    widget(at.button, "Find similar papers").click().run()
    assert at.dataframe and not at.warning  # a short query is answered by words and meaning: results, no warning
    at.text_input(key="similar_title").set_value("")
    widget(at.button, "Find similar papers").click().run()
    assert not at.exception
    assert "empty" in texts(at.error)
    assert not at.warning and not at.dataframe
    at.text_input(key="similar_title").set_value(paper.title)
    at.text_area(key="similar_abstract").set_value(paper.abstract)
    widget(at.button, "Find similar papers").click().run()
    assert at.dataframe[0].value["title"].tolist()[0] == paper.title


def test_results_follow_their_inputs_across_pages(lived_in: Store):
    at = open_app("app_pages/similar.py")
    paper = make_papers()[4]
    at.text_input(key="similar_title").set_value(paper.title)
    at.text_area(key="similar_abstract").set_value(paper.abstract)
    widget(at.button, "Find similar papers").click().run()
    assert at.dataframe
    at.switch_page("app_pages/map.py").run()
    at.switch_page("app_pages/similar.py").run()
    assert not at.exception
    # the inputs came back with their results
    assert at.text_input(key="similar_title").value == paper.title
    assert at.dataframe and at.dataframe[0].value["title"].tolist()[0] == paper.title
    # editing the query hides results that no longer belong to it (the abstract: Enter in Title searches at once)
    at.text_area(key="similar_abstract").set_value("Something else entirely").run()
    assert not at.dataframe
    assert "changed" in texts(at.caption)


def test_enter_in_the_title_box_searches_without_the_button(lived_in: Store):
    """People type three words and press Enter: the answer comes, as the button would give it."""
    at = open_app("app_pages/similar.py")
    at.text_input(key="similar_title").set_value("galaxy").run()
    assert not at.exception
    assert at.dataframe and not any("changed" in c for c in texts(at.caption))
    first = at.dataframe[0].value["title"].tolist()
    widget(at.button, "Find similar papers").click().run()
    assert at.dataframe[0].value["title"].tolist() == first  # the same answer the button gives
    at.text_input(key="similar_title").set_value("").run()  # an emptied box is no query: no error, no search
    assert not at.exception and not at.error and not at.dataframe


def test_changing_k_after_a_search_hides_the_old_results_until_searched_again(lived_in: Store):
    at = open_app("app_pages/similar.py")
    paper = make_papers()[4]
    at.text_input(key="similar_title").set_value(paper.title)
    at.text_area(key="similar_abstract").set_value(paper.abstract)
    widget(at.button, "Find similar papers").click().run()
    assert len(at.dataframe[0].value) == 10
    widget(at.slider, "Results (k)").set_value(5).run()
    assert not at.dataframe
    widget(at.button, "Find similar papers").click().run()
    assert len(at.dataframe[0].value) == 5


def test_switching_corpus_in_the_sidebar_keeps_every_page_working(lived_in: Store):
    lived_in.import_papers("second", make_papers(per_topic=4), source="second")
    embed_corpus(lived_in, "second", "tiny")
    at = open_app("app_pages/map.py")
    widget(at.selectbox, "Colour by").set_value("journal").run()
    for page in ("app_pages/map.py", "app_pages/similar.py", "app_pages/journals.py", "app_pages/library.py", "app_pages/train.py",
                 "app_pages/evaluate.py"):
        at.switch_page(page).run()
        at.selectbox(key="corpus").set_value("second").run()
        assert not at.exception, page
        at.selectbox(key="corpus").set_value("old").run()
        assert not at.exception, page


def test_every_page_survives_a_corpus_whose_label_columns_are_all_missing(tmp_path, monkeypatch, tiny_model_dir):
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    store = Store(tmp_path / "ws")
    papers = make_papers(per_topic=5)
    for paper in papers:
        paper.fields = {"journal": None, "year": None, "note": ""}
    store.import_papers("blank", papers, source="blank")
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, "blank", "tiny")
    at = open_app("app_pages/map.py")
    for choice in widget(at.selectbox, "Colour by").options:
        widget(at.selectbox, "Colour by").set_value(choice).run()
        assert not at.exception, choice
    widget(at.text_input, "Highlight papers matching").set_value("galaxy").run()
    assert not at.exception
    for page in ("app_pages/similar.py", "app_pages/journals.py", "app_pages/train.py", "app_pages/evaluate.py"):
        at.switch_page(page).run()
        assert not at.exception, page
