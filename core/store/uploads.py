"""Uploaded files in the workspace (``WORKSPACE/uploads/<digest>/<name>``), kept only while they are needed.

The app writes an upload there so readers can open it by path and error sentences can name it; it is removed once
its preview or import is over (the uploader no longer holds it), and uploads left by an earlier run (a closed tab,
a stopped server) are removed when the server starts (issue 41: they once stayed forever, surviving even the
deletion of their corpus). An upload is hashed and written from the uploader's own buffer, never copied whole."""

from __future__ import annotations

import hashlib
import shutil
import time
from pathlib import Path

UPLOADS = "uploads"
STALE_S = 3600.0  # at start, uploads untouched this long are an earlier run's leftovers
_CHUNK = 8 * 2**20


def uploads_dir(root: Path) -> Path:
    return Path(root) / UPLOADS


def save_upload(root: Path, name: str, data: bytes | memoryview) -> tuple[Path, str]:
    """(path, digest) of an upload written under its own name into a folder named by its content's hash."""
    view = memoryview(data)
    digest = hashlib.sha1()
    for start in range(0, len(view), _CHUNK):
        digest.update(view[start:start + _CHUNK])
    short = digest.hexdigest()[:12]
    folder = uploads_dir(root) / short  # the file keeps its own name: error sentences name what was uploaded
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (Path(str(name)).name.replace("/", "_").replace("\\", "_") or "upload")
    if not path.exists():
        partial = path.with_name(path.name + ".part")
        with open(partial, "wb") as out:
            for start in range(0, len(view), _CHUNK):
                out.write(view[start:start + _CHUNK])
        partial.replace(path)
    folder.touch()  # in use: not an earlier run's leftover
    return path, short


def remove_upload(root: Path, folder: Path) -> bool:
    """Delete one upload's folder (only a folder directly under the workspace's uploads)."""
    folder = Path(folder)
    if folder.parent.resolve() != uploads_dir(root).resolve() or not folder.is_dir():
        return False
    shutil.rmtree(folder, ignore_errors=True)
    return True


def clean_uploads(root: Path, older_than_s: float = STALE_S) -> int:
    """Delete uploads untouched for `older_than_s` seconds (0: all); the count removed."""
    base = uploads_dir(root)
    if not base.is_dir():
        return 0
    cutoff = time.time() - older_than_s
    removed = 0
    for folder in base.iterdir():
        try:
            old = folder.stat().st_mtime <= cutoff
        except OSError:
            continue
        if old:
            if folder.is_dir():
                shutil.rmtree(folder, ignore_errors=True)
            else:
                folder.unlink(missing_ok=True)
            removed += 1
    return removed
