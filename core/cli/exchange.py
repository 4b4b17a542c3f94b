"""The `export` command and `import` of a Parquet export with vectors (a corpus and its vectors, moved between
workspaces)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from core.cli.output import Emit
from core.display import plural
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


def cmd_export(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    from core.embedding.exchange import export_corpus

    doc = export_corpus(store, args.corpus, args.model or args.settings.default_model, args.out)
    emit(doc, f"{plural(doc['papers'], 'paper')} with {doc['model']} vectors ({doc['dim']}-d) written to "
          f"{doc['out']} in {len(doc['files'])} Parquet file(s)")
    return doc
