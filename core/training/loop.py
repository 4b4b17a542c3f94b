"""MIReAD fine-tuning: a linear head on the pooled vector, cross-entropy (+ optional SupCon), AdamW."""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from core.config import resolve_device
from core.embedding import autocast_context, collate, load_backbone, pool
from core.errors import TrainingError
from core.training.citations import CitationData
from core.training.comparison import base_comparison, base_metrics
from core.training.config import CITATION_OBJECTIVES, COSINE_OBJECTIVES, TrainConfig, base_spec
from core.training.data import PROBE_SPLIT, probe_sample, select
from core.training.heldout import Scores, held_out_report, split_metrics
from core.training.objectives import WEIGHT_DECAY, epoch_batches, param_groups, similarity_distill_loss, supcon_loss
from core.training.recording import Plan, QuietRecorder, Recorder, out_of_memory
from core.training.saving import save_run

__all__ = ["Cancelled", "base_comparison", "run_training"]  # base_comparison lives in comparison.py

if TYPE_CHECKING:
    import torch

    from core.store import Store

class Cancelled(Exception):
    """Raised inside the loop when `should_stop()` asks it to stop."""


class _Run:
    """The state of one training run: data, model, head and the pieces of a step."""

    def __init__(self, store: Store, cfg: TrainConfig, job_id: str, should_stop: Callable[[], bool]):
        import torch

        self.cfg, self.job_id, self.should_stop = cfg, job_id, should_stop
        self.device = resolve_device(cfg.device)
        self.spec = base_spec(store, cfg.base)
        frame = store.papers_frame(cfg.corpus)
        self.sel = select(frame, cfg)
        torch.manual_seed(cfg.seed)
        self.tokenizer, self.model = load_backbone(self.spec)
        rows = frame.iloc[self.sel.rows]
        self.row_ids = rows["id"].astype(str).tolist()
        titles = rows["title"].fillna("").astype(str).tolist()
        abstracts = rows["abstract"].fillna("").astype(str).tolist()
        enc = self.tokenizer(titles, abstracts, truncation="longest_first", max_length=cfg.max_length)
        self.encoded = {k: enc[k] for k in ("input_ids", "token_type_ids", "attention_mask") if k in enc}
        self.pad_id = self.tokenizer.pad_token_id or 0
        self.head = torch.nn.Linear(self.model.config.hidden_size, len(self.sel.classes))
        self.teacher = copy.deepcopy(self.model).eval().requires_grad_(False) if cfg.distill_weight > 0 else None
        if self.teacher is not None:
            self.teacher.to(self.device)
        self.model.to(self.device)
        self.head.to(self.device)
        self.y = torch.as_tensor(self.sel.y, device=self.device)
        self.probe = probe_sample(self.sel.train, len(self.sel.val), cfg.seed)
        self.warm_pool = np.setdiff1d(self.sel.train, self.probe)  # the head warm-up never sees the probe
        self.warmed_on = np.zeros(0, dtype=np.int64)
        self.cite: CitationData | None = None
        self.triplets: Iterator[tuple[float, np.ndarray]] | None = None
        if cfg.objective in CITATION_OBJECTIVES:
            ids = frame["id"].astype(str).tolist()
            self.cite = CitationData.build(ids, store.links(cfg.corpus), cfg.seed, cfg.cite_held_out)
            everything = self.tokenizer(frame["title"].fillna("").astype(str).tolist(),
                                        frame["abstract"].fillna("").astype(str).tolist(),
                                        truncation="longest_first", max_length=cfg.max_length)
            self.cite_encoded = {k: everything[k] for k in self.encoded}
            self.triplet_batch = cfg.batch_size if cfg.objective == "specter" else max(2, cfg.batch_size // 2)
            self.cite_val = self.cite.val_sets(cfg.seed)

    def batches(self, rng: np.random.Generator) -> Iterator[tuple[float, np.ndarray]]:
        """Endless micro-batches of training rows with the (fractional) epoch reached after each one."""
        labels, cfg = self.sel.y[self.sel.train], self.cfg

        def one_epoch() -> list[np.ndarray]:
            return epoch_batches(labels, cfg.objective, cfg.batch_size, cfg.classes_per_batch, rng)

        def stream(current: list[np.ndarray]) -> Iterator[tuple[float, np.ndarray]]:
            epoch = 0
            while True:
                for i, idx in enumerate(current):
                    yield epoch + (i + 1) / len(current), self.sel.train[idx]
                epoch, current = epoch + 1, one_epoch()

        first = one_epoch()
        self.batches_per_epoch = len(first)
        return stream(first)

    def pooled(self, idx: Sequence[int], model: torch.nn.Module | None = None) -> torch.Tensor:
        """Pooled, un-normalised vectors of the selected positions `idx` (from `model`, default the encoder)."""
        batch = collate(self.encoded, idx, self.pad_id, self.device)
        hidden = (model or self.model)(**batch).last_hidden_state
        return pool(hidden, batch["attention_mask"], self.spec.pooling)

    def start_triplets(self, rng: np.random.Generator) -> None:
        """The endless stream of triplet batches (a fresh seeded draw each triplet epoch)."""
        if self.cite is not None:
            self.triplets = self.cite.stream(rng, self.cfg.hard_ratio, self.triplet_batch)

    def pooled_papers(self, rows: Sequence[int]) -> torch.Tensor:
        """Pooled, un-normalised vectors of corpus frame rows (any paper, for the citation term)."""
        batch = collate(self.cite_encoded, rows, self.pad_id, self.device)
        hidden = self.model(**batch).last_hidden_state
        return pool(hidden, batch["attention_mask"], self.spec.pooling)

    def triplet_loss(self, triplets: np.ndarray) -> torch.Tensor:
        """The citation loss of a batch of (query, cited, negative) rows: SPECTER's triplet margin loss (margin 1,
        L2 distance) or, with ``cite_loss`` in-batch, InfoNCE over the batch's papers."""
        with autocast_context(self.device):
            pooled = self.pooled_papers(triplets.T.reshape(-1).tolist())
        return self.cite.loss(pooled, triplets, self.cfg.cite_loss, self.cfg.temperature)

    def cite_metrics(self) -> dict[str, float]:
        """cite MAP and nDCG on the fixed held-out query sets (eval mode, no gradients)."""
        import torch

        from core.evaluation.citations import ranking_metrics

        if self.cite is None or not self.cite_val:
            return {}
        rows = sorted({int(r) for q, cand, _ in self.cite_val for r in (q, *cand.tolist())})
        where = {r: i for i, r in enumerate(rows)}
        vectors = np.zeros((len(rows), self.model.config.hidden_size), dtype=np.float32)
        self.model.eval()
        with torch.inference_mode():
            for start in range(0, len(rows), self.cfg.batch_size * 2):
                if self.should_stop():
                    raise Cancelled
                part = rows[start:start + self.cfg.batch_size * 2]
                with autocast_context(self.device):
                    vectors[start:start + len(part)] = self.pooled_papers(part).float().cpu().numpy()
        self.model.train()
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        sets = [(where[q], np.array([where[int(c)] for c in cand]), rel) for q, cand, rel in self.cite_val]
        scores = ranking_metrics(vectors, sets)
        return {"cite_map": float(np.mean(scores["MAP"])), "cite_ndcg": float(np.mean(scores["nDCG"]))}

    def logits(self, pooled: torch.Tensor) -> torch.Tensor:
        """Class logits of pooled vectors: the linear head, or cosines to the class centres / temperature."""
        import torch

        if self.cfg.objective not in COSINE_OBJECTIVES:
            return self.head(pooled)
        unit = torch.nn.functional.normalize(pooled.float(), dim=-1)
        centres = torch.nn.functional.normalize(self.head.weight.float(), dim=-1)
        return unit @ centres.T / self.cfg.temperature

    def step_loss(self, idx: np.ndarray, triplets: np.ndarray | None = None) -> tuple[torch.Tensor, dict[str, float]]:
        """Loss of one micro-batch and its parts (ce, supcon, triplet, accuracy) as floats."""
        if self.cfg.objective == "specter":  # the encoder learns from the triplets alone; the head is refitted after
            loss = self.triplet_loss(triplets)
            return loss, {"triplet_loss": float(loss.detach())}
        loss, parts = self._label_loss(idx)
        if triplets is not None:
            term = self.triplet_loss(triplets)
            parts["triplet_loss"] = float(term.detach())
            loss = loss + self.cfg.cite_weight * term
        return loss, parts

    def _label_loss(self, idx: np.ndarray) -> tuple[torch.Tensor, dict[str, float]]:
        import torch

        with autocast_context(self.device):
            pooled = self.pooled(idx)
            logits = self.logits(pooled.detach() if self.cfg.objective == "supcon" else pooled).float()
        target = self.y[torch.as_tensor(idx, device=self.device)]
        ce = torch.nn.functional.cross_entropy(logits, target)
        parts = {"ce_loss": float(ce.detach()),
                 "batch_accuracy": float((logits.argmax(1) == target).float().mean())}
        loss = ce
        if "supcon" in self.cfg.objective:
            con = supcon_loss(pooled, target, self.cfg.temperature)
            parts["supcon_loss"] = float(con.detach())
            loss = ce + self.cfg.supcon_weight * con
        if self.teacher is not None:
            with torch.no_grad(), autocast_context(self.device):
                reference = self.pooled(idx, self.teacher)
            kept = similarity_distill_loss(pooled, reference)
            parts["distill_loss"] = float(kept.detach())
            loss = loss + self.cfg.distill_weight * kept
        return loss, parts

    def scores(self, idx: np.ndarray, recorder: Recorder | None = None) -> Scores:
        """Logits [papers, classes] and true classes of the positions `idx`, in that order (eval mode, no gradients)."""
        import torch

        started, idx = time.perf_counter(), np.asarray(idx, dtype=np.int64)
        self.model.eval()
        order = np.array(sorted(range(len(idx)), key=lambda i: -len(self.encoded["input_ids"][idx[i]])), dtype=np.int64)
        out = np.zeros((len(idx), len(self.sel.classes)), dtype=np.float32)
        with torch.inference_mode():
            for start in range(0, len(order), self.cfg.batch_size * 2):
                if self.should_stop():
                    raise Cancelled
                part = order[start : start + self.cfg.batch_size * 2]
                with autocast_context(self.device):
                    out[part] = self.logits(self.pooled(idx[part].tolist())).float().cpu().numpy()
        self.model.train()
        if recorder is not None:
            recorder.forward(len(idx), time.perf_counter() - started)
        return out, self.sel.y[idx]

    def evaluate(self, idx: np.ndarray, recorder: Recorder | None = None) -> dict[str, float]:
        """Loss, accuracy and top-5 accuracy of the positions `idx`."""
        return split_metrics(*self.scores(idx, recorder))

    def warm_up_head(self, rng: np.random.Generator, recorder: Recorder | QuietRecorder) -> float:
        """Train the head alone on frozen-encoder features (LP-FT); returns its last epoch's loss."""
        import torch

        cfg, pool = self.cfg, self.warm_pool
        share = min(1.0, cfg.head_warmup_epochs)
        subset = rng.permutation(pool)[: max(1, int(round(share * len(pool))))]
        self.warmed_on = np.sort(subset)
        features = torch.zeros(len(subset), self.model.config.hidden_size, device=self.device)
        self.model.eval()
        with torch.no_grad():
            for start in range(0, len(subset), cfg.batch_size * 2):
                if self.should_stop():
                    raise Cancelled
                tick, part = time.perf_counter(), subset[start : start + cfg.batch_size * 2]
                with autocast_context(self.device):
                    features[start : start + len(part)] = self.pooled(part).float()
                recorder.forward(len(part), time.perf_counter() - tick)
        self.model.train()
        if cfg.objective in COSINE_OBJECTIVES:  # start each class centre at its papers' mean direction
            with torch.no_grad():
                target = self.y[torch.as_tensor(subset, device=self.device)]
                unit = torch.nn.functional.normalize(features, dim=-1)
                sums = torch.zeros_like(self.head.weight).index_add_(0, target, unit)
                seen = sums.norm(dim=1) > 0
                self.head.weight[seen] = torch.nn.functional.normalize(sums[seen], dim=-1)
        optimizer = torch.optim.AdamW(self.head.parameters(), lr=cfg.head_lr, weight_decay=WEIGHT_DECAY)
        epochs = max(1, int(round(cfg.head_warmup_epochs))) if cfg.head_warmup_epochs >= 1 else 1
        last = 0.0
        for _ in range(epochs):
            total = 0.0
            for part in np.array_split(rng.permutation(len(subset)), max(1, len(subset) // cfg.batch_size)):
                target = self.y[torch.as_tensor(subset[part], device=self.device)]
                loss = torch.nn.functional.cross_entropy(self.logits(features[torch.as_tensor(part)]), target)
                optimizer.zero_grad(set_to_none=True)
                loss.backward()
                optimizer.step()
                total += float(loss.detach()) * len(part)
            last = total / len(subset)
        return last


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
    run = _Run(store, cfg, job_id, should_stop)
    rng = np.random.default_rng(cfg.seed)
    stream = run.batches(rng)
    run.start_triplets(rng)
    per_epoch = run.cite.batches_per_epoch(run.triplet_batch) if cfg.objective == "specter" else run.batches_per_epoch
    total_steps = max(1, math.ceil(cfg.epochs * per_epoch / cfg.grad_accum))
    eval_every = cfg.eval_every or max(1, total_steps // 10)
    recorder = Recorder(store, job_id, _plan(run, total_steps, eval_every))
    base: dict[str, float] = {}
    base_scores: Scores | None = None  # the base's logits on the test split (on validation without one)
    if cfg.head_warmup_epochs > 0:  # the base encoder with a fitted head: the score fine-tuning has to beat
        head_loss = run.warm_up_head(rng, recorder)
        recorder.log(0, 0.0, "train", {"loss": head_loss, "ce_loss": head_loss})
        base_val = run.scores(run.sel.val, recorder)
        base = {**split_metrics(*base_val), **run.cite_metrics()}
        base_scores = run.scores(run.sel.test, recorder) if len(run.sel.test) else base_val
        recorder.log(0, 0.0, "val", base)
        recorder.log(0, 0.0, "base", base)
        if len(run.probe):
            recorder.log(0, 0.0, PROBE_SPLIT, run.evaluate(run.probe, recorder))
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
            recorder.log(step, epoch, "val", val)
            if len(run.probe):
                probe = run.evaluate(run.probe, recorder)
                recorder.log(step, epoch, PROBE_SPLIT, probe)
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


def _plan(run: _Run, steps: int, eval_every: int) -> Plan:
    """The run's work for its ETA: steps, and papers encoded without gradients (warm-up, base, validations, test)."""
    cfg, sel = run.cfg, run.sel
    checks = len(range(eval_every, steps + 1, eval_every)) + (steps % eval_every != 0)
    forward = checks * (len(sel.val) + len(run.probe)) + len(sel.test)
    if cfg.head_warmup_epochs > 0:
        warm = max(1, int(round(min(1.0, cfg.head_warmup_epochs) * len(run.warm_pool))))
        forward += warm * (1 + (cfg.objective == "specter")) + len(sel.val) + len(run.probe) + len(sel.test)
    return Plan(steps, cfg.batch_size * cfg.grad_accum, forward)
