"""`evaluate`'s progress bar counts steps (an embedding or a task of one model), so it says steps, not papers: it
read '6/6 [00:01, 3.12paper/s]' for two models and two tasks."""

from __future__ import annotations

from core.cli import main


def test_the_evaluate_progress_bar_counts_steps_not_papers(tiny_store, capsys):
    argv = ["--workspace", str(tiny_store.root), "evaluate", "--corpus", "c", "--label", "journal",
            "--models", "tiny", "--tasks", "knn,probe", "--sample", "30"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "evaluating" in err and "step" in err
    assert "paper/s" not in err and "papers/s" not in err
