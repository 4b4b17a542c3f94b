"""File safety: file checks, the gzip-bomb guard, encoding detection and opening text, with their limits."""

from __future__ import annotations

import codecs
import gzip
import io
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from core.errors import CorpusError
from core.io.rows import NumberedRow

_HEAD_BYTES = 2**20
_GZIP_MAGIC = b"\x1f\x8b"


def _shown(text: str, limit: int = 80) -> str:
    """Text for a one-line message: control characters escaped (a tab as \\t), shortened to `limit`."""
    text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _name(path: Path) -> str:
    return _shown(path.name, 200)


def _check_file(path: Path) -> None:
    if not path.exists():
        raise CorpusError(f"file '{_name(path)}' was not found")
    if path.is_dir():
        raise CorpusError(f"'{_name(path)}' is a folder, not a file")
    if not path.is_file():
        raise CorpusError(f"'{_name(path)}' is not a regular file (a device, pipe or socket)")
    if path.stat().st_size == 0:
        raise CorpusError(f"file '{_name(path)}' is empty")


def _expanded_limit() -> int:
    """The most bytes one gzip upload may expand to (Settings: MIREAD_MAX_EXPANDED_BYTES)."""
    from core.config import Settings

    return Settings().max_expanded_bytes


class _GuardedGzip(io.RawIOBase):
    """A gzip stream that refuses to expand past a limit and reports damage as CorpusError."""

    def __init__(self, path: Path, limit: int):
        self._path = path
        self._limit = limit
        self._total = 0
        self._inner = gzip.GzipFile(path, "rb")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        try:
            count = self._inner.readinto(buffer)
        except (EOFError, gzip.BadGzipFile, zlib.error):
            raise CorpusError(f"file '{_name(self._path)}' is truncated or not valid gzip") from None
        self._total += count
        if self._total > self._limit:
            raise CorpusError(
                f"file '{_name(self._path)}' expands to more than {self._limit:,} bytes, "
                "over the limit set by MIREAD_MAX_EXPANDED_BYTES"
            )
        return count

    def close(self) -> None:
        self._inner.close()
        super().close()


def _open_binary(path: Path) -> io.BufferedReader:
    """Open a file for reading bytes, decompressing (with guards) when it is gzip."""
    with open(path, "rb") as probe:
        magic = probe.read(2)
    if magic == _GZIP_MAGIC:
        return io.BufferedReader(_GuardedGzip(path, _expanded_limit()), buffer_size=2**16)
    return open(path, "rb")


def _encoding_of(head: bytes) -> str:
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    return "utf-8"


def _encoding_error(path: Path, position: int | None, encoding: str) -> CorpusError:
    if encoding == "utf-16":
        return CorpusError(f"file '{_name(path)}' is not valid UTF-16 text; save it as UTF-8 and import again")
    where = f" (invalid byte at position {position})" if position is not None else ""
    return CorpusError(f"file '{_name(path)}' is not UTF-8 text{where}; save it as UTF-8 and import again")


def _invalid_byte_position(path: Path) -> int | None:
    """Byte offset of the first invalid UTF-8 sequence in the (expanded) file, if any."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0
    with _open_binary(path) as stream:
        while True:
            chunk = stream.read(2**20)
            pending = len(decoder.getstate()[0])
            try:
                decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as error:
                return offset - pending + error.start
            if not chunk:
                return None
            offset += len(chunk)


def _head_text(path: Path) -> str:
    """Decode the first MiB of a text file, refusing empty or non-UTF-8/16 files."""
    with _open_binary(path) as stream:
        head = stream.read(_HEAD_BYTES)
        at_end = not stream.peek(1)
    encoding = _encoding_of(head)
    try:
        text = codecs.getincrementaldecoder(encoding.replace("-sig", ""))().decode(head, final=at_end)
    except UnicodeDecodeError as error:
        raise _encoding_error(path, error.start, encoding) from None
    if at_end and not text.lstrip("\ufeff").strip():
        raise CorpusError(f"file '{_name(path)}' is empty")
    return text.lstrip("\ufeff")


def _open_text(path: Path, newline: str | None = None) -> IO[str]:
    stream = _open_binary(path)
    return io.TextIOWrapper(stream, encoding=_encoding_of(stream.peek(4)[:4]), newline=newline)


def _decoding(path: Path, reader: Callable[[Path], Iterator[NumberedRow]]) -> Iterator[NumberedRow]:
    """Run a text reader, turning a decoding error anywhere in the file into one CorpusError."""
    _head_text(path)
    try:
        yield from reader(path)
    except UnicodeDecodeError as error:
        encoding = "utf-16" if "16" in (error.encoding or "") else "utf-8"
        position = _invalid_byte_position(path) if encoding == "utf-8" else None
        raise _encoding_error(path, position, encoding) from None
