"""The figure scorer's training job: in-paper contrastive steps, live metrics, a saved and selectable model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.embedding import get_model, read_checkpoint_meta
from core.errors import TrainingError
from core.training import FigureTrainConfig, jobs


def test_a_figure_job_trains_records_curves_and_saves_a_selectable_model(jats_store):
    cfg = FigureTrainConfig(corpus="pmc", base="tiny", name="tiny-fig", epochs=2, held_out=0.0, batch_papers=1,
                            eval_every=1, frozen_layers=1)
    job = jobs.run_foreground(jats_store, cfg)
    assert job["status"] == "completed" and job["kind"] == "figures" and job["model"] == "tiny-fig"
    frame = jobs.metrics_frame(jats_store, job["id"])
    assert {"train", "val", "base"} <= set(frame["split"])
    assert {"loss", "accuracy"} <= set(frame["name"])
    assert frame[frame["split"] == "train"]["step"].max() == job["metrics"]["steps"] == 4
    spec = get_model("tiny-fig", jats_store)
    meta = read_checkpoint_meta(Path(spec.location))
    assert meta["task"] == "figures" and meta["config"]["split_seed"] == 0 and spec.pooling == "mean"
    assert "figure scorer" in spec.description


def test_a_corpus_without_figures_is_refused_in_one_sentence(jats_store, tmp_path):
    from tests.helpers import make_papers

    jats_store.import_papers("plain", make_papers(2))
    with pytest.raises(TrainingError, match="fewer than 3 training papers"):
        jats_store_cfg = FigureTrainConfig(corpus="plain", base="tiny")
        jobs.run_foreground(jats_store, jats_store_cfg)


def test_a_background_figure_job_runs_in_the_worker_from_this_checkout(jats_store):
    import time

    job_id = jobs.launch(jats_store, FigureTrainConfig(corpus="pmc", base="tiny", name="bg-fig", epochs=1,
                                                       held_out=0.0, batch_papers=2))
    deadline = time.time() + 120
    while time.time() < deadline and jobs.get_job(jats_store, job_id)["status"] in jobs.ACTIVE:
        time.sleep(0.5)
    job = jobs.get_job(jats_store, job_id)
    assert job["status"] == "completed", Path(job["log"]).read_text()
    assert json.loads(json.dumps(job["metrics"]))["steps"] >= 1


def test_a_training_step_keeps_every_referenced_caption_of_a_paper_with_many_figures():
    import numpy as np

    from core.store import FigurePaper
    from core.training.figures import MAX_CAPTIONS, _paper_batch

    captions = [f"caption {i}" for i in range(MAX_CAPTIONS + 9)]
    paper = FigurePaper("p", [f"Fig {i}" for i in range(len(captions))], captions,
                        [(f"sentence about {i}", i) for i in range(len(captions) - 5, len(captions))])
    for seed in range(20):
        kept, sentences, targets = _paper_batch(paper, 16, np.random.default_rng(seed))
        assert len(kept) == MAX_CAPTIONS and len(sentences) == 5
        assert [kept[t] for t in targets] == [f"caption {s.split()[-1]}" for s in sentences]
