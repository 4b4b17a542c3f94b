"""File safety: file checks, the gzip-bomb guard, encoding detection and opening text, with their limits.

Text is UTF-8 (or UTF-16 with its BOM) unless its first MiB is not UTF-8: then it is a file saved by Excel on
Windows or a classic Mac (Windows-1252, which reads Latin-1 too, or Mac Roman), told apart by charset-normalizer
among those two. A file of UTF-8 with Windows-1252 bytes among it is read as both (``core.io.mixed_encoding``).
Bytes that are not text in any of these (controls, NULs) are refused with one sentence. A user's choice
(``with_encoding``) always wins.
"""

from __future__ import annotations

import codecs
import functools
import gzip
import io
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from core.errors import CorpusError
from core.io import mixed_encoding
from core.io.cut_short import xml_text_refusal
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
            raise CorpusError(f"file '{_name(self._path)}' is truncated or not valid gzip; it may be cut short (an "
                              "interrupted download or copy): download or export it again") from None
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


ENTITY_SCAN_BYTES = 64 * 2**10


def xml_head(path: Path) -> bytes:
    """An XML file's first 64 KiB, refused when they declare entities (expansion and external-entity tricks); the XML
    readers parse with entities and the network off too."""
    with _open_binary(path) as stream:
        head = stream.read(ENTITY_SCAN_BYTES)
    if b"<!ENTITY" in head:
        raise CorpusError(f"file '{_name(path)}' declares XML entities, which are refused for safety; "
                          "remove the entity declarations and import again")
    return head


def xml_root(path: Path) -> Any:
    """A small XML file's root element (lxml), parsed with entities, DTDs and the network off; its entity
    declarations refused first (`xml_head`), a syntax error refused with its line."""
    from lxml import etree

    xml_head(path)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True)
    with _open_binary(path) as stream:
        try:
            return etree.parse(stream, parser).getroot()
        except etree.XMLSyntaxError as error:
            raise xml_refusal(path, error) from None


def xml_refusal(path: Path, error: Any) -> CorpusError:
    """The CorpusError for lxml's XMLSyntaxError `error` reading `path`: cut short, or broken at a line
    (`core.io.cut_short.xml_text_refusal`)."""
    return xml_text_refusal(_name(path), error, lambda: _line_count(path))


def _line_count(path: Path) -> int:
    """How many lines the file has (its newlines, plus one for text after the last)."""
    count, last = 0, b"\n"
    with _open_binary(path) as stream:
        while chunk := stream.read(2**20):
            count += chunk.count(b"\n")
            last = chunk[-1:]
    return count + (last != b"\n")



# the encodings a user may choose (the import preview's Encoding, --encoding), by their codecs names
ENCODING_NAMES = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8 (with BOM)", "utf-16": "UTF-16", "cp1252": "Windows-1252",
                  "iso8859-1": "Latin-1 (ISO-8859-1)", "mac-roman": "Mac Roman", "iso8859-15": "Latin-9 (ISO-8859-15)",
                  "cp1250": "Windows-1250 (Central European)",
                  mixed_encoding.NAME: "UTF-8 mixed with Windows-1252"}
_LEGACY = ("cp1252", "mac-roman")  # what Excel saves on Windows (Latin-1 text reads the same) and on a classic Mac
_CONTROLS = frozenset(chr(c) for c in range(32)) - frozenset("\t\n\r\f")


class EncodedPath(type(Path())):  # type: ignore[misc]
    """A path whose text is read in the encoding a user chose (``encoding``), whatever detection says."""

    encoding: str | None = None


def with_encoding(path: Path, encoding: str | None) -> Path:
    """The path, to be read as ``encoding`` (a codecs name or one of ENCODING_NAMES' labels); unchanged for None."""
    if not encoding:
        return path
    by_label = {label.lower(): name for name, label in ENCODING_NAMES.items()}
    try:
        name = codecs.lookup(by_label.get(encoding.strip().lower(), encoding.strip())).name
    except LookupError:
        raise CorpusError(f"encoding '{_shown(encoding, 40)}' is unknown; use one of "
                          f"{', '.join(ENCODING_NAMES.values())}") from None
    chosen = EncodedPath(path)
    chosen.encoding = name
    return chosen


def encoding_name(encoding: str) -> str:
    """An encoding as a person names it ("cp1252" -> "Windows-1252")."""
    return ENCODING_NAMES.get(encoding, encoding)


def _legacy_encoding(head: bytes) -> str | None:
    """Windows-1252 or Mac Roman for a head that is not UTF-8 but is text in one of them; None when it is neither
    (random bytes, UTF-8 with a few bad bytes)."""
    if any(ord(c) > 127 and c != "\ufffd" for c in head.decode("utf-8", "replace")):
        return None  # real UTF-8 sequences among the bad bytes: a damaged UTF-8 file, not another encoding
    fitting = []
    for encoding in _LEGACY:
        try:
            text = head.decode(encoding)
        except UnicodeDecodeError:
            continue
        if not _CONTROLS.intersection(text):
            fitting.append(encoding)
    if len(fitting) < 2:
        return fitting[0] if fitting else None
    from charset_normalizer import from_bytes

    best = from_bytes(head, cp_isolation=["cp1252", "mac_roman"]).best()
    return codecs.lookup(best.encoding).name if best is not None else fitting[0]


@functools.lru_cache(maxsize=64)
def _detected(path: str, size: int, mtime: int) -> str:
    with _open_binary(Path(path)) as stream:
        head = stream.read(_HEAD_BYTES)
        at_end = not stream.peek(1)
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=at_end)
    except UnicodeDecodeError:
        return _legacy_encoding(head) or _mixed_encoding(head, at_end) or "utf-8"
    return "utf-8"


def _mixed_encoding(head: bytes, at_end: bool) -> str | None:
    """UTF-8 mixed with Windows-1252 for a head that holds both (real UTF-8 sequences and bytes that are text only
    in Windows-1252); None when some byte is text in neither, or decodes to a control character."""
    try:
        text = codecs.getincrementaldecoder(mixed_encoding.NAME)().decode(head, final=at_end)
    except UnicodeDecodeError:
        return None
    return None if _CONTROLS.intersection(text) else mixed_encoding.NAME


def text_encoding(path: Path) -> str:
    """The encoding a text file is read in: the user's choice, else the BOM's, else UTF-8 when its first MiB is
    UTF-8, else Windows-1252 or Mac Roman when that is text (see the module), else UTF-8 (refused when read)."""
    chosen = getattr(path, "encoding", None)
    if chosen:
        return str(chosen)
    stat = path.stat()
    return _detected(str(path), stat.st_size, stat.st_mtime_ns)


def _encoding_error(path: Path, position: int | None, encoding: str) -> CorpusError:
    if encoding == "utf-16":
        return CorpusError(f"file '{_name(path)}' is not valid UTF-16 text; save it as UTF-8 and import again")
    where = f" (invalid byte at position {position})" if position is not None else ""
    if encoding in ("utf-8", "utf-8-sig") and position is not None and _reads_as_mixed(path):
        # its bad bytes are Windows-1252 ones, past the first MiB that detection reads
        return CorpusError(f"file '{_name(path)}' is UTF-8 with Windows-1252 bytes among it{where}; choose the "
                           f"encoding '{ENCODING_NAMES[mixed_encoding.NAME]}' and import again")
    if encoding not in ("utf-8", "utf-8-sig"):
        return CorpusError(f"file '{_name(path)}' is not {encoding_name(encoding)} text{where}; choose its encoding "
                           "or save it as UTF-8 and import again")
    return CorpusError(f"file '{_name(path)}' is not UTF-8 text{where}; save it as UTF-8 and import again")


def _invalid_byte_position(path: Path, encoding: str = "utf-8") -> int | None:
    """Byte offset of the first invalid sequence (in ``encoding``) in the (expanded) file, if any."""
    decoder = codecs.getincrementaldecoder(encoding)()
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


def _reads_as_mixed(path: Path) -> bool:
    """Whether the whole (expanded) file is text as UTF-8 mixed with Windows-1252: no byte that is text in neither,
    no control character (a binary file, a gzip inside a gzip, decodes but is not text)."""
    decoder = codecs.getincrementaldecoder(mixed_encoding.NAME)()
    with _open_binary(path) as stream:
        while True:
            chunk = stream.read(2**20)
            try:
                text = decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError:
                return False
            if _CONTROLS.intersection(text):
                return False
            if not chunk:
                return True


def _head_text(path: Path) -> str:
    """Decode the first MiB of a text file (in `text_encoding`), refusing empty files or text it cannot decode."""
    with _open_binary(path) as stream:
        head = stream.read(_HEAD_BYTES)
        at_end = not stream.peek(1)
    encoding = text_encoding(path)
    try:
        text = codecs.getincrementaldecoder(encoding.replace("-sig", ""))().decode(head, final=at_end)
    except UnicodeDecodeError as error:
        raise _encoding_error(path, error.start, encoding) from None
    if at_end and not text.lstrip("\ufeff").strip():
        raise CorpusError(f"file '{_name(path)}' is empty")
    return text.lstrip("\ufeff")


def _open_text(path: Path, newline: str | None = None) -> IO[str]:
    encoding = text_encoding(path)
    return io.TextIOWrapper(_open_binary(path), encoding=encoding, newline=newline)


def _decoding(path: Path, reader: Callable[[Path], Iterator[NumberedRow]]) -> Iterator[NumberedRow]:
    """Run a text reader, turning a decoding error anywhere in the file into one CorpusError."""
    _head_text(path)
    try:
        yield from reader(path)
    except UnicodeDecodeError:
        encoding = text_encoding(path)
        position = None if encoding == "utf-16" else _invalid_byte_position(path, encoding.replace("-sig", ""))
        raise _encoding_error(path, position, encoding) from None
