"""The trash commands of `python -m core`: `delete` (a corpus, some of its papers or a model, into the trash),
`trash` (what it holds), `restore` (bring one back whole) and `empty-trash` (delete for good, with --yes)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from core.cli.output import Emit
from core.errors import MireadError
from core.store import Store, TrashItem


def _when(item: TrashItem) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(item.deleted))


def cmd_delete(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    if args.papers and not args.corpus:
        raise MireadError("--papers needs --corpus NAME (the corpus the papers are in)")
    if bool(args.corpus) == bool(args.model):
        raise MireadError("delete needs one of --corpus NAME or --model NAME")
    if args.papers:
        return _delete_papers(store, args.corpus, args.papers, emit)
    item = store.delete_corpus(args.corpus) if args.corpus else store.delete_model(args.model)
    doc = {"deleted": item.to_dict(), "undo": f"python -m core restore {item.id}"}
    emit(doc, f"moved {item.describe()} to the trash as item {item.id}; "
                     f"undo with `python -m core restore {item.id}`")
    return doc


def _delete_papers(store: Store, corpus: str, ids: list[str], emit: Emit) -> dict[str, Any]:
    """Single papers into the trash (one item), each named by id and title; `restore` brings them all back."""
    ids = list(dict.fromkeys(ids))
    try:
        named = [{"id": pid, "title": store.paper(corpus, pid).title} for pid in ids]
    except MireadError as exc:
        raise MireadError(f"{exc}; nothing was deleted") from exc
    item = store.delete_papers(corpus, ids)
    doc = {"deleted": item.to_dict(), "papers": named, "undo": f"python -m core restore {item.id}"}
    lines = [f"  {p['id']}  {' '.join(str(p['title'] or '').split())}" for p in named]
    emit(doc, "\n".join([f"moved {item.describe()} to the trash as item {item.id}:", *lines,
                         f"undo with `python -m core restore {item.id}`"]))
    return doc


def cmd_trash(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    items = store.trash()
    doc = {"trash": [i.to_dict() for i in items], "keep_days": store.TRASH_KEEP_DAYS}
    emit(doc, "\n".join(f"{i.id:>4}  {_when(i)}  {i.describe()}" for i in items) or "the trash is empty")
    return doc


def cmd_restore(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    item = store.find_in_trash(args.item)
    restored = store.restore(item.id, as_name=args.as_name)
    doc = {"restored": restored.to_dict()}
    emit(doc, f"restored {restored.describe()}")
    return doc


def cmd_empty_trash(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    items = [store.find_in_trash(args.item)] if args.item else store.trash()
    if not args.yes:
        what = "; ".join(i.describe() for i in items) or "nothing"
        raise MireadError(f"empty-trash deletes for good: {what}; add --yes to go ahead")
    gone = [store.empty_trash(i.id)[0] for i in items]
    doc = {"emptied": [i.to_dict() for i in gone]}
    emit(doc, "\n".join(f"deleted for good: {i.describe()}" for i in gone) or "the trash was empty")
    return doc


def add_trash_commands(add: Callable[[str, Any, str], argparse.ArgumentParser]) -> None:
    """Register delete, trash, restore and empty-trash on the main parser's `add`."""
    p = add("delete", cmd_delete, "move a corpus (with its papers, links, figures, maps) or a model to the trash")
    p.add_argument("--corpus", default=None)
    p.add_argument("--model", default=None, help="a saved (fine-tuned) model")
    p.add_argument("--papers", nargs="+", default=None, metavar="ID",
                   help="with --corpus: only these papers (by id), into the trash as one item")
    add("trash", cmd_trash, "list the trash: deleted corpora, papers, collections and models that can be restored")
    p = add("restore", cmd_restore, "bring a deleted corpus, papers, collection or model back from the trash")
    p.add_argument("item", help="its trash id (see `trash`) or its name")
    p.add_argument("--as", dest="as_name", default=None, help="restore under this name (its own is taken)")
    p = add("empty-trash", cmd_empty_trash, "delete what the trash holds for good (all, or one item)")
    p.add_argument("item", nargs="?", default=None, help="one trash id or name (default: everything)")
    p.add_argument("--yes", action="store_true", help="confirm: this cannot be undone")
