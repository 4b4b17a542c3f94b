"""Small helpers the workspace builds on: safe names, atomic file writes, and whether a recorded process lives."""

from __future__ import annotations

import os
import re
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal

from core.errors import CorpusError

if TYPE_CHECKING:  # numpy loads where arrays are used: an import of papers never needs it
    import numpy as np

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._ -]{0,63}$")


def check_name(name: str, what: str = "name") -> str:
    """Return `name` stripped if it is a safe corpus/model/job name, else raise one sentence."""
    cleaned = (name or "").strip()
    if not _NAME.match(cleaned) or ".." in cleaned:
        raise CorpusError(
            f"{what} {name!r} is not allowed; use 1-64 letters, digits, spaces, '.', '_' or '-', "
            "starting with a letter or digit"
        )
    return cleaned


# control characters (white space is folded before this check) and the bidirectional formatting characters that
# can make a name read as something else on screen ('evil\u202etxt.exe' shows as 'evilexe.txt')
_INVISIBLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def check_printable(name: str, what: str = "name") -> str:
    """`name` when it holds no control or bidi-override character, else CorpusError saying which."""
    bad = _INVISIBLE.search(name)
    if bad:
        raise CorpusError(f"{what} may not hold control or bidi characters; this one has "
                          f"U+{ord(bad.group()):04X} at position {bad.start() + 1}")
    return name


@contextmanager
def atomic_file(path: Path) -> Iterator[BinaryIO]:
    """A binary file to write `path` atomically: a temporary file in the same folder, renamed over `path` when the
    block ends without an exception (removed when it raises)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_save_npy(path: Path, array: np.ndarray) -> None:
    """Write an .npy file atomically: a temporary file in the same folder, fsync, then rename."""
    import numpy as np

    with atomic_file(path) as handle:
        np.save(handle, array)
        handle.flush()
        os.fsync(handle.fileno())


# numpy reads an array file's header with ast.literal_eval, and CPython 3.11's AST conversion keeps its recursion
# depth in interpreter-wide state: two threads reading headers at once (a page and a background map job) can fail
# with "SystemError: AST constructor recursion depth mismatch" (tests/unit/store/test_vectors.py reproduces it).
# Header reads are microseconds, so every array file this project reads is opened under one lock.
_HEADERS = threading.Lock()


def load_npy(path: Path, mmap_mode: Literal["r"] | None = None) -> np.ndarray:
    """An .npy file's array (memory-mapped read-only with mmap_mode="r"); never a pickle."""
    import numpy as np

    with _HEADERS:
        return np.load(path, mmap_mode=mmap_mode, allow_pickle=False)


@contextmanager
def load_npz(path: Path) -> Iterator[Any]:
    """An .npz archive to read arrays from inside the block (each member's header is parsed when it is read)."""
    import numpy as np

    with _HEADERS, np.load(path, allow_pickle=False) as data:
        yield data


def atomic_write_text(path: Path, text: str) -> None:
    """Write a text file (UTF-8) atomically (temporary file then rename)."""
    with atomic_file(path) as handle:
        handle.write(text.encode("utf-8"))


def pid_alive(pid: int | None) -> bool:
    """Whether a process with this id exists on this machine (and is not a zombie)."""
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")
