"""Waiting for the pages' background jobs in AppTest: a thread's job (ui.background) or a job process in the store
(an embedding, ui.embedding) ends, then a rerun draws its result, as the page's polling fragment would."""

from __future__ import annotations

import os
import time

from streamlit.testing.v1 import AppTest

from core.store import Store
from core.training import jobs

RUNNING_KEYS = ("evaluation_running", "compare_evaluation_running")


def wait_for_background(at: AppTest, timeout: float = 120) -> AppTest:
    """Let the session's background jobs end, then rerun the page so that it draws their results."""
    deadline = time.monotonic() + timeout
    for key in RUNNING_KEYS:
        if key in at.session_state:
            task = at.session_state[key]
            while not task.done and time.monotonic() < deadline:
                time.sleep(0.05)
            assert task.done, f"the background job {key} did not end within {timeout} s"
    store = Store(os.environ["MIREAD_WORKSPACE"])
    while any(j["status"] in jobs.ACTIVE for j in jobs.list_jobs(store)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(j["status"] in jobs.ACTIVE for j in jobs.list_jobs(store)), f"a job ran past {timeout} s"
    return at.run()
