"""Train: fine-tune an encoder on a label column in the background and watch its curves live."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from core.eta import ESTIMATING
from core.plots import training_curves_figure
from core.records import md_escape
from core.training import PROBE_SPLIT, base_comparison, class_preview, jobs, verdict_outlook
from core.training.citations import VAL_QUERIES
from core.training.comparison import accuracy_figures, verdict_of_metrics
from core.training.curves import curve_start_note, interval_bands, start_annotation
from ui.errors import guarded, show_error
from ui.figures_train import figure_scorer_form
from ui.resources import store
from ui.table_download import table_download
from ui.train_form import train_settings

JOB_PARAM = "job"


@st.cache_data(show_spinner=False, max_entries=16)
def _preview(workspace: str, corpus: str, version: int, label: str, low: int | None, high: int | None,
             max_papers: int | None, seed: int) -> pd.DataFrame:
    return class_preview(store(), corpus, label, low, high, max_papers, seed)


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m" if hours else f"{minutes}m {secs:02d}s" if minutes else f"{secs}s"


def _eta(job: dict[str, Any]) -> str:
    """'about 3m 05s left', 'estimating…' while running without a stable estimate, else ''."""
    if job["status"] != "running":
        return ""
    return ESTIMATING if job["eta_s"] is None else f"about {_duration(job['eta_s'])} left"


def _status_line(job: dict[str, Any]) -> str:
    text = f"**{job['status']}** · {job['progress']:.0%}"
    if job["status"] == "running":
        text += f" · {_eta(job)}"
    if job["cancel_requested"] and job["status"] == "running":
        text += " · stopping at the next step…"
    return text


def _base_name(job: dict[str, Any]) -> str:
    return Path(job["base"]).name if os.sep in job["base"] else job["base"]


def _show_verdict(job: dict[str, Any]) -> None:
    """Whether the finished model beats its base on held-out test papers, with n and the 95 % interval: green when it
    does, a warning when it is worse or there are too few test papers to judge, plain when the change is within the
    interval."""
    final = job["metrics"]
    sentence = base_comparison(final, f"its base {_base_name(job)}")
    verdict = verdict_of_metrics(final)
    if sentence is None:
        st.caption("No base reference: with head warm-up off there is no fitted head to score the base model with.")
    elif verdict is not None and verdict.kind == "better":
        st.success(md_escape(sentence))
    elif verdict is not None and (verdict.kind == "worse" or not verdict.judgeable):
        st.warning(md_escape(sentence))
    else:
        st.info(md_escape(sentence))


CURVES = ("train", "figures")  # the kinds of job that log loss and accuracy curves


def _show_job(job: dict[str, Any], metrics: pd.DataFrame) -> None:
    """Progress, Cancel, and the loss and accuracy curves of one job."""
    s = store()
    active = job["status"] in jobs.ACTIVE
    head, button = st.columns([5, 1])
    if job["kind"] == "embed":
        head.markdown(f"Job `{job['id']}` embeds **{md_escape(job['corpus'])}** with model "
                      f"**{md_escape(job['model'])}** — {_status_line(job)}")
    elif job["kind"] not in CURVES:  # a map fit, an evaluation: what it is, in words
        head.markdown(f"Job `{job['id']}`: {md_escape(job['what'])} — {_status_line(job)}")
    else:
        head.markdown(f"Job `{job['id']}` → model **{md_escape(job['model'])}** ({md_escape(job['corpus'])} / "
                      f"{md_escape(job['label'])}, base {md_escape(job['base'])}) — {_status_line(job)}")
    if active and button.button("Cancel", key=f"cancel-{job['id']}", disabled=job["cancel_requested"],
                                help=f"Stop job {job['id']} (model {md_escape(job['model'])}); nothing else is "
                                     "touched"):
        jobs.cancel(s, job["id"])
        st.toast("Cancel requested: the job stops at its next step.")
    if active:
        st.progress(min(max(job["progress"], 0.0), 1.0))
    if job["status"] == "failed":
        show_error(job["error"] or "the job failed")
    if job["kind"] not in CURVES:  # no curves: its progress, ETA and Cancel are all there is
        return
    warm_only = not metrics.empty and (metrics["step"] <= 0).all()  # the head warm-up's step-0 point, no step yet
    if (metrics.empty or warm_only) and job["status"] in ("cancelled", "failed"):  # words, not empty charts
        st.info(f"Job {job['id']} was {job['status']} before its first step"
                + (" (only the head warm-up ran)" if warm_only else "")
                + ": no training step ran, so there is no curve to show.")
        return
    left, right = st.columns(2)
    left.plotly_chart(training_curves_figure(metrics, y="loss", start_note=start_annotation(metrics)),
                      key=f"loss-{job['id']}", width="stretch")
    right.plotly_chart(training_curves_figure(metrics, y="accuracy", bands=interval_bands(metrics, "accuracy")),
                       key=f"accuracy-{job['id']}", width="stretch")
    if not metrics.empty and (metrics["name"] == "cite_map").any():
        cite = training_curves_figure(metrics, y="cite_map")
        cite.update_yaxes(range=[0, 1])  # MAP's whole range: a few hundredths on a few dozen papers look as small
        left.plotly_chart(cite, key=f"cite-{job['id']}", width="stretch")
        right.plotly_chart(training_curves_figure(metrics, y="triplet_loss"), key=f"triplet-{job['id']}",
                           width="stretch")
        queries = (job.get("metrics") or {}).get("cite_val_queries")
        on = (f"on {int(queries):,} held-out query papers" if queries else
              f"on up to {VAL_QUERIES} held-out query papers (the exact number when the run ends)")
        st.caption(f"**cite_map**: {on} (their links never make training triplets), each one's "
                   "cited papers (up to 5) ranked among 25 random others: mean average precision; rising means the "
                   "model learns to place papers near what they cite. Drawn on MAP's whole 0–1 range: one paper's "
                   "average precision varies widely, so on a few dozen papers MAP is uncertain by several hundredths "
                   "either way, and a change of a few hundredths may not hold on other papers; an axis fitted to the "
                   "curve would draw it as a rise or a fall. **triplet_loss**: the citation term of each "
                   "step, " + ("in-batch negatives (each paper's cited paper among the batch's papers)"
                               if (job.get("config") or {}).get("cite_loss", "triplet") == "in-batch"
                               else "SPECTER's triplet margin loss") + ".")
    if job["kind"] == "figures":
        st.caption("**train**: the in-paper contrastive loss of each batch. **val**: loss and accuracy@1 (the "
                   "referenced caption ranked first among its paper's captions) on a few training-split papers "
                   "kept out of the steps. **base model** (dashed): the base encoder on the same pairs.")
    else:
        st.caption(f"**train**: the loss of each batch before its update. **{PROBE_SPLIT}**: training papers kept "
                   "out of the head warm-up, so their accuracy is not memorised from the start; the encoder still "
                   "trains on them, and a gap above **val** shows overfitting. **base model** (dashed): the base "
                   "encoder with the warmed-up head on validation, before any encoder step. The shaded band around "
                   "an accuracy is its 95 % interval over the n papers it scores (Wilson; n in the legend): two "
                   "points whose bands overlap may not differ on other papers. The verdict at the end "
                   "compares both on held-out **test** papers that no curve here uses.")
        note = curve_start_note(metrics)
        if note:
            st.caption(note)
    if job["status"] == "completed":
        final = job["metrics"]
        gain = final.get("val_accuracy_gain")
        verdict = verdict_of_metrics(final)
        cols = st.columns(5)
        test_papers = final.get("test_papers", 0) or 0
        if verdict is not None and verdict.judgeable:
            cols[0].metric("Test accuracy", f"{verdict.new:.1%}",
                           delta=f"{100 * verdict.change:+.1f} ± {verdict.margin:.1f} points vs base",
                           delta_color="normal" if verdict.kind != "no measurable change" else "off",
                           help=f"On {verdict.papers()}; the base: {verdict.base:.1%}. ± is half the 95 % interval "
                                "of the change (paired bootstrap over papers, never narrower than the exact binomial "
                                "bound for n papers).")
        elif final.get("test_accuracy") is not None and test_papers:
            cols[0].metric("Test accuracy", f"{final['test_accuracy']:.1%}",
                           help=f"On {test_papers:,} held-out test papers: too few to judge against the base.")
        elif job["kind"] != "figures":
            cols[0].metric("Test accuracy", "–", help="No held-out test papers: this run set none aside.")
        cols[1].metric("Validation accuracy", f"{final.get('val_accuracy', 0):.1%}",
                       delta=None if gain is None or verdict is not None else f"{100 * gain:+.1f} points vs base",
                       delta_color="normal" if gain else "off")
        if job["kind"] == "figures":
            cols[2].metric("Base accuracy@1", f"{final.get('base_val_accuracy', 0):.1%}")
            cols[3].metric("Training pairs seen", f"{final.get('pairs', 0):,}")
        else:
            top5 = final.get("test_top5_accuracy", final.get("val_top5_accuracy", 0))
            cols[2].metric("Top-5 accuracy", f"{top5 or 0:.1%}")
            cols[3].metric("Classes", final.get("classes", "–"))
        cols[4].metric("Time", _duration(final.get("seconds")))
        figures = accuracy_figures(final)
        if figures and job["kind"] != "figures":
            st.caption(figures)
        _show_verdict(job)
        st.caption(f"Model **{md_escape(job['model'])}** is now in the sidebar's model list: embed, map, search and "
                   "journal suggestions can use it.")


def _jobs_table(items: list[dict[str, Any]]) -> pd.DataFrame:
    return pd.DataFrame([{
        "job": j["id"], "kind": j["kind"], "status": j["status"], "model": j["model"], "corpus": j["corpus"],
        "label": j["label"],
        "base": _base_name(j), "progress": j["progress"], "time left": _eta(j),
        "started": time.strftime("%Y-%m-%d %H:%M", time.localtime(j["created"])) if j["created"] else "",
        "test accuracy": j["metrics"].get("test_accuracy"), "val accuracy": j["metrics"].get("val_accuracy"),
        "vs base": _verdict_cell(j["metrics"]), "error": j["error"] or "",
    } for j in items])


def _verdict_cell(metrics: dict[str, Any]) -> str:
    """'+1.2 ± 3.4 pts (no measurable change, n=612)', or '' without a verdict."""
    verdict = verdict_of_metrics(metrics)
    if verdict is None:
        return ""
    if not verdict.judgeable:
        return f"{verdict.kind} (n={verdict.n:,} {verdict.split})"
    return f"{100 * verdict.change:+.1f} ± {verdict.margin:.1f} pts ({verdict.kind}, n={verdict.n:,})"


def _show_jobs(chosen: str, was_active: tuple[str, ...]) -> None:
    """The chosen job and the table of all jobs, from one read of the store; a full rerun when a job ends."""
    s = store()
    items = jobs.list_jobs(s)
    job = next((j for j in items if j["id"] == chosen), None) or jobs.get_job(s, chosen)
    with st.container(border=True):
        _show_job(job, jobs.metrics_frame(s, chosen))
    st.subheader("Jobs")
    table = _jobs_table(items)
    st.dataframe(table, width="stretch", hide_index=True,
                 column_config={"progress": st.column_config.ProgressColumn("progress", format="percent",
                                                                            min_value=0, max_value=1),
                                "test accuracy": st.column_config.NumberColumn(format="percent"),
                                "val accuracy": st.column_config.NumberColumn(format="percent"),
                                "vs base": st.column_config.TextColumn(
                                    help="Test accuracy minus the base model's on the same held-out test papers, "
                                         "± half its 95 % interval, the verdict and the papers (n)")})
    table_download(table, "train_jobs_csv", "training-jobs")
    if any(j["id"] in was_active and j["status"] not in jobs.ACTIVE for j in items):
        st.rerun(scope="app")


st.title("Train")
st.caption("Fine-tune an encoder to predict a label column (MIReAD: the journal). The new model's pooled vector "
           "becomes a paper embedding shaped by that label. Training runs in the background: you can leave or "
           "reload this page.")
s = store()
all_jobs = jobs.list_jobs(s)

# -- one job, live -----------------------------------------------------------------------------
if all_jobs:
    ids = [j["id"] for j in all_jobs]
    wanted = st.query_params.get(JOB_PARAM)
    if wanted not in ids:
        wanted = next((j["id"] for j in all_jobs if j["status"] in jobs.ACTIVE), ids[0])
    by_id = {j["id"]: j for j in all_jobs}
    chosen = st.selectbox("Job", ids, index=ids.index(wanted),
                          format_func=lambda i: f"{i} · {by_id[i]['model']} · {by_id[i]['status']}",
                          help="Running jobs update every 2 seconds; pick a finished one to see its curves.")
    st.query_params[JOB_PARAM] = chosen
    active = tuple(j["id"] for j in all_jobs if j["status"] in jobs.ACTIVE)
    st.fragment(run_every=2 if active else None)(_show_jobs)(chosen, active)

with st.expander("Figure scorer: visual summaries from full-text articles"):
    figure_job = figure_scorer_form(s)
if figure_job:
    st.query_params[JOB_PARAM] = figure_job
    st.rerun()

# -- a new run ---------------------------------------------------------------------------------
st.subheader("New training run")
corpora = s.corpora()
if not corpora:
    st.info("Import a labelled corpus on the **Library** page first.")
    st.stop()
cfg = train_settings(s)
label, max_papers = cfg.label, cfg.max_papers
preview = guarded(_preview, str(s.root), cfg.corpus, s.corpus(cfg.corpus).version, label, cfg.min_per_class,
                  cfg.max_per_class, max_papers, cfg.seed)
if preview is not None:
    used = preview[preview["used"]]
    n_used = int(used["sampled"].sum())
    st.markdown(f"**{len(used):,}** of {len(preview):,} classes of **{md_escape(label)}** will be used, "
                f"{n_used:,} papers in all (before the validation and test splits).")
    if max_papers is not None and n_used > max_papers:
        st.caption(f"Max papers is {int(max_papers):,}, but every class keeps at least 2 papers "
                   "(one for training, one for validation).")
    outlook = verdict_outlook(used["sampled"].astype(int).tolist(), cfg.test_fraction)
    if outlook:
        st.warning(outlook)
    st.dataframe(preview, width="stretch", hide_index=True, height=min(240, 35 * (len(preview) + 1) + 3),
                 column_config={"used": st.column_config.CheckboxColumn("used"),
                                "sampled": st.column_config.NumberColumn("papers used")})
    table_download(preview, "train_classes_csv", cfg.corpus, label, "classes")

if st.button("Start training", type="primary", disabled=preview is None):
    starting = st.progress(0.0, text="Starting the training job…")  # on screen at once; the job's own bar follows
    job_id = guarded(jobs.launch, s, cfg)
    starting.empty()
    if job_id:
        st.query_params[JOB_PARAM] = job_id
        st.rerun()
