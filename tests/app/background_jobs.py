"""Waiting for the pages' background jobs in AppTest: a thread's job or a job in the store
(an embedding, a map fit, an evaluation: ui.embedding, ui.jobs) ends, then a rerun draws its result, as the page's polling fragment would."""

from __future__ import annotations

import os
import time

from streamlit.testing.v1 import AppTest

from core.store import Store
from core.training import jobs

RUNNING_KEYS = ("evaluation_running", "compare_evaluation_running")


def wait_for_background(at: AppTest, timeout: float = 120, kinds: tuple[str, ...] = ("train", "figures", "embed",
                                                                                   "evaluate")) -> AppTest:
    """Let the session's background jobs of `kinds` end, then rerun the page so that it draws their results. Not map
    fits by default: the Map page, app.py's first page, starts one that a test about something else need not wait
    for."""
    deadline = time.monotonic() + timeout
    for key in RUNNING_KEYS:
        if key in at.session_state:
            task = at.session_state[key]
            if isinstance(task, str):  # a job's id (ui.jobs): the store's jobs are waited for below
                continue
            while not task.done and time.monotonic() < deadline:
                time.sleep(0.05)
            assert task.done, f"the background job {key} did not end within {timeout} s"
    store = Store(os.environ["MIREAD_WORKSPACE"])

    def active() -> bool:
        return any(j["status"] in jobs.ACTIVE and j["kind"] in kinds for j in jobs.list_jobs(store))

    while active() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not active(), f"a job ran past {timeout} s"
    return at.run()
