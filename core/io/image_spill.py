"""An archive's images kept in a temporary file while its articles are read (issue 41: a .tar.gz is read one
member at a time, so image bytes are not held in memory until the rows are given their figures)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


class ImageSpill:
    """An archive's images in a temporary file, each read back (as ``_attach_images`` expects) when a figure
    needs it: a folder's {name or stem: (kind, read)}."""

    def __init__(self) -> None:
        self._file: Any = None
        self._folders: dict[str, dict[str, tuple[str, Any]]] = {}

    def __enter__(self) -> ImageSpill:
        import tempfile

        self._file = tempfile.TemporaryFile()
        return self

    def __exit__(self, *exc: object) -> None:
        self._file.close()

    def add(self, folder: str, base: str, kind: str, data: bytes) -> None:
        self._file.seek(0, 2)
        offset = self._file.tell()
        self._file.write(data)
        entry = (kind, lambda offset=offset, size=len(data): self._read(offset, size))
        found = self._folders.setdefault(folder, {})
        found[base] = entry
        found.setdefault(Path(base).stem, entry)

    def _read(self, offset: int, size: int) -> bytes:
        self._file.seek(offset)
        return self._file.read(size)

    def folder(self, folder: str) -> dict[str, tuple[str, Any]]:
        return self._folders.get(folder, {})
