"""Background jobs: launch, list, cancel and recover training runs and corpus embeddings (one child process each, no
shell; the kinds are in `core.training.job_kinds`). A request for a job that is already running with the same key
(an embedding of the same corpus with the same model) joins it: its id is returned, nothing new starts."""

from __future__ import annotations

import fcntl
import json
import logging
import os
import secrets
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.config import child_environment
from core.errors import MireadError, TrainingError
from core.store import pid_alive
from core.training.job_kinds import Config, JobKind, kind_named, kind_of

if TYPE_CHECKING:
    import pandas as pd

    from core.store import Store

STATUSES = ("queued", "running", "completed", "failed", "cancelled")
ACTIVE = ("queued", "running")
HEARTBEAT_S = 5.0  # how often a job's process says it is alive
STALE_S = 120.0  # a job silent for this long is considered dead
CANCEL_GRACE_S = 30.0  # a cancelled job still running after this long gets SIGTERM
LOST = "the job's process stopped unexpectedly (killed?)"
REPO_ROOT = Path(__file__).resolve().parents[2]
_CHILDREN: dict[str, subprocess.Popen] = {}
_HERE_LOCK = threading.Lock()  # two tabs asking at once for the same job in this process start it once
log = logging.getLogger(__name__)


# -- reading -----------------------------------------------------------------------------------
def log_path(store: Store, job_id: str) -> Path:
    """The job's log file (the child process's stdout and stderr)."""
    return store.jobs_dir / f"{job_id}.log"


def _cancel_flag(store: Store, job_id: str) -> Path:
    return store.jobs_dir / f"{job_id}.cancel"


def _as_dict(store: Store, row: sqlite3.Row) -> dict[str, Any]:
    args = json.loads(row["args"] or "{}")
    config = args.get("config", {})
    result = json.loads(row["result"]) if row["result"] else None
    eta = row["eta"]
    return {
        "id": row["id"], "job_id": row["id"], "kind": row["kind"], "status": row["status"],
        "model": config.get("name", ""), "corpus": config.get("corpus", ""), "label": config.get("label", ""),
        "base": config.get("base", ""), "config": config, "background": bool(args.get("background")),
        "pid": row["pid"], "created": row["created"], "started": row["started"], "finished": row["finished"],
        "heartbeat": row["heartbeat"], "error": row["error"], "result": result,
        "metrics": (result or {}).get("metrics", {}), "progress": float(row["progress"] or 0.0), "eta": eta,
        "eta_s": max(0.0, eta - time.time()) if eta and row["status"] == "running" else None,
        "cancel_requested": _cancel_flag(store, row["id"]).exists(), "log": str(log_path(store, row["id"])),
        "message": row["message"] if "message" in row.keys() else None, "what": describe(row["kind"], config),
    }


def describe(kind: str, config: dict[str, Any]) -> str:
    """A job in words for the jobs panel: 'embedding big with tiny', 'UMAP map of big with minilm'."""
    from core.training.job_kinds import KINDS

    cls = KINDS[kind].config if kind in KINDS else None
    if cls is not None and hasattr(cls, "describe"):
        try:
            return cls.from_dict(config).describe()
        except (TypeError, ValueError):
            pass
    return f"{kind} job → {config.get('name', '')}"


def list_jobs(store: Store) -> list[dict[str, Any]]:
    """All jobs, newest first, after marking dead ones failed."""
    refresh(store)
    return [_as_dict(store, r) for r in store.job_rows()]


def get_job(store: Store, job_id: str) -> dict[str, Any]:
    """One job (NotFoundError if unknown), after marking dead ones failed."""
    refresh(store)
    return _as_dict(store, store.job_row(job_id))


def metrics_frame(store: Store, job_id: str) -> pd.DataFrame:
    """The job's metric rows in long format: step, epoch, split, name, value, ts."""
    import pandas as pd

    columns = ["step", "epoch", "split", "name", "value", "ts"]
    return pd.DataFrame(store.metric_rows(job_id), columns=columns)


# -- starting ----------------------------------------------------------------------------------
def _prepare(store: Store, cfg: Config) -> Config:
    return kind_of(cfg).prepare(store, cfg)


def _insert(store: Store, cfg: Config, background: bool) -> str:
    kind = kind_of(cfg).name
    job_id = f"{kind}-{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"
    store.insert_job(job_id, kind, {"config": cfg.to_dict(), "background": background},
                     None if background else os.getpid())
    return job_id


def running_twin(store: Store, cfg: Config) -> str | None:
    """The id of a queued or running job with the same key as `cfg` (an embedding of the same corpus and model), or
    None."""
    kind = kind_of(cfg)
    if kind.key is None:
        return None
    refresh(store)
    asked = str(getattr(cfg, "name", "") or "").strip() if kind.named else ""
    for row in store.active_job_rows():
        if row["kind"] != kind.name:
            continue
        running = kind.config.from_dict(json.loads(row["args"])["config"])
        if kind.key(running) == kind.key(cfg) and (not asked or running.name == asked):
            return row["id"]
    return None


def launch(store: Store, cfg: Config) -> str:
    """Validate, queue the job (MIReAD or figure-scorer training, an embedding) and start its worker process; the job
    id. An embedding already running for the same corpus and model, or the same training run, is joined: its id
    (looked for before the name is checked: the running job holds the name a double click sends again)."""
    if (twin := running_twin(store, cfg)) is not None:
        return twin
    cfg = _prepare(store, cfg)
    if (twin := running_twin(store, cfg)) is not None:
        return twin
    job_id = _insert(store, cfg, background=True)
    env = child_environment()
    command = [sys.executable, "-m", "core.training.worker", "--workspace", str(store.root), "--job", job_id]
    try:
        with open(log_path(store, job_id), "ab") as log:
            child = subprocess.Popen(command, cwd=REPO_ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                     stderr=subprocess.STDOUT, start_new_session=True, close_fds=True)
    except OSError as exc:
        _finish(store, job_id, "failed", error=f"the training process could not start: {exc}")
        raise TrainingError(f"the training process could not start: {exc}") from exc
    _CHILDREN[job_id] = child
    store.set_job_pid(job_id, child.pid)
    return job_id


def launch_here(store: Store, cfg: Config) -> str:
    """Validate, queue the job and run it in a daemon thread of this process (the app's server: its caches stay warm,
    numba's compiled UMAP and loaded encoders); the job id. A job of the same key already queued or running (here,
    in another tab, or from the CLI) is joined: its id. The job names this process, so a server that stops takes its
    jobs with it and `refresh` marks them failed (LOST): a new request starts the work again."""
    if (twin := running_twin(store, cfg)) is not None:
        return twin
    cfg = _prepare(store, cfg)
    with _HERE_LOCK:
        if (twin := running_twin(store, cfg)) is not None:
            return twin
        job_id = _insert(store, cfg, background=False)

    def work() -> None:
        try:
            execute(store, job_id)
        except Exception:  # noqa: BLE001 - recorded on the job as one sentence by `_run`; the trace goes to the log
            log.exception("job %s crashed", job_id)

    threading.Thread(target=work, name=f"job-{job_id}", daemon=True).start()
    return job_id


def restart(store: Store, job_id: str, here: bool = False) -> str:
    """Start an ended job's work again with its config (one that failed, e.g. died with the server, or was
    cancelled), in this process's thread (`here`) or a worker process; the new job's id (or a running twin's)."""
    row = store.job_row(job_id)
    cfg = kind_named(row["kind"]).config.from_dict(json.loads(row["args"])["config"])
    return launch_here(store, cfg) if here else launch(store, cfg)


def run_foreground(store: Store, cfg: Config,
                   should_stop: Callable[[], bool] = lambda: False) -> dict[str, Any]:
    """Validate, queue and run the job in this process (waiting for any running job of its slot first); the job. An
    embedding already running for the same corpus and model is not started twice: that job, as it is now."""
    cfg = _prepare(store, cfg)
    if (twin := running_twin(store, cfg)) is not None:
        return get_job(store, twin)
    job_id = _insert(store, cfg, background=False)
    execute(store, job_id, should_stop, reraise=True)
    return get_job(store, job_id)


# -- running (in the worker process, or in this one) -------------------------------------------
class _Heartbeat(threading.Thread):
    """Stamps the job's heartbeat every few seconds while its process lives."""

    def __init__(self, store: Store, job_id: str):
        super().__init__(daemon=True, name=f"heartbeat-{job_id}")
        self.store, self.job_id, self.done = store, job_id, threading.Event()

    def beat(self) -> None:
        try:
            self.store.beat_job(self.job_id)
        except sqlite3.Error:
            pass

    def run(self) -> None:
        self.beat()
        while not self.done.wait(HEARTBEAT_S):
            self.beat()


@contextmanager
def _runner_lock(store: Store, should_stop: Callable[[], bool], slot: str = "runner") -> Iterator[bool]:
    """Hold the workspace's slot for this kind of job (True), or give up when the job is cancelled (False)."""
    with open(store.jobs_dir / f"{slot}.lock", "a+") as handle:
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if should_stop():
                    yield False
                    return
                time.sleep(0.5)
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _finish(store: Store, job_id: str, status: str, error: str | None = None,
            result: dict[str, Any] | None = None) -> None:
    store.finish_job(job_id, status, error=error, result=result)
    _cancel_flag(store, job_id).unlink(missing_ok=True)


def execute(store: Store, job_id: str, should_stop: Callable[[], bool] = lambda: False,
            reraise: bool = False) -> None:
    """Run a queued job: wait for its slot, run it, and record how it ended."""
    row = store.job_row(job_id)
    kind = kind_named(row["kind"])
    cfg = kind.config.from_dict(json.loads(row["args"])["config"])
    flag = _cancel_flag(store, job_id)

    def stop() -> bool:
        return flag.exists() or should_stop()

    heartbeat = _Heartbeat(store, job_id)
    heartbeat.start()
    try:
        with _runner_lock(store, stop, kind.slot) as acquired:
            started = acquired and store.start_job(job_id, os.getpid())
            if started:
                _run(store, kind, cfg, job_id, stop, reraise)
    except KeyboardInterrupt:
        _finish(store, job_id, "cancelled")
        raise
    finally:
        heartbeat.done.set()
        if store.job_row(job_id)["status"] == "queued":
            _finish(store, job_id, "cancelled")
        flag.unlink(missing_ok=True)


def _run(store: Store, kind: JobKind, cfg: Config, job_id: str, stop: Callable[[], bool], reraise: bool) -> None:
    try:
        result = kind.run(store, cfg, job_id, stop)
    except kind.cancelled:
        _finish(store, job_id, "cancelled")
    except MireadError as exc:
        _finish(store, job_id, "failed", error=str(exc))
        if reraise:
            raise
    except Exception as exc:
        _finish(store, job_id, "failed", error=f"the {kind.name} job crashed ({exc.__class__.__name__}: {exc}); "
                                               f"see {log_path(store, job_id)}")
        raise
    else:
        _finish(store, job_id, "completed", result=result)


# -- cancelling and recovering -----------------------------------------------------------------
def _alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie (reaping it if it is our child)."""
    try:
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return False
    except ChildProcessError:
        pass
    return pid_alive(pid)


def _terminate(pid: int) -> None:
    """SIGTERM a background worker's whole process group."""
    try:
        os.killpg(pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        pass


def cancel(store: Store, job_id: str, wait: float = 0.0) -> dict[str, Any]:
    """Cancel a job: queued at once; running at its next step (after `wait` s, or later via refresh, SIGTERM)."""
    job = get_job(store, job_id)
    if job["status"] not in ACTIVE:
        return job
    _cancel_flag(store, job_id).touch()
    store.cancel_queued_job(job_id)
    deadline = time.time() + wait
    while time.time() < deadline and store.job_row(job_id)["status"] in ACTIVE:
        time.sleep(0.5)
    job = get_job(store, job_id)
    if wait > 0 and job["status"] == "running" and job["background"] and job["pid"]:
        _terminate(job["pid"])
    return job


def refresh(store: Store) -> None:
    """Mark queued/running jobs whose process is gone or silent as failed (cancelled if asked to stop)."""
    for job_id, child in list(_CHILDREN.items()):
        if child.poll() is not None:
            del _CHILDREN[job_id]
    rows = store.active_job_rows()
    now = time.time()
    for row in rows:
        background = bool(json.loads(row["args"] or "{}").get("background"))
        stale = now - (row["heartbeat"] or row["started"] or row["created"] or 0) > STALE_S
        alive = _alive(row["pid"]) if row["pid"] else not stale
        flag = _cancel_flag(store, row["id"])
        if alive and not stale:
            if flag.exists() and now - flag.stat().st_mtime > CANCEL_GRACE_S and background:
                _terminate(row["pid"])
            continue
        if alive and background:
            _terminate(row["pid"])
        status, error = ("cancelled", None) if flag.exists() else ("failed", LOST)
        store.end_active_job(row["id"], status, error, now)
        flag.unlink(missing_ok=True)
