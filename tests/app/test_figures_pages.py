"""Visual summaries on the pages: similar-paper results, the Evaluate page's figures task, the Train page's form."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.cli import main
from core.embedding import embed_corpus
from core.store import Store, is_held_out
from tests.app.background_jobs import wait_for_background
from tests.app.test_pages import open_app, texts, widget
from tests.helpers import register_tiny

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real" / "jats"


@pytest.fixture()
def jats_workspace(tmp_path, monkeypatch, tiny_model_dir, capsys) -> Store:
    """Corpus 'pmc': the three real JATS articles with their figures, embedded with the tiny model."""
    workspace = tmp_path / "ws"
    monkeypatch.setenv("MIREAD_WORKSPACE", str(workspace))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    assert main(["--workspace", str(workspace), "import", *map(str, sorted(REAL.glob("*.xml"))),
                 "--corpus", "pmc"]) == 0
    capsys.readouterr()
    store = Store(workspace)
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, "pmc", "tiny")
    return store


def test_similar_results_show_each_papers_visual_summary(jats_workspace):
    at = open_app("app_pages/similar.py")
    at.radio[0].set_value("Pick a paper from the corpus").run()
    widget(at.button, "Find similar papers").click().run()
    assert not at.exception and not at.error
    results = at.dataframe[0].value
    assert len(results) == 2 and "figure" in results.columns
    assert all(" — " in f and f.lower().startswith("fig") for f in results["figure"])
    shown = texts(at.markdown)
    assert "Visual summary" in shown
    captions = {f["caption"] for figs in jats_workspace.figures("pmc").values() for f in figs}
    assert any(c.value in captions for c in at.caption)


def test_the_evaluate_page_runs_the_figures_task_beside_its_baselines(jats_workspace):
    seed = next(s for s in range(100) if any(is_held_out(p.pid, s) for p in jats_workspace.figure_papers("pmc")))
    at = open_app("app_pages/evaluate.py")
    assert any(o.startswith("Figures") for o in at.multiselect(key="eval_tasks").options)
    at.multiselect(key="eval_models").set_value(["tiny"])
    at.multiselect(key="eval_tasks").set_value(["figures"])
    at.number_input(key="eval_seed").set_value(seed)
    widget(at.button, "Run evaluation").click()
    wait_for_background(at.run())  # the evaluation runs in a background thread (issue 32)
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert {"random (baseline)", "pick-first (baseline)", "tiny"} <= set(table.columns)
    assert {"Figures acc@1", "Figures acc@3", "Figures mrr"} <= set(table.index)


def test_the_train_page_offers_the_figure_scorer(jats_workspace):
    at = open_app("app_pages/train.py")
    assert not at.exception
    assert at.selectbox(key="fig_corpus").options == ["pmc"]
    assert any(b.label == "Train the figure scorer" for b in at.button)


def test_the_visual_summary_says_how_sure_its_choice_is(jats_workspace):
    """The chosen figure said only '(score 0.572)', a bare cosine that does not tell a clear choice from a toss-up;
    it now names the runner-up and how far behind it is (or that the paper has one figure)."""
    at = open_app("app_pages/similar.py")
    at.radio[0].set_value("Pick a paper from the corpus").run()
    widget(at.button, "Find similar papers").click().run()
    assert not at.exception and not at.error
    said = [m.value for m in at.markdown if "Visual summary" in m.value]
    assert said and all("runner-up" in s or "its only figure" in s for s in said), said
    assert any(" lower" in s or "toss-up" in s for s in said), said
