"""Waiting for the pages' background jobs (ui.background) in AppTest: the job ends in its thread, then a rerun
draws its result, as the page's polling fragment would."""

from __future__ import annotations

import time

from streamlit.testing.v1 import AppTest

RUNNING_KEYS = ("evaluation_running", "compare_evaluation_running", "embedding_running")


def wait_for_background(at: AppTest, timeout: float = 120) -> AppTest:
    """Let the session's background jobs end, then rerun the page so that it draws their results."""
    deadline = time.monotonic() + timeout
    for key in RUNNING_KEYS:
        if key in at.session_state:
            task = at.session_state[key]
            while not task.done and time.monotonic() < deadline:
                time.sleep(0.05)
            assert task.done, f"the background job {key} did not end within {timeout} s"
    return at.run()
