"""Train: the live cite MAP curve (SPECTER objective) said nothing of how many query papers it is measured on, and
its auto-scaled y-axis made a 0.018 drop on a few dozen papers look like a fall (a walk). It now says n (up to 40
while the run goes on, the exact count once it has finished) and draws MAP on its whole 0-1 range."""

from __future__ import annotations

import json
import time

from core.training.citations import VAL_QUERIES
from tests.app.test_train_page import add_job, open_page, workspace  # noqa: F401 (fixture)


def cite_chart(at) -> dict:
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    return next(c for c in charts if c["layout"].get("yaxis", {}).get("title", {}).get("text") == "cite_map")


def _curve(store, job_id: str) -> None:
    for step, value in enumerate([0.302, 0.296, 0.284]):  # a 0.018 drop
        store.record_metrics(job_id, step * 10, step / 3, "val", {"loss": 1.0, "accuracy": 0.5, "cite_map": value},
                             time.time())
        store.record_metrics(job_id, step * 10, step / 3, "train", {"loss": 1.0, "triplet_loss": 0.9}, time.time())


def test_the_running_cite_curve_says_its_query_papers_and_does_not_magnify_a_small_drop(workspace):  # noqa: F811
    add_job(workspace, "train-cite", "running", 0.5)
    _curve(workspace, "train-cite")
    at = open_page()
    assert not at.exception
    assert cite_chart(at)["layout"]["yaxis"]["range"] == [0, 1]
    [said] = [c.value for c in at.caption if "**cite_map**" in c.value]
    assert f"up to {VAL_QUERIES} held-out query papers" in said and "0–1" in said, said


def test_a_finished_run_says_its_exact_number_of_query_papers(workspace):  # noqa: F811
    add_job(workspace, "train-done", "completed", 1.0, metrics={"cite_val_queries": 23, "val_cite_map": 0.284})
    _curve(workspace, "train-done")
    at = open_page()
    assert not at.exception
    [said] = [c.value for c in at.caption if "**cite_map**" in c.value]
    assert "on 23 held-out query papers" in said, said
