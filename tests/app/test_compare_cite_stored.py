"""Compare models: a model with only cite (citations) results stored showed no figures at all on Compare, though the
Evaluate page showed them, and the evaluation table was cut off in the page's narrow side column (a walk). Compare
shows the stored cite figures as Evaluate does, in a table as wide as the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.embedding import embed_corpus
from core.evaluation import evaluate_models
from core.io import read_papers
from core.store import Store
from tests.app.test_compare_page import open_compare
from tests.helpers import add_fine_tuned_twin, register_tiny

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "citations" / "arxiv_150.jsonl"


@pytest.fixture()
def cited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny_model_dir: Path) -> Store:
    """Corpus 'c' (150 arXiv papers with their citation links) embedded with 'tiny' and 'tiny-ft'."""
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    store = Store(tmp_path / "ws")
    store.import_papers("c", read_papers(FIXTURE))
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, "c", "tiny")
    add_fine_tuned_twin(store, tmp_path / "tiny-ft")
    return store


def test_stored_cite_figures_are_shown_as_evaluate_shows_them_and_at_full_width(cited):
    doc = evaluate_models(cited, "c", "category", ["tiny"], ["cite"])  # the Evaluate page's run: cite only
    expected = {r["metric"]: r["value"] for r in doc["results"] if r["model"] == "tiny"}
    at = open_compare()
    figures = next(d.value for d in at.dataframe if d.value.index.name == "measure")
    assert {"Citations MAP", "Citations nDCG"} <= set(figures.index), figures
    assert str(figures.loc["Citations MAP", "tiny"]).startswith(f"{expected['MAP']:.3f}"), figures
    in_columns = [d.value for column in at.columns for d in column.dataframe]
    assert not any(getattr(v.index, "name", None) == "measure" for v in in_columns)  # not in the narrow side column
    said = [c.value for c in at.caption if "No stored" in c.value]
    assert any("No stored run of the quick protocols" in c and "**tiny**" in c for c in said), said
    assert not any("No stored evaluation of **tiny**" in c for c in said), said  # its cite figures are stored
