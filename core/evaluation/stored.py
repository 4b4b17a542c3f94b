"""Stored evaluation results, read without computing anything: a model's newest complete run of the quick protocols
on a corpus, whatever its sample size, and its newest cite / cocite results (the Compare models page shows them)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from core.embedding import get_model, vectors_fingerprint
from core.errors import MireadError
from core.evaluation.protocols import QUICK_TASKS
from core.evaluation.report import Result, figure_table, result_from_row
from core.evaluation.runner import QUICK_SAMPLE, cache_key, draw_sample, sample_key
from core.store import Store

Run = tuple[str, int]  # a stored run's sample: (digest of its papers, seed)


def stored_runs(store: Store, corpus: str, label: str, model: str,
                tasks: Sequence[str] = QUICK_TASKS) -> dict[Run, list[dict]]:
    """Every complete stored run of `tasks` for the model on the corpus as it is now (its version), newest first:
    the sample -> the rows of all its tasks."""
    fp, version = vectors_fingerprint(get_model(model, store)), store.corpus(corpus).version
    runs: dict[Run, list[dict]] = {}
    for key in store.cache_keys("evaluation:"):
        try:
            params = json.loads(key.split(":", 1)[1])
            run = (str(params["rows"]), int(params["seed"]))
        except (ValueError, KeyError, TypeError):
            continue
        if params.get("corpus") != corpus or params.get("model") != fp or run in runs:
            continue
        rows = [store.cache_get(cache_key(corpus, version, fp, task, label, run[1], run[0])) for task in tasks]
        if all(r is not None for r in rows):
            runs[run] = [dict(row, model=model) for part in rows for row in part]
    return runs


def stored_results(store: Store, corpus: str, label: str, model: str, tasks: Sequence[str] = QUICK_TASKS,
                   samples: Sequence[int] = (QUICK_SAMPLE, 5000), seed: int = 0) -> list[dict] | None:
    """A model's cached results of `tasks` on the corpus from a run with one of these sample sizes and `seed` (what
    `evaluate_models` with that sample reads back); None when some task has not been run. Computes nothing."""
    spec = get_model(model, store)
    fp = vectors_fingerprint(spec)
    for sample in samples:
        drawn = draw_sample(store, corpus, label, sample, seed)
        rows = [store.cache_get(drawn.key(fp, task)) for task in tasks]
        if all(r is not None for r in rows):
            return [dict(row, model=model) for part in rows for row in part]
    return None


def stored_cite_results(store: Store, corpus: str, models: Sequence[str]) -> list[Result]:
    """Each model's newest stored cite / cocite results on the corpus as it is now (what the Evaluate page showed),
    read without computing anything; per-paper scores only where every model's run ranked the same query papers."""
    from core.evaluation.citations import _summary

    version, found, params_of = store.corpus(corpus).version, {}, {}
    for model in models:
        fp = vectors_fingerprint(get_model(model, store))
        for key in store.cache_keys("cite-task:"):  # newest first
            try:
                params = json.loads(key.split(":", 1)[1])
            except ValueError:
                continue
            if params.get("corpus") == corpus and params.get("v") == version and params.get("model") == fp:
                found[model], params_of[model] = store.cache_get(key), {**params, "model": None}
                break
    paired = len({json.dumps({k: v for k, v in p.items() if k != "tasks"}, sort_keys=True)
                  for p in params_of.values()}) <= 1
    results = []
    for model, cached in found.items():
        for task, part in (cached or {}).items():
            values = {m: np.asarray(v) for m, v in part["values"].items()}
            results += _summary(model, task, values, int(part["n"]))
    return results if paired else [replace(r, per_paper=None) for r in results]


EXTRA_TASKS = ("journals",)  # stored protocol runs shown after the quick ones (the Evaluate page runs them on demand)
DOCUMENT_TASKS = ("figures", "short")  # kept only in an evaluation job's document (its result), not in the cache


def evaluation_figures(store: Store, corpus: str, label: str | None,
                       models: Sequence[str]) -> tuple[pd.DataFrame, list[str]]:
    """The Evaluate page's quick figures (stored results only) as the Evaluate page shows them: one row per measure
    (readable name), one column per model with its 95 % interval where one follows, and the papers (n); and the
    models that have none yet (none without a label column). The newest sample every model was run on is preferred;
    where the models were run on different papers, their per-paper scores are not paired (their intervals are
    compared instead). Stored journal-finder figures (`EXTRA_TASKS`, each from its own newest run), cite / cocite
    figures (`stored_cite_results`) and the figures and short-query tasks of evaluation jobs (`stored_job_results`)
    follow."""
    models = list(dict.fromkeys(models))
    runs = {m: stored_runs(store, corpus, label, m) if label else {} for m in models}
    missing = [m for m in models if not runs[m]] if label else []
    results = _newest_results(runs)
    for task in EXTRA_TASKS if label else ():
        results += _newest_results({m: stored_runs(store, corpus, label, m, (task,)) for m in models})
    results += stored_cite_results(store, corpus, models)  # cite / cocite: their own held-out query papers
    results += stored_job_results(store, corpus, models)
    if not results:
        return pd.DataFrame(), missing
    table, _ = figure_table(results)
    return table, missing


def stored_job_results(store: Store, corpus: str, models: Sequence[str],
                       tasks: Sequence[str] = DOCUMENT_TASKS) -> list[Result]:
    """Each model's results of each of `tasks` from the newest completed evaluation job that ran it on the corpus as
    it is now (its document names the corpus version; older documents, without one, are not read); per-paper scores
    only where one document holds every model's results of that task."""
    from core.evaluation.job import EVALUATE_KIND

    version = store.corpus(corpus).version
    found: dict[tuple[str, str], tuple[str, list[dict]]] = {}  # (task, model) -> (job, its rows)
    wanted = len(tasks) * len(set(models))
    for row in store.job_rows():  # newest first
        if len(found) == wanted:  # every model's newest result of every task: older documents are not read
            break
        if row["kind"] != EVALUATE_KIND or row["status"] != "completed" or not row["result"]:
            continue
        try:
            doc = json.loads(row["result"]).get("evaluation") or {}
        except (ValueError, AttributeError):
            continue
        if doc.get("corpus") != corpus or doc.get("version") != version:
            continue
        for result in doc.get("results") or []:
            if not isinstance(result, dict):
                continue
            key = (str(result.get("task")), str(result.get("model")))
            if key[0] in tasks and key[1] in models and found.get(key, (row["id"],))[0] == row["id"]:
                found.setdefault(key, (row["id"], []))[1].append(result)
    results = []
    for task in tasks:
        jobs = {found[(task, m)][0] for m in models if (task, m) in found}
        for model in models:
            part = [result_from_row(r) for r in found.get((task, model), ("", []))[1]]
            results += part if len(jobs) <= 1 else [replace(r, per_paper=None) for r in part]
    return results


def _newest_results(runs: dict[str, dict[Run, list[dict]]]) -> list[Result]:
    """The results of each model's stored runs (`stored_runs`): of the newest sample all the models with a run share,
    else each model's newest, unpaired (no per-paper scores: they would pair different papers)."""
    have = [m for m, found in runs.items() if found]
    shared = [run for run in runs[have[0]] if all(run in runs[m] for m in have)] if have else []
    rows = [row for m in have for row in (runs[m][shared[0]] if shared else next(iter(runs[m].values())))]
    results = [result_from_row(r) for r in rows]
    return [replace(r, per_paper=None) for r in results] if not shared and len(have) > 1 else results


@dataclass(frozen=True)
class SharedSample:
    """How to draw again the papers of a model's stored evaluation, so that another model is evaluated on them."""

    model: str  # whose stored evaluation drew them
    sample: int  # evaluate_models's sample size
    seed: int
    papers: list[str] | None  # the ids the sample was drawn from (held-out test papers), None: the whole corpus
    n: int  # papers in the sample


def _drawn_again(store: Store, corpus: str, label: str, run: Run, sample: int, papers: list[str] | None) -> int:
    """The size of the sample `sample`, `papers` and the run's seed draw when it is the run's very papers, else 0."""
    try:
        drawn = draw_sample(store, corpus, label, sample, run[1], papers)
    except MireadError:
        return 0
    return len(drawn.rows) if drawn.digest == run[0] else 0


def sample_of(store: Store, corpus: str, label: str, model: str, run: Run, rows: list[dict]) -> SharedSample | None:
    """How a stored run's sample is drawn again (recorded by `evaluate_models`; an older run: the sample size its
    rows name), or None when it cannot be."""
    recorded = store.cache_get(sample_key(corpus, store.corpus(corpus).version, run[1], run[0]))
    tries = [(int(recorded["sample"]), recorded.get("papers"))] if recorded else []
    tries += [(n, None) for n in sorted({int(r["n"]) for r in rows if r.get("n")}, reverse=True)]
    for sample, papers in tries:
        if n := _drawn_again(store, corpus, label, run, sample, papers):
            return SharedSample(model, sample, run[1], papers, n)
    return None


def shared_sample(store: Store, corpus: str, label: str, models: Sequence[str]) -> SharedSample | None:
    """The sample of the newest stored quick evaluation of the first of `models` that has one, when it can be drawn
    again; None otherwise."""
    for model in models:
        for run, rows in stored_runs(store, corpus, label, model).items():
            if found := sample_of(store, corpus, label, model, run, rows):
                return found
    return None


def common_sample(store: Store, corpus: str, label: str, models: Sequence[str], tasks: Sequence[str],
                  seed: int | None = None) -> SharedSample | None:
    """The newest sample on which every one of `models` has stored results of all `tasks` (with `seed` when given),
    drawn again so that `evaluate_models` reads them back: what the app shows, whatever its sample size."""
    runs = [stored_runs(store, corpus, label, m, tasks) for m in models]
    for run, rows in runs[0].items() if runs else ():
        if (seed is None or run[1] == seed) and all(run in other for other in runs[1:]):
            if found := sample_of(store, corpus, label, models[0], run, rows):
                return found
    return None
