"""Evaluate models on a stored corpus: embed, sample, run the protocols, cache each result, tabulate.

`evaluate_models` is what the Evaluate page and `python -m core evaluate` call; the protocols
themselves live in `core.evaluation.protocols` and `core.evaluation.robustness`, the tables and the
markdown in `core.evaluation.report`.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from core.embedding import ModelSpec, embed_corpus, get_encoder, get_model, vectors_fingerprint
from core.errors import CorpusError, MireadError
from core.evaluation.citations import CITE_TASKS, citation_tasks
from core.evaluation.figures import figures_task
from core.evaluation.intervals import interval_of
from core.evaluation.protocols import PROTOCOLS, TASKS, TEXT_TASKS, run_protocols
from core.evaluation.report import (
    Result,
    family_table,
    markdown_report,
    neighbour_rows,
    purity_points,
    result_from_row,
    results_table,
    robustness_by_category,
    to_json,
    winners,
)
from core.evaluation.robustness import neighbours_summary
from core.evaluation.short_queries import SHORT_TASK, short_rows
from core.evaluation.task_names import JOURNAL_TASK, QUERIED_BY, TITLE_TASK
from core.labels import is_missing, label_text
from core.store import Store

Progress = Callable[[int, int], None]
Status = Callable[[str], None]
EncoderFor = Callable[[ModelSpec], Any]

CACHE_VERSION = 1  # bump when a protocol changes what it computes, so old cached numbers are not reused
FIGURES = "figures"  # needs no label column: see core.evaluation.figures


# ---------------------------------------------------------------- labels and sampling


def label_values(values: Sequence) -> tuple[list[str | None], list[frozenset[str]]]:
    """Single labels and label sets of a column: lists and ';'-separated strings are multi-label."""
    singles: list[str | None] = []
    sets: list[frozenset[str]] = []
    for value in values:
        if isinstance(value, (list, tuple, set, frozenset, np.ndarray)):
            parts = frozenset(label_text(v) for v in value if not is_missing(v))
            singles.append("; ".join(sorted(parts)) or None)
            sets.append(parts)
        elif is_missing(value):
            singles.append(None)
            sets.append(frozenset())
        else:
            text = label_text(value)
            singles.append(text)
            sets.append(frozenset(p.strip() for p in text.split(";") if p.strip()))
    return singles, sets


def sample_rows(labels: Sequence[str | None], sample: int, seed: int = 0) -> np.ndarray:
    """Sorted row numbers of at most `sample` labelled papers, drawn with `seed`."""
    labelled = np.array([i for i, v in enumerate(labels) if v is not None], dtype=int)
    if len(labelled) > sample:
        pick = np.random.default_rng(seed).choice(len(labelled), size=sample, replace=False)
        labelled = np.sort(labelled[pick])
    return labelled


def _digest(ids: Sequence[str]) -> str:
    return hashlib.blake2b("\n".join(ids).encode("utf-8"), digest_size=12).hexdigest()


def cache_key(corpus: str, version: int, model_fp: str, task: str, label: str, seed: int, rows: str) -> str:
    """The store cache key of one task's results; text tasks do not depend on the label column."""
    revised = PROTOCOLS[task].revision if task in PROTOCOLS else 0  # a task's own changes: its old results only
    params: dict[str, Any] = {"v": CACHE_VERSION + revised, "corpus": corpus, "version": version, "model": model_fp,
                              "task": task, "seed": seed, "rows": rows}
    if task not in TEXT_TASKS:
        params["label"] = label
    return "evaluation:" + json.dumps(params, sort_keys=True)


# ---------------------------------------------------------------- the suite


def _check_request(store: Store, corpus: str, models: Sequence[str], tasks: Sequence[str],
                   sample: int) -> tuple[list[str], list[str]]:
    store.corpus(corpus)
    unknown = [t for t in tasks if t not in TASKS and t not in (FIGURES, SHORT_TASK) and t not in CITE_TASKS]
    if unknown:
        raise MireadError(f"unknown evaluation task {unknown[0]!r}; choose from {', '.join(TASKS)}, {FIGURES}, "
                          f"{', '.join(CITE_TASKS)}, {SHORT_TASK}")
    models = list(dict.fromkeys(m.strip() for m in models if m and m.strip()))
    if not models:
        raise MireadError("choose at least one model to evaluate")
    if not tasks:
        raise MireadError(f"choose at least one evaluation task ({', '.join(TASKS)}, {FIGURES})")
    if sample < 2:
        raise CorpusError(f"the sample size must be at least 2 papers; got {sample}")
    return models, list(dict.fromkeys(tasks))


@dataclass
class Sample:
    """The seeded sample of labelled papers that every model is evaluated on."""

    corpus: str
    version: int
    label: str
    seed: int
    rows: np.ndarray  # row numbers in the corpus frame
    digest: str  # of the sampled paper ids: part of every cache key
    labels: list[str]
    label_sets: list[frozenset[str]]
    titles: list[str]
    abstracts: list[str]
    labelled: int
    papers: int

    def key(self, model_fp: str, task: str) -> str:
        return cache_key(self.corpus, self.version, model_fp, task, self.label, self.seed, self.digest)


def draw_sample(store: Store, corpus: str, label: str, sample: int, seed: int,
                papers: Sequence[str] | None = None) -> Sample:
    """Read the corpus and draw the evaluation sample (from `papers`, ids, when given); a missing label column is one
    sentence."""
    info = store.corpus(corpus)
    frame = store.papers_frame(corpus)
    if label not in frame.columns or label in ("id", "title", "abstract"):
        choices = ", ".join(info.labels) or "none"
        raise CorpusError(f"corpus {corpus!r} has no label column {label!r} (label columns: {choices})")
    singles, sets = label_values(frame[label].tolist())
    if papers is not None:
        wanted = set(papers)
        singles = [v if i in wanted else None for v, i in zip(singles, frame["id"].astype(str))]
    rows = sample_rows(singles, sample, seed)
    if len(rows) < 2:
        raise CorpusError(f"column {label!r} of corpus {corpus!r} labels fewer than two papers")
    return Sample(
        corpus=corpus, version=info.version, label=label, seed=seed, rows=rows,
        digest=_digest(frame["id"].astype(str).iloc[rows].tolist()),
        labels=[singles[i] for i in rows], label_sets=[sets[i] for i in rows],
        titles=frame["title"].fillna("").astype(str).iloc[rows].tolist(),
        abstracts=frame["abstract"].fillna("").astype(str).iloc[rows].tolist(),
        labelled=sum(v is not None for v in singles), papers=info.papers,
    )


def sample_key(corpus: str, version: int, seed: int, digest: str) -> str:
    """The store cache key of how a sample was drawn (its size and the papers it was drawn from)."""
    return "evaluation-sample:" + json.dumps({"corpus": corpus, "version": version, "seed": seed, "rows": digest},
                                             sort_keys=True)


def _no_sample(store: Store, corpus: str, label: str, seed: int) -> Sample:
    """The empty sample of a run with only the figures task (which needs no label column)."""
    info = store.corpus(corpus)
    return Sample(corpus=corpus, version=info.version, label=label or "", seed=seed, rows=np.zeros(0, dtype=int),
                  digest="", labels=[], label_sets=[], titles=[], abstracts=[], labelled=0, papers=info.papers)


def _evaluate_model(store: Store, drawn: Sample, name: str, tasks: list[str], encoder_of: EncoderFor,
                    step: Callable[[str], None], status: Status | None, device: str, batch_size: int) -> dict:
    """One model's results (cached or computed), task errors and timings; ModelErrors propagate."""
    spec = get_model(name, store)
    fp = vectors_fingerprint(spec)
    cached = {t: store.cache_get(drawn.key(fp, t)) for t in tasks}
    todo = [t for t in tasks if cached[t] is None]
    out: dict[str, list] = {"results": [], "errors": [], "timings": []}
    X, encoder = None, None
    if todo:
        # only the sampled papers: "Sample 600" of a 10,000-paper corpus embeds 600 papers, not 10,000
        every = store.paper_hashes(drawn.corpus)
        hashes = [every[i] for i in drawn.rows]
        missing = set(store.missing_hashes(drawn.corpus, fp)) & set(hashes)
        if status:
            status(f"{name}: embedding {len(missing):,} of the {len(drawn.rows):,} sampled papers" if missing
                   else f"{name}: the {len(drawn.rows):,} sampled papers are embedded")
        if missing or any(PROTOCOLS[t].needs_encoder(spec.has_head) for t in todo):
            encoder = encoder_of(spec)

        def embedding(n: int, of: int) -> None:
            if status and of:
                status(f"{name}: embedding {n:,}/{of:,} sampled papers")

        embed_corpus(store, drawn.corpus, spec, device=device, batch_size=batch_size, progress=embedding,
                     encoder=encoder, only=set(hashes))
        X = store.vectors_of(fp, hashes)
    step(f"{name}: embeddings ready")
    for task in tasks:
        started = time.perf_counter()
        if cached[task] is None:
            try:
                computed = run_protocols(
                    X, drawn.labels, [task], model=name, label_sets=drawn.label_sets, seed=drawn.seed,
                    encode=(lambda pairs: encoder.encode(pairs)) if encoder else None,
                    titles=drawn.titles, abstracts=drawn.abstracts,
                    predict=encoder.predict if encoder is not None and encoder.head is not None else None,
                    head_labels=spec.labels,
                )
            except MireadError as exc:
                out["errors"].append({"model": name, "task": task, "error": str(exc)})
                step(f"{name}: {task} failed")
                continue
            cached[task] = to_json([dict(r.to_dict(), model=None) for r in computed])
            store.cache_put(drawn.key(fp, task), cached[task])
        seconds = 0.0 if task not in todo else round(time.perf_counter() - started, 3)
        out["timings"].append({"model": name, "task": task, "seconds": seconds, "cached": task not in todo})
        out["results"] += [dict(row, model=name) for row in cached[task]]
        step(f"{name}: {task} done")
    return out


def evaluate_models(
    store: Store,
    corpus: str,
    label: str,
    models: Sequence[str],
    tasks: Sequence[str],
    *,
    seed: int = 0,
    sample: int = 5000,
    progress: Progress | None = None,
    status: Status | None = None,
    device: str = "auto",
    batch_size: int = 32,
    encoder_for: EncoderFor | None = None,
    papers: Sequence[str] | None = None,
) -> dict:
    """Run the chosen protocols for each model on a seeded sample of the corpus's labelled papers.

    Each (corpus version, model fingerprint, task, parameters) result is cached in the store, so a
    re-run is instant. A model that cannot be loaded (e.g. a hub model offline) or a task that cannot
    run on this corpus is reported under "errors" and the others go on; if nothing could be computed
    the first error is raised. `progress(done, total)` counts steps: one embedding and one per task
    for each model. `encoder_for(spec)` supplies loaded encoders (the page's cached ones). `papers` (ids) limits
    the sample to those papers, e.g. a fine-tuned model's held-out test papers (`held_out_papers`).
    """
    started = time.perf_counter()
    models, tasks = _check_request(store, corpus, models, tasks, sample)
    figures = FIGURES in tasks
    cite = [t for t in tasks if t in CITE_TASKS]
    short = SHORT_TASK in tasks
    tasks = [t for t in tasks if t not in (FIGURES, SHORT_TASK) and t not in CITE_TASKS]
    drawn = (draw_sample(store, corpus, label, sample, seed, papers) if tasks
             else _no_sample(store, corpus, label, seed))
    if tasks:  # so that another model can be evaluated on these very papers later (core.evaluation.stored)
        store.cache_put(sample_key(corpus, drawn.version, seed, drawn.digest),
                        {"sample": sample, "papers": None if papers is None else list(papers)})
    total, done = len(models) * ((len(tasks) + 1 if tasks else 0) + figures + bool(cite) + short), 0
    found: dict[str, list] = {"results": [], "errors": [], "timings": []}

    def step(message: str) -> None:
        nonlocal done
        done += 1
        if progress:
            progress(done, total)
        if status:
            status(message)

    def encoder_of(spec: ModelSpec) -> Any:
        return encoder_for(spec) if encoder_for else get_encoder(spec, device=device, batch_size=batch_size)

    if figures:
        try:
            found["results"] += [r.to_dict() for r in figures_task(store, corpus, models, encoder_of, seed, step)]
        except MireadError as exc:
            found["errors"].append({"model": None, "task": FIGURES, "error": str(exc)})
        tasks_run = [*tasks, FIGURES]
    else:
        tasks_run = list(tasks)
    if cite:
        try:
            found["results"] += [r.to_dict() for r in citation_tasks(
                store, corpus, models, cite, encoder_of, seed, step, device=device, batch_size=batch_size)]
        except MireadError as exc:
            found["errors"].append({"model": None, "task": ", ".join(cite), "error": str(exc)})
        tasks_run += cite
    if short:  # words, meaning and both on short queries (core.evaluation.short_queries)
        for key, items in short_rows(store, corpus, models, encoder_of, seed, step, sample).items():
            found[key] += items
        tasks_run.append(SHORT_TASK)
    for name in models if tasks else []:
        finished_before = done
        try:
            part = _evaluate_model(store, drawn, name, tasks, encoder_of, step, status, device, batch_size)
        except MireadError as exc:
            part = {"results": [], "errors": [{"model": name, "task": None, "error": str(exc)}], "timings": []}
            done = finished_before + len(tasks)
            step(f"{name}: failed")
        for key, items in part.items():
            found[key] += items
    if not found["results"] and found["errors"]:
        raise MireadError(found["errors"][0]["error"])
    return _document(drawn, models, tasks_run, sample, found, time.perf_counter() - started, papers is not None)


def with_interval(row: dict, result: Result) -> dict:
    """A result row with the 95 % interval the Evaluate page shows beside it (`low`, `high`), where one follows."""
    if row.get("low") is not None or (bounds := interval_of(result)) is None:
        return row
    return {**row, "low": bounds[0], "high": bounds[1]}


def _document(drawn: Sample, models: list[str], tasks: list[str], requested: int, found: dict[str, list],
              seconds: float, held_out: bool = False) -> dict:
    """The JSON document (NaN as null) with its markdown rendering under "markdown"; `held_out`: the sample was drawn
    from given papers (a fine-tuned model's test split)."""
    objects = [result_from_row(r) for r in found["results"]]
    results = [with_interval(r, o) for r, o in zip(found["results"], objects)]
    table = results_table(objects) if objects else pd.DataFrame()
    notes = []
    for model in dict.fromkeys(r.model for r in objects if r.task == "neighbours"):
        rows = neighbour_rows(objects, model)
        if rows:
            notes.append({"model": model, "text": neighbours_summary(rows)})
    doc = {
        "corpus": drawn.corpus, "version": drawn.version, "label": drawn.label, "models": models, "tasks": tasks,
        "seed": drawn.seed,
        "requested_sample": requested, "sample": len(drawn.rows), "labelled": drawn.labelled,
        "papers": drawn.papers, "results": results,
        "table": table.reset_index().to_dict(orient="records") if objects else [],
        "best": winners([r for r in objects if r.task != "neighbours"]),
        "purity": purity_points(objects).to_dict(orient="records"),
        "robustness": robustness_by_category(objects).to_dict(orient="records"),
        "families": family_table(objects).to_dict(orient="records"),
        "notes": notes, "errors": found["errors"], "timings": found["timings"],
        "cached": sum(t["cached"] for t in found["timings"]), "seconds": round(seconds, 3), "held_out": held_out,
    }
    doc = to_json(doc)
    doc["markdown"] = markdown_report(doc)
    return doc


def held_out_papers(store: Store, corpus: str, models: Sequence[str]) -> tuple[str, list[str]] | None:
    """The first of `models` fine-tuned on `corpus` with held-out test papers, and their ids (None: none has)."""
    from pathlib import Path

    from core.embedding import read_checkpoint_meta

    for name in models:
        try:
            spec = get_model(name, store)
        except MireadError:
            continue
        meta = read_checkpoint_meta(Path(spec.location)) if spec.source == "checkpoint" else {}
        if meta.get("test_ids") and (meta.get("config") or {}).get("corpus") == corpus:
            return spec.name, list(meta["test_ids"])
    return None


def journal_accuracy(store: Store, corpus: str, model: str, column: str, method: str,
                     sample: int = 2000, title_only: bool = False) -> dict | None:
    """The measured top-5 accuracy of a journal-suggesting method (and of BM25) on held-out papers of a corpus,
    from the ``journals`` task, or with `title_only` (a query without an abstract) the ``journals-title`` task, whose
    held-out papers are queried by their titles alone (cached like every evaluation; `queried_by` says how);
    ``{"unmeasured": why}`` when it cannot be measured there (a page says so beside its suggestions); None for a
    method the task does not measure or no such corpus."""
    if method not in ("head", "knn") or not store.has_corpus(corpus):
        return None
    task = TITLE_TASK if title_only else JOURNAL_TASK
    spec = get_model(model, store)
    if store.missing_hashes(corpus, vectors_fingerprint(spec)):  # measuring would embed: never started on its own
        return {"unmeasured": f"the corpus is not fully embedded with {spec.name}"}
    try:
        doc = evaluate_models(store, corpus, column, [model], [task], sample=sample)
    except MireadError as exc:
        return {"unmeasured": str(exc)}
    top5 = {r["method"]: r for r in doc["results"] if r["task"] == task and r["metric"] == "top-5"}
    if method not in top5:
        return None
    return {"method": method, "top5": top5[method]["value"], "bm25": top5.get("bm25", {}).get("value"),
            "papers": top5[method]["n"], "left_out": int(top5[method].get("left_out") or 0),
            "queried_by": QUERIED_BY[task], "task": task}


QUICK_SAMPLE = 2000  # the Evaluate page's default sample (the Compare page's quick run)
