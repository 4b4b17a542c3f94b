"""`python -m core [--workspace DIR] COMMAND ...`: every command takes --json; errors are one sentence."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from core.cli_figures import add_figure_commands
from core.cli_trash import add_trash_commands
from core.config import Settings
from core.display import plural
from core.errors import MireadError, NotEmbeddedError
from core.store import Store

Handler = Callable[[Store, argparse.Namespace], dict[str, Any]]


def _emit(args: argparse.Namespace, document: dict[str, Any], text: str) -> None:
    if args.json:
        print(json.dumps(document, ensure_ascii=False, default=str))
    else:
        print(text)


def _progress_bar(label: str, enabled: bool) -> Callable[[int, int], None]:
    """A tqdm bar driven by (done, total) callbacks; silent when disabled (e.g. --json)."""
    from tqdm import tqdm

    state: dict[str, Any] = {}

    def update(done: int, total: int) -> None:
        if not enabled or total <= 0:
            return
        bar = state.get("bar")
        if bar is None:  # the rate counts from here: the first call may already report a finished batch
            bar = state["bar"] = tqdm(total=total, initial=done, desc=label, unit="paper", file=sys.stderr)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return update


# -- commands ---------------------------------------------------------------------------------
def cmd_import(store: Store, args: argparse.Namespace) -> dict[str, Any]:
    from core.cli_exchange import cmd_import_vectors, is_vectors_export
    from core.import_cli import cmd_import as run_import

    files = [args.file] if isinstance(args.file, str) else list(args.file)
    if len(files) == 1 and Path(files[0]).exists() and is_vectors_export(Path(files[0])):
        if not args.corpus:
            raise MireadError("import needs --corpus NAME")
        args.file = files[0]
        return cmd_import_vectors(store, args)
    return run_import(store, args, _emit)


def cmd_corpora(store: Store, args: argparse.Namespace) -> dict[str, Any]:
    from core.embedding import list_models, model_names_by_vectors_fingerprint

    names = model_names_by_vectors_fingerprint(list_models(store))
    items = []
    for c in store.corpora():
        models = [names.get(fp, fp) for fp in store.embedded_models(c.name)]
        items.append({"name": c.name, "papers": c.papers, "links": c.links, "labels": c.labels,
                      "columns": c.columns, "models": models, "source": c.source})
    text = "\n".join(f"{c['name']}: {plural(c['papers'], 'paper')}, {plural(c['links'], 'link')}; "
                     f"labels: {', '.join(c['labels']) or '-'}; "
                     f"embedded with: {', '.join(c['models']) or '-'}" for c in items) or "no corpora yet"
    doc = {"corpora": items}
    _emit(args, doc, text)
    return doc


def cmd_demo(store: Store, args: argparse.Namespace) -> dict[str, Any]:
    from core.demo import prepare_demo

    doc = prepare_demo(store, limit=args.limit, embed=args.embed, progress=_progress_bar("embedding", not args.json),
                       say=None if args.json else lambda line: print(line, file=sys.stderr, flush=True),
                       map_method=args.map or None)
    _emit(args, doc, f"demo corpus {doc['corpus']}: {doc['papers']} papers"
          + (" (already present)" if doc.get("already") else "")
          + (f"; embedded {doc['embed']['new']} new" if doc.get("embed") else ""))
    return doc


def cmd_embed(store: Store, args: argparse.Namespace) -> dict[str, Any]:
    from core.embedding import RayOptions, embed_corpus, embed_corpus_ray

    model, bar = args.model or Settings().default_model, _progress_bar("embedding", not args.json)
    if args.engine == "ray":
        options = RayOptions(address=args.address, workers=args.workers, gpus_per_worker=args.gpus_per_worker,
                             batch_size=args.batch_size)
        report = embed_corpus_ray(store, args.corpus, model, options, progress=bar)
    else:
        report = embed_corpus(store, args.corpus, model, device=args.device, batch_size=args.batch_size, progress=bar)
    doc = report.to_dict()
    _emit(args, doc, f"{report.corpus} with {report.model}: {report.new} new, {report.cached} cached, "
          f"{report.total} total in {report.seconds:.1f}s")
    return doc


def cmd_search(store: Store, args: argparse.Namespace) -> dict[str, Any]:
    from core.explore import similar_papers

    result = similar_papers(store, args.corpus, args.model or Settings().default_model, title=args.title or "",
                            abstract=args.abstract or "", paper_id=args.paper, k=args.k)
    for item in result.results:
        item.pop("abstract", None)
        item.pop("row", None)
    doc = result.to_dict()
    text = "\n".join(f"{r['rank']:>3}  {r['score']:.3f}  {r['title']}" for r in result.results)
    if result.warning:
        print(f"warning: {result.warning}", file=sys.stderr)
    _emit(args, doc, text or "no results")
    return doc


def cmd_predict(store: Store, args: argparse.Namespace) -> dict[str, Any]:
    from core.explore import clip_query, predict_journals

    pred = predict_journals(store, args.model or Settings().default_model, title=clip_query(args.title),
                            abstract=clip_query(args.abstract), corpus=args.corpus, label_column=args.label,
                            k=args.k)
    doc = pred.to_dict()
    for item in doc["predictions"]:
        item.pop("evidence_papers", None)
    text = f"method: {pred.method}\n" + "\n".join(
        f"{p['probability']:6.1%}  {p['label']}" for p in pred.predictions)
    _emit(args, doc, text)
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


def cmd_map(store: Store, args: argparse.Namespace) -> dict[str, Any]:
    from core.explore import corpus_map

    result = corpus_map(store, args.corpus, args.model or Settings().default_model, method=args.method,
                        color=args.color)
    doc = {"corpus": args.corpus, "model": result["model"], "method": args.method, "points": result["points"],
           "seconds": result["seconds"], "cached": result["cached"], "fitted": result["fitted"],
           "placed": result["placed"]}
    if args.out:
        Path(args.out).write_text(map_export_html(store, args.corpus, result, color=args.color), encoding="utf-8")
        doc["out"] = args.out
    _emit(args, doc, f"map of {plural(doc['points'], 'paper')} ({args.method}) in {doc['seconds']:.1f}s"
          + (f"; fitted on {doc['fitted']}, {doc['placed']} placed from neighbours" if doc["placed"] else "")
          + (f"; written to {args.out}" if args.out else ""))
    return doc


def cmd_models(store: Store, args: argparse.Namespace) -> dict[str, Any]:
    from core.embedding import list_models

    if args.action == "install":
        from core.embedding.install import install_model

        report = _progress_bar("installing", not args.json)
        folder = install_model(args.name or "", store.root,
                               progress=lambda message, fraction: report(int(fraction * 100), 100))
        doc = {"installed": args.name, "location": str(folder)}
        _emit(args, doc, f"{args.name} installed in {folder}")
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
    _emit(args, doc, "\n".join(lines))
    return doc


def cmd_train(store: Store, args: argparse.Namespace) -> dict[str, Any]:
    from core.training import TrainConfig, jobs

    fields = {f: getattr(args, f) for f in TrainConfig.__dataclass_fields__ if getattr(args, f, None) is not None}
    cfg = TrainConfig(**fields)
    if args.background:
        job = jobs.get_job(store, jobs.launch(store, cfg))
        doc = {"job": job["id"], "status": job["status"], "model": job["model"], "metrics": {}}
        _emit(args, doc, f"job {job['id']} started in the background; follow it with `python -m core jobs`")
        return doc
    from core.training import base_comparison

    job = jobs.run_foreground(store, cfg)
    doc = {"job": job["id"], "status": job["status"], "model": job["model"], "metrics": job.get("metrics") or {},
           "error": job.get("error"), "verdict_sentence": base_comparison(job.get("metrics") or {},
                                                                          f"its base {job['base']}")}
    _emit(args, doc, f"training {doc['status']}: model {doc['model']}; metrics {json.dumps(doc['metrics'])}"
          + (f"\n{doc['verdict_sentence']}" if doc["verdict_sentence"] else ""))
    return doc


def cmd_jobs(store: Store, args: argparse.Namespace) -> dict[str, Any]:
    from core.training import jobs

    jobs.refresh(store)
    items = jobs.list_jobs(store)
    doc = {"jobs": items}
    _emit(args, doc, "\n".join(f"{j['id']}  {j['status']:<10} {j.get('progress', 0) or 0:5.0%}  "
                               f"{(j.get('error') or '')}" for j in items) or "no jobs")
    return doc


def cmd_cancel(store: Store, args: argparse.Namespace) -> dict[str, Any]:
    from core.training import jobs

    doc = jobs.cancel(store, args.job, wait=30)
    _emit(args, doc, f"job {args.job}: {doc.get('status')}")
    return doc


def cmd_evaluate(store: Store, args: argparse.Namespace) -> dict[str, Any]:
    from core.evaluation import evaluate_models, held_out_papers

    models = [m.strip() for m in args.models.split(",") if m.strip()]
    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()]
    held = held_out_papers(store, args.corpus, models) if args.held_out else None
    if args.held_out and held is None:
        raise MireadError(f"none of {', '.join(models)} was fine-tuned on corpus {args.corpus!r} with held-out "
                          "test papers; leave out --held-out to evaluate on a random sample")
    doc = evaluate_models(store, args.corpus, args.label, models, tasks, seed=args.seed,
                          sample=args.sample, progress=_progress_bar("evaluating", not args.json),
                          papers=held[1] if held else None)
    _emit(args, {k: v for k, v in doc.items() if k != "markdown"}, doc["markdown"])
    return doc


def cmd_repair(store: Store, args: argparse.Namespace) -> dict[str, Any]:
    doc = store.repair()
    _emit(args, doc, f"dropped {doc['dropped_chunks']} damaged array files and removed "
          f"{doc['removed_leftovers']} leftover files; run `embed` again to refill them")
    return doc


# -- parser -----------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m core", description="MIReAD Explorer command line")
    parser.add_argument("--workspace", default=None, help="workspace folder (default $MIREAD_WORKSPACE or ./workspace)")
    sub = parser.add_subparsers(dest="command", required=True)

    def add(name: str, handler: Handler, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text)
        p.add_argument("--json", action="store_true", help="print one JSON document")
        p.set_defaults(handler=handler)
        return p

    from core.cli_exchange import cmd_export
    from core.import_cli import add_import_arguments

    p = add("import", cmd_import, "import a file of papers into a corpus (--dry-run: preview it)")
    add_import_arguments(p)
    p.add_argument("--model", default=None, help="for a Parquet export with vectors: file them under this model")

    p = add("export", cmd_export, "write a corpus and its vectors as a Parquet dataset (import reads it back)")
    p.add_argument("--corpus", required=True)
    p.add_argument("--model", default=None, help="whose vectors (default minilm)")
    p.add_argument("--out", required=True, help="folder for the part-*.parquet files")

    add("corpora", cmd_corpora, "list corpora")
    p = add("demo", cmd_demo, "import the PubMed demo corpus (pubmed-demo)")
    p.add_argument("--limit", type=int, default=3000, help="papers to keep (0 = all ~33k)")
    p.add_argument("--embed", action="store_true", help="also embed it with the default model")
    p.add_argument("--map", default="", choices=["", "umap", "tsne", "pca"],
                   help="with --embed: also compute this map (make run: umap, the map page's default)")

    def model_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("--model", default=None, help="model name, Hugging Face id or folder (default minilm)")

    p = add("embed", cmd_embed, "embed what is not yet embedded")
    p.add_argument("--corpus", required=True)
    model_args(p)
    p.add_argument("--device", default="auto")
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--engine", default="local", choices=["local", "ray"], help="ray: an actor pool on a Ray cluster")
    p.add_argument("--address", default=None, help="with --engine ray: auto or ray://HOST:PORT (default: local)")
    p.add_argument("--workers", type=int, default=None,
                   help="with --engine ray: encoder actors (default: as many as the cluster's CPUs or GPUs fit)")
    p.add_argument("--gpus-per-worker", type=float, default=0.0, help="with --engine ray: GPUs per actor")

    p = add("search", cmd_search, "nearest papers to a title + abstract or to a paper id")
    p.add_argument("--corpus", required=True)
    model_args(p)
    p.add_argument("--title", default="")
    p.add_argument("--abstract", default="")
    p.add_argument("--paper", default=None, help="id of a corpus paper to use as the query")
    p.add_argument("-k", type=int, default=10)

    p = add("predict", cmd_predict, "journals that fit a title + abstract")
    model_args(p)
    p.add_argument("--corpus", default=None)
    p.add_argument("--label", default=None, help="label column for the kNN fallback (default: journal)")
    p.add_argument("--title", default="")
    p.add_argument("--abstract", default="")
    p.add_argument("-k", type=int, default=5)

    p = add("map", cmd_map, "2-D map of a corpus")
    p.add_argument("--corpus", required=True)
    model_args(p)
    p.add_argument("--method", default="umap", choices=["umap", "tsne", "pca"])
    p.add_argument("--color", default=None, help="label column to colour by")
    p.add_argument("--out", default=None, help="write a standalone HTML map here")

    p = add("train", cmd_train, "MIReAD fine-tuning on a label column")
    p.add_argument("--corpus", required=True)
    p.add_argument("--label", required=True)
    p.add_argument("--base", default=None)
    p.add_argument("--name", default=None)
    p.add_argument("--objective", default=None, choices=["cos", "ce", "ce+supcon", "supcon", "specter", "cos+specter"],
                   help="cos (default); specter and cos+specter learn from citation links (the corpus needs them)")
    for flag, typ in (("epochs", float), ("batch-size", int), ("grad-accum", int), ("lr", float),
                      ("head-lr", float), ("head-warmup-epochs", float), ("layer-decay", float),
                      ("warmup-ratio", float), ("max-length", int), ("clip", float), ("seed", int),
                      ("min-per-class", int), ("max-per-class", int), ("val-fraction", float),
                      ("max-papers", int), ("supcon-weight", float), ("temperature", float), ("device", str),
                      ("distill-weight", float), ("classes-per-batch", int), ("eval-every", int),
                      ("cite-weight", float), ("hard-ratio", float), ("cite-held-out", float),
                      ("test-fraction", float)):
        p.add_argument(f"--{flag}", type=typ, default=None)
    p.add_argument("--cite-loss", default=None, choices=["triplet", "in-batch"],
                   help="the citation term: in-batch negatives (default) or SPECTER's triplet margin loss")
    p.add_argument("--background", action="store_true", help="run as a background job")

    add("jobs", cmd_jobs, "list background jobs")
    p = add("cancel", cmd_cancel, "cancel a background job")
    p.add_argument("job")
    p = add("models", cmd_models, "list models; `models install mpnet` installs an installable one")
    p.add_argument("action", nargs="?", default="list", choices=["list", "install"])
    p.add_argument("name", nargs="?", default=None, help="with install: the model (mpnet)")

    p = add("evaluate", cmd_evaluate, "evaluation suite")
    p.add_argument("--corpus", required=True)
    p.add_argument("--label", default="", help="label column (not needed for the figures task alone)")
    p.add_argument("--models", default="minilm")
    p.add_argument("--tasks", default="probe,purity,retrieval,knn", help="also: self, neighbours, journals, figures, "
                   "cite, cocite (the cite tasks need citation links)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--sample", type=int, default=5000, help="papers sampled from large corpora")
    p.add_argument("--held-out", action="store_true",
                   help="sample only the held-out test papers of the first of --models fine-tuned on this corpus")
    add("repair", cmd_repair, "drop damaged array files from the catalog")
    add_figure_commands(add, model_args)
    add_trash_commands(add)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; user errors print one sentence on stderr and return 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    settings = Settings()
    workspace = args.workspace or settings.workspace
    started = time.perf_counter()
    try:
        store = Store(workspace)
        args.handler(store, args)
    except NotEmbeddedError as exc:
        model = f" --model {getattr(args, 'model', None)}" if getattr(args, "model", None) else ""
        fix = f"python -m core embed --corpus {getattr(args, 'corpus', 'NAME')}{model}"
        print(f"error: {exc}; run `{fix}` first", file=sys.stderr)
        return 2
    except MireadError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug, not bad input: still no traceback unless asked for
        if settings.debug:
            raise
        print(f"error: unexpected {exc.__class__.__name__}: {exc} (set MIREAD_DEBUG=1 for details)", file=sys.stderr)
        return 1
    finally:
        if settings.timing:
            print(f"[{time.perf_counter() - started:.2f}s]", file=sys.stderr)
    return 0
