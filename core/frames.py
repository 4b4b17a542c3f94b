"""Values derived from one pandas DataFrame (an id → row index, a digest of its ids), computed once per frame object
and kept while that object lives: the app and the MCP server hold a corpus's frame per corpus version, so a page run
or a call reuses them instead of passing over every paper again (~1 s at 1M papers)."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
_KEPT: dict[int, tuple[weakref.ref, int, dict[str, Any]]] = {}
_LOCK = threading.Lock()


def derived(frame: Any, name: str, compute: Callable[[Any], T]) -> T:
    """`compute(frame)`, kept under `name` for this frame object while it lives and keeps its length (a frame whose
    rows changed is computed again). Frames must not be changed in place otherwise; the app's are read-only."""
    key = id(frame)
    with _LOCK:
        held = _KEPT.get(key)
        if held is None or held[0]() is not frame or held[1] != len(frame):
            held = (weakref.ref(frame, lambda _ref, key=key: _forget(key, _ref)), len(frame), {})
            _KEPT[key] = held
        values = held[2]
    if name not in values:
        values[name] = compute(frame)
    return values[name]


def _forget(key: int, ref: weakref.ref) -> None:
    with _LOCK:
        if key in _KEPT and _KEPT[key][0] is ref:
            del _KEPT[key]
