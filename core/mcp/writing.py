"""The MCP tools that change the workspace (only with --allow-write): import a file (and embed it), start a training
job, save papers into a collection; and `job_status`, which only reads. Long work reports progress through a
`progress(done, total, message)` callback, which the server turns into MCP progress notifications."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.errors import MireadError
from core.mcp.workspace import Workspace, jsonable

Progress = Callable[[float, float | None, str | None], None]
MAX_WAIT_S = 3600.0
POLL_S = 1.0


def _quiet(done: float, total: float | None, message: str | None) -> None:
    """The progress callback of a call whose client asked for no progress."""


def import_file(ws: Workspace, path: str, corpus: str, format: str | None = None, title_only: bool = False,
                embed: bool = True, model: str | None = None, progress: Progress = _quiet) -> dict[str, Any]:
    """Import a file on this machine into a corpus (the `import --json` document) and, with `embed`, embed its new
    papers with the model (the `embed --json` document under "embed")."""
    from core.store import import_file as store_import

    ws.require_write("import_file")
    file = Path(path).expanduser()
    if not file.is_file():
        raise MireadError(f"file {path!r} does not exist on the machine the server runs on")
    if not (corpus or "").strip():
        raise MireadError("name the corpus to import into")
    progress(0, None, f"reading {file.name}")
    report = store_import(ws.store, file, corpus.strip(), fmt=format or None, title_only=title_only)
    doc = report.to_dict()
    if embed:
        from core.embedding import embed_corpus

        spec = ws.spec(model)

        def step(done: int, total: int) -> None:
            progress(done, total, f"embedding {done:,}/{total:,} papers with {spec.name}")

        embedded = embed_corpus(ws.store, report.corpus, spec, device=ws.settings.device,
                                batch_size=ws.settings.batch_size, progress=step, encoder=ws.encoder(spec))
        doc["embed"] = embedded.to_dict()
    return jsonable(doc)


def save_collection(ws: Workspace, name: str, paper_ids: list[str], corpus: str | None = None,
                    note: str | None = None) -> dict[str, Any]:
    """Save papers into a named collection of the corpus (created if new, else added to); ids that are not papers of
    the corpus are refused in one sentence and nothing is saved."""
    ws.require_write("save_collection")
    name_of = ws.corpus_name(corpus)
    before = {c.name.casefold(): c.papers for c in ws.store.collections(name_of)}
    saved = ws.store.save_collection(name_of, name, [str(p) for p in paper_ids], note=note)
    return jsonable({"corpus": saved.corpus, "name": saved.name,
                     "added": saved.papers - before.get(saved.name.casefold(), 0), "papers": saved.papers,
                     "missing": saved.missing, "note": saved.note})


def _train_config(corpus: str, label: str, base: str | None, name: str | None, epochs: float | None,
                  objective: str | None, options: dict[str, Any] | None) -> Any:
    from core.training import TrainConfig

    given: dict[str, Any] = {"corpus": corpus, "label": label}
    for key, value in (("base", base), ("name", name), ("epochs", epochs), ("objective", objective)):
        if value is not None:
            given[key] = value
    allowed = set(TrainConfig.__dataclass_fields__) - {"corpus", "label"}
    for key, value in (options or {}).items():
        key = key.replace("-", "_")
        if key not in allowed:
            raise MireadError(f"unknown training option {key!r}; choose from {', '.join(sorted(allowed))}")
        given[key] = value
    return TrainConfig(**given)


def start_training(ws: Workspace, corpus: str, label: str, base: str | None = None, name: str | None = None,
                   epochs: float | None = None, objective: str | None = None, options: dict[str, Any] | None = None,
                   wait_seconds: float = 0.0, progress: Progress = _quiet) -> dict[str, Any]:
    """Start MIReAD fine-tuning as a background job (the `train --background --json` document); with
    `wait_seconds`, follow it and report its progress until it ends or the time is up."""
    from core.training import jobs

    ws.require_write("start_training")
    cfg = _train_config(ws.corpus_name(corpus), label, base, name, epochs, objective, options)
    job = jobs.get_job(ws.store, jobs.launch(ws.store, cfg))
    doc = {"job": job["id"], "status": job["status"], "model": job["model"], "metrics": {}}
    if wait_seconds > 0:
        job = follow_job(ws, job["id"], wait_seconds, progress)
        doc.update(status=job["status"], metrics=job["metrics"], error=job["error"], progress=job["progress"])
    return jsonable(doc)


def follow_job(ws: Workspace, job_id: str, wait_seconds: float, progress: Progress) -> dict[str, Any]:
    """Poll a job until it ends or `wait_seconds` pass, reporting its progress (0-100) at each change."""
    from core.training import jobs

    if not 0 <= wait_seconds <= MAX_WAIT_S:
        raise MireadError(f"wait_seconds must be between 0 and {MAX_WAIT_S:.0f}, got {wait_seconds}")
    deadline, last = time.monotonic() + wait_seconds, None
    while True:
        job = jobs.get_job(ws.store, job_id)
        seen = (job["status"], round(100 * job["progress"], 1))
        if seen != last:
            eta = f", about {job['eta_s']:.0f} s left" if job.get("eta_s") else ""
            progress(seen[1], 100, f"job {job_id}: {job['status']} {seen[1]:.0f} %{eta}")
            last = seen
        if job["status"] not in jobs.ACTIVE or time.monotonic() >= deadline:
            return job
        time.sleep(POLL_S)


def job_status(ws: Workspace, job_id: str | None = None, wait_seconds: float = 0.0,
               progress: Progress = _quiet) -> dict[str, Any]:
    """One job (status, progress, ETA, metrics, error), or every job (the `jobs --json` document); with
    `wait_seconds`, follow the job and report its progress until it ends or the time is up."""
    from core.training import jobs

    if job_id is None:
        if wait_seconds:
            raise MireadError("name the job to wait for (job_id)")
        return jsonable({"jobs": jobs.list_jobs(ws.store)})
    job = follow_job(ws, str(job_id), float(wait_seconds), progress)
    return jsonable({"job": job})
