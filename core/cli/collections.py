"""The collection commands of `python -m core`: `collections` (list them) and `collect` (save papers by id, the papers
of a Domain-map topic or a search's results into a named collection; remove papers from it, merge collections,
delete one into the trash)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from core.cli.output import Emit
from core.display import plural
from core.errors import MireadError
from core.store import Store

LISTED = ("corpus", "name", "papers", "missing", "note")


def cmd_collections(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    if args.corpus:
        store.corpus(args.corpus)  # an unknown corpus says so
    found = store.collections(args.corpus)
    doc = {"collections": [{key: c.to_dict()[key] for key in LISTED} for c in found]}
    lines = [f"{c.corpus} / {c.name}: {plural(c.papers, 'paper')}"
             + (f" ({c.missing:,} missing from the corpus now)" if c.missing else "")
             + (f" — {c.note}" if c.note else "") for c in found]
    emit(doc, "\n".join(lines) or "no collections yet")
    return doc


def topic_ids(store: Store, corpus: str, topic: str, model: str, k: int) -> list[str]:
    """The ids of a Domain-map topic's papers (its tag: "B" coarse, "B2" fine), most central first."""
    from core.embedding import get_model
    from core.explore.topics.view import central_rows, topic_view

    spec = get_model(model, store)
    view = topic_view(store, corpus, spec, k)
    level, cluster = view.find(topic)
    rows, _ = central_rows(store, view, spec, level, cluster)
    ids = store.papers_frame(corpus, with_abstract=False)["id"].astype(str).to_numpy()
    return ids[rows].tolist()


def search_ids(store: Store, corpus: str, text: str, model: str, k: int) -> list[str]:
    """The ids of the k papers nearest to a text, as `search --title TEXT` finds them."""
    from core.explore.documents import search_document

    if not text.strip():
        raise MireadError("--from-search needs some text to search for")
    return [str(r["id"]) for r in search_document(store, corpus, model, title=text, k=k)["results"]]


def _chosen_ids(store: Store, args: argparse.Namespace) -> list[str] | None:
    """The papers `collect` was given: --ids, --from-topic or --from-search (None when none of them)."""
    sources = [flag for flag, value in (("--ids", args.ids), ("--from-topic", args.from_topic),
                                        ("--from-search", args.from_search)) if value is not None]
    if len(sources) > 1:
        raise MireadError(f"collect takes one of --ids, --from-topic or --from-search, not {' and '.join(sources)}")
    model = args.model or args.settings.default_model
    if args.from_topic is not None:
        return topic_ids(store, args.corpus, args.from_topic, model, args.clusters)
    if args.from_search is not None:
        return search_ids(store, args.corpus, args.from_search, model, args.k)
    return args.ids


def _merge(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    if not args.into:
        raise MireadError("--merge needs --into NAME: the collection the papers go to")
    merged = store.merge_collections(args.corpus, args.merge, args.into)
    doc = {"corpus": merged.corpus, "name": merged.name, "merged": args.merge, "papers": merged.papers}
    emit(doc, f"merged {', '.join(args.merge)} into collection {merged.name!r}: {plural(merged.papers, 'paper')}")
    return doc


def _delete(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    item = store.delete_collection(args.corpus, args.delete)
    doc = {"deleted": item.to_dict(), "undo": f"python -m core restore {item.id}"}
    emit(doc, f"moved {item.describe()} to the trash as item {item.id}; "
              f"undo with `python -m core restore {item.id}`")
    return doc


def cmd_collect(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    if args.merge:
        return _merge(store, args, emit)
    if args.delete:
        return _delete(store, args, emit)
    if not args.name:
        raise MireadError("collect needs --name NAME (or --merge A B --into NAME, or --delete NAME)")
    if args.remove:
        if not args.ids:
            raise MireadError("--remove needs --ids: the papers to take out of the collection")
        removed = store.remove_from_collection(args.corpus, args.name, args.ids)
        found = store.collection(args.corpus, args.name)
        doc = {"corpus": found.corpus, "name": found.name, "removed": removed, "papers": found.papers}
        emit(doc, f"removed {plural(removed, 'paper')} from collection {found.name!r}; "
                  f"{plural(found.papers, 'paper')} left")
        return doc
    ids = _chosen_ids(store, args)
    if ids is None and args.note is None:
        raise MireadError("collect needs the papers: --ids ID ..., --from-topic TOPIC or --from-search TEXT")
    before = {c.name.casefold(): c.papers for c in store.collections(args.corpus)}
    saved = store.save_collection(args.corpus, args.name, ids or [], note=args.note)
    added = saved.papers - before.get(saved.name.casefold(), 0)
    doc = {"corpus": saved.corpus, "name": saved.name, "added": added, "papers": saved.papers}
    emit(doc, f"collection {saved.name!r} of {saved.corpus}: {plural(added, 'paper')} added, "
              f"{plural(saved.papers, 'paper')} in all")
    return doc


def add_collection_commands(add: Callable[[str, Any, str], argparse.ArgumentParser]) -> None:
    """Register collections and collect on the main parser's `add`."""
    from core.explore.topics.view import DEFAULT_TOPICS

    p = add("collections", cmd_collections, "list the collections (named selections of papers) of the workspace")
    p.add_argument("--corpus", default=None, help="only this corpus's collections")
    p = add("collect", cmd_collect, "save papers into a named collection (by id, a topic or a search); --remove, "
                                    "--merge, --delete")
    p.add_argument("--corpus", required=True)
    p.add_argument("--name", default=None, help="the collection (created if new, else added to)")
    p.add_argument("--ids", nargs="+", default=None, help="paper ids")
    p.add_argument("--from-topic", default=None, help="a Domain-map topic's tag: B (coarse) or B2 (fine)")
    p.add_argument("--from-search", default=None, help="the papers nearest to this text")
    p.add_argument("-k", type=int, default=50, help="with --from-search: how many papers (default 50)")
    p.add_argument("--clusters", type=int, default=DEFAULT_TOPICS,
                   help=f"with --from-topic: the Domain map's number of fine topics (default {DEFAULT_TOPICS})")
    p.add_argument("--model", default=None, help="with --from-topic or --from-search (default minilm)")
    p.add_argument("--note", default=None, help="the collection's note (replaces the one it has)")
    p.add_argument("--remove", action="store_true", help="take the --ids out of collection --name")
    p.add_argument("--merge", nargs="+", default=None, metavar="NAME", help="collections to merge (with --into)")
    p.add_argument("--into", default=None, help="with --merge: the collection they go into (created if new)")
    p.add_argument("--delete", default=None, metavar="NAME", help="move this collection to the trash")
