"""Fitting a UMAP or t-SNE map as a job (`core.training.job_kinds`): one job per corpus, model, method, parameters
and seed (a second request joins the running one, from any tab, the CLI or the MCP server), its progress and ETA in
the jobs table, cancellable between its steps. The app runs it in a thread of the server (numba's compiled UMAP stays
warm: `core.training.jobs.launch_here`), `map --background` in a worker process; either way the fitted map lands in
the map cache (`cached.map_coordinates`), where the Map page and `map` find it."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any

from core.errors import MireadError

if TYPE_CHECKING:
    from core.store import Store

MAP_KIND = "map"
SAVE_EVERY_S = 0.5  # progress is written to the store at most this often


class MapCancelled(MireadError):
    """Raised inside a map job when it is asked to stop."""


@dataclass
class MapConfig:
    """What a map job fits: a corpus's vectors of a model, with a method, its parameters and a seed."""

    corpus: str
    model: str
    method: str = "umap"
    params: dict[str, Any] = field(default_factory=dict)
    seed: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Its fields, and the model as `name` (the jobs table's model column)."""
        return {**asdict(self), "name": self.model}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MapConfig:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def describe(self) -> str:
        """'UMAP map of big with minilm' (the jobs panel's line)."""
        return f"{self.method.upper()} map of {self.corpus} with {self.model}"


def map_key(cfg: MapConfig) -> tuple:
    """The job's identity: the map cache's (corpus, model, method, effective parameters, seed)."""
    from core.explore.maps.projection import params_key

    return cfg.corpus, cfg.model, cfg.method, params_key(cfg.method, cfg.params or None), int(cfg.seed)


def prepare_map(store: Store, cfg: MapConfig) -> MapConfig:
    """Check the corpus, the model and the method (one sentence each when wrong); the model by its registered name."""
    from core.embedding import get_model
    from core.explore.maps.projection import METHODS

    store.corpus(cfg.corpus)
    if cfg.method not in METHODS:
        raise MireadError(f"unknown map method {cfg.method!r}; choose one of {', '.join(METHODS)}")
    return MapConfig(cfg.corpus, get_model(cfg.model, store).name, cfg.method, dict(cfg.params or {}), int(cfg.seed))


def run_map(store: Store, cfg: MapConfig, job_id: str, should_stop: Callable[[], bool]) -> dict[str, Any]:
    """Fit the map into the map cache, writing each step's share and message and the expected finish time to the job;
    MapCancelled at the next step when asked to stop."""
    from core.embedding import get_model
    from core.eta import Eta
    from core.explore.maps.cached import map_coordinates

    spec = get_model(cfg.model, store)
    eta = Eta(min_span=2.0)
    saved = [0.0]

    def progress(fraction: float, message: str) -> None:
        if should_stop():
            raise MapCancelled(f"the {cfg.describe()} was cancelled")
        eta.update(fraction, 1.0)
        now = time.monotonic()
        if now - saved[0] >= SAVE_EVERY_S or fraction >= 1.0:
            saved[0] = now
            left = eta.seconds_left()
            store.set_progress(job_id, min(max(fraction, 0.0), 1.0), None if left is None else time.time() + left,
                               message)

    started = time.perf_counter()
    coords, cached = map_coordinates(store, cfg.corpus, spec, cfg.method, cfg.params or None, progress, cfg.seed)
    return {"model": spec.name, "points": len(coords), "cached": cached, "metrics": {},
            "seconds": round(time.perf_counter() - started, 3)}
