"""The evaluation suite on a stored corpus: result shape, the cache, strict JSON, errors, CLI."""

from __future__ import annotations

import json
import math

import pytest

from core.cli import main
from core.errors import CorpusError, MireadError
from core.evaluation import FAMILIES, Result, evaluate_models, label_values, runner, sample_rows
from core.records import md_escape
from tests.helpers import make_papers, register_tiny

ALL_TASKS = ["probe", "purity", "retrieval", "knn", "self", "neighbours"]


@pytest.fixture()
def counted(monkeypatch):
    """Count the protocol runs evaluate_models asks for."""
    calls = []
    real = runner.run_protocols

    def counting(*args, **kwargs):
        calls.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "run_protocols", counting)
    return calls


def test_every_task_gives_rows_for_the_model_and_a_sample_it_reports(tiny_store):
    doc = evaluate_models(tiny_store, "c", "journal", ["tiny"], ALL_TASKS, sample=30, seed=1)
    assert (doc["corpus"], doc["label"], doc["sample"], doc["labelled"], doc["papers"]) == ("c", "journal", 30, 36, 36)
    assert {r["task"] for r in doc["results"]} == set(ALL_TASKS)
    assert all(set(r) >= {"model", "task", "metric", "value", "std"} and r["model"] == "tiny" for r in doc["results"])
    metrics = {(r["task"], r["metric"]) for r in doc["results"]}
    assert {("probe", "macro_f1"), ("purity", "purity@10"), ("purity", "purity@20"), ("retrieval", "ap"),
            ("knn", "knn_accuracy"), ("self", "task2_t100"), ("neighbours", "word_shuffle:aop10")} <= metrics
    assert ("purity", "purity@50") not in metrics  # more clusters than sampled papers
    assert [row["model"] for row in doc["table"]] == ["tiny"]
    assert doc["best"] == {}  # one model beats nobody: nothing in bold
    assert sorted(p["k"] for p in doc["purity"]) == [10, 20]
    assert [r["category"] for r in doc["robustness"]] == ["LL-HS", "LO-HS", "LL-PS", "LO-PS", "LO-DS"]
    assert {f["family"] for f in doc["families"]} == set(FAMILIES)
    assert "should NOT keep" in doc["markdown"] and "| tiny |" in doc["markdown"]
    assert doc["notes"][0]["model"] == "tiny" and "LO-DS" in doc["notes"][0]["text"]


def test_the_sample_is_seeded_and_labelled_papers_only():
    labels = ["a", None, "b", "a", None, "b", "a", "b"]
    first, again = sample_rows(labels, 4, seed=3), sample_rows(labels, 4, seed=3)
    assert first.tolist() == again.tolist() and len(first) == 4
    assert all(labels[i] is not None for i in first) and first.tolist() == sorted(first.tolist())
    assert sample_rows(labels, 100).tolist() == [0, 2, 3, 5, 6, 7]


def test_lists_and_semicolons_become_label_sets():
    singles, sets = label_values(["cs.LG; stat.ML", ["q-bio", "cs.AI"], None, float("nan"), 2009.0, "  "])
    assert singles == ["cs.LG; stat.ML", "cs.AI; q-bio", None, None, "2009", None]
    assert sets[0] == {"cs.LG", "stat.ML"} and sets[1] == {"q-bio", "cs.AI"} and sets[2] == frozenset()
    assert sets[4] == {"2009"}


def test_a_second_run_comes_from_the_cache_without_recomputing(tiny_store, counted):
    first = evaluate_models(tiny_store, "c", "journal", ["tiny"], ["probe", "knn", "self"], sample=30)
    assert counted == [["probe"], ["knn"], ["self"]] and first["cached"] == 0
    second = evaluate_models(tiny_store, "c", "journal", ["tiny"], ["probe", "knn", "self"], sample=30)
    assert len(counted) == 3 and second["cached"] == 3
    assert second["results"] == first["results"]


def test_new_parameters_recompute_but_text_tasks_ignore_the_label_column(tiny_store, counted):
    evaluate_models(tiny_store, "c", "journal", ["tiny"], ["knn", "self"], sample=36)
    evaluate_models(tiny_store, "c", "journal", ["tiny"], ["knn"], sample=36, seed=5)
    assert counted == [["knn"], ["self"], ["knn"]]
    doc = evaluate_models(tiny_store, "c", "year", ["tiny"], ["knn", "self"], sample=36)
    assert counted[3:] == [["knn"]] and doc["cached"] == 1


def test_nan_results_become_null_and_the_document_is_strict_json(tiny_store, monkeypatch):
    def fake(X, labels, tasks, *, model, **_):
        return [Result(model, tasks[0], "score", math.nan, math.nan, len(labels))]

    monkeypatch.setattr(runner, "run_protocols", fake)
    doc = evaluate_models(tiny_store, "c", "journal", ["tiny"], ["knn"], sample=10)
    assert doc["results"][0]["value"] is None and doc["results"][0]["std"] is None
    assert doc["table"] == [{"model": "tiny", "knn:score": None}]
    json.dumps(doc, allow_nan=False)
    cached = evaluate_models(tiny_store, "c", "journal", ["tiny"], ["knn"], sample=10)
    assert cached["results"][0]["value"] is None and "–" in cached["markdown"]


def test_a_model_that_cannot_load_is_reported_and_the_others_still_run(tiny_store):
    doc = evaluate_models(tiny_store, "c", "journal", ["tiny", "scibert"], ["knn"], sample=20)
    assert {r["model"] for r in doc["results"]} == {"tiny"}
    [error] = doc["errors"]
    assert error["model"] == "scibert" and "Hugging Face hub" in error["error"]
    assert "scibert" in doc["markdown"]
    with pytest.raises(MireadError, match="Hugging Face hub"):
        evaluate_models(tiny_store, "c", "journal", ["scibert"], ["knn"], sample=20)


def test_a_task_that_cannot_run_is_reported_beside_the_others(tiny_store):
    papers = make_papers(12)
    tiny_store.import_papers("one", papers[:9] + papers[-1:])  # nine J. Astro papers and one J. Econ
    doc = evaluate_models(tiny_store, "one", "journal", ["tiny"], ["probe", "knn"], sample=100)
    assert [e["task"] for e in doc["errors"]] == ["probe"] and "at least two labels" in doc["errors"][0]["error"]
    assert {r["task"] for r in doc["results"]} == {"knn"}


def test_bad_requests_are_one_sentence(tiny_store):
    with pytest.raises(CorpusError, match="no label column 'venue'"):
        evaluate_models(tiny_store, "c", "venue", ["tiny"], ["knn"])
    with pytest.raises(MireadError, match="unknown evaluation task 'speed'"):
        evaluate_models(tiny_store, "c", "journal", ["tiny"], ["speed"])
    with pytest.raises(MireadError, match="at least one model"):
        evaluate_models(tiny_store, "c", "journal", [" "], ["knn"])


def test_untrusted_model_names_cannot_break_the_markdown_table(tiny_store, tiny_model_dir):
    register_tiny(tiny_store, tiny_model_dir, name="a|b *x* [y](z)")
    doc = evaluate_models(tiny_store, "c", "journal", ["a|b *x* [y](z)"], ["knn"], sample=20)
    row = next(line for line in doc["markdown"].splitlines() if line.startswith("| a"))
    assert row.startswith(r"| a\|b \*x\* \[y\](z) |")
    assert row.count(" | ") == doc["markdown"].splitlines()[2].count(" | ")
    assert md_escape("$x$ <b>") == r"\$x\$ \<b\>"


def test_the_cli_prints_the_same_results_as_json_and_as_a_table(tiny_store, capsys):
    argv = ["--workspace", str(tiny_store.root), "evaluate", "--corpus", "c", "--label", "journal",
            "--models", "tiny", "--tasks", "probe,knn", "--sample", "30"]
    assert main(argv + ["--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["corpus"], doc["label"], doc["sample"]) == ("c", "journal", 30) and "markdown" not in doc
    assert {(r["model"], r["task"]) for r in doc["results"]} == {("tiny", "probe"), ("tiny", "knn")}
    assert all(isinstance(r["value"], float) for r in doc["results"])
    assert main(argv) == 0
    text = capsys.readouterr().out
    f1 = next(r["value"] for r in doc["results"] if r["metric"] == "macro_f1")
    assert "| tiny |" in text and f"{f1:.3f}" in text


def test_the_cli_reports_an_unknown_label_as_one_line(tiny_store, capsys):
    argv = ["--workspace", str(tiny_store.root), "evaluate", "--corpus", "c", "--label", "venue", "--models", "tiny"]
    assert main(argv) == 2
    assert capsys.readouterr().err.strip().startswith("error: corpus 'c' has no label column 'venue'")


def test_a_sample_embeds_only_the_sampled_papers(tiny_store):
    """Issue 44: 'Sample 600' embedded all 9,993 papers of the corpus with the new model."""
    from core.embedding import get_model, vectors_fingerprint

    fp = vectors_fingerprint(get_model("tiny", tiny_store))
    assert len(tiny_store.missing_hashes("c", fp)) == 36
    said: list[str] = []
    doc = evaluate_models(tiny_store, "c", "journal", ["tiny"], ["knn"], sample=10, seed=2, status=said.append)
    assert doc["sample"] == 10 and len(tiny_store.missing_hashes("c", fp)) == 26  # 10 embedded, 26 left alone
    assert "tiny: embedding 10 of the 10 sampled papers" in said
    hashes = tiny_store.paper_hashes("c")
    sampled = runner.draw_sample(tiny_store, "c", "journal", 10, 2).rows
    assert not set(tiny_store.missing_hashes("c", fp)) & {hashes[i] for i in sampled}
    again = evaluate_models(tiny_store, "c", "journal", ["tiny"], ["probe"], sample=10, seed=2, status=said.append)
    assert again["results"] and len(tiny_store.missing_hashes("c", fp)) == 26  # the same sample: nothing new
