"""The Library's uploads on disk (not a page): each file the uploader holds is written once under the workspace,
and removed as soon as the uploader no longer holds it (removed by the user, or cleared after an import)."""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from pathlib import Path
from typing import Any

from core.store.uploads import remove_upload, save_upload

HELD = "uploads_held"  # the upload folders this session's uploader held on its last run


def kept_uploads(uploads: Sequence[Any], root: Path, session: MutableMapping[str, Any]) -> list[tuple[Path, str, str]]:
    """(path, name, digest) of each file the uploader holds now; the folders of files it held before and holds no
    more are deleted."""
    saved = []
    for upload in uploads:
        path, digest = save_upload(root, upload.name, upload.getbuffer())
        saved.append((path, upload.name, digest))
    now = {str(path.parent) for path, _, _ in saved}
    for gone in set(session.get(HELD, ())) - now:
        remove_upload(root, Path(gone))
    session[HELD] = sorted(now)
    return saved
