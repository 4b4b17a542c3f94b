"""Reading a large file in a second process, so that parsing and validating rows overlaps with storing them.

An import is two halves of about equal weight: reading (the CSV/JSON parser, validating every row into a
`Paper`) and storing (hashes, SQLite). In one process they take turns on one core; here the reading runs in a
child process (``spawn``: safe from a threaded server) that sends batches of plain tuples through a pipe, and the
importer stores batch *k* while the child reads batch *k + 1*. The pipe is the back-pressure: the child waits
while the importer is behind, so memory stays flat. The records that come out are exactly those of reading in
process (the child runs the same `read_papers`); a reading error in the child is raised here, and leaving the
loop early (or any error while storing) stops the child.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from queue import Empty
from typing import Any

from core.errors import CorpusError
from core.io.rows import RowWarning
from core.io.safety import _name
from core.records import Paper, RowError

BACKGROUND_FORMATS = frozenset(("csv", "tsv", "jsonl"))  # the streamed formats whose reading is the heavy half
_BATCH = 2000
_BEHIND = 2  # the importer is behind when this many batches wait for it
_QUEUED = 8  # batches the child may be ahead of the importer (memory: 8 x 2,000 rows)


def background_worthwhile(path: Path, fmt: str) -> bool:
    """Whether to read this file in a child process: a streamed format, at least ``MIREAD_READ_PROCESS_ABOVE``
    bytes (default 16 MiB: the ~0.2 s start of a process is then under 5% of the import), and a process that may
    have children (a daemonic one may not)."""
    above = int(os.environ.get("MIREAD_READ_PROCESS_ABOVE", 16 * 2**20))
    return (fmt in BACKGROUND_FORMATS and above >= 0 and path.stat().st_size >= above
            and not multiprocessing.current_process().daemon)


class _Failure:
    """An exception raised while reading in the child, carried to the importer."""

    def __init__(self, error: BaseException):
        self.error = error if isinstance(error, CorpusError) else CorpusError(str(error) or type(error).__name__)


def _waiting(queue: Any) -> int:
    """How many batches wait for the importer (qsize() is not implemented on macOS: then 0 or 1)."""
    try:
        return queue.qsize()
    except NotImplementedError:
        return int(not queue.empty())


def _tuples(batch: list[Any], prepare: Callable[[Paper], tuple] | None) -> list[Any]:
    """A batch as it travels: papers as (id, title, abstract, fields, prepared) tuples; prepared (and then no
    fields) when ``prepare`` is given."""
    if prepare is None:
        return [(p.id, p.title, p.abstract, p.fields, None) if isinstance(p, Paper) else p for p in batch]
    return [(p.id, p.title, p.abstract, None, prepare(p)) if isinstance(p, Paper) else p for p in batch]


def _read(sender: Any, path: str, options: dict[str, Any], prepare: Callable[[Paper], tuple] | None) -> None:
    """The child: read the file as `read_papers` does and put batches of paper tuples, RowError and RowWarning on
    the queue; then None, or a _Failure. Whenever the importer is the slower side (batches are waiting for it), the
    child also computes the papers' stored form with ``prepare`` (hashes, JSON: about half of the importer's work
    per row), so both cores stay busy whichever is faster on this file."""
    from core.io.papers import read_papers

    try:
        batch: list[Any] = []
        for item in read_papers(path, background=False, **options):
            batch.append(item)
            if len(batch) >= _BATCH:
                behind = prepare is not None and _waiting(sender) >= _BEHIND
                sender.put(_tuples(batch, prepare if behind else None))
                batch = []
        sender.put(_tuples(batch, None))
        sender.put(None)
    except KeyboardInterrupt:
        pass
    except BaseException as exc:  # noqa: BLE001 - every reading error goes to the importer as one sentence
        try:
            sender.put(_Failure(exc))
        except Exception:  # noqa: BLE001 - the error itself does not pickle
            sender.put(_Failure(CorpusError(str(exc))))
    finally:
        sender.close()


def read_in_background(path: Path, options: dict[str, Any], hooks: dict[str, Any]
                       ) -> Iterator[Paper | RowError | RowWarning]:
    """The records of ``read_papers(path, **options)``, read in a child process while the caller stores them.
    ``hooks["prepare"]``, when set before the first record is asked for, is the importer's stored-form function
    (a module-level function: it travels by name); records it was applied to carry the result in ``prepared``."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue(maxsize=_QUEUED)
    child = context.Process(target=_read, args=(queue, str(path), options, hooks.get("prepare")), daemon=True,
                            name=f"miread-read-{path.name}")
    child.start()
    try:
        while True:
            batch = _next_batch(queue, child, path)
            if batch is None:
                return
            for item in batch:
                if isinstance(item, tuple):
                    pid, title, abstract, fields, prepared = item
                    yield Paper(pid, title, abstract, {} if fields is None else fields, prepared)
                else:
                    yield item
    finally:
        queue.close()
        queue.cancel_join_thread()
        if child.is_alive():
            child.terminate()
        child.join(timeout=10)


def _next_batch(queue: Any, child: Any, path: Path) -> list[Any] | None:
    """The next batch from the child; a reading error raised here; a child that died is one sentence."""
    while True:
        try:
            batch = queue.get(timeout=1.0)
        except Empty:
            if child.is_alive():
                continue
            raise CorpusError(f"reading file '{_name(path)}' stopped unexpectedly (its reading process ended with "
                              f"code {child.exitcode}); nothing was stored, import it again") from None
        if isinstance(batch, _Failure):
            raise batch.error
        return batch
