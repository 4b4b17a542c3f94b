"""Every page and tab sees the workspace's jobs (issue 44): a map fit or an evaluation that another tab (or the CLI)
started is in the sidebar's jobs panel with its progress and a Stop button, the map page joins the fit instead of
starting a second one, the Evaluate page follows the running evaluation, and a fit that died with the server says so
and can be restarted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from core.evaluation.job import EvaluateConfig
from core.explore.maps.job import MapConfig
from core.store import Store
from core.training import jobs
from tests.app.test_pages import empty_workspace, open_app, texts, widget, workspace  # noqa: F401


def job_row(store: Store, job_id: str, cfg, progress: float, pid: int | None = None, message: str = "",
            background: bool = False) -> str:
    """A running job as its thread or worker leaves it (this test process, or `pid`, stands in for it)."""
    now = time.time()
    with store.connect() as conn:
        conn.execute("INSERT INTO jobs(id, kind, status, args, pid, created, started, heartbeat, progress, message) "
                     "VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?)",
                     (job_id, job_id.split("-")[0], json.dumps({"config": cfg.to_dict(), "background": background}),
                      pid or os.getpid(), now, now, now, progress, message))
    return job_id


def test_a_running_map_fit_is_in_every_pages_jobs_panel_and_can_be_stopped_there(workspace):  # noqa: F811
    job_row(workspace, "map-1", MapConfig("c", "tiny", "umap"), 0.3, message="computing umap map of 36 papers")
    for page in ("app_pages/library.py", "app_pages/train.py"):
        at = open_app(page)
        assert "Running: UMAP map of c with tiny (30%, running) · estimating…" in texts(at.sidebar.caption)
    assert "Job `map-1`: UMAP map of c with tiny — **running** · 30%" in texts(at.markdown)  # Train: no curves
    assert not at.get("plotly_chart")
    widget(at.sidebar.button, "Stop job").click().run()
    assert jobs.get_job(workspace, "map-1")["cancel_requested"]
    at.run()  # the panel's next poll
    assert widget(at.sidebar.button, "Stop job").disabled


def test_the_map_page_joins_the_running_fit_and_shows_its_progress(workspace):  # noqa: F811
    job_row(workspace, "map-1", MapConfig("c", "tiny", "umap"), 0.3, message="computing umap map of 36 papers")
    at = open_app("app_pages/map.py")
    at.session_state["map_method"] = "umap"
    at.run()
    assert not at.exception
    assert [j["id"] for j in jobs.list_jobs(workspace)] == ["map-1"]  # joined, not started again
    [bar] = [p for p in at.get("progress") if "Preview: PCA" in p.proto.text]
    assert "Computing the UMAP map in the background (computing umap map of 36 papers" in bar.proto.text
    assert bar.proto.value == 30


def test_a_fit_that_died_with_the_server_says_so_and_restarts_from_the_panel(workspace):  # noqa: F811
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    job_row(workspace, "map-1", MapConfig("c", "tiny", "pca"), 0.4, pid=dead.pid)
    at = open_app("app_pages/library.py")
    assert "Failed: PCA map of c with tiny (the server stopped while it ran)" in texts(at.sidebar.caption)
    widget(at.sidebar.button, "Restart").click().run()
    assert not at.exception
    again = [j for j in jobs.list_jobs(workspace) if j["id"] != "map-1"]
    assert [j["kind"] for j in again] == ["map"] and again[0]["config"]["method"] == "pca"
    deadline = time.time() + 60
    while jobs.get_job(workspace, again[0]["id"])["status"] in jobs.ACTIVE and time.time() < deadline:
        time.sleep(0.1)
    assert jobs.get_job(workspace, again[0]["id"])["status"] == "completed"


def test_the_evaluate_page_follows_an_evaluation_another_tab_started(workspace):  # noqa: F811
    job_row(workspace, "evaluate-1", EvaluateConfig("c", "journal", ["tiny"], ["knn"], sample=30), 0.5,
            message="tiny: knn")
    at = open_app("app_pages/evaluate.py")
    assert not at.exception
    [bar] = [p for p in at.get("progress") if p.proto.text.startswith("Evaluating tiny on c (knn)")]
    assert bar.proto.value == 50 and "tiny: knn · estimating…" in bar.proto.text
    assert widget(at.button, "Cancel").label == "Cancel"
    assert not [b for b in at.button if b.label == "Run evaluation" and b.disabled]  # another run stays possible
