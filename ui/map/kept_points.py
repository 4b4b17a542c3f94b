"""The heavy map instance's points and hover text (Arrow IPC streams, ui/map/packing.py) kept in the workspace, so a
fresh server reads them instead of making 1M papers' text again (~1 s at 1M papers, BENCHMARKS §31z).

A file is named by a digest of the map key (positions, ids, Compare's notes), the corpus version and what else the
papers frame depends on (journal field and aliases: the journal names on the card), so it is never stale; beside the
frame it is made from (arrays/frames), removed with the corpus, and only a corpus's newest few are kept.
"""

from __future__ import annotations

import re
from pathlib import Path

from core.errors import MireadError
from core.store.frame_file import frame_key
from ui.map.packing import load_streams, save_streams
from ui.resources import store

FORMAT = 1  # bump when points_table makes other columns: older files are then never read
KEPT = 4  # a corpus's newest point files kept (a map each: PCA, UMAP, t-SNE, Compare's)
SUFFIX = "-points.bin"


def _path(corpus: str, key: str) -> Path | None:
    """Where the points of map `key` of `corpus` are kept (None: no such corpus now)."""
    try:
        info = store().corpus(corpus)
    except MireadError:
        return None
    aliases = sorted(name for name, role in info.roles.items() if role == "alias")
    digest = frame_key("points", FORMAT, key, info.journal, aliases)
    return store().kept_path(corpus, f"{digest}-v{info.version}", SUFFIX)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:  # removed meanwhile by another server
        return 0.0


def read_points(corpus: str, key: str) -> tuple[bytes, bytes] | None:
    """The points and hover text kept for map `key` of `corpus`, or None."""
    path = _path(corpus, key)
    parts = load_streams(path, 2) if path is not None else None
    return None if parts is None else (parts[0], parts[1])


def keep_points(corpus: str, key: str, parts: tuple[bytes, bytes]) -> None:
    """Keep the points and hover text of map `key`; a corpus's older point files beyond the newest `KEPT` go."""
    path = _path(corpus, key)
    if path is None:
        return
    try:
        save_streams(path, parts)
    except OSError:  # a full or read-only disk: made again by the next process
        return
    slug = store().corpus_slug(corpus)
    own = re.compile(re.escape(slug) + r"-[0-9a-f]{16}-v\d+" + re.escape(SUFFIX) + "$")
    files = [p for p in path.parent.glob(f"*{SUFFIX}") if own.match(p.name)]
    files.sort(key=_mtime, reverse=True)
    for old in files[KEPT:]:
        if old != path:
            try:
                old.unlink(missing_ok=True)
            except OSError:  # still open elsewhere (Windows): a later save retries
                pass
