"""The model commands: `train` (fine-tuning, in the foreground or as a background job), `jobs`, `cancel`, `models`
(list, install) and `evaluate` (the evaluation suite)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from core.cli.output import Emit, progress_bar
from core.errors import MireadError
from core.store import Store


def cmd_train(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    from core.training import TrainConfig, jobs

    fields = {f: getattr(args, f) for f in TrainConfig.__dataclass_fields__ if getattr(args, f, None) is not None}
    cfg = TrainConfig(**fields)
    if args.background:
        job = jobs.get_job(store, jobs.launch(store, cfg))
        doc = {"job": job["id"], "status": job["status"], "model": job["model"], "metrics": {}}
        emit(doc, f"job {job['id']} started in the background; follow it with `python -m core jobs`")
        return doc
    from core.training import base_comparison

    job = jobs.run_foreground(store, cfg)
    doc = {"job": job["id"], "status": job["status"], "model": job["model"], "metrics": job.get("metrics") or {},
           "error": job.get("error"), "verdict_sentence": base_comparison(job.get("metrics") or {},
                                                                          f"its base {job['base']}")}
    emit(doc, f"training {doc['status']}: model {doc['model']}; metrics {json.dumps(doc['metrics'])}"
          + (f"\n{doc['verdict_sentence']}" if doc["verdict_sentence"] else ""))
    return doc


def cmd_jobs(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    from core.training import jobs

    jobs.refresh(store)
    items = jobs.list_jobs(store)
    doc = {"jobs": items}
    emit(doc, "\n".join(f"{j['id']}  {j['status']:<10} {j.get('progress', 0) or 0:5.0%}  {eta_text(j):<22}"
                               f"{j.get('what', '')}  {(j.get('error') or '')}" for j in items) or "no jobs")
    return doc


def eta_text(job: dict[str, Any]) -> str:
    """'about 1m 20s left', 'estimating…' for a running job without a stable estimate, '' for an ended one."""
    from core.eta import ESTIMATING, duration_text

    if job["status"] != "running":
        return ""
    return ESTIMATING if job.get("eta_s") is None else f"about {duration_text(job['eta_s'])} left"


def cmd_cancel(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    from core.training import jobs

    doc = jobs.cancel(store, args.job, wait=30)
    emit(doc, f"job {args.job}: {doc.get('status')}")
    return doc


def cmd_models(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    from core.embedding import list_models

    if args.action == "install":
        from core.embedding.install import install_model

        report = progress_bar("installing", not args.json, "%")
        folder = install_model(args.name or "", store.root,
                               progress=lambda message, fraction: report(int(fraction * 100), 100))
        doc = {"installed": args.name, "location": str(folder)}
        emit(doc, f"{args.name} installed in {folder}")
        return doc
    from core.evaluation import Verdict

    items = []
    for s in list_models(store):
        verdict = Verdict.from_dict(s.verdict)
        items.append({"name": s.name, "source": s.source, "location": s.location, "pooling": s.pooling,
                      "labels": len(s.labels), "label_column": s.label_column, "base": s.base,
                      "description": s.description, "verdict": verdict.to_dict() if verdict else None,
                      "verdict_sentence": verdict.sentence(f"its base {s.base}") if verdict else None})
    doc = {"models": items}
    lines = [f"{m['name']:<12} {m['source']:<10} {m['pooling']:<5} {m['description'] or m['location']}"
             + (f"\n{'':<12} {m['verdict_sentence']}" if m["verdict_sentence"] else "") for m in items]
    emit(doc, "\n".join(lines))
    return doc


def cmd_evaluate(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    from core.evaluation import evaluate_models, held_out_papers

    models = [m.strip() for m in args.models.split(",") if m.strip()]
    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()]
    held = held_out_papers(store, args.corpus, models) if args.held_out else None
    if args.held_out and held is None:
        raise MireadError(f"none of {', '.join(models)} was fine-tuned on corpus {args.corpus!r} with held-out "
                          "test papers; leave out --held-out to evaluate on a random sample")
    if getattr(args, "background", False):
        return _evaluate_job(store, args, models, tasks, held[1] if held else None, emit)
    doc = evaluate_models(store, args.corpus, args.label, models, tasks, seed=args.seed,
                          sample=args.sample, progress=progress_bar("evaluating", not args.json, "step"),
                          papers=held[1] if held else None)
    emit({k: v for k, v in doc.items() if k != "markdown"}, doc["markdown"])
    return doc


def _evaluate_job(store: Store, args: argparse.Namespace, models: list[str], tasks: list[str],
                  papers: list[str] | None, emit: Emit) -> dict[str, Any]:
    """`evaluate --background`: start (or join) the evaluation as a job; `jobs --json` holds its document."""
    from core.evaluation.job import EvaluateConfig
    from core.training import jobs

    cfg = EvaluateConfig(args.corpus, args.label, models, tasks, args.sample, args.seed, papers)
    joined = jobs.running_twin(store, jobs.kind_of(cfg).prepare(store, cfg))
    job = jobs.get_job(store, joined or jobs.launch(store, cfg))
    doc = {"job": job["id"], "status": job["status"], "corpus": args.corpus, "models": models, "tasks": tasks,
           "joined": joined is not None}
    emit(doc, f"job {job['id']} {'was already ' if joined else ''}evaluating {', '.join(models)} on {args.corpus} in "
              "the background; follow it with `python -m core jobs`, stop it with "
              f"`python -m core cancel {job['id']}`")
    return doc
