"""The corpus commands of `python -m core`: `corpora` (what the workspace holds), `demo` (the PubMed demo corpus)
and `repair` (drop damaged array files)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from core.cli.output import Emit, progress_bar
from core.display import plural
from core.store import Store


def cmd_corpora(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    from core.explore.documents import corpora_document

    doc = corpora_document(store)
    items = doc["corpora"]
    text = "\n".join(f"{c['name']}: {plural(c['papers'], 'paper')}, {plural(c['links'], 'link')}; "
                     f"labels: {', '.join(c['labels']) or '-'}; "
                     f"embedded with: {', '.join(c['models']) or '-'}" for c in items) or "no corpora yet"
    emit(doc, text)
    return doc


def cmd_demo(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    from core.demo import prepare_demo

    doc = prepare_demo(store, limit=args.limit, embed=args.embed, progress=progress_bar("embedding", not args.json),
                       say=None if args.json else lambda line: print(line, file=sys.stderr, flush=True),
                       map_method=args.map or None, model=args.settings.default_model)
    emit(doc, f"demo corpus {doc['corpus']}: {doc['papers']} papers"
          + (" (already present)" if doc.get("already") else "")
          + (f"; embedded {doc['embed']['new']} new" if doc.get("embed") else ""))
    return doc


def cmd_repair(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    doc = store.repair()
    emit(doc, f"dropped {doc['dropped_chunks']} damaged array files and removed "
          f"{doc['removed_leftovers']} leftover files; run `embed` again to refill them")
    return doc
