"""UTF-8 with stray Windows-1252 bytes, as one codec ("utf-8-cp1252"): a UTF-8 export that went through a Windows
program, or two files pasted together, holds both ("someone\\x92s" beside "χ²"). Its bytes are read as UTF-8 where
they are UTF-8 and as Windows-1252 where they are not, so nothing in the file is lost; a byte that is text in
neither (one of Windows-1252's five undefined bytes) is still a decoding error. Importing this module registers it."""

from __future__ import annotations

import codecs

NAME = "utf-8-cp1252"
_HANDLER = "miread-cp1252-bytes"


def _as_cp1252(error: UnicodeError) -> tuple[str, int]:
    """The bytes UTF-8 could not read, read as Windows-1252 (raises for its undefined bytes)."""
    if not isinstance(error, UnicodeDecodeError):
        raise error
    try:
        return error.object[error.start:error.end].decode("cp1252"), error.end
    except UnicodeDecodeError as inner:  # where in the whole input, not in the bytes tried
        raise UnicodeDecodeError(NAME, error.object, error.start + inner.start, error.start + inner.end,
                                 "a byte that is text neither in UTF-8 nor in Windows-1252") from None


class _Decoder(codecs.BufferedIncrementalDecoder):
    def _buffer_decode(self, data: bytes, errors: str, final: bool) -> tuple[str, int]:
        return codecs.utf_8_decode(data, _HANDLER, final)


def _decode(data: bytes, errors: str = "strict") -> tuple[str, int]:
    return codecs.utf_8_decode(data, _HANDLER, True)


class _StreamReader(codecs.StreamReader):
    def decode(self, data: bytes, errors: str = "strict") -> tuple[str, int]:
        return codecs.utf_8_decode(data, _HANDLER, False)


def _search(name: str) -> codecs.CodecInfo | None:
    if name.replace("-", "_") != NAME.replace("-", "_"):
        return None
    utf8 = codecs.lookup("utf-8")
    return codecs.CodecInfo(name=NAME, encode=utf8.encode, decode=_decode, incrementalencoder=utf8.incrementalencoder,
                            incrementaldecoder=_Decoder, streamreader=_StreamReader, streamwriter=utf8.streamwriter)


codecs.register_error(_HANDLER, _as_cp1252)
codecs.register(_search)
