"""`python -m core [--workspace DIR] COMMAND ...`: every command takes --json; errors are one sentence.

This module holds the parser and the dispatch; output.py the one `emit` and the progress bar every command uses;
each command family has a module: importing.py (import), exchange.py (export, and import of a Parquet export with
vectors), corpora.py (corpora, demo, repair), search.py (embed, search, predict, map), training.py (train, jobs,
cancel, models, evaluate), figures.py (figures, train-figures), trash.py (delete, trash, restore, empty-trash),
collections.py (collections, collect), mcp.py (mcp: the Model Context Protocol server).
Every handler is called as `handler(store, args, emit)`.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from core.cli.collections import add_collection_commands
from core.cli.corpora import cmd_corpora, cmd_demo, cmd_repair
from core.cli.exchange import add_export_arguments, cmd_export
from core.cli.figures import add_figure_commands
from core.cli.importing import add_import_arguments, cmd_import
from core.cli.mcp import add_mcp_command
from core.cli.output import Emit, emitter
from core.cli.search import cmd_embed, cmd_map, cmd_predict, cmd_search
from core.cli.training import cmd_cancel, cmd_evaluate, cmd_jobs, cmd_models, cmd_train
from core.cli.trash import add_trash_commands
from core.config import Settings
from core.errors import MireadError, NotEmbeddedError
from core.store import Store

Handler = Callable[[Store, argparse.Namespace, Emit], dict[str, Any]]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m core", description="MIReAD Explorer command line")
    parser.add_argument("--workspace", default=None, help="workspace folder (default $MIREAD_WORKSPACE or ./workspace)")
    sub = parser.add_subparsers(dest="command", required=True)

    def add(name: str, handler: Handler, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text)
        p.add_argument("--json", action="store_true", help="print one JSON document")
        p.set_defaults(handler=handler)
        return p

    p = add("import", cmd_import, "import a file of papers into a corpus (--dry-run: preview it)")
    add_import_arguments(p)
    p.add_argument("--model", default=None, help="for a Parquet export with vectors: file them under this model")

    p = add("export", cmd_export, "write a corpus and its vectors as a Parquet dataset (import reads it back), "
                                  "or with --format its papers as RIS, BibTeX, CSL JSON, CSV, JSONL or Excel")
    add_export_arguments(p)

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
    p.add_argument("--batch-size", type=int, default=None,
                   help="papers per forward pass (default: 32 on a CPU, 256 on a GPU)")
    p.add_argument("--engine", default="local", choices=["local", "ray"], help="ray: an actor pool on a Ray cluster")
    p.add_argument("--address", default=None, help="with --engine ray: auto or ray://HOST:PORT (default: local)")
    p.add_argument("--workers", type=int, default=None,
                   help="with --engine ray: encoder actors (default: as many as the cluster's CPUs or GPUs fit)")
    p.add_argument("--gpus-per-worker", type=float, default=0.0, help="with --engine ray: GPUs per actor")
    p.add_argument("--background", action="store_true",
                   help="run as a background job (follow it with `jobs`, stop it with `cancel`; one job per corpus "
                        "and model: a second request joins the running one)")

    p = add("search", cmd_search, "papers that answer a few words, a title or an abstract (words and meaning fused), "
                                  "or the nearest papers to a paper id")
    p.add_argument("--corpus", required=True)
    model_args(p)
    p.add_argument("--title", default="")
    p.add_argument("--abstract", default="",
                   help='the query text: a few words ("quoted phrases" must occur) up to a whole abstract')
    p.add_argument("--paper", default=None, help="id of a corpus paper to use as the query")
    p.add_argument("-k", type=int, default=10)
    p.add_argument("--filter", action="append", default=[], metavar="COLUMN=VALUE",
                   help="only papers whose COLUMN is VALUE (repeat it: values of one column are alternatives; "
                        "'authors=Doe, J' keeps papers with that author; a journal by any of its spellings)")
    p.add_argument("--year-from", type=int, default=None)
    p.add_argument("--year-to", type=int, default=None)
    p.add_argument("--collection", default=None, help="only the papers of this collection")

    p = add("predict", cmd_predict, "journals that fit a title + abstract")
    model_args(p)
    p.add_argument("--corpus", default=None)
    p.add_argument("--label", default=None, help="label column for the kNN fallback (default: journal)")
    p.add_argument("--title", default="")
    p.add_argument("--abstract", default="",
                   help='the query text: a few words ("quoted phrases" must occur) up to a whole abstract')
    p.add_argument("-k", type=int, default=5)

    p = add("map", cmd_map, "2-D map of a corpus")
    p.add_argument("--corpus", required=True)
    model_args(p)
    p.add_argument("--method", default="umap", choices=["umap", "tsne", "pca"])
    p.add_argument("--color", default=None, help="label column to colour by")
    p.add_argument("--out", default=None, help="write a standalone HTML map here")
    p.add_argument("--refit", action="store_true", help="fit the map afresh (papers may move), aligned on the old one")
    p.add_argument("--background", action="store_true",
                   help="fit the map as a background job (follow it with `jobs`, stop it with `cancel`; one job per "
                        "corpus, model and method: a second request joins the running one); `map` then draws it")

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

    add("jobs", cmd_jobs, "list background jobs (training, embedding, maps, evaluations) with their progress and ETA")
    p = add("cancel", cmd_cancel, "cancel a background job")
    p.add_argument("job")
    p = add("models", cmd_models, "list models; `models install mpnet` installs an installable one")
    p.add_argument("action", nargs="?", default="list", choices=["list", "install"])
    p.add_argument("name", nargs="?", default=None, help="with install: the model (mpnet)")

    p = add("evaluate", cmd_evaluate, "evaluation suite")
    p.add_argument("--corpus", required=True)
    p.add_argument("--label", default="", help="label column (not needed for the figures task alone)")
    p.add_argument("--models", default="minilm")
    p.add_argument("--tasks", default="probe,purity,retrieval,knn", help="also: self, neighbours, journals, "
                   "journals-title (each held-out paper asked by its title alone), figures, cite, cocite (the cite "
                   "tasks need citation links), short (titles and keywords as queries: dense, lexical and fused "
                   "search)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--sample", type=int, default=5000, help="papers sampled from large corpora")
    p.add_argument("--held-out", action="store_true",
                   help="sample only the held-out test papers of the first of --models fine-tuned on this corpus")
    p.add_argument("--background", action="store_true",
                   help="run as a background job (follow it with `jobs`, stop it with `cancel`; the same request "
                        "while it runs joins it); its results are cached, so the same `evaluate` then answers at once")
    add("repair", cmd_repair, "drop damaged array files from the catalog")
    add_figure_commands(add, model_args)
    add_trash_commands(add)
    add_collection_commands(add)
    add_mcp_command(add)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; user errors print one sentence on stderr and return 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    settings = Settings()  # built once here and handed down: handlers read args.settings, never the environment
    args.settings = settings
    workspace = args.workspace or settings.workspace
    started = time.perf_counter()
    try:
        store = Store(workspace)
        args.handler(store, args, emitter(args.json))
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
    except BrokenPipeError:  # the reader (`| head`) closed the pipe: not an error of ours; stop quietly
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error when Python flushes
        except (OSError, ValueError, io.UnsupportedOperation):
            pass
        return 141  # 128 + SIGPIPE, as Unix tools end
    except Exception as exc:  # a bug, not bad input: still no traceback unless asked for
        if settings.debug:
            raise
        print(f"error: unexpected {exc.__class__.__name__}: {exc} (set MIREAD_DEBUG=1 for details)", file=sys.stderr)
        return 1
    finally:
        if settings.timing:
            print(f"[{time.perf_counter() - started:.2f}s]", file=sys.stderr)
    return 0
