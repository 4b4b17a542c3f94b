"""Evaluate: clustering purity with nearly as many clusters as papers is near 1 whatever the model (109 papers read
'Cluster purity (k = 100) 0.927'); the page says which k leave fewer than 5 papers per cluster."""

from __future__ import annotations

from tests.app.background_jobs import wait_for_background
from tests.app.test_evaluate_page import open_evaluate_page, workspace  # noqa: F401 (fixture)


def run_purity_on_30():
    """The Evaluate page after a purity run on a sample of 30 papers, without an exception or an error."""
    at = open_evaluate_page()
    at.multiselect(key="eval_tasks").set_value(["purity"])
    at.number_input(key="eval_sample").set_value(30)
    next(b for b in at.button if b.label == "Run evaluation").click()
    wait_for_background(at.run())
    assert not at.exception and not at.error
    return at


def test_purity_with_few_papers_per_cluster_is_flagged(workspace):  # noqa: F811
    at = run_purity_on_30()
    notes = [c.value for c in at.caption if "papers per cluster" in c.value]
    assert notes and "k = 10, 20" in notes[0] and "30 papers" in notes[0], [c.value for c in at.caption]


def test_the_purity_note_claims_nothing_the_figures_beside_it_deny(tmp_path, monkeypatch, tiny_model_dir):
    """pubmed-demo at 'Sample 400': 'Cluster purity (k = 100) 0.320' beside 'purity there approaches 1 whatever the
    model': with a label nearly every paper has to itself, crowded clusters stay impure. The note says what holds."""
    from dataclasses import replace

    from core.embedding import embed_corpus
    from core.store import Store
    from tests.helpers import make_papers, register_tiny

    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    store = Store(tmp_path / "ws")
    register_tiny(store, tiny_model_dir)
    papers = [replace(p, fields={**p.fields, "journal": f"J. {i}"}) for i, p in enumerate(make_papers(10))]
    store.import_papers("c", papers)
    embed_corpus(store, "c", "tiny")
    at = run_purity_on_30()
    assert at.dataframe[0].value.loc["Cluster purity (k = 10)", "n"] == "30"
    [note] = [c.value for c in at.caption if "papers per cluster" in c.value]
    assert "approaches 1" not in note and "rises with k" in note, note
