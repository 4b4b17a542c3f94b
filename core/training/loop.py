"""MIReAD fine-tuning: a linear head on the pooled vector, cross-entropy (+ optional SupCon), AdamW. The loop, its
validations and the final metrics; the run's state and the pieces of a step are in `core.training.run`."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from core.config import resolve_device
from core.errors import TrainingError
from core.training.comparison import base_metrics
from core.training.config import TrainConfig
from core.training.data import PROBE_SPLIT
from core.training.heldout import Scores, held_out_report, split_metrics
from core.training.objectives import param_groups
from core.training.recording import Plan, Recorder, out_of_memory
from core.training.run import Cancelled, TrainingRun
from core.training.saving import save_run

if TYPE_CHECKING:
    from core.store import Store


def run_training(store: Store, cfg: TrainConfig, job_id: str,
                 should_stop: Callable[[], bool] = lambda: False) -> dict[str, Any]:
    """Fine-tune, recording metrics and progress as it goes; save and register the model; final metrics."""
    import torch

    deterministic = torch.are_deterministic_algorithms_enabled()
    try:
        torch.use_deterministic_algorithms(resolve_device(cfg.device) == "cpu", warn_only=True)
        return _train(store, cfg, job_id, should_stop)
    except (RuntimeError, MemoryError) as exc:
        if out_of_memory(exc):
            raise TrainingError(f"batch size {cfg.batch_size} does not fit in memory; "
                                "try a smaller batch or max length") from exc
        raise
    finally:
        torch.use_deterministic_algorithms(deterministic)


def _train(store: Store, cfg: TrainConfig, job_id: str, should_stop: Callable[[], bool]) -> dict[str, Any]:
    import torch
    from transformers import get_linear_schedule_with_warmup

    started = time.time()
    run = TrainingRun(store, cfg, job_id, should_stop)
    rng = np.random.default_rng(cfg.seed)
    stream = run.batches(rng)
    run.start_triplets(rng)
    per_epoch = run.cite.batches_per_epoch(run.triplet_batch) if cfg.objective == "specter" else run.batches_per_epoch
    total_steps = max(1, math.ceil(cfg.epochs * per_epoch / cfg.grad_accum))
    eval_every = cfg.eval_every or max(1, total_steps // 10)
    recorder = Recorder(store, job_id, _plan(run, total_steps, eval_every))
    base: dict[str, float] = {}
    base_scores: Scores | None = None  # the base's logits on the test split (never judged on validation)
    if cfg.head_warmup_epochs > 0:  # the base encoder with a fitted head: the score fine-tuning has to beat
        head_loss = run.warm_up_head(rng, recorder)
        recorder.log(0, 0.0, "train", {"loss": head_loss, "ce_loss": head_loss})
        base_val = run.scores(run.sel.val, recorder)
        base = {**split_metrics(*base_val), **run.cite_metrics()}
        base_scores = run.scores(run.sel.test, recorder) if len(run.sel.test) else base_val
        counted = {**base, "papers": float(len(run.sel.val))}  # n: the curves' intervals
        recorder.log(0, 0.0, "val", counted)
        recorder.log(0, 0.0, "base", counted)
        if len(run.probe):
            recorder.log(0, 0.0, PROBE_SPLIT, {**run.evaluate(run.probe, recorder), "papers": float(len(run.probe))})
    elif run.cite is not None:
        base = run.cite_metrics()
        recorder.log(0, 0.0, "val", base)
        recorder.log(0, 0.0, "base", base)

    optimizer = torch.optim.AdamW(
        param_groups(run.model, cfg.lr, cfg.layer_decay)
        + [{"params": list(run.head.parameters()), "lr": cfg.head_lr, "weight_decay": 0.0}]
    )
    scheduler = get_linear_schedule_with_warmup(optimizer, int(cfg.warmup_ratio * total_steps), total_steps)
    fp16 = run.device.startswith("cuda") and not torch.cuda.is_bf16_supported()
    scaler = torch.amp.GradScaler("cuda", enabled=fp16)
    params = [p for group in optimizer.param_groups for p in group["params"]]
    top_group = max(range(len(optimizer.param_groups) - 1), key=lambda g: optimizer.param_groups[g]["lr"])
    log_every = max(1, min(10, total_steps // 50))
    window: dict[str, float] = {}
    val: dict[str, float] = {}
    val_scores: Scores = (np.zeros((0, len(run.sel.classes)), dtype=np.float32), np.zeros(0, dtype=np.int64))
    probe: dict[str, float] = {}
    epoch = 0.0
    run.model.train()
    for step in range(1, total_steps + 1):
        tick = time.perf_counter()
        for _ in range(cfg.grad_accum):
            if should_stop():
                raise Cancelled
            epoch, idx = next(stream) if cfg.objective != "specter" else (epoch, np.zeros(0, dtype=np.int64))
            triplets = None
            if run.triplets is not None:
                triplet_epoch, triplets = next(run.triplets)
                if cfg.objective == "specter":
                    epoch, idx = triplet_epoch, triplets[:, 0]
            loss, parts = run.step_loss(idx, triplets) if triplets is not None else run.step_loss(idx)
            scaler.scale(loss / cfg.grad_accum).backward()
            for key, value in {"loss": float(loss.detach()), **parts, "papers": 1.0}.items():
                window[key] = window.get(key, 0.0) + value * len(idx)
        if cfg.clip > 0:
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(params, cfg.clip)
        scaler.step(optimizer)
        scaler.update()
        scheduler.step()
        optimizer.zero_grad(set_to_none=True)
        window["seconds"] = window.get("seconds", 0.0) + time.perf_counter() - tick
        recorder.step(time.perf_counter() - tick)
        if step % log_every == 0 or step == total_steps:
            seen, seconds = window.pop("papers"), window.pop("seconds")
            values = {k: v / seen for k, v in window.items()}
            values.update(lr=optimizer.param_groups[top_group]["lr"], samples_per_s=seen / max(seconds, 1e-9))
            recorder.log(step, epoch, "train", values)
            window = {}
        if step % eval_every == 0 or step == total_steps:
            if step == total_steps and cfg.objective == "specter" and cfg.head_warmup_epochs > 0:
                run.warm_up_head(rng, recorder)  # the head (untouched by triplet steps) refitted, timed as planned
            val_scores = run.scores(run.sel.val, recorder)
            val = {**split_metrics(*val_scores), **run.cite_metrics()}
            recorder.log(step, epoch, "val", {**val, "papers": float(len(run.sel.val))})
            if len(run.probe):
                probe = run.evaluate(run.probe, recorder)
                recorder.log(step, epoch, PROBE_SPLIT, {**probe, "papers": float(len(run.probe))})
    test_scores = run.scores(run.sel.test, recorder) if len(run.sel.test) else None
    held, temperature = held_out_report(val_scores, test_scores, base_scores, cfg.seed)
    metrics = {
        "val_loss": val["loss"], "val_accuracy": val["accuracy"], "val_top5_accuracy": val["top5_accuracy"],
        "steps": total_steps, "epochs": round(epoch, 4), "classes": len(run.sel.classes),
        "train_papers": len(run.sel.train), "val_papers": len(run.sel.val),
        "seconds": round(time.time() - started, 2),
        "train_probe_accuracy": probe.get("accuracy"), "probe_papers": len(run.probe),
        **base_metrics(base, val), **held,
    }
    if run.cite is not None:
        metrics.update(val_cite_map=val.get("cite_map"), val_cite_ndcg=val.get("cite_ndcg"),
                       base_val_cite_map=base.get("cite_map"), cite_split_seed=cfg.seed,
                       cite_train_queries=len(run.cite.train), cite_held_out_queries=len(run.cite.held_out),
                       cite_val_queries=len(run.cite_val), triplet_batch=run.triplet_batch)
    spec = save_run(run, store, metrics, temperature)
    recorder.finished()
    return {"model": spec.name, "location": spec.location, "metrics": metrics}


def _plan(run: TrainingRun, steps: int, eval_every: int) -> Plan:
    """The run's work for its ETA: steps, and papers encoded without gradients (warm-up, base, validations, test)."""
    cfg, sel = run.cfg, run.sel
    checks = len(range(eval_every, steps + 1, eval_every)) + (steps % eval_every != 0)
    forward = checks * (len(sel.val) + len(run.probe)) + len(sel.test)
    if cfg.head_warmup_epochs > 0:
        warm = max(1, int(round(min(1.0, cfg.head_warmup_epochs) * len(run.warm_pool))))
        forward += warm * (1 + (cfg.objective == "specter")) + len(sel.val) + len(run.probe) + len(sel.test)
    return Plan(steps, cfg.batch_size * cfg.grad_accum, forward)
