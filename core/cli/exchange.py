"""The `export` command and `import` of a Parquet export with vectors (a corpus and its vectors, moved between
workspaces). `export --format ris|bibtex|csl|csv|jsonl|xlsx` writes the papers (all, or `--ids`) for a reference manager
or a table instead (core.store.export_corpus_file)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from core.cli.output import Emit
from core.display import plural
from core.errors import CorpusError
from core.store import Store


def is_vectors_export(path: Path) -> bool:
    from core.io.vectors_parquet import vectors_meta

    return (path.is_dir() or path.suffix.lower() == ".parquet") and vectors_meta(path) is not None


def cmd_import_vectors(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    """`import DIR`: a Parquet export with vectors; the vectors go into the cache, nothing is re-embedded."""
    from core.embedding.exchange import import_corpus

    doc = import_corpus(store, args.file, args.corpus, model=getattr(args, "model", None))
    if doc.get("warning"):
        print(f"warning: {doc['warning']}", file=sys.stderr)
    emit(doc, f"corpus {doc['corpus']}: imported {plural(doc['imported'], 'row')} ({doc['merged']} merged), "
          f"skipped {doc['skipped']}; {plural(doc['vectors'], 'vector')} of {doc['model']} filed, nothing re-embedded")
    return doc


def add_export_arguments(p: argparse.ArgumentParser) -> None:
    """The `export` command's options."""
    from core.io.reference_export import EXPORT_FORMATS

    p.add_argument("--corpus", required=True)
    p.add_argument("--format", default=None, choices=list(EXPORT_FORMATS),
                   help="write the papers as RIS, BibTeX, CSL JSON, CSV, JSONL or Excel (.xlsx) to the file --out "
                        "(default: a Parquet dataset with vectors)")
    p.add_argument("--ids", nargs="+", default=None, metavar="ID", help="with --format: only these papers")
    p.add_argument("--model", default=None, help="for the Parquet export: whose vectors (default minilm)")
    p.add_argument("--out", required=True, help="the file (with --format), else the folder for part-*.parquet")


def cmd_export(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    """`export`: a Parquet dataset with vectors, or with --format a file of the papers."""
    fmt = getattr(args, "format", None)
    if fmt:
        return _export_file(store, args, emit, fmt)
    if getattr(args, "ids", None):
        raise CorpusError("--ids needs --format (ris, bibtex, csl, csv or jsonl); the Parquet export is whole")
    from core.embedding.exchange import export_corpus

    doc = export_corpus(store, args.corpus, args.model or args.settings.default_model, args.out)
    emit(doc, f"{plural(doc['papers'], 'paper')} with {doc['model']} vectors ({doc['dim']}-d) written to "
          f"{doc['out']} in {len(doc['files'])} Parquet file(s)")
    return doc


def _export_file(store: Store, args: argparse.Namespace, emit: Emit, fmt: str) -> dict[str, Any]:
    from core.io.reference_export import EXPORT_FORMATS
    from core.store import export_corpus_file

    out = Path(args.out)
    count = export_corpus_file(store, args.corpus, out, fmt, pids=args.ids)
    doc = {"corpus": args.corpus, "format": fmt, "papers": count, "out": str(out)}
    emit(doc, f"{plural(count, 'paper')} of corpus {args.corpus} written to {out} as {EXPORT_FORMATS[fmt][0]}")
    return doc
