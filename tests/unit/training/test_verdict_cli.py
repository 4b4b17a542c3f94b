"""The same verdict everywhere: `train`, the model card, `models --json` and `evaluate --held-out` (issue 29, §3)."""

from __future__ import annotations

import json

from core.cli import main
from core.embedding import get_model
from core.evaluation import Verdict
from core.store import Store
from tests.unit.training.support import add_corpus, one_torch_thread


def run_json(capsys, workspace: str, *args: str) -> dict:
    code = main(["--workspace", workspace, *args, "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def test_train_models_and_evaluate_report_the_same_verdict_with_n_and_interval(tmp_path, capsys, tiny_model_dir):
    workspace = str(tmp_path / "ws")
    store = add_corpus(Store(workspace))
    with one_torch_thread():
        trained = run_json(capsys, workspace, "train", "--corpus", "toy", "--label", "journal", "--base",
                           str(tiny_model_dir), "--epochs", "1", "--batch-size", "8", "--max-length", "48",
                           "--device", "cpu", "--val-fraction", "0.25", "--test-fraction", "0.25", "--name", "cli-v")
    verdict = Verdict.from_dict(trained["metrics"]["verdict"])
    assert verdict.n == 9 and verdict.split == "test"  # 3 of each journal's 12 papers
    assert trained["verdict_sentence"] == verdict.sentence(f"its base {tiny_model_dir}")
    assert get_model("cli-v", store).verdict == trained["metrics"]["verdict"]  # the model card

    [card] = [m for m in run_json(capsys, workspace, "models")["models"] if m["name"] == "cli-v"]
    assert Verdict.from_dict(card["verdict"]) == verdict and card["verdict"]["kind"] == verdict.kind
    assert card["verdict_sentence"] == trained["verdict_sentence"]
    assert all(m["verdict"] is None for m in run_json(capsys, workspace, "models")["models"] if m["name"] != "cli-v")

    evaluated = run_json(capsys, workspace, "evaluate", "--corpus", "toy", "--label", "journal", "--models", "cli-v",
                         "--tasks", "knn", "--held-out")
    assert evaluated["held_out"] and evaluated["sample"] == 9
    assert {r["n"] for r in evaluated["results"]} == {9}


def test_evaluate_held_out_without_a_fine_tuned_model_is_one_sentence(tmp_path, capsys, tiny_model_dir):
    workspace = str(tmp_path / "ws")
    add_corpus(Store(workspace))
    code = main(["--workspace", workspace, "evaluate", "--corpus", "toy", "--label", "journal", "--models",
                 str(tiny_model_dir), "--tasks", "knn", "--held-out"])
    assert code == 2 and "was fine-tuned on corpus 'toy' with held-out test papers" in capsys.readouterr().err
