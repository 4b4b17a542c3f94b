"""Embedding as a background job beside training (issue 44): one job per corpus and model (a second request joins
the running one), in the jobs list with progress, cancellable keeping what was embedded, beside a training run, and
from the CLI (`embed --background`, `jobs`, `cancel`)."""

from __future__ import annotations

import json

import pytest

from core.cli import main
from core.embedding import encoder as encoder_module
from core.embedding import get_model, vectors_fingerprint
from core.embedding.job import EmbedConfig
from core.training import get_job, launch, list_jobs, run_foreground
from core.training import jobs as jobs_module
from tests.helpers import make_papers, register_tiny, wait_for
from tests.unit.training.support import add_corpus, one_torch_thread, stop_workers, tiny_config


@pytest.fixture(autouse=True)
def _one_thread(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    with one_torch_thread():
        yield


@pytest.fixture()
def store(store, tiny_model_dir):
    """The corpus 'toy' (36 papers) and the tiny model as 'tiny'; no worker outlives the test."""
    register_tiny(store, tiny_model_dir)
    yield add_corpus(store)
    stop_workers(store)



def missing(store) -> int:
    return len(store.missing_hashes("toy", vectors_fingerprint(get_model("tiny", store))))


def test_a_second_request_joins_the_running_embedding_and_the_job_completes(store):
    first = launch(store, EmbedConfig("toy", "tiny", device="cpu", batch_size=4))
    second = launch(store, EmbedConfig("toy", "tiny", device="cpu", batch_size=8))  # same corpus + model: joined
    assert second == first and [j["id"] for j in list_jobs(store)] == [first]
    job = wait_for(lambda: (j := get_job(store, first))["status"] not in jobs_module.ACTIVE and j, "the embedding")
    assert job["status"] == "completed", job["error"]
    assert job["kind"] == "embed" and job["model"] == "tiny" and job["corpus"] == "toy" and job["progress"] == 1.0
    assert job["result"]["report"]["new"] == 36 and missing(store) == 0
    again = launch(store, EmbedConfig("toy", "tiny", device="cpu"))  # none running now: a new job (nothing to do)
    assert again != first


def test_cancel_keeps_what_was_embedded_and_the_next_request_embeds_only_the_rest(store, monkeypatch):
    monkeypatch.setattr(encoder_module, "CHUNK", 8)  # saved every 8 papers
    calls = [0]

    def stop_after_two_chunks() -> bool:
        calls[0] += 1
        return calls[0] > 4  # batches of 4: two chunks of 8 saved, then stop

    job = run_foreground(store, EmbedConfig("toy", "tiny", device="cpu", batch_size=4), stop_after_two_chunks)
    assert job["status"] == "cancelled" and job["error"] is None
    assert missing(store) == 36 - 16  # the two saved chunks stay
    rest = run_foreground(store, EmbedConfig("toy", "tiny", device="cpu", batch_size=4))
    assert rest["status"] == "completed" and rest["result"]["report"]["new"] == 20 and missing(store) == 0


def test_an_embedding_runs_beside_a_training_run_not_behind_it(store, tiny_model_dir):
    training = launch(store, tiny_config(tiny_model_dir, name="long", epochs=400))
    wait_for(lambda: get_job(store, training)["status"] == "running", "the training run to start")
    store.import_papers("more", make_papers(4))
    embedding = launch(store, EmbedConfig("more", "tiny", device="cpu"))
    done = wait_for(lambda: (j := get_job(store, embedding))["status"] not in jobs_module.ACTIVE and j, "embedding")
    assert done["status"] == "completed" and get_job(store, training)["status"] == "running"
    jobs_module.cancel(store, training)


def run_json(capsys, workspace: str, *args: str) -> dict:
    code = main(["--workspace", workspace, *args, "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def test_the_cli_starts_joins_lists_and_cancels_an_embedding_job(store, capsys):
    ws = str(store.root)
    started = run_json(capsys, ws, "embed", "--corpus", "toy", "--model", "tiny", "--device", "cpu", "--background")
    joined = run_json(capsys, ws, "embed", "--corpus", "toy", "--model", "tiny", "--background")
    assert joined["job"] == started["job"] and joined["joined"] and not started["joined"]
    listed = run_json(capsys, ws, "jobs")["jobs"]
    assert [(j["id"], j["kind"], j["corpus"]) for j in listed] == [(started["job"], "embed", "toy")]
    ended = run_json(capsys, ws, "cancel", started["job"])
    assert ended["status"] in ("cancelled", "completed")  # a fast tiny embedding may finish first


def test_mcp_job_status_follows_an_embedding_job_to_its_end(store):
    from core.mcp import writing
    from core.mcp.workspace import Workspace

    job_id = launch(store, EmbedConfig("toy", "tiny", device="cpu"))
    seen: list[tuple[float, float | None, str | None]] = []
    doc = writing.job_status(Workspace(store), job_id, wait_seconds=120,
                             progress=lambda done, total, message: seen.append((done, total, message)))
    assert doc["job"]["id"] == job_id and doc["job"]["kind"] == "embed" and doc["job"]["status"] == "completed"
    listed = writing.job_status(Workspace(store))["jobs"]
    assert [(j["id"], j["kind"]) for j in listed] == [(job_id, "embed")]
