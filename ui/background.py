"""Heavy steps started from a page (Compare models' quick evaluation) run in a background thread of the server, so the
page, the sidebar and the other pages stay usable while they run (issue 32: progress within 0.5 s, the rest of the
page usable, the true duration reported).

Embedding a corpus, a map fit and Evaluate's suite are not: they are jobs of the workspace that every tab and a
reload find (`ui.embedding`, `ui.jobs`, `core.training.job_kinds`).

The thread is the maps' runner (`core.explore.maps.cached.run_in_background`: a failure becomes one sentence on the
job); this module only keeps the job in the session, so that a second click finds the running one instead of starting
another, and draws a fragment that polls its progress and hands the result to the page when it is done. Leaving the
page does not stop the job: coming back shows its progress, or its result.

The job's `seconds` is the whole wait the user had, from the click to the result (model loading included).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from core.explore.maps.cached import BackgroundMap, run_in_background
from core.records import md_escape
from ui.errors import show_error

Progress = Callable[[float, str], None]


def now() -> float:
    """The clock jobs are timed with (wall time: a job outlives the script run that started it)."""
    return time.time()


@dataclass
class Task(BackgroundMap):
    """A page's heavy step in a thread: its progress, its result, and when it ended (`clock` time)."""

    what: str = ""
    inputs: Any = None
    result: Any = None
    finished: float = 0.0
    launch: Callable[[], Any] | None = None  # starts the thread: `watch` calls it once its bar is on the page

    @property
    def seconds(self) -> float:
        """The whole wait, from the click to the result."""
        return self.finished - self.started


def running(key: str) -> Task | None:
    """The session's job under `key` while it runs (None when there is none or it has ended)."""
    task = st.session_state.get(key)
    return task if isinstance(task, Task) and not task.done else None


def start(key: str, what: str, compute: Callable[[Progress], Any], inputs: Any = None) -> Task:
    """Make `compute(progress)` the session's job `key`, unless one is already running there: then say so and return
    that one. Its thread starts when `watch(key, ...)` has drawn its bar (call it later in the same run). `what`
    names the step in its progress line ("Evaluating minilm")."""
    current = running(key)
    if current is not None:
        st.info(f"{md_escape(current.what)} is already running (started {now() - current.started:.0f} s ago); its "
                "result appears here when it is done.")
        return current
    task = Task(started=now(), what=what, inputs=inputs, message="starting")

    def work(progress: Progress) -> None:
        try:
            task.result = compute(progress)
        finally:
            task.finished = now()

    task.launch = lambda: run_in_background(task, work, f"{what} failed", f"{key}-{int(task.started)}")
    st.session_state[key] = task
    return task


def watch(key: str, on_done: Callable[[Task], None], every: float = 1.0) -> None:
    """While the session's job `key` runs: a progress bar with the elapsed time, refreshed every `every` s in a
    fragment (only it reruns). When it ends: `on_done(task)` (the result) or its one-sentence error, then one full
    rerun so the page draws the result."""
    task = st.session_state.get(key)
    if not isinstance(task, Task):
        return

    @st.fragment(run_every=every if not task.done else None)
    def poll() -> None:
        if task.done:
            if task.error:  # stays on screen until the next start replaces the job
                show_error(task.error)
                return
            st.session_state.pop(key, None)
            task.finished = max(task.finished, now())  # the wait ends when the page has the result, not the thread
            on_done(task)
            st.rerun(scope="app")
        st.progress(task.fraction, text=md_escape(f"{task.what}: {task.message} ({now() - task.started:.0f} s)…"))

    poll()
    if task.launch is not None:  # the bar first, then the work: a started thread competes with this run for the CPU
        launch, task.launch = task.launch, None
        launch()
