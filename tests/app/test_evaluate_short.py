"""The Evaluate page's short-query task walked on small corpora (issue 43, helper qa14): a corpus without any label
column can run it (it needs none), and its figures are told apart from chance on a corpus of a few papers."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.embedding import embed_corpus
from core.records import Paper
from core.store import Store
from tests.app.background_jobs import wait_for_background
from tests.app.test_evaluate_page import open_evaluate_page
from tests.helpers import make_papers, register_tiny


@pytest.fixture()
def unlabelled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny_model_dir: Path) -> Store:
    """Corpus 'c': 12 papers with only a title and an abstract (no journal, no year), embedded with 'tiny'."""
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    store = Store(tmp_path / "ws")
    register_tiny(store, tiny_model_dir)
    store.import_papers("c", [Paper(id=p.id, title=p.title, abstract=p.abstract) for p in make_papers(4)])
    embed_corpus(store, "c", "tiny")
    assert not store.corpus("c").labels
    return store


def test_a_corpus_without_labels_can_run_the_short_query_task(unlabelled):
    at = open_evaluate_page()
    assert not at.exception
    assert not any("no label column" in w.value for w in at.warning), [w.value for w in at.warning]
    assert any(o.startswith("Short queries") for o in at.multiselect(key="eval_tasks").options)
    at.multiselect(key="eval_tasks").set_value(["short"])
    next(b for b in at.button if b.label == "Run evaluation").click()
    wait_for_background(at.run())
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert table.loc["Short queries, meaning (dense): title recall@1", "n"] == "12"


def test_short_query_figures_on_a_few_papers_are_told_apart_from_chance(unlabelled):
    """On 12 papers any ranking puts the right paper in the top 10 10 times in 12: recall@10 = 1.000 (0.757–1.000)
    says little about the model, and the page and the markdown report say what chance alone gives."""
    at = open_evaluate_page()
    at.multiselect(key="eval_tasks").set_value(["short"])
    next(b for b in at.button if b.label == "Run evaluation").click()
    wait_for_background(at.run())
    assert not at.exception and not at.error
    said = [c.value for c in at.caption if "random ranking" in c.value]
    assert said == ["On 12 papers a random ranking puts a query's paper first 8.3 % of the time and in the top 10 "
                    "83 % of the time (MRR 0.259): compare the short-query figures with that."], said
    from core.evaluation.report import chance_text

    assert chance_text(100_000) is None  # a corpus of any size: chance is negligible
