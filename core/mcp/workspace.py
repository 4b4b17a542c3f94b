"""What every tool of the MCP server shares: the workspace's Store, the default corpus and model, whether writing is
allowed, and the caches a long-lived server keeps (each corpus's papers frame per corpus version, loaded encoders)."""

from __future__ import annotations

import json
import math
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.config import Settings
from core.errors import MireadError
from core.explore.topics.view import DEFAULT_TOPICS as DEFAULT_TOPICS  # the tools' default k, shared with the CLI

if TYPE_CHECKING:
    import pandas as pd

    from core.embedding import Encoder, ModelSpec
    from core.store import Store


def jsonable(document: Any) -> Any:
    """The document as the CLI's --json prints it (numpy numbers and dates made plain), with NaN and infinities as
    null, which JSON has no other way to write."""
    return _finite(json.loads(json.dumps(document, ensure_ascii=False, default=str)))


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


@dataclass
class Workspace:
    """The server's view of one workspace: its store, defaults, and the caches shared by concurrent tool calls.

    `settings` are the CLI's (built once in `core.cli.main` and handed down): the default model, device, batch size.
    """

    store: Store
    corpus: str | None = None
    model: str | None = None
    allow_write: bool = False
    settings: Settings = field(default_factory=Settings)
    _frames: dict[str, tuple[int, Any]] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def corpus_name(self, corpus: str | None) -> str:
        """The corpus a call means: the one it names, else the server's --corpus, else the only corpus there is."""
        name = (corpus or "").strip() or self.corpus
        if not name:
            names = [c.name for c in self.store.corpora()]
            if len(names) == 1:
                return names[0]
            raise MireadError("name a corpus: " + (", ".join(names) if names else "the workspace has none yet"))
        if not self.store.has_corpus(name):
            names = [c.name for c in self.store.corpora()]
            raise MireadError(f"there is no corpus {name!r}; the workspace has " + (", ".join(names) or "none"))
        return name

    def spec(self, model: str | None = None) -> ModelSpec:
        """The model a call means: the one it names, else the server's --model, else the default model."""
        from core.embedding import get_model

        return get_model((model or "").strip() or self.model or self.settings.default_model, self.store)

    def encoder(self, spec: ModelSpec) -> Encoder:
        """The process-wide encoder of a model, loaded once even when the first calls come together."""
        from core.embedding import get_encoder

        with self._lock:
            return get_encoder(spec, device=self.settings.device, batch_size=self.settings.batch_size)

    def frame(self, corpus: str) -> pd.DataFrame:
        """A corpus's papers frame, read once per corpus version (a 100k-paper corpus takes a second to read)."""
        version = self.store.corpus_version(corpus)
        found = self._frames.get(corpus)
        if found is not None and found[0] == version:
            return found[1]
        frame = self.store.papers_frame(corpus)
        with self._lock:
            self._frames[corpus] = (version, frame)
        return frame

    def require_write(self, tool: str) -> None:
        """Refuse a tool that changes the workspace unless the server was started with --allow-write."""
        if not self.allow_write:
            raise MireadError(f"{tool} changes the workspace, and this server is read-only; start it with "
                              "`python -m core mcp --allow-write` to allow it")
