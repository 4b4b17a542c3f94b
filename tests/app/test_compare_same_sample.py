"""Compare models' "Evaluate X" runs on the papers the other model's stored evaluation used (its sample size, its
seed, its held-out papers), so the two columns of figures are one comparison; the button says so."""

from __future__ import annotations

from core.evaluation import QUICK_TASKS, evaluate_models
from tests.app.background_jobs import wait_for_background
from tests.app.test_compare_page import open_compare, workspace  # noqa: F401 (fixture)
from tests.app.test_pages import texts


def figures(at):
    return next(d.value for d in at.dataframe if d.value.index.name == "measure")


def test_evaluate_b_runs_on_the_sample_of_a_stored_evaluation_of_a(workspace):  # noqa: F811
    evaluate_models(workspace, "c", "journal", ["tiny"], list(QUICK_TASKS), sample=20, seed=3)
    at = open_compare()
    [button] = [b for b in at.button if b.label.startswith("Evaluate")]
    assert button.label == "Evaluate tiny-ft"
    assert "the same 20 papers (seed 3) as the stored evaluation of tiny" in button.proto.help
    wait_for_background(button.click().run())
    assert not at.exception and not at.error
    table = figures(at)
    assert list(table.columns) == ["tiny", "tiny-ft", "n"]
    assert table.loc["Cluster purity (k = 10)", "n"] == "20"
    assert not any("different papers" in c.value for c in at.caption), texts(at.caption)


def test_held_out_papers_of_a_stored_evaluation_are_the_ones_b_is_evaluated_on(workspace):  # noqa: F811
    ids = workspace.papers_frame("c")["id"].astype(str).tolist()[::2]  # 15 papers, as a held-out test set
    evaluate_models(workspace, "c", "journal", ["tiny"], list(QUICK_TASKS), sample=2000, papers=ids)
    at = open_compare()
    button = next(b for b in at.button if b.label == "Evaluate tiny-ft")
    assert "the same 15 papers (seed 0)" in button.proto.help
    wait_for_background(button.click().run())
    table = figures(at)
    assert list(table.columns) == ["tiny", "tiny-ft", "n"] and table.loc["Cluster purity (k = 10)", "n"] == "15"


def test_without_a_stored_evaluation_a_fine_tuned_model_is_evaluated_on_its_held_out_test_papers(workspace, tmp_path):  # noqa: F811,E501
    """Compare's "Evaluate tiny-ft" ran on a random sample of the corpus, its training papers among them, where the
    Evaluate page offers the model's held-out test papers: its figures were flattered. With no stored evaluation to
    share, the button now runs on the fine-tuned model's test papers and says so."""
    import json

    ids = workspace.papers_frame("c")["id"].astype(str).tolist()[1::2]
    (tmp_path / "tiny-ft" / "mired.json").write_text(json.dumps({"test_ids": ids, "config": {"corpus": "c"}}),
                                                     encoding="utf-8")
    at = open_compare()
    button = next(b for b in at.button if b.label == "Evaluate tiny-ft")
    assert f"the {len(ids)} held-out test papers of tiny-ft" in button.proto.help
    wait_for_background(button.click().run())
    assert not at.exception and not at.error
    table = figures(at)
    assert table.loc["Cluster purity (k = 10)", "n"] == str(len(ids))
