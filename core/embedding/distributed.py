"""Embedding a corpus on Ray: papers stream from the store into a Ray Dataset, `map_batches` runs an actor pool of the
same `Encoder` (one model load per actor, GPUs when asked), and every finished slice of vectors is saved into the
workspace cache under the model's vectors fingerprint, so a killed run re-embeds only what is missing.

This follows Ray Data's documented batch-inference pattern: a callable class in `map_batches` with a fixed actor pool
and `num_gpus=` (the pool is `compute=ActorPoolStrategy(size=N)`, Ray 2.51's replacement for `concurrency=N`);
scheduling, retries of failed actors and back-pressure are Ray's.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import numpy as np

from core.embedding.encoder import CHUNK, EmbedReport, Encoder, Progress, vectors_fingerprint
from core.embedding.models import ModelSpec, get_model, packaged_model_path
from core.embedding.quantize import fast_kind
from core.errors import MireadError

if TYPE_CHECKING:
    from core.store import Store

RAY_MISSING = "the Ray engine needs Ray installed: pip install 'ray[data]==2.60.0' (or leave out --engine ray)"
SLICE = 50_000  # papers read from the store and put into Ray's object store at a time
_PASSED_ENV = ("HF_HUB_OFFLINE", "TOKENIZERS_PARALLELISM", "MIREAD_MAX_LENGTH", "HF_HOME")


@dataclass
class RayOptions:
    """Where and how wide to run: `address` None starts a local cluster in this process."""

    address: str | None = None  # None, 'auto' (a cluster started with `ray start` here) or 'ray://HOST:PORT'
    workers: int | None = None  # encoder actors (each loads the model once); None: as many as the cluster fits
    gpus_per_worker: float = 0.0
    cpus_per_worker: float = 1.0
    batch_size: int = 32  # the encoder's batch; Ray hands each actor `rows_per_call` papers at a time
    save_every: int = CHUNK  # vectors saved into the cache per write: a killed run loses at most this many

    @property
    def rows_per_call(self) -> int:
        return max(256, 8 * self.batch_size)


def _import_ray() -> Any:
    try:
        import ray
        import ray.data  # noqa: F401  (the `ray[data]` extra)
    except ImportError as exc:
        raise MireadError(RAY_MISSING) from exc
    return ray


def _check_reachable(address: str, timeout: float = 3.0) -> None:
    """One sentence at once for an address nobody answers on (Ray itself retries for a long time)."""
    if address == "auto":
        return
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if not host or not port:
        raise MireadError(f"Ray address {address!r} is not 'auto', HOST:PORT or ray://HOST:PORT")
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as exc:
        raise MireadError(f"cannot reach a Ray cluster at {address} ({exc.strerror or exc.__class__.__name__}); "
                          "start one with `ray start --head` or check the address") from exc


def runtime_env(remote: bool) -> dict[str, Any]:
    """The workers' environment: this checkout's `core` (shipped to a remote cluster, on PYTHONPATH locally)."""
    root = Path(__file__).resolve().parents[2]
    current = dict(os.environ)  # passed on to the workers, as the job launcher does for its children
    env = {k: current[k] for k in _PASSED_ENV if k in current}
    env.setdefault("TOKENIZERS_PARALLELISM", "false")
    if remote:
        return {"py_modules": [str(root / "core")], "env_vars": env}
    path = os.pathsep.join(p for p in (str(root), current.get("PYTHONPATH", "")) if p)
    return {"env_vars": {**env, "PYTHONPATH": path}}


def connect(address: str | None) -> Any:
    """Join the cluster at `address` (or start a local one); reuses a connection this process already has."""
    ray = _import_ray()
    if address:
        _check_reachable(address)
    if ray.is_initialized():
        return ray
    os.environ.setdefault("RAY_BACKEND_LOG_LEVEL", "fatal")  # Ray's C++ notes are not the user's business
    try:
        ray.init(address=address, runtime_env=runtime_env(remote=bool(address)), log_to_driver=False,
                 logging_level="ERROR", include_dashboard=False if not address else None)
    except (ConnectionError, TimeoutError, RuntimeError, ValueError) as exc:
        where = f"at {address}" if address else "on this machine"
        raise MireadError(f"cannot start or reach a Ray cluster {where}: {str(exc).splitlines()[0]}") from exc
    return ray


class EmbedActor:
    """One Ray actor: loads the model once, then turns batches of (hash, title, abstract) into vectors."""

    def __init__(self, spec: ModelSpec, device: str, batch_size: int, fast: bool, threads: int):
        import torch

        torch.set_num_threads(max(1, threads))
        if spec.source == "packaged":  # this node's install of the packaged model, wherever its venv is
            spec = replace(spec, location=packaged_model_path())
        self.encoder = Encoder(spec, device=device, batch_size=batch_size, fast=fast)

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        pairs = list(zip(batch["title"].tolist(), batch["abstract"].tolist()))
        vectors = self.encoder.encode(pairs)
        return {"hash": batch["hash"], "vector": vectors,
                "mode": np.full(len(pairs), self.encoder.fast or "exact")}


def _dataset(ray: Any, slices: Iterator[list[tuple[str, str, str]]], block: int) -> tuple[Any, int]:
    """A Ray Dataset of the papers to embed, put into the object store block by block; and its row count."""
    import pyarrow as pa

    refs, rows = [], 0
    for part in slices:
        for start in range(0, len(part), block):
            hashes, titles, abstracts = zip(*part[start : start + block])
            refs.append(ray.put(pa.table({"hash": hashes, "title": titles, "abstract": abstracts})))
        rows += len(part)
    return ray.data.from_arrow_refs(refs), rows


def _quiet(ray: Any) -> None:
    """Ray Data's own progress bars and INFO lines off: the caller's progress callback reports."""
    import logging
    import warnings

    ray.data.DataContext.get_current().enable_progress_bars = False
    warnings.filterwarnings("ignore", message=".*concurrent actors.*", category=UserWarning)
    for name in ("ray.data", "ray.data._internal.execution.streaming_executor"):
        logging.getLogger(name).setLevel(logging.ERROR)


def _fitting_workers(ray: Any, options: RayOptions) -> int:
    """As many actors as the cluster's GPUs (or CPUs) hold at the asked size each; at least one."""
    resources = ray.cluster_resources()
    if options.gpus_per_worker > 0:
        return max(1, int(resources.get("GPU", 0) // options.gpus_per_worker))
    return max(1, int(resources.get("CPU", 1) // max(options.cpus_per_worker, 1e-9)))


def embed_corpus_ray(
    store: Store, corpus: str, model: str | ModelSpec = "minilm", options: RayOptions | None = None, *,
    progress: Progress | None = None, fast: bool | None = None, on_saved: Callable[[int], None] | None = None,
) -> EmbedReport:
    """Embed the corpus papers with no cached vector for this model on a Ray cluster; saves every CHUNK vectors."""
    started = time.perf_counter()
    options = options or RayOptions()
    if (options.workers or 1) < 1 or options.gpus_per_worker < 0 or options.batch_size < 1:
        raise MireadError("--workers and --batch-size must be at least 1 and --gpus-per-worker at least 0")
    spec = model if isinstance(model, ModelSpec) else get_model(model, store)
    total = store.corpus(corpus).papers
    device = "cuda" if options.gpus_per_worker > 0 else "cpu"
    fp = vectors_fingerprint(spec, fast, device)
    kind = fast_kind(fast, device)
    missing = len(store.missing_hashes(corpus, fp))
    if not missing:
        if progress:
            progress(0, 0)
        return EmbedReport(corpus, spec.name, 0, total, total, time.perf_counter() - started)
    ray = connect(options.address)
    _quiet(ray)
    workers = options.workers or _fitting_workers(ray, options)
    block = min(SLICE, max(32, -(-missing // (4 * workers))))  # about 4 blocks per actor or more
    dataset, todo = _dataset(ray, store.iter_missing_papers(corpus, fp, SLICE), block)
    vectors = dataset.map_batches(
        EmbedActor, batch_size=options.rows_per_call, compute=ray.data.ActorPoolStrategy(size=workers),
        num_gpus=options.gpus_per_worker or None, num_cpus=options.cpus_per_worker,
        fn_constructor_kwargs={"spec": spec, "device": device, "batch_size": options.batch_size, "fast": bool(kind),
                               "threads": max(1, int(options.cpus_per_worker))},
    )
    done = 0
    if progress:
        progress(0, todo)
    for batch in vectors.iter_batches(batch_size=options.save_every, batch_format="numpy"):
        made = set(batch["mode"].tolist())
        if made != {kind or "exact"}:  # e.g. a worker CPU without bf16 falls back to int8: other vectors
            raise MireadError(f"a Ray worker embedded in mode {sorted(made)} where this machine expects "
                              f"{kind or 'exact'}: give every node the same CPU features or set MIREAD_FAST_CPU=0")
        store.add_embeddings(fp, [str(h) for h in batch["hash"]], np.asarray(batch["vector"], dtype=np.float32))
        done += len(batch["hash"])
        if on_saved:
            on_saved(done)
        if progress:
            progress(done, todo)
    return EmbedReport(corpus, spec.name, todo, total - todo, total, time.perf_counter() - started)
