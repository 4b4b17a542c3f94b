"""The figure commands of `python -m core`: `figures` (each paper's ranked figures) and `train-figures` (the
self-supervised figure scorer, in the foreground or as a background job)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from core.cli.output import Emit
from core.errors import MireadError
from core.store import Store


def cmd_figures(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    from core.explore import figures_document

    store.corpus(args.corpus)
    if args.paper:
        store.paper(args.corpus, args.paper)
    doc = figures_document(store, args.corpus, args.model or args.settings.default_model,
                           [args.paper] if args.paper else None)
    if args.paper and not doc["papers"]:
        raise MireadError(f"paper {args.paper!r} of corpus {args.corpus!r} has no figures with captions")
    lines = []
    for paper in doc["papers"][: None if args.paper else args.limit]:
        lines.append(f"{paper['id']}  {paper['title']}")
        lines += [f"  {f['rank']:>2}. {f['score']:.3f}  {f['label']} — {f['caption'][:100]}" for f in paper["figures"]]
    emit(doc, "\n".join(lines) or f"corpus {args.corpus!r} has no figures; import JATS full text first")
    return doc


def cmd_train_figures(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    from core.training import FigureTrainConfig, jobs

    given = {f: getattr(args, f) for f in FigureTrainConfig.__dataclass_fields__ if getattr(args, f, None) is not None}
    cfg = FigureTrainConfig(**given)
    job = jobs.get_job(store, jobs.launch(store, cfg)) if args.background else jobs.run_foreground(store, cfg)
    doc = {"job": job["id"], "status": job["status"], "model": job["model"], "metrics": job.get("metrics") or {},
           "error": job.get("error")}
    emit(doc, f"figure scorer {doc['status']}: model {doc['model']}"
          + ("; follow it with `python -m core jobs`" if args.background
             else f"; metrics {json.dumps(doc['metrics'])}"))
    return doc


def add_figure_commands(add: Callable[..., argparse.ArgumentParser],
                        model_args: Callable[[argparse.ArgumentParser], None]) -> None:
    """Register `figures` and `train-figures` on the main parser (``add`` as in core.cli.build_parser)."""
    p = add("figures", cmd_figures, "each paper's figures ranked by how well the caption fits its abstract")
    p.add_argument("--corpus", required=True)
    p.add_argument("--paper", default=None, help="id of one paper (default: every paper with figures)")
    model_args(p)
    p.add_argument("--limit", type=int, default=20, help="papers shown in the text output")
    p = add("train-figures", cmd_train_figures, "self-supervised figure scorer on a JATS corpus's figure references")
    p.add_argument("--corpus", required=True)
    p.add_argument("--base", default=None)
    p.add_argument("--name", default=None)
    for flag, typ in (("epochs", float), ("lr", float), ("temperature", float), ("batch-papers", int),
                      ("sentences-per-paper", int), ("caption-length", int), ("frozen-layers", int),
                      ("split-seed", int), ("held-out", float), ("seed", int), ("device", str)):
        p.add_argument(f"--{flag}", type=typ, default=None)
    p.add_argument("--background", action="store_true", help="run as a background job")
