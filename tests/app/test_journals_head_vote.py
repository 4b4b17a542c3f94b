"""The Journals page with a fine-tuned model: head and neighbour vote measured on held-out papers, the better one by
default, both figures with n and intervals, a radio to choose, and the head's calibration named (issue 29, §3)."""

from __future__ import annotations

import pytest

from core.embedding import embed_corpus, get_model
from core.evaluation import head_and_vote, measurably_better
from core.store import Store
from core.training import run_foreground
from tests.app.test_pages import open_app, texts, widget
from tests.helpers import register_tiny
from tests.unit.training.support import add_corpus, one_torch_thread, tiny_config


@pytest.fixture()
def workspace(tmp_path, monkeypatch, tiny_model_dir) -> Store:
    """The toy corpus and 'headed', fine-tuned on its journals (6 test papers)."""
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    store = add_corpus(Store(tmp_path / "ws"))
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, "toy", "tiny")
    with one_torch_thread():
        run_foreground(store, tiny_config(tiny_model_dir, name="headed", epochs=1))
    return store


def ask(at, method: str | None = None):
    paper_title, paper_abstract = "Galaxy redshift survey", "We study the galaxy stellar redshift problem in astro."
    if method:
        at.radio(key="journal_method_headed").set_value(method).run()
    at.text_input(key="journal_title").set_value(paper_title)
    at.text_area(key="journal_abstract").set_value(paper_abstract)
    widget(at.button, "Suggest journals").click().run()
    assert not at.exception and not at.error
    return at


def test_the_better_method_on_held_out_papers_is_the_default_and_the_other_can_be_chosen(workspace):
    embed_corpus(workspace, "toy", "headed")
    measured = head_and_vote(workspace, "toy", get_model("headed", workspace), "journal")
    at = open_app("app_pages/journals.py", model="headed")
    radio = at.radio(key="journal_method_headed")
    # 'better' only where the paired top-5 difference's interval excludes 0 (issue 44): on 6 papers it cannot
    assert not measurably_better(measured)
    assert radio.value == measured["best"] and radio.options[["head", "knn"].index(measured["best"])].endswith(
        "(higher top-5, not measurably better)")
    captions = texts(at.caption)
    assert "trained head: top-5 " in captions and "neighbour vote: top-5 " in captions
    assert "on 6 held-out test papers" in captions and "95 % interval" in captions
    other = "knn" if measured["best"] == "head" else "head"
    ask(at, other)
    info = texts(at.info)
    if other == "head":
        assert "trained journal head of **headed**, calibrated on its validation papers (temperature" in info
    else:
        assert "A similarity-weighted vote of the" in info
    assert "How often it is right: " + ("trained head" if other == "head" else "neighbour vote") in texts(at.success)


def test_before_the_corpus_is_embedded_only_the_head_answers_and_the_page_says_why(workspace):
    at = open_app("app_pages/journals.py", model="headed")
    assert not at.radio
    assert "Only the trained head can answer until **toy** is embedded with **headed**" in texts(at.caption)
    ask(at)
    assert "trained journal head of **headed**" in texts(at.info)
    assert ("How often it is right is not measured on **toy**: the corpus is not fully embedded with headed"
            in texts(at.info))  # its percentages come with no measured accuracy, and the page says so (qa16)


def test_the_method_chosen_is_kept_with_its_suggestions_after_another_page(workspace):
    """The radio went back to the measured best after a visit to another page, hiding the suggestions made with
    the other method (helper qa16)."""
    embed_corpus(workspace, "toy", "headed")
    measured = head_and_vote(workspace, "toy", get_model("headed", workspace), "journal")
    other = "knn" if measured["best"] == "head" else "head"
    at = ask(open_app("app_pages/journals.py", model="headed"), other)
    shown = [e.label for e in at.expander if " — " in e.label]
    assert shown
    at.switch_page("app_pages/similar.py").run()
    at.switch_page("app_pages/journals.py").run()
    assert not at.exception
    assert at.radio(key="journal_method_headed").value == other
    assert [e.label for e in at.expander if " — " in e.label] == shown
