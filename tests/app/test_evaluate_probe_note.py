"""Evaluate: the linear probe drops the labels that fewer sampled papers carry than it has folds. On pubmed-demo
'400 of 2,999 labelled papers sampled' stood above 'Linear probe macro-F1 … n 50' with no word of the 350 papers
left out; the page says how many papers and labels the probe kept."""

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
def rare_journals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny_model_dir: Path) -> Store:
    """Corpus 'c': three journals of 12 papers and three journals of one paper each."""
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    store = Store(tmp_path / "ws")
    register_tiny(store, tiny_model_dir)
    rare = [Paper(id=f"rare-{i}", title=f"A lone study number {i}", abstract=f"Lone work {i} on rare things.",
                  fields={"journal": f"J. Rare {i}", "year": 2001}) for i in range(3)]
    store.import_papers("c", make_papers(12) + rare)
    embed_corpus(store, "c", "tiny")
    return store


def test_the_papers_the_linear_probe_leaves_out_are_said(rare_journals):
    at = open_evaluate_page()
    at.multiselect(key="eval_tasks").set_value(["probe", "knn"])
    at.number_input(key="eval_sample").set_value(39)
    next(b for b in at.button if b.label == "Run evaluation").click()
    wait_for_background(at.run())
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert table.loc["Linear probe macro-F1", "n"] == "36" and table.loc["kNN accuracy (k = 10 vote)", "n"] == "39"
    notes = [c.value for c in at.caption if "Linear probe" in c.value]
    assert notes, [c.value for c in at.caption]
    assert "36 of the 39" in notes[0] and "3 labels" in notes[0] and "fewer than 4" in notes[0], notes[0]
