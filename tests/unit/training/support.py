"""Helpers for the training tests: a small labelled corpus and a fast config on the tiny model."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from core.store import Store
from core.training import TrainConfig, jobs
from tests.helpers import make_papers


@contextmanager
def one_torch_thread() -> Iterator[None]:
    """One torch thread: on a busy 2-core machine two threads make tiny training steps ~50x slower."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def add_corpus(store: Store, corpus: str = "toy", per_topic: int = 12) -> Store:
    """Three journals of `per_topic` papers each; the column 'field' has one value only."""
    papers = make_papers(per_topic)
    for paper in papers:
        paper.fields["field"] = "all"
    store.import_papers(corpus, papers, source="toy.jsonl")
    return store


def tiny_config(tiny: Path, **overrides) -> TrainConfig:
    """A fast config on the tiny model: small batches, short texts, CPU."""
    values = dict(corpus="toy", label="journal", base=str(tiny), batch_size=8, max_length=48,
                  epochs=2, lr=1e-3, head_lr=1e-2, device="cpu", val_fraction=0.25)
    values.update(overrides)
    return TrainConfig(**values)


def stop_workers(store: Store) -> None:
    """Kill the worker processes of a test's unfinished background jobs (after a failed assertion)."""
    for job in jobs.list_jobs(store):
        if job["status"] in jobs.ACTIVE and job["background"] and job["pid"]:
            try:
                os.killpg(job["pid"], signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
