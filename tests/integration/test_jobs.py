"""Background training jobs: worker processes, the queue, cancel, and recovery from a killed worker."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import numpy as np
import pytest

from core.embedding import Encoder, get_model
from core.errors import NotFoundError, TrainingError
from core.training import (
    LOST,
    STALE_S,
    TrainConfig,
    cancel,
    get_job,
    launch,
    list_jobs,
    metrics_frame,
    refresh,
    run_foreground,
)
from tests.helpers import wait_for
from tests.unit.training.support import add_corpus, one_torch_thread, stop_workers, tiny_config


@pytest.fixture(autouse=True)
def _one_thread(monkeypatch: pytest.MonkeyPatch):
    """One torch thread here and in the workers (they inherit OMP_NUM_THREADS)."""
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    with one_torch_thread():
        yield


@pytest.fixture()
def store(store):
    """The conftest's empty store, with the three-journal corpus 'toy'; no worker outlives the test."""
    yield add_corpus(store)
    stop_workers(store)



def running_with_metrics(store, job_id: str) -> bool:
    return get_job(store, job_id)["status"] == "running" and len(metrics_frame(store, job_id)) > 0


def long_config(tiny: Path, name: str) -> TrainConfig:
    return tiny_config(tiny, name=name, epochs=400)


def test_jobs_queue_record_metrics_while_running_cancel_and_complete(store, tiny_model_dir):
    long_id = launch(store, long_config(tiny_model_dir, "long"))
    wait_for(lambda: running_with_metrics(store, long_id), "the first job to run and record metrics")
    short_id = launch(store, tiny_config(tiny_model_dir, name="short", epochs=1))
    doomed_id = launch(store, tiny_config(tiny_model_dir, name="doomed", epochs=1))
    wait_for(lambda: get_job(store, short_id)["heartbeat"], "the second worker to start")
    rows = len(metrics_frame(store, long_id))
    assert get_job(store, short_id)["status"] == "queued"
    assert get_job(store, long_id)["status"] == "running"

    assert cancel(store, doomed_id)["status"] == "cancelled"  # a queued job is cancelled at once
    cancel(store, long_id)
    long_job = wait_for(lambda: (j := get_job(store, long_id))["status"] == "cancelled" and j, "cancel")
    assert len(metrics_frame(store, long_id)) >= rows and long_job["error"] is None

    short = wait_for(lambda: (j := get_job(store, short_id))["status"] in ("completed", "failed") and j,
                     "the queued job to finish")
    assert short["status"] == "completed", short["error"]
    assert get_job(store, doomed_id)["status"] == "cancelled"
    assert {m["name"] for m in store.saved_models()} == {"short"}
    assert [j["id"] for j in list_jobs(store)] == [doomed_id, short_id, long_id]

    encoder = Encoder(get_model("short", store), device="cpu")
    papers = store.papers("toy")[:3]
    vectors = encoder.encode(papers)
    assert vectors.shape == (3, 32)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(encoder.predict(papers).sum(axis=1), 1.0, atol=1e-5)


def test_a_killed_worker_is_reported_failed_and_its_partial_metrics_stay(store, tiny_model_dir):
    job_id = launch(store, long_config(tiny_model_dir, "killed"))
    wait_for(lambda: running_with_metrics(store, job_id), "the job to run and record metrics")
    os.kill(get_job(store, job_id)["pid"], signal.SIGKILL)
    job = wait_for(lambda: (j := get_job(store, job_id))["status"] == "failed" and j, "the job to be marked failed")
    assert job["error"] == LOST
    assert len(metrics_frame(store, job_id)) > 0
    after = run_foreground(store, tiny_config(tiny_model_dir, name="after", epochs=1))
    assert after["status"] == "completed"  # the killed worker's slot was freed


def test_a_job_whose_heartbeat_went_silent_is_marked_failed(store):
    cfg = TrainConfig(corpus="toy", label="journal", name="silent")
    old = time.time() - STALE_S - 10
    with store.connect() as conn:
        conn.execute("INSERT INTO jobs(id, kind, status, args, pid, created, started, heartbeat) "
                     "VALUES ('j1', 'train', 'running', ?, ?, ?, ?, ?)",
                     (json.dumps({"config": cfg.to_dict(), "background": False}), os.getpid(), old, old, old))
    refresh(store)
    job = get_job(store, "j1")
    assert job["status"] == "failed" and job["error"] == LOST


def test_launch_refuses_a_bad_config_before_storing_anything(store, tiny_model_dir):
    with pytest.raises(TrainingError, match="training needs 2 or more"):
        launch(store, tiny_config(tiny_model_dir, label="field"))
    assert list_jobs(store) == []


def test_unknown_jobs_raise_not_found_and_finished_jobs_ignore_cancel(store, tiny_model_dir):
    with pytest.raises(NotFoundError, match="no job 'nope'"):
        get_job(store, "nope")
    done = run_foreground(store, tiny_config(tiny_model_dir, epochs=1))
    assert cancel(store, done["id"])["status"] == "completed"
