"""Embedding a corpus as a background job beside training (`core.training.job_kinds`): one job per corpus and model
(a second request joins the running one), its progress and ETA in the jobs table, cancellable between batches, what
was embedded before the cancel kept (`embed_corpus` saves every CHUNK papers)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any

from core.errors import MireadError

if TYPE_CHECKING:
    from core.store import Store

EMBED_KIND = "embed"
SAVE_EVERY_S = 0.5  # progress is written to the store at most this often


class EmbedCancelled(MireadError):
    """Raised inside an embedding job when it is asked to stop."""


@dataclass
class EmbedConfig:
    """What an embedding job embeds: a corpus with a model, on a device and batch size (None: the device's)."""

    corpus: str
    model: str
    device: str = "auto"
    batch_size: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Its fields, and the model as `name` (the jobs table's model column)."""
        return {**asdict(self), "name": self.model}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EmbedConfig:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def describe(self) -> str:
        """'embedding big with tiny' (the jobs panel's line)."""
        return f"embedding {self.corpus} with {self.model}"


def embed_key(cfg: EmbedConfig) -> tuple[str, str]:
    """The job's identity: a running job with the same corpus and model is joined, not duplicated."""
    return cfg.corpus, cfg.model


def prepare_embed(store: Store, cfg: EmbedConfig) -> EmbedConfig:
    """Check the corpus and the model exist (one sentence each when not); the model by its registered name."""
    from core.embedding import get_model

    store.corpus(cfg.corpus)
    return EmbedConfig(cfg.corpus, get_model(cfg.model, store).name, cfg.device, cfg.batch_size)


def run_embed(store: Store, cfg: EmbedConfig, job_id: str, should_stop: Callable[[], bool]) -> dict[str, Any]:
    """Embed what is missing, writing progress and the expected finish time (from the last minute of work) to the
    job; EmbedCancelled between batches when asked to stop."""
    from core.embedding import embed_corpus, get_model
    from core.eta import Eta

    spec = get_model(cfg.model, store)
    eta = Eta()
    saved = [0.0]

    def progress(done: int, total: int) -> None:
        if should_stop():
            raise EmbedCancelled(f"embedding {cfg.corpus} with {spec.name} was cancelled")
        now = time.monotonic()
        if total and (now - saved[0] >= SAVE_EVERY_S or done >= total):
            saved[0] = now
            left = eta.seconds_left()
            store.set_progress(job_id, done / total, None if left is None else time.time() + left)

    report = embed_corpus(store, cfg.corpus, spec, device=cfg.device, batch_size=cfg.batch_size, progress=progress,
                          work=eta.update)
    return {"model": spec.name, "report": report.to_dict(), "metrics": {}}
