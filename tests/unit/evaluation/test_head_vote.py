"""Head against neighbour vote on held-out papers: the model's test split on its training corpus, else a sample."""

from __future__ import annotations

import pytest

from core.embedding import embed_corpus, get_model
from core.evaluation import Verdict, head_and_vote, method_summary
from core.explore import predict_journals
from core.training import run_foreground
from tests.helpers import make_papers
from tests.unit.training.support import add_corpus, one_torch_thread, tiny_config


@pytest.fixture()
def trained(store, tiny_model_dir):
    """The toy corpus, a model fine-tuned on it (its head, its 6 test papers), and its vectors of the corpus."""
    add_corpus(store)
    with one_torch_thread():
        job = run_foreground(store, tiny_config(tiny_model_dir, name="headed", epochs=1))
    assert job["status"] == "completed"
    return store, get_model("headed", store)


def test_head_and_vote_are_measured_on_the_models_test_papers_with_n_and_intervals(trained):
    store, spec = trained
    assert head_and_vote(store, "toy", spec, "journal") is None  # not embedded: the page never embeds on its own
    embed_corpus(store, "toy", spec)
    measured = head_and_vote(store, "toy", spec, "journal")
    assert measured["split"] == "test" and measured["papers"] == 6 == spec.verdict["n"]
    for method in ("head", "knn"):
        figures = measured[method]
        assert figures["top1_low"] <= figures["top1"] <= figures["top1_high"]
        assert 0 <= figures["ece"] <= 1 and figures["nll"] > 0 and figures["calibrated_on"] == 6
    difference = Verdict.from_dict(measured["difference"])
    assert difference.n == 6 and difference.new == measured["head"]["top5"] == 1.0  # 3 journals: all in the top 5
    assert measured["best"] == ("head" if measured["head"]["top5"] > measured["knn"]["top5"] else "knn")
    assert head_and_vote(store, "toy", spec, "journal") == measured  # cached
    summary = method_summary(measured, "knn")
    assert summary.startswith("neighbour vote: top-5 ") and "on 6 held-out test papers" in summary


def test_on_another_corpus_the_head_is_measured_on_a_held_out_sample(trained):
    store, spec = trained
    store.import_papers("other", make_papers(8))
    embed_corpus(store, "other", spec)
    measured = head_and_vote(store, "other", spec, "journal")
    assert measured["split"] == "sample" and measured["papers"] == 24
    assert "on 24 sampled labelled papers" in method_summary(measured, "head")  # not held out of any training


def test_the_page_can_ask_for_the_vote_of_a_model_that_has_a_head(trained):
    store, spec = trained
    embed_corpus(store, "toy", spec)
    paper = store.papers("toy")[0]
    asked = dict(title=paper.title, abstract=paper.abstract, corpus="toy", label_column="journal")
    assert predict_journals(store, spec, **asked).method == "head"
    vote = predict_journals(store, spec, method="knn", **asked)
    assert vote.method == "knn" and vote.predictions[0]["neighbours"] > 0
