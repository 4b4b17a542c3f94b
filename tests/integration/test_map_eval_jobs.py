"""UMAP/t-SNE fits and evaluations as jobs (issue 44, "the same for UMAP fits and evaluations"): one job per request
key (a second request joins the running one), in the jobs list with progress and what it is doing, cancellable, a fit
that died with the server said so and restartable, and from the CLI (`map --background`, `evaluate --background`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from typing import Any

import numpy as np
import pytest

from core.cli import main
from core.embedding import embed_corpus, get_model
from core.evaluation.job import EvaluateConfig
from core.explore import cached_map
from core.explore.maps import cached as cached_module
from core.explore.maps.job import MapConfig
from core.training import jobs
from core.training.job_view import JobView
from tests.helpers import register_tiny, wait_for
from tests.unit.training.support import add_corpus, one_torch_thread, stop_workers


@pytest.fixture(autouse=True)
def _one_thread(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    with one_torch_thread():
        yield


@pytest.fixture(autouse=True)
def _quick_layouts(monkeypatch: pytest.MonkeyPatch):
    """UMAP and t-SNE layouts as the first two coordinates: these tests are about the jobs, not the layouts (and
    compiling UMAP's numba kernels takes half a minute)."""
    from core.explore.maps import projection

    monkeypatch.setattr(projection, "_umap", lambda arr, p, seed, note: arr[:, :2])
    monkeypatch.setattr(projection, "_tsne", lambda arr, p, seed, note: arr[:, :2])


@pytest.fixture()
def store(store, tiny_model_dir):
    """The corpus 'toy' (36 papers) embedded with the tiny model ('tiny'); no worker outlives the test."""
    register_tiny(store, tiny_model_dir)
    add_corpus(store)
    embed_corpus(store, "toy", "tiny", device="cpu", batch_size=8)
    yield store
    stop_workers(store)



def ended(store, job_id: str) -> dict[str, Any]:
    return wait_for(lambda: (j := jobs.get_job(store, job_id))["status"] not in jobs.ACTIVE and j, job_id)


@pytest.fixture()
def held_fit(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Map fits that report progress until the returned event is set (then fit for real)."""
    release, real = threading.Event(), cached_module.map_coordinates

    def slow(store, corpus, spec, method="umap", params=None, progress=None, seed=0):
        while not release.is_set():
            progress(0.3, "computing umap map of 36 papers")
            time.sleep(0.05)
        return real(store, corpus, spec, method, params, progress, seed)

    monkeypatch.setattr(cached_module, "map_coordinates", slow)
    return release


def test_a_second_map_request_joins_the_running_fit_which_lands_in_the_map_cache(store, held_fit):
    first = jobs.launch_here(store, MapConfig("toy", "tiny", "umap", {"n_neighbors": 15}))
    second = jobs.launch_here(store, MapConfig("toy", "tiny", "umap", {"n_neighbors": 15}))
    other = jobs.launch_here(store, MapConfig("toy", "tiny", "umap", {"n_neighbors": 5}))  # other parameters: its own
    assert second == first != other
    view = JobView(store, first)
    wait_for(lambda: view.message == "computing umap map of 36 papers", "the fit's message")
    assert not view.done and view.error is None and view.fraction == pytest.approx(0.3)
    [job] = [j for j in jobs.list_jobs(store) if j["id"] == first]
    assert job["kind"] == "map" and job["what"] == "UMAP map of toy with tiny" and job["status"] == "running"
    held_fit.set()
    assert ended(store, first)["status"] == "completed" and ended(store, other)["status"] == "completed"
    view = JobView(store, first)
    assert view.done and view.error is None and view.fraction == 1.0
    assert cached_map(store, "toy", get_model("tiny", store), "umap", {"n_neighbors": 15}).shape == (36, 2)


def test_a_cancelled_fit_stops_and_says_so(store, held_fit):
    job_id = jobs.launch_here(store, MapConfig("toy", "tiny", "tsne"))
    view = JobView(store, job_id)
    wait_for(lambda: view.fraction > 0, "the fit to start")
    jobs.cancel(store, job_id)
    assert ended(store, job_id)["status"] == "cancelled"
    view = JobView(store, job_id)  # a page's next poll
    assert view.done and view.error == "TSNE map of toy with tiny was cancelled"
    assert cached_map(store, "toy", get_model("tiny", store), "tsne") is None


def test_a_fit_that_died_with_the_server_says_so_and_restarts(store):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    now = time.time()
    with store.connect() as conn:  # a fit the server ran in its thread, as that server left it when it was killed
        conn.execute("INSERT INTO jobs(id, kind, status, args, pid, created, started, heartbeat, progress) "
                     "VALUES ('map-1', 'map', 'running', ?, ?, ?, ?, ?, 0.4)",
                     (json.dumps({"config": MapConfig("toy", "tiny").to_dict(), "background": False}), dead.pid,
                      now, now, now))
    view = JobView(store, "map-1")
    assert view.done and view.error == jobs.LOST
    again = jobs.restart(store, "map-1", here=True)
    assert again != "map-1" and ended(store, again)["status"] == "completed"
    assert cached_map(store, "toy", get_model("tiny", store), "umap") is not None


def test_an_evaluation_job_keeps_its_document_and_a_second_request_joins_it(store, monkeypatch):
    import core.evaluation

    release, real = threading.Event(), core.evaluation.evaluate_models

    def held(*args, progress=None, **kwargs):
        while not release.is_set():
            progress(0, 2)
            time.sleep(0.05)
        return real(*args, progress=progress, **kwargs)

    monkeypatch.setattr(core.evaluation, "evaluate_models", held)
    cfg = EvaluateConfig("toy", "journal", ["tiny"], ["knn"], sample=36, device="cpu", batch_size=8)
    first = jobs.launch_here(store, cfg)
    assert jobs.launch_here(store, EvaluateConfig("toy", "journal", ["tiny"], ["knn"], sample=36)) == first
    assert jobs.launch_here(store, EvaluateConfig("toy", "journal", ["tiny"], ["knn"], sample=20)) != first
    release.set()
    job = ended(store, first)
    assert job["status"] == "completed", job["error"]
    doc = job["result"]["evaluation"]
    assert doc["models"] == ["tiny"] and doc["tasks"] == ["knn"] and doc["table"]
    assert job["what"] == "evaluating tiny on toy (knn)"


def test_an_evaluation_of_an_unknown_task_is_refused_with_one_sentence(store):
    with pytest.raises(Exception, match="unknown evaluation task 'nope'"):
        jobs.launch_here(store, EvaluateConfig("toy", "journal", ["tiny"], ["nope"], sample=36))
    assert jobs.list_jobs(store) == []


def test_the_cli_fits_a_map_and_runs_an_evaluation_in_the_background(store, capsys):
    ws = ["--workspace", str(store.root)]
    assert main([*ws, "map", "--json", "--corpus", "toy", "--model", "tiny", "--method", "pca", "--background"]) == 0
    started = json.loads(capsys.readouterr().out)
    assert started["joined"] is False and started["method"] == "pca"
    assert main([*ws, "evaluate", "--json", "--corpus", "toy", "--label", "journal", "--models", "tiny", "--tasks", "knn",
                 "--sample", "36", "--background"]) == 0
    evaluation = json.loads(capsys.readouterr().out)["job"]
    for job_id in (started["job"], evaluation):
        assert ended(store, job_id)["status"] == "completed", jobs.get_job(store, job_id)["error"]
    assert main([*ws, "jobs", "--json"]) == 0
    listed = {j["id"]: j for j in json.loads(capsys.readouterr().out)["jobs"]}
    assert listed[started["job"]]["kind"] == "map" and listed[evaluation]["kind"] == "evaluate"
    assert listed[evaluation]["result"]["evaluation"]["table"]
    coords = cached_map(store, "toy", get_model("tiny", store), "pca")
    assert coords is not None and np.isfinite(coords).all()
    assert os.path.exists(listed[evaluation]["log"])
