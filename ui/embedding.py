"""Embedding a corpus from a page: a background job in its own process (`core.embedding.job`), so it is one job per
corpus and model whichever tab or session asks (a second request joins it), it survives a reload, shows its progress
and ETA, and can be cancelled, keeping what was embedded. The wait it reports is the job's, from the request to its
end (process start and model load included)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from core.embedding import ModelSpec
from core.eta import ESTIMATING, duration_text
from core.records import md_escape
from ui.errors import guarded, show_error
from ui.resources import is_embedded, settings, store

WATCHED = "embedding_jobs_watched"  # ids of the embedding jobs this session started or joined
FAILED = "embedding_job_failed"  # the last watched job's error, shown once by `need_embeddings`


def start_embedding(corpus: str, spec: ModelSpec) -> str | None:
    """Start the background job embedding `corpus` with `spec`, or join the one already running (from any tab or
    session); this session reports it when it ends. The job id (None after an error, shown as one sentence)."""
    from core.embedding.job import EmbedConfig
    from core.training import jobs

    conf = settings()
    job_id = guarded(jobs.launch, store(), EmbedConfig(corpus, spec.name, conf.device, conf.batch_size))
    if job_id:
        watched = st.session_state.setdefault(WATCHED, [])
        if job_id not in watched:
            watched.append(job_id)
    return job_id


def active_embeddings(corpus: str | None = None, model: str | None = None) -> list[dict[str, Any]]:
    """The queued and running embedding jobs of the workspace (of one corpus and model, when named)."""
    from core.training import jobs

    return [j for j in jobs.list_jobs(store()) if j["kind"] == "embed" and j["status"] in jobs.ACTIVE
            and corpus in (None, j["corpus"]) and model in (None, j["model"])]


def job_eta(job: dict[str, Any]) -> str:
    """'about 1m 20s left', 'estimating…' while running without a stable estimate, 'queued' before it starts."""
    if job["status"] == "queued":
        return "queued"
    return ESTIMATING if job["eta_s"] is None else f"about {duration_text(job['eta_s'])} left"


def _show_job(job: dict[str, Any]) -> None:
    """One running embedding: its bar (share, ETA) and its Cancel button."""
    from core.training import jobs

    bar, button = st.columns([5, 1])
    stopping = " · stopping…" if job["cancel_requested"] else ""
    bar.progress(min(max(job["progress"], 0.0), 1.0),
                 text=md_escape(f"Embedding {job['corpus']} with {job['model']}: {job['progress']:.0%} · "
                                f"{job_eta(job)}{stopping}"))
    if button.button("Cancel", key=f"cancel-embed-{job['id']}", disabled=job["cancel_requested"],
                     help="Stop this embedding; the papers embedded so far are kept"):
        jobs.cancel(store(), job["id"])
        st.toast("Cancel requested: the embedding stops after its current batch, keeping what it embedded.")


def embedding_jobs(on_done: Callable[[dict[str, Any]], None], corpus: str | None = None,
                   model: str | None = None, every: float = 1.0) -> None:
    """The workspace's running embeddings (of one corpus and model, when named), each with its progress, ETA and
    Cancel, refreshed every `every` s in a fragment. When a job this session started or joined ends: `on_done(job)`,
    then one full rerun so the page draws what it made."""
    from core.training import jobs

    polling = bool(active_embeddings(corpus, model) or st.session_state.get(WATCHED))

    @st.fragment(run_every=every if polling else None)
    def poll() -> None:
        items = jobs.list_jobs(store())
        watched = st.session_state.get(WATCHED, [])
        ended = [j for j in items if j["id"] in watched and j["status"] not in jobs.ACTIVE]
        for job in items:
            if job["kind"] == "embed" and job["status"] in jobs.ACTIVE and corpus in (None, job["corpus"]) \
                    and model in (None, job["model"]):
                _show_job(job)
        if ended:
            st.session_state[WATCHED] = [i for i in watched if i not in {j["id"] for j in ended}]
            for job in ended:
                on_done(job)
            st.rerun(scope="app")

    poll()


def last_failure(corpus: str, model: str) -> str | None:
    """'The last embedding of C with M failed 3 min ago: why' when the newest embedding job of this corpus and model
    failed within RECENT_S (any tab, session or the CLI started it); else None. A page that opens later, or a
    reload, still says why the corpus has no vectors, instead of offering the same button as if nothing happened."""
    from core.training import jobs
    from ui.jobs import RECENT_S, now

    newest = next((j for j in jobs.list_jobs(store()) if j["kind"] == "embed" and j["corpus"] == corpus
                   and j["model"] == model), None)  # list_jobs is newest first
    if newest is None or newest["status"] != "failed" or not newest["finished"]:
        return None
    ago = now() - newest["finished"]
    if ago > RECENT_S:
        return None
    when = "just now" if ago < 60 else f"{int(ago // 60)} min ago"
    return (f"The last embedding of {corpus} with {model} failed {when}: "
            f"{newest['error'] or 'no reason was recorded'}")


def _remember_failure(job: dict[str, Any]) -> None:
    if job["status"] == "failed":
        st.session_state[FAILED] = job["error"] or "the embedding failed"


def need_embeddings(corpus: str | None, spec: ModelSpec) -> bool:
    """Stop the page with a clear message (and an Embed button, or the running embedding's progress) unless the
    corpus is embedded with the model."""
    if corpus is None:
        st.info("Import a corpus on the **Library** page first.")
        st.page_link("app_pages/library.py", label="Go to the Library", icon=":material/library_books:")
        return False
    if is_embedded(corpus, spec):
        return True
    running = active_embeddings(corpus, spec.name)
    watched = st.session_state.setdefault(WATCHED, [])  # started elsewhere too: this page reruns when it ends
    watched += [j["id"] for j in running if j["id"] not in watched]
    if running:
        st.info(f"Corpus **{md_escape(corpus)}** is being embedded with model **{md_escape(spec.name)}** in the "
                "background; this page continues when it is done (you can leave it meanwhile).")
    embedding_jobs(_remember_failure, corpus, spec.name)  # the bars; a watched job that ended: reported, rerun
    if error := st.session_state.pop(FAILED, None):
        show_error(error)
    elif not running and (earlier := last_failure(corpus, spec.name)):
        show_error(earlier)
    if running:
        return False
    st.warning(f"Corpus **{md_escape(corpus)}** is not embedded with model **{md_escape(spec.name)}** yet.")
    if st.button(f"Embed {md_escape(corpus)} with {md_escape(spec.name)}", type="primary") and start_embedding(
            corpus, spec):
        st.rerun()
    return False
