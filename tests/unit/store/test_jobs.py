"""The store's jobs and metrics tables: inserting, reading, status changes, metrics, progress and ETA."""

import json
import time

import numpy as np
import pytest

from core.errors import NotFoundError


def test_insert_job_is_queued_with_its_arguments_and_listed_newest_first(store):
    before = time.time()
    store.insert_job("j1", "train", {"config": {"name": "m1"}, "background": True}, None)
    store.insert_job("j2", "train", {"config": {"name": "m2"}}, 4321)
    row = store.job_row("j1")
    assert (row["kind"], row["status"], row["pid"], row["progress"], row["eta"]) == ("train", "queued", None, 0, None)
    assert json.loads(row["args"]) == {"config": {"name": "m1"}, "background": True}
    assert before <= row["created"] <= time.time()
    assert store.job_row("j2")["pid"] == 4321
    assert [r["id"] for r in store.job_rows()] == ["j2", "j1"]
    assert {r["id"] for r in store.active_job_rows()} == {"j1", "j2"}


def test_unknown_job_is_not_found(store):
    with pytest.raises(NotFoundError, match="there is no job 'nope'"):
        store.job_row("nope")
    assert store.job_rows() == [] and store.metric_rows("nope") == []


def test_start_runs_a_queued_job_once_and_finish_records_the_result(store):
    store.insert_job("j", "train", {}, None)
    store.set_job_pid("j", 11)
    assert store.job_row("j")["pid"] == 11
    assert store.start_job("j", 22) is True
    assert store.start_job("j", 33) is False  # no longer queued
    row = store.job_row("j")
    assert (row["status"], row["pid"]) == ("running", 22) and row["started"] is not None
    store.beat_job("j")
    assert time.time() - store.job_row("j")["heartbeat"] < 60
    store.set_progress("j", 0.25, 1234.5)
    store.finish_job("j", "completed", result={"metrics": {"acc": 0.9}})
    row = store.job_row("j")
    assert (row["status"], row["progress"], row["eta"], row["error"]) == ("completed", 1.0, None, None)
    assert json.loads(row["result"]) == {"metrics": {"acc": 0.9}} and row["finished"] >= row["started"]
    assert store.active_job_rows() == []


def test_a_failed_job_keeps_its_progress_and_error(store):
    store.insert_job("j", "train", {}, None)
    store.start_job("j", 1)
    store.set_progress("j", 0.5, time.time() + 60)
    store.finish_job("j", "failed", error="boom")
    row = store.job_row("j")
    assert (row["status"], row["progress"], row["eta"], row["error"], row["result"]) == (
        "failed", 0.5, None, "boom", None)


def test_cancel_queued_and_end_active_leave_finished_jobs_alone(store):
    for job_id in ("queued", "running", "done"):
        store.insert_job(job_id, "train", {}, None)
    store.start_job("running", 1)
    store.set_progress("running", 0.3, 999.0)
    store.finish_job("done", "completed")
    store.cancel_queued_job("queued")
    store.cancel_queued_job("running")  # running jobs stop at their next step instead
    assert store.job_row("queued")["status"] == "cancelled"
    assert store.job_row("running")["status"] == "running"
    store.end_active_job("running", "failed", "lost", 100.0)
    store.end_active_job("done", "failed", "lost", 100.0)
    running, done = store.job_row("running"), store.job_row("done")
    assert (running["status"], running["error"], running["finished"], running["eta"]) == ("failed", "lost", 100.0, None)
    assert (done["status"], done["error"]) == ("completed", None)


def test_metrics_round_trip_in_step_order(store):
    store.insert_job("j", "train", {}, None)
    store.record_metrics("j", 5, 0.5, "val", {"acc": np.float32(0.75), "loss": 1}, ts=20.0)
    store.record_metrics("j", 1, 0.1, "train", {"loss": 2.5}, ts=10.0)
    store.record_metrics("other", 1, 0.1, "train", {"loss": 9.0}, ts=10.0)
    rows = store.metric_rows("j")
    assert rows == [(1, 0.1, "train", "loss", 2.5, 10.0), (5, 0.5, "val", "acc", 0.75, 20.0),
                    (5, 0.5, "val", "loss", 1.0, 20.0)]
    assert all(isinstance(r[4], float) for r in rows)


def test_progress_and_eta_are_stored_and_eta_may_be_unknown(store):
    store.insert_job("j", "train", {}, None)
    store.set_progress("j", 0.4, 5000.0)
    assert (store.job_row("j")["progress"], store.job_row("j")["eta"]) == (0.4, 5000.0)
    store.set_progress("j", 0.0, None)
    assert (store.job_row("j")["progress"], store.job_row("j")["eta"]) == (0.0, None)
