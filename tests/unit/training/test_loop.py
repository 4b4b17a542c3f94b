"""Fine-tuning in-process on a tiny random BERT: selection, validation, objective pieces, the loop."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import torch

from core.embedding import HEAD_FILE, META_FILE, Encoder, get_model, load_backbone
from core.errors import TrainingError
from core.evaluation import Verdict
from core.plots import training_curves_figure
from core.training import (
    PROBE_SPLIT,
    TrainConfig,
    base_comparison,
    class_preview,
    metrics_frame,
    param_groups,
    pk_batches,
    run_foreground,
    run_training,
    select,
    select_classes,
    similarity_distill_loss,
    supcon_loss,
    validate_config,
)
from core.training.recording import QuietRecorder
from core.training.run import TrainingRun
from tests.unit.training.support import add_corpus, one_torch_thread, tiny_config


@pytest.fixture(autouse=True)
def _one_thread():
    with one_torch_thread():
        yield


@pytest.fixture()
def store(store):
    """The conftest's empty store, with the three-journal corpus 'toy'."""
    return add_corpus(store)


@pytest.fixture()
def tiny_base(tiny_model_dir: Path) -> Path:
    return tiny_model_dir


def train_losses(store, job_id: str) -> list[float]:
    frame = metrics_frame(store, job_id)
    return frame[(frame.split == "train") & (frame.name == "loss")]["value"].tolist()


def test_select_classes_drops_small_classes_and_caps_large_ones():
    labels = ["a"] * 10 + ["b"] * 3 + ["c"] * 6 + [None, "", float("nan")]
    kept, rows = select_classes(labels, min_per_class=4, max_per_class=5, seed=0)
    assert kept == ["a", "c"]
    chosen = [labels[i] for i in rows]
    assert chosen.count("a") == 5 and chosen.count("c") == 5 and "b" not in chosen
    assert list(rows) == sorted(rows)
    assert list(select_classes(labels, 4, 5, seed=0)[1]) == list(rows)


def test_class_preview_counts_papers_and_marks_used_classes(store):
    preview = class_preview(store, "toy", "journal", min_per_class=13)
    assert list(preview.columns[:3]) == ["label", "papers", "used"]
    assert preview["papers"].tolist() == [12, 12, 12] and not preview["used"].any()
    preview = class_preview(store, "toy", "journal", max_per_class=10)
    assert preview["used"].all() and preview["sampled"].tolist() == [10, 10, 10]


@pytest.mark.parametrize(("max_papers", "expected"), [(4, 6), (10, 10), (20, 20), (36, 36), (1000, 36)])
def test_class_preview_applies_max_papers_exactly_as_the_training_selection_does(store, tiny_base, max_papers,
                                                                                  expected):
    preview = class_preview(store, "toy", "journal", max_papers=max_papers, seed=5)
    sel = select(store.papers_frame("toy", with_abstract=False), tiny_config(tiny_base, max_papers=max_papers, seed=5))
    assert int(preview["sampled"].sum()) == len(sel.rows) == expected  # 4 asks 2 per class at least: 6
    per_class = dict(zip(preview["label"], preview["sampled"]))
    assert [per_class[name] for name in sel.classes] == np.bincount(sel.y).tolist()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"label": "field"}, "training needs 2 or more"),
        ({"label": "colour"}, "has no column 'colour' \\(label columns: journal\\)"),
        ({"base": "no-such-model"}, "unknown base model 'no-such-model'"),
        ({"corpus": "nope"}, "no corpus named 'nope'"),
        ({"batch_size": 0}, "batch size must be at least 1"),
        ({"name": "../evil"}, "is not allowed"),
        ({"name": "minilm"}, "already exists"),
        ({"objective": "magic"}, "objective must be one of"),
        ({"objective": "ce+supcon", "batch_size": 2}, "ce\\+supcon needs a batch size of at least 4"),
    ],
)
def test_validate_config_refuses_impossible_runs_in_one_sentence(store, tiny_base, overrides, message):
    with pytest.raises(TrainingError, match=message):
        validate_config(store, tiny_config(tiny_base, **overrides))


@pytest.mark.parametrize("objective", ["ce", "cos"])
def test_classifier_objectives_train_with_any_batch_size(store, tiny_base, objective):
    validate_config(store, tiny_config(tiny_base, objective=objective, batch_size=1))


def test_supcon_loss_is_lower_for_clustered_vectors_than_for_random_ones():
    labels = torch.tensor([0, 0, 0, 1, 1, 1, 2, 2, 2])
    centres = torch.eye(3, 16) * 5
    clustered = centres[labels] + 0.01 * torch.randn(9, 16, generator=torch.Generator().manual_seed(0))
    random = torch.randn(9, 16, generator=torch.Generator().manual_seed(1))
    assert supcon_loss(clustered, labels, 0.1) < supcon_loss(random, labels, 0.1)
    assert float(supcon_loss(random, torch.arange(9), 0.1)) == 0.0  # no positives, no loss


def test_similarity_distill_loss_is_zero_for_a_rescaled_copy_and_positive_for_other_geometry():
    teacher = torch.randn(6, 16, generator=torch.Generator().manual_seed(0))
    other = torch.randn(6, 16, generator=torch.Generator().manual_seed(1))
    assert float(similarity_distill_loss(3 * teacher, teacher)) < 1e-10
    assert float(similarity_distill_loss(other, teacher)) > 0.01


def test_pk_batches_hold_p_labels_of_k_papers_and_cover_every_paper_once():
    labels = np.repeat(np.arange(6), 8)
    batches = pk_batches(labels, classes_per_batch=3, per_class=4, rng=np.random.default_rng(0))
    assert sorted(np.concatenate(batches).tolist()) == list(range(len(labels)))
    for batch in batches:
        counts = np.bincount(labels[batch])
        assert len(np.flatnonzero(counts)) <= 3 and counts.max() <= 4


def test_layer_decay_gives_lower_layers_smaller_learning_rates(tiny_base):
    _, backbone = load_backbone(get_model(str(tiny_base)))
    groups = param_groups(backbone, lr=1.0, layer_decay=0.5)
    rates = sorted({g["lr"] for g in groups})
    assert rates == [0.25, 0.5, 1.0]  # embeddings, layer 0, layer 1 (top)


def test_training_saves_a_checkpoint_that_embeds_and_predicts(store, tiny_base):
    job = run_foreground(store, tiny_config(tiny_base, name="toy-model"))
    assert job["status"] == "completed" and job["model"] == "toy-model"
    assert set(job["metrics"]) >= {"val_loss", "val_accuracy", "val_top5_accuracy"}
    frame = metrics_frame(store, job["id"])
    assert {"loss", "lr", "samples_per_s", "batch_accuracy"} <= set(frame[frame.split == "train"].name)
    assert "accuracy" not in set(frame[frame.split == "train"].name)  # batches the head warm-up memorised
    for split in ("val", PROBE_SPLIT, "base"):
        assert {"loss", "accuracy", "top5_accuracy"} <= set(frame[frame.split == split].name)
    spec = get_model("toy-model", store)
    folder = Path(spec.location)
    meta = json.loads((folder / META_FILE).read_text())
    assert (folder / HEAD_FILE).exists() and (folder / "model.safetensors").exists()
    assert meta["labels"] == ["J. Astro", "J. Bio", "J. Econ"] and meta["pooling"] == "mean"
    assert meta["config"]["name"] == "toy-model" and meta["metrics"]["steps"] == job["metrics"]["steps"]
    encoder = Encoder(spec, device="cpu")
    papers = store.papers("toy")[:4]
    vectors = encoder.encode(papers)
    assert vectors.shape == (4, 32)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    probabilities = encoder.predict(papers)
    assert probabilities.shape == (4, 3)
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, atol=1e-5)


def test_same_seed_gives_identical_losses_on_cpu(store, tiny_base):
    first = run_foreground(store, tiny_config(tiny_base, seed=3))
    second = run_foreground(store, tiny_config(tiny_base, seed=3))
    other = run_foreground(store, tiny_config(tiny_base, seed=4))
    assert first["model"] != second["model"]  # a free default name each time
    assert train_losses(store, first["id"]) == train_losses(store, second["id"])
    assert train_losses(store, first["id"]) != train_losses(store, other["id"])


def test_supcon_objective_with_head_warmup_and_layer_decay_completes(store, tiny_base):
    cfg = tiny_config(tiny_base, objective="ce+supcon", head_warmup_epochs=3, layer_decay=0.8, grad_accum=2)
    job = run_foreground(store, cfg)
    assert job["status"] == "completed"
    frame = metrics_frame(store, job["id"])
    assert "supcon_loss" in set(frame.name)
    assert (frame[frame.split == "val"].step == 0).any()  # evaluated after the head warm-up


def test_supcon_only_with_distillation_logs_both_terms_and_saves_a_head_that_predicts(store, tiny_base):
    job = run_foreground(store, tiny_config(tiny_base, objective="supcon", distill_weight=1.0, epochs=1))
    assert job["status"] == "completed"
    assert {"supcon_loss", "distill_loss", "ce_loss"} <= set(metrics_frame(store, job["id"]).name)
    probabilities = Encoder(get_model(job["model"], store), device="cpu").predict(store.papers("toy")[:3])
    assert probabilities.shape == (3, 3)


def test_should_stop_cancels_at_the_next_step_without_a_model(store, tiny_base):
    calls = []

    def stop_after_three() -> bool:
        calls.append(1)
        return len(calls) > 3

    job = run_foreground(store, tiny_config(tiny_base, name="never", epochs=20), should_stop=stop_after_three)
    assert job["status"] == "cancelled"
    assert "never" not in {m["name"] for m in store.saved_models()}


def test_a_batch_that_does_not_fit_in_memory_fails_with_one_sentence(store, tiny_base, monkeypatch):
    def out_of_memory(self, idx):
        raise MemoryError

    monkeypatch.setattr(TrainingRun, "step_loss", out_of_memory)
    with pytest.raises(TrainingError, match="batch size 8 does not fit in memory"):
        run_training(store, tiny_config(tiny_base, name="oom"), job_id="manual")


def test_config_round_trips_through_a_dict_and_explains_every_field():
    cfg = TrainConfig(corpus="c", label="journal", epochs=0.5)
    assert TrainConfig.from_dict({**cfg.to_dict(), "unknown": 1}) == cfg
    assert set(TrainConfig.HELP) == set(cfg.to_dict())


def test_cosine_head_is_saved_as_unit_centres_and_predicts_like_training_did(store, tiny_base):
    cfg = tiny_config(tiny_base, objective="cos", temperature=0.05, head_warmup_epochs=1, epochs=1, name="cos-model")
    job = run_foreground(store, cfg)
    assert job["status"] == "completed"
    spec = get_model("cos-model", store)
    meta = json.loads((Path(spec.location) / META_FILE).read_text())
    assert meta["head_input"] == "unit"
    papers = store.papers("toy")
    encoder = Encoder(spec, device="cpu", fast=False)
    vectors = encoder.encode(papers)  # unit vectors
    from safetensors.torch import load_file

    head = load_file(str(Path(spec.location) / HEAD_FILE))
    calibrated = meta["head_temperature"]  # fitted on validation: softmax(logits / T)
    assert calibrated > 0 and meta["metrics"]["head_temperature"] == calibrated
    centres = head["weight"].numpy() * 0.05 * calibrated  # saved as unit centres / temperature / T
    np.testing.assert_allclose(np.linalg.norm(centres, axis=1), 1.0, atol=1e-5)
    logits = vectors @ centres.T / 0.05 / calibrated
    expected = np.exp(logits - logits.max(1, keepdims=True))
    expected /= expected.sum(1, keepdims=True)
    np.testing.assert_allclose(encoder.predict(papers), expected, atol=1e-4)


def test_a_fine_tuned_head_suggests_journals_before_its_corpus_is_embedded_and_adds_evidence_after(store, tiny_base):
    from core.embedding import embed_corpus
    from core.explore import predict_journals

    job = run_foreground(store, tiny_config(tiny_base, name="head-model", epochs=1))
    paper = store.papers("toy")[0]
    first = predict_journals(store, "head-model", title=paper.title, abstract=paper.abstract, corpus="toy",
                             label_column="journal")
    assert first.method == "head" and len(first.predictions) == 3
    assert "not embedded with 'head-model'" in first.note
    assert all(p["evidence_papers"] == [] for p in first.predictions)
    embed_corpus(store, "toy", job["model"])
    second = predict_journals(store, "head-model", title=paper.title, abstract=paper.abstract, corpus="toy",
                              label_column="journal")
    assert second.note is None and any(p["evidence_papers"] for p in second.predictions)
    assert [p["label"] for p in second.predictions] == [p["label"] for p in first.predictions]


@pytest.mark.parametrize("warmup", [20.0, 0.5])
def test_train_probe_papers_are_training_papers_the_head_warm_up_never_sees(store, tiny_base, warmup):
    run = TrainingRun(store, tiny_config(tiny_base, head_warmup_epochs=warmup), "manual", lambda: False)
    run.warm_up_head(np.random.default_rng(0), QuietRecorder())
    probe, warmed = set(run.probe.tolist()), set(run.warmed_on.tolist())
    assert len(probe) == 5 and probe <= set(run.sel.train.tolist())
    assert warmed and not probe & warmed and not probe & set(run.sel.val.tolist())
    assert not (probe | warmed) & set(run.sel.test.tolist())  # the head warm-up never sees a test paper
    if warmup >= 1:
        assert probe | warmed == set(run.sel.train.tolist())


def test_the_base_score_is_logged_before_fine_tuning_and_the_final_metrics_say_whether_the_model_beats_it(
        store, tiny_base):
    job = run_foreground(store, tiny_config(tiny_base, seed=1))
    frame = metrics_frame(store, job["id"])
    base = frame[frame.split == "base"].set_index("name")["value"]
    first_val = frame[(frame.split == "val") & (frame.step == 0)].set_index("name")["value"]
    assert (frame[frame.split == "base"].step == 0).all() and base.to_dict() == first_val.to_dict()
    assert (frame[(frame.split == PROBE_SPLIT) & (frame.name == "accuracy")].step.min()) == 0
    final = job["metrics"]
    assert final["base_val_accuracy"] == base["accuracy"] and final["base_val_loss"] == base["loss"]
    assert final["val_accuracy_gain"] == pytest.approx(final["val_accuracy"] - final["base_val_accuracy"])
    verdict = Verdict.from_dict(final["verdict"])
    assert verdict.split == "test" and verdict.n == final["test_papers"] == 6  # 2 of each journal's 12 papers
    assert verdict.low <= verdict.change <= verdict.high
    assert final["beats_base"] is False and verdict.kind == "too few test papers to judge"  # 6 < 30 test papers
    assert verdict.classes == 3 and verdict.high - verdict.change >= 1 - 0.025 ** (1 / 6) - 1e-12
    assert verdict.new == final["test_accuracy"] and verdict.base == final["base_test_accuracy"]
    assert final["probe_papers"] == 5 and 0 <= final["train_probe_accuracy"] <= 1
    assert get_model(job["model"], store).verdict == final["verdict"]  # the model card carries the same figures


def test_a_run_without_test_papers_is_never_judged_on_its_validation_papers(store, tiny_base):
    """Issue 44: with no test papers the verdict came from validation papers (which early stopping used) and read
    'no measurable change (±0.0 points on 105 validation papers)'."""
    job = run_foreground(store, tiny_config(tiny_base, test_fraction=0.0, epochs=1))
    verdict = Verdict.from_dict(job["metrics"]["verdict"])
    assert verdict.split == "test" and verdict.n == 0 and verdict.kind == "too few test papers to judge"
    assert job["metrics"]["beats_base"] is False
    sentence = base_comparison(job["metrics"], "its base tiny")
    assert sentence.startswith("The new model: too few test papers to judge (0 in 0 classes") and "validation" not in sentence


def test_without_head_warm_up_there_is_no_base_score_to_compare_with(store, tiny_base):
    job = run_foreground(store, tiny_config(tiny_base, head_warmup_epochs=0, epochs=1))
    assert job["metrics"]["beats_base"] is None and job["metrics"]["base_val_accuracy"] is None
    assert "base" not in set(metrics_frame(store, job["id"]).split)
    assert base_comparison(job["metrics"]) is None


def test_base_comparison_is_the_stored_verdict_sentence_and_old_runs_claim_nothing():
    verdict = Verdict(n=612, new=0.412, base=0.351, low=0.023, high=0.098)
    better = base_comparison({"verdict": verdict.to_dict()}, "its base minilm")
    assert better == verdict.sentence("its base minilm")
    assert better.startswith("The new model beats its base minilm on 612 held-out test papers: test accuracy 41.2% "
                             "against 35.1%, +6.1 points (95 % interval +2.3 to +9.8)")
    old = base_comparison({"val_accuracy": 0.75, "base_val_accuracy": 0.7, "val_papers": 30}, "its base minilm")
    assert "on 30 papers and without an interval" in old and "cannot say whether" in old


def test_training_curves_draw_the_base_score_as_a_dashed_line_across_the_run():
    metrics = pd.DataFrame({
        "step": [0, 0, 0, 0, 5, 10, 10, 10],
        "split": ["train", "val", "base", PROBE_SPLIT, "train", "train", "val", PROBE_SPLIT],
        "name": ["loss", "accuracy", "accuracy", "accuracy", "loss", "loss", "accuracy", "accuracy"],
        "value": [0.2, 0.6, 0.6, 0.5, 0.4, 0.3, 0.7, 0.9],
    })
    data = training_curves_figure(metrics, "accuracy").to_dict()["data"]
    assert [t["name"] for t in data] == [PROBE_SPLIT, "val", "base model"]
    base = data[-1]
    assert list(base["x"]) == [0, 10] and list(base["y"]) == [0.6, 0.6] and base["line"]["dash"] == "dash"
    assert [t["name"] for t in training_curves_figure(metrics, "loss").to_dict()["data"]] == ["train"]


def test_fine_tuning_learns_a_separable_set_well_above_chance(tiny_model_dir):
    """Three topics with disjoint words: from a random encoder and no head warm-up, validation accuracy climbs
    from chance (1/3) to more than twice chance."""
    from core.store import Store

    store = add_corpus(Store(tiny_model_dir.parent / "learns-ws"), per_topic=20)
    cfg = tiny_config(tiny_model_dir, name="learns", objective="ce", head_warmup_epochs=0, epochs=12,
                      val_fraction=0.3, eval_every=4, seed=3)
    result = run_training(store, cfg, job_id="learns")
    frame = metrics_frame(store, "learns")
    val = frame[(frame.split == "val") & (frame.name == "accuracy")]["value"].tolist()
    assert len(val) >= 3
    assert val[0] < 0.5  # it starts near chance (1/3): measured 0.28
    assert result["metrics"]["val_accuracy"] >= 0.7 and max(val) >= 0.75  # measured 0.78 and 0.83


def test_every_scored_split_logs_how_many_papers_its_accuracy_counts(store, tiny_base):
    """The live curves' intervals need n: val, base and train-probe rows carry their papers at every step."""
    job = run_foreground(store, tiny_config(tiny_base, seed=1))
    frame = metrics_frame(store, job["id"])
    final = job["metrics"]
    for split, n in (("val", final["val_papers"]), ("base", final["val_papers"]), (PROBE_SPLIT, final["probe_papers"])):
        rows = frame[frame.split == split]
        scored = set(rows[rows.name == "accuracy"].step)
        counted = rows[rows.name == "papers"]
        assert scored and set(counted.step) == scored, split
        assert (counted.value == n).all(), split
