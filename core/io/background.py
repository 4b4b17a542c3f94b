"""Reading a large file in a second process, so that parsing and validating rows overlaps with storing them.

An import is two halves of about equal weight: reading (the CSV/JSON parser, validating every row into a
`Paper`) and storing (hashes, JSON, SQLite). In one process they take turns on one core; here the reading runs in
a child process (``python -m core.io.background``: a plain subprocess, so it never re-runs the caller's main
script the way multiprocessing's ``spawn`` re-runs a Streamlit page) that writes pickled batches of plain tuples
to its stdout, and the importer stores batch *k* while the child reads the next ones. The child's writer thread
holds at most a few batches and the pipe blocks when the importer is behind, so memory stays flat. When batches
wait for the importer, the child also computes their stored form with the importer's function (passed by name),
so the work moves to whichever core is idle. The records that come out are exactly those of reading in process
(the child runs the same `read_papers`); a reading error in the child is raised here with its sentence, and leaving
the loop early (or any error while storing) stops the child.
"""

from __future__ import annotations

import os
import pickle
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from core.errors import CorpusError
from core.io.rows import RowWarning
from core.io.safety import _name
from core.records import Paper, RowError

BACKGROUND_FORMATS = frozenset(("csv", "tsv", "jsonl"))  # the streamed formats whose reading is the heavy half
_BATCH = 2000
_BEHIND = 2  # the importer is behind when this many batches wait to be written to it
_PIPE_BYTES = 1 << 20
_QUEUED = 8  # batches the child may hold ahead of the importer (memory: 8 x 2,000 rows)


def background_worthwhile(path: Path, fmt: str) -> bool:
    """Whether to read this file in a child process: a streamed format and at least ``MIREAD_READ_PROCESS_ABOVE``
    bytes (Settings; default 16 MiB: the ~0.2 s start of a process is then under 5% of the import; 'off': never)."""
    from core.config import Settings

    above = Settings().read_process_above
    return fmt in BACKGROUND_FORMATS and above is not None and path.stat().st_size >= above


class _Failure:
    """An exception raised while reading in the child, carried to the importer as a CorpusError."""

    def __init__(self, error: BaseException):
        self.message = str(error) if isinstance(error, CorpusError) else f"{type(error).__name__}: {error}"


def _tuples(batch: list[Any], prepare: Callable[[Paper], tuple] | None) -> list[Any]:
    """A batch as it travels: papers as (id, title, abstract, fields, prepared, line) tuples; prepared (and then no
    fields) when ``prepare`` is given; line, the row a spreadsheet shows the paper on (CSV/TSV), for the report."""
    if prepare is None:
        return [(p.id, p.title, p.abstract, p.fields, None, p.line) if isinstance(p, Paper) else p for p in batch]
    return [(p.id, p.title, p.abstract, None, prepare(p), p.line) if isinstance(p, Paper) else p for p in batch]


def _write_all(pending: queue.Queue, out: BinaryIO) -> None:
    """The child's writer thread: pickle each batch to the importer until None."""
    try:
        while True:
            item = pending.get()
            data = pickle.dumps(item, protocol=pickle.HIGHEST_PROTOCOL)  # whole, so the importer never waits on
            out.write(len(data).to_bytes(8, "little") + data)  # a half-written batch: one read, then loads
            out.flush()
            if item is None or isinstance(item, _Failure):
                return
    except (BrokenPipeError, OSError):  # the importer stopped listening
        os._exit(0)


def _child(source: BinaryIO, out: BinaryIO) -> None:
    """The child: read the file as `read_papers` does and write batches of paper tuples, RowError and RowWarning;
    then None, or a _Failure. Prepares a batch's stored form whenever ``_BEHIND`` batches wait for the importer."""
    read_papers, path, options, prepare = pickle.load(source)
    pending: queue.Queue = queue.Queue(maxsize=_QUEUED)
    writer = threading.Thread(target=_write_all, args=(pending, out), daemon=True)
    writer.start()
    try:
        batch: list[Any] = []
        for item in read_papers(path, background=False, **options):
            batch.append(item)
            if len(batch) >= _BATCH:
                behind = prepare is not None and pending.qsize() >= _BEHIND
                pending.put(_tuples(batch, prepare if behind else None))
                batch = []
        pending.put(_tuples(batch, None))
        pending.put(None)
    except BaseException as exc:  # noqa: BLE001 - every reading error goes to the importer as one sentence
        pending.put(_Failure(exc))
    writer.join()


def read_in_background(path: Path, options: dict[str, Any], hooks: dict[str, Any],
                       reader: Callable[..., Iterator[Any]]) -> Iterator[Paper | RowError | RowWarning]:
    """The records of ``reader(path, background=False, **options)`` (core.io.papers.read_papers), read in a child
    process while the caller stores them; ``reader`` is a module-level function and travels by name, so this module
    never imports the reader. ``hooks["prepare"]``, when set before the first record is asked for, is the importer's
    stored-form function (also by name); records it was applied to carry the result in ``prepared``."""
    from core.config import Settings, child_environment

    child = subprocess.Popen([sys.executable, "-m", "core.io.background"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=None if Settings().debug else subprocess.DEVNULL,
                             env=child_environment())
    try:
        assert child.stdin is not None and child.stdout is not None
        _widen(child.stdout)
        pickle.dump((reader, str(path), options, hooks.get("prepare")), child.stdin)
        child.stdin.close()
        while True:
            batch = _next_batch(child.stdout, child, path)
            if batch is None:
                return
            for item in batch:
                if isinstance(item, tuple):
                    pid, title, abstract, fields, prepared, line = item
                    yield Paper(pid, title, abstract, {} if fields is None else fields, prepared, line)
                else:
                    yield item
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
        if child.stdout is not None:
            child.stdout.close()


def _widen(stream: BinaryIO) -> None:
    """A 1 MiB pipe instead of 64 KiB (Linux): a batch crosses in a few writes, not a few hundred."""
    try:
        import fcntl

        fcntl.fcntl(stream.fileno(), getattr(fcntl, "F_SETPIPE_SZ", 1031), _PIPE_BYTES)
    except (ImportError, OSError):  # another system, or a limit below 1 MiB: the default pipe works as well
        pass


def _exactly(stream: BinaryIO, size: int) -> bytes:
    data = stream.read(size)
    if len(data) < size:
        raise EOFError
    return data


def _next_batch(stream: BinaryIO, child: subprocess.Popen, path: Path) -> list[Any] | None:
    """The next batch from the child; a reading error raised here; a child that died is one sentence."""
    try:
        size = int.from_bytes(_exactly(stream, 8), "little")
        batch = pickle.loads(_exactly(stream, size))
    except (EOFError, pickle.UnpicklingError, OSError):
        code = child.wait()
        raise CorpusError(f"reading file '{_name(path)}' stopped unexpectedly (its reading process ended with "
                          f"code {code}); nothing was stored, import it again") from None
    if isinstance(batch, _Failure):
        raise CorpusError(batch.message)
    return batch


def _main() -> None:
    """The reading process: batches go to a private copy of stdout; anything printed goes to stderr instead."""
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    _child(sys.stdin.buffer, out)


if __name__ == "__main__":  # run as the module's own name, so that what it pickles unpickles in the importer
    from core.io.background import _main as main

    main()
