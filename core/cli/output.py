"""What every command prints: one `emit` (a JSON document with --json, else the text) and a progress bar on stderr."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

Emit = Callable[[dict[str, Any], str], None]


def emitter(as_json: bool) -> Emit:
    """The `emit` handed to every command: prints the document as one JSON line with --json, else the text."""

    def emit(document: dict[str, Any], text: str) -> None:
        print(json.dumps(document, ensure_ascii=False, default=str) if as_json else text)

    return emit


def progress_bar(label: str, enabled: bool, unit: str = "paper") -> Callable[[int, int], None]:
    """A tqdm bar driven by (done, total) callbacks, counting `unit`s; silent when disabled (e.g. --json)."""
    from tqdm import tqdm

    state: dict[str, Any] = {}

    def update(done: int, total: int) -> None:
        if not enabled or total <= 0:
            return
        bar = state.get("bar")
        if bar is None:  # the rate counts from here: the first call may already report a finished batch
            bar = state["bar"] = tqdm(total=total, initial=done, desc=label, unit=unit, file=sys.stderr)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return update
