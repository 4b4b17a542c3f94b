"""Jobs from the pages (issue 44): a UMAP/t-SNE fit or an evaluation is a job of the workspace (`core.training.jobs`,
run in a thread of this server), not a thread of one session, so every tab, a reload and the CLI see the same one;
a second request joins it. Here: starting a map fit (`start_map`, the map page's former thread API), starting and
watching a page's job (`start_job`, `watch_job`), and the sidebar's jobs panel on every page (`jobs_panel`), which
polls while jobs run so that a second tab shows their progress and their end without a click."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import streamlit as st

from core.eta import ESTIMATING, duration_text
from core.explore.maps import BackgroundMap, cached_map
from core.records import md_escape
from core.training import jobs
from core.training.job_view import JobView
from ui.errors import guarded, show_error
from ui.resources import store

POLL_S = 1.5  # how often a page's watch and the jobs panel read the jobs table while jobs run
SEEN = "jobs_panel_seen"  # ids of jobs the panel has shown running in this session (their end is reported)
RECENT_S = 15 * 60  # a failed or cancelled job stays in the panel this long, with Restart
MAP_JOBS = "map_jobs"  # map key -> the job id this session asked for


def now() -> float:
    """The clock a page's wait is timed with (wall time: a job outlives the script run that started it)."""
    return time.time()


def eta_text(job: dict[str, Any]) -> str:
    """'about 1m 20s left', 'estimating…' while running without a stable estimate, 'queued' before it starts."""
    if job["status"] == "queued":
        return "queued"
    return ESTIMATING if job["eta_s"] is None else f"about {duration_text(job['eta_s'])} left"


def start_map(s: Any, corpus: str, spec: Any, method: str = "umap", params: dict | None = None,
              seed: int = 0) -> BackgroundMap | JobView:
    """The map's fit as the map page watches it (fraction, message, done, error, started): done at once when the map
    is cached; else the fit job of this corpus, model, method and parameters, joined when it runs (any tab, the CLI),
    started otherwise. A fit this session asked for that failed or was cancelled is shown as such, not started again
    (the jobs panel's Restart, or a reload, starts it again)."""
    from core.explore.maps.job import MapConfig, map_key

    if cached_map(s, corpus, spec, method, params, seed) is not None:
        return BackgroundMap(fraction=1.0, message="map ready", done=True, started=now())
    cfg = MapConfig(corpus, spec.name, method, dict(params or {}), seed)
    key = repr(map_key(cfg))
    asked = st.session_state.setdefault(MAP_JOBS, {})
    if key in asked:
        view = JobView(s, asked[key])
        if view.error:
            return view
    view = JobView(s, jobs.launch_here(s, cfg))
    asked[key] = view.id
    return view


def running_evaluation(corpus: str) -> str | None:
    """The id of an evaluation of this corpus running for any tab, session or the CLI (a page follows it), else None."""
    from core.evaluation.job import EVALUATE_KIND

    return next((j["id"] for j in jobs.list_jobs(store()) if j["kind"] == EVALUATE_KIND
                 and j["status"] in jobs.ACTIVE and j["corpus"] == corpus), None)


def start_job(key: str, cfg: Any) -> str | None:
    """Start the job `cfg` in this server (or join the same one running), as the session's job `key`: its id, None
    after an error (shown as one sentence). Joining says so."""
    s = store()
    prepared = guarded(jobs.kind_of(cfg).prepare, s, cfg)
    if prepared is None:
        return None
    twin = jobs.running_twin(s, prepared)
    if twin is not None:
        job = jobs.get_job(s, twin)
        st.info(md_escape(f"{job['what'][:1].upper()}{job['what'][1:]} is already running (started "
                          f"{now() - job['created']:.0f} s ago); its result appears here when it is done."))
    job_id = twin or guarded(jobs.launch_here, s, prepared)
    if job_id:
        st.session_state[key] = job_id
    return job_id


def _job_bar(job: dict[str, Any], cancel_key: str, label: str = "Cancel") -> None:
    """One running job: its bar (share, what it does, ETA, the wait so far) and its Cancel button."""
    bar, button = st.columns([5, 1], vertical_alignment="bottom")
    doing = "stopping" if job["cancel_requested"] else (job["message"] or job["status"])
    what = f"{job['what'][:1].upper()}{job['what'][1:]}"
    bar.progress(min(max(job["progress"], 0.0), 1.0),
                 text=md_escape(f"{what}: {job['progress']:.0%} · {doing} · {eta_text(job)} "
                                f"({now() - job['created']:.0f} s)"))
    if button.button(label, key=cancel_key, disabled=job["cancel_requested"], help="Stop this job"):
        jobs.cancel(store(), job["id"])
        st.toast("Cancel requested: the job stops at its next step.")


def watch_job(key: str, on_done: Callable[[dict[str, Any], float], None], adopt: Callable[[], str | None] | None = None,
              every: float = POLL_S) -> None:
    """While the session's job `key` runs (or one `adopt()` names, e.g. the same work started in another tab): its
    bar with Cancel, refreshed every `every` s in a fragment. When it ends: `on_done(job, seconds)` (the whole wait,
    from the request to now) if it completed, else its one sentence; then one full rerun so the page draws it."""
    s = store()
    if key not in st.session_state and adopt is not None and (found := adopt()):
        st.session_state[key] = found
    job_id = st.session_state.get(key)
    if not job_id:
        return
    try:
        active = jobs.get_job(s, job_id)["status"] in jobs.ACTIVE
    except Exception:  # noqa: BLE001 - a job removed with its workspace: nothing to watch
        st.session_state.pop(key, None)
        return

    @st.fragment(run_every=every if active else None)
    def poll() -> None:
        job = jobs.get_job(s, job_id)
        if job["status"] in jobs.ACTIVE:
            _job_bar(job, f"cancel-{key}-{job_id}")
            return
        st.session_state.pop(key, None)
        if job["status"] == "completed":
            on_done(job, max(now(), job["finished"] or 0.0) - job["created"])
        else:
            show_error(job["error"] if job["status"] == "failed" else f"{job['what']} was cancelled.")
            if job["status"] == "cancelled":
                return
        if active:  # it ended while this page watched: the page draws its result
            st.rerun(scope="app")

    poll()


def jobs_panel() -> None:
    """In the sidebar of every page: each queued or running job of the workspace (what, share, status, ETA) with a
    Stop button, and the jobs that ended since (failed or cancelled ones with Restart). Polls every POLL_S s while
    jobs run, so a second tab follows them without a click; when the last one ends, one full rerun lets the page
    draw what it made."""
    s = store()
    polling = bool(s.active_job_rows())

    @st.fragment(run_every=POLL_S if polling else None)
    def panel() -> None:
        items = jobs.list_jobs(s)
        active = [j for j in items if j["status"] in jobs.ACTIVE]
        seen = st.session_state.setdefault(SEEN, [])
        for job in active:
            st.caption(md_escape(f"Running: {job['what']} ({job['progress']:.0%}, {job['status']}) · "
                                 f"{eta_text(job)}"))
            if st.button("Stop job", key=f"stop-job-{job['id']}", disabled=job["cancel_requested"],
                         help="Cancel it (an embedding keeps what it embedded)"):
                jobs.cancel(s, job["id"])
            if job["id"] not in seen:
                seen.append(job["id"])
        shown = {(j["kind"], j["what"]) for j in active}
        for job in items:  # newest first: only the latest job of the same work
            if job["status"] in jobs.ACTIVE or (job["kind"], job["what"]) in shown:
                continue
            shown.add((job["kind"], job["what"]))
            if now() - (job["finished"] or 0.0) < RECENT_S and (
                    job["id"] in seen or (job["status"] == "failed" and job["error"] == jobs.LOST)):
                _ended(job)
        if polling and not active:
            st.rerun(scope="app")

    panel()


def _ended(job: dict[str, Any]) -> None:
    """One ended job in the panel: how it ended; Restart when it did not complete."""
    if job["status"] == "completed":
        st.caption(md_escape(f"Done: {job['what']}"))
        return
    why = " (the server stopped while it ran)" if job["error"] == jobs.LOST and not job["background"] else ""
    st.caption(md_escape(f"{job['status'].capitalize()}: {job['what']}{why}"))
    if st.button("Restart", key=f"restart-job-{job['id']}", help="Start this job again with the same settings"):
        seen = st.session_state.setdefault(SEEN, [])
        if job["id"] in seen:
            seen.remove(job["id"])
        if guarded(jobs.restart, store(), job["id"], here=not job["background"]):
            st.rerun(scope="app")
