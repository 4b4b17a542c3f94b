"""The commands on vectors: `embed` (a corpus with a model), `search` (nearest papers), `predict` (journals that fit)
and `map` (a 2-D map, optionally written as a standalone HTML file)."""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from core.cli.output import Emit, progress_bar
from core.display import plural
from core.store import Store


def cmd_embed(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    from core.embedding import RayOptions, embed_corpus, embed_corpus_ray
    from core.embedding.encoder import GPU_BATCH

    model = args.model or args.settings.default_model
    if getattr(args, "background", False):
        return _embed_job(store, args, model, emit)
    bar = progress_bar("embedding", not args.json)
    if args.engine == "ray":  # the actors' device, not this machine's, decides the default batch
        batch = args.batch_size or (GPU_BATCH if args.gpus_per_worker else RayOptions.batch_size)
        options = RayOptions(address=args.address, workers=args.workers, gpus_per_worker=args.gpus_per_worker,
                             batch_size=batch)
        report = embed_corpus_ray(store, args.corpus, model, options, progress=bar)
    else:
        report = embed_corpus(store, args.corpus, model, device=args.device, batch_size=args.batch_size, progress=bar)
    doc = report.to_dict()
    emit(doc, f"{report.corpus} with {report.model}: {report.new} new, {report.cached} cached, "
          f"{report.total} total in {report.seconds:.1f}s")
    return doc


def _embed_job(store: Store, args: argparse.Namespace, model: str, emit: Emit) -> dict[str, Any]:
    """`embed --background`: start (or join) the corpus's embedding job with this model."""
    from core.embedding.job import EmbedConfig
    from core.errors import MireadError
    from core.training import jobs

    if args.engine != "local":
        raise MireadError("--background runs the local engine; drop --engine ray or --background")
    cfg = EmbedConfig(args.corpus, model, args.device, args.batch_size)
    joined = jobs.running_twin(store, jobs.kind_of(cfg).prepare(store, cfg))
    job = jobs.get_job(store, joined or jobs.launch(store, cfg))
    doc = {"job": job["id"], "status": job["status"], "corpus": args.corpus, "model": job["model"],
           "joined": joined is not None}
    emit(doc, f"job {job['id']} {'was already embedding' if joined else 'embeds'} {args.corpus} with {job['model']} "
              "in the background; follow it with `python -m core jobs`, stop it with `python -m core cancel "
              f"{job['id']}`")
    return doc


def _map_job(store: Store, args: argparse.Namespace, model: str, emit: Emit) -> dict[str, Any]:
    """`map --background`: start (or join) the fit of the corpus's map with this model and method."""
    from core.errors import MireadError
    from core.explore.maps.job import MapConfig
    from core.training import jobs

    if args.refit or args.out:
        raise MireadError("--background fits the map only; drop --refit/--out, then run `map` again when it is done")
    cfg = MapConfig(args.corpus, model, args.method)
    joined = jobs.running_twin(store, jobs.kind_of(cfg).prepare(store, cfg))
    job = jobs.get_job(store, joined or jobs.launch(store, cfg))
    doc = {"job": job["id"], "status": job["status"], "corpus": args.corpus, "model": job["model"],
           "method": args.method, "joined": joined is not None}
    emit(doc, f"job {job['id']} {'was already fitting' if joined else 'fits'} the {args.method.upper()} map of "
              f"{args.corpus} with {job['model']} in the background; follow it with `python -m core jobs`, stop it "
              f"with `python -m core cancel {job['id']}`")
    return doc


def cmd_search(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    from core.explore.documents import search_document, search_filters, year_bounds

    doc = search_document(store, args.corpus, args.model or args.settings.default_model, title=args.title or "",
                          abstract=args.abstract or "", paper_id=args.paper, k=args.k,
                          filters=search_filters(store, args.corpus, _labels(args.filter), args.collection),
                          year_range=year_bounds(args.year_from, args.year_to))
    from core.explore.search.hybrid import why_text

    text = "\n".join(f"{r['rank']:>3}  {r['score']:.3f}  {r['title']}"
                     + (f"  [{why_text(r['why'])}]" if r.get("why") else "") for r in doc["results"])
    if doc.get("notice"):
        print(f"note: {doc['notice']}", file=sys.stderr)
    if doc["warning"]:
        print(f"warning: {doc['warning']}", file=sys.stderr)
    emit(doc, text or "no results")
    return doc


def _labels(pairs: list[str]) -> dict[str, list[str]] | None:
    """`--filter COLUMN=VALUE` options as {column: [values]} (the MCP search's `labels`)."""
    from core.errors import MireadError

    labels: dict[str, list[str]] = {}
    for pair in pairs or []:
        column, sep, value = pair.partition("=")
        if not sep or not column.strip():
            raise MireadError(f"--filter takes COLUMN=VALUE, got {pair!r}")
        labels.setdefault(column.strip(), []).append(value.strip())
    return labels or None


def cmd_predict(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    from core.explore.documents import predict_document

    doc = predict_document(store, args.model or args.settings.default_model, title=args.title, abstract=args.abstract,
                           corpus=args.corpus, label=args.label, k=args.k)
    text = f"method: {doc['method']}\n" + "\n".join(
        f"{p['probability']:6.1%}  {p['label']}" for p in doc["predictions"])
    emit(doc, text)
    return doc


def map_export_html(store: Store, corpus: str, result: dict[str, Any], color: str | None = None) -> str:
    """A standalone HTML file of a corpus map coloured by a label column."""
    from core.explore import hover_frame
    from core.plots import export_html, map_figure

    frame = store.papers_frame(corpus, with_abstract=False)
    colour = frame[color].tolist() if color and color in frame.columns else None
    fig = map_figure(result["coords"], color=colour, color_name=color or "", hover=hover_frame(frame),
                     title=f"{corpus} — {result['model']} {result['method']}")
    return export_html(fig)


def cmd_map(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    """The corpus's stable map: papers added since it was fitted are placed on it (`new`); `--refit` fits afresh."""
    from core.explore import map_fitted, refit_map, stable_coordinates

    started = time.perf_counter()
    model = args.model or args.settings.default_model
    if getattr(args, "background", False):
        return _map_job(store, args, model, emit)
    if args.refit:
        stable, cached = refit_map(store, args.corpus, model, args.method), False
    else:
        stable, cached = stable_coordinates(store, args.corpus, model, args.method)
    fitted = map_fitted(store, args.corpus, model, args.method)
    placed = 0 if fitted is None else int((~fitted).sum())
    points = len(stable.coords)
    result = {"model": model, "method": args.method, "coords": stable.coords}
    doc = {"corpus": args.corpus, "model": model, "method": args.method, "points": points,
           "seconds": time.perf_counter() - started, "cached": cached, "fitted": points - placed, "placed": placed,
           "new": stable.added}
    if stable.reason:
        doc["reason"] = stable.reason
    if args.refit and stable.movement is not None:
        doc["refit"] = asdict(stable.movement)
        doc["restores"] = stable.previous
    if args.out:
        Path(args.out).write_text(map_export_html(store, args.corpus, result, color=args.color), encoding="utf-8")
        doc["out"] = args.out
    emit(doc, f"map of {plural(doc['points'], 'paper')} ({args.method}) in {doc['seconds']:.1f}s"
          + (f"; fitted on {doc['fitted']}, {doc['placed']} placed from neighbours" if doc["placed"] else "")
          + (f"; {stable.added} new since it was fitted, placed {stable.placement}" if stable.added else "")
          + (f"; fitted afresh: {stable.reason}" if stable.reason else "")
          + (f"; re-fitted: {stable.movement.describe()}" if args.refit and stable.movement else "")
          + (f"; written to {args.out}" if args.out else ""))
    return doc
