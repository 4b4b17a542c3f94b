"""An evaluation as a job (`core.training.job_kinds`): one job per corpus, label, models, tasks, sample, seed and
papers (a second request joins the running one, from any tab, the CLI or the MCP server), its progress and ETA in the
jobs table, cancellable between its steps. Its result is the evaluation document (`evaluate_models`), kept on the
job; every figure is also in the evaluation cache, so the Evaluate page and a re-run find it. The app runs it in a
thread of the server (its loaded encoders stay warm), `evaluate --background` in a worker process."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.store import Store

EVALUATE_KIND = "evaluate"
SAVE_EVERY_S = 0.5  # progress is written to the store at most this often


class EvaluationCancelled(Exception):  # noqa: N818 - not a MireadError: the runner reports those per model and goes on
    """Raised inside an evaluation job when it is asked to stop."""


@dataclass
class EvaluateConfig:
    """What an evaluation job runs: `evaluate_models`'s arguments."""

    corpus: str
    label: str
    models: list[str]
    tasks: list[str]
    sample: int = 5000
    seed: int = 0
    papers: list[str] | None = None  # ids the sample is drawn from (a fine-tuned model's held-out test papers)
    device: str = "auto"
    batch_size: int = 32
    extra: dict[str, Any] = field(default_factory=dict)  # shown with the result, not part of its identity

    def to_dict(self) -> dict[str, Any]:
        """Its fields, and the models as `name` (the jobs table's model column)."""
        return {**asdict(self), "name": ", ".join(self.models)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EvaluateConfig:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def describe(self) -> str:
        """'evaluating minilm, tiny on big (probe, knn)' (the jobs panel's line)."""
        return f"evaluating {', '.join(self.models)} on {self.corpus} ({', '.join(self.tasks)})"


def evaluate_key(cfg: EvaluateConfig) -> tuple:
    """The job's identity: what decides its figures (not the device or the batch size)."""
    papers = hashlib.sha1("\n".join(cfg.papers).encode()).hexdigest() if cfg.papers is not None else None
    return cfg.corpus, cfg.label, tuple(cfg.models), tuple(cfg.tasks), int(cfg.sample), int(cfg.seed), papers


def prepare_evaluate(store: Store, cfg: EvaluateConfig) -> EvaluateConfig:
    """Check the corpus, models, tasks and sample (one sentence each when wrong), as the run would."""
    from core.evaluation.runner import _check_request

    models, tasks = _check_request(store, cfg.corpus, cfg.models, cfg.tasks, int(cfg.sample))
    return EvaluateConfig(cfg.corpus, cfg.label, models, tasks, int(cfg.sample), int(cfg.seed),
                          None if cfg.papers is None else list(cfg.papers), cfg.device, int(cfg.batch_size),
                          dict(cfg.extra))


def run_evaluate(store: Store, cfg: EvaluateConfig, job_id: str, should_stop: Callable[[], bool]) -> dict[str, Any]:
    """Run the suite, writing its share of steps, the step it is on and the expected finish time to the job;
    EvaluationCancelled at the next step when asked to stop. The result holds the evaluation document."""
    from core.eta import Eta
    from core.evaluation import evaluate_models  # the package's name: what a test holds at a gate is this one

    eta = Eta(min_span=2.0)
    now = {"fraction": 0.0, "text": "starting", "saved": 0.0}

    def save(force: bool = False) -> None:
        if should_stop():
            raise EvaluationCancelled(f"{cfg.describe()} was cancelled")
        clock = time.monotonic()
        if force or clock - now["saved"] >= SAVE_EVERY_S:
            now["saved"] = clock
            left = eta.seconds_left()
            store.set_progress(job_id, now["fraction"], None if left is None else time.time() + left, now["text"])

    def step(done: int, total: int) -> None:
        now["fraction"] = done / total if total else 1.0
        eta.update(done, total)
        save(force=True)

    def status(text: str) -> None:
        now["text"] = text
        save()

    started = time.time()
    doc = evaluate_models(store, cfg.corpus, cfg.label, cfg.models, cfg.tasks, seed=cfg.seed, sample=cfg.sample,
                          progress=step, status=status, device=cfg.device, batch_size=cfg.batch_size,
                          papers=cfg.papers)
    return {"model": ", ".join(cfg.models), "metrics": {}, "evaluation": doc, "started": started}
