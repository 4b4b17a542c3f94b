"""Saving a finished run: the checkpoint folder (encoder, tokenizer, the calibrated head, mired.json) and its entry in
the model registry, with the verdict against its base as the model card's figures."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from core.embedding import ModelSpec, save_checkpoint
from core.training.config import COSINE_OBJECTIVES

if TYPE_CHECKING:
    from core.store import Store
    from core.training.run import TrainingRun


def save_run(run: TrainingRun, store: Store, metrics: dict[str, Any], temperature: float = 1.0) -> ModelSpec:
    """Write the checkpoint folder (encoder, tokenizer, head, mired.json) and register the model."""
    import torch

    cfg = run.cfg
    folder = store.models_dir / store.corpus_slug(cfg.name)
    if folder.exists():
        folder = store.models_dir / f"{store.corpus_slug(cfg.name)}-{run.job_id}"
    weight, bias = run.head.weight.detach().float().cpu(), run.head.bias.detach().float().cpu()
    config = cfg.to_dict()
    if run.cite is not None:  # the split the cite task must use to keep the training links out of its queries
        config.update(cite_split_seed=cfg.seed, cite_held_out_queries=len(run.cite.held_out),
                      cite_train_queries=len(run.cite.train))
    unit_input = cfg.objective in COSINE_OBJECTIVES
    if unit_input:  # the same logits as a plain linear layer over unit vectors
        weight = torch.nn.functional.normalize(weight, dim=-1) / cfg.temperature
        bias = torch.zeros_like(bias)
    weight, bias = weight / temperature, bias / temperature  # softmax(logits / T): calibrated on validation
    meta = {"labels": run.sel.classes, "label_column": cfg.label, "pooling": run.spec.pooling,
            "head_input": "unit" if unit_input else "pooled", "head_temperature": temperature,
            "test_ids": [run.row_ids[i] for i in run.sel.test],
            "base": cfg.base, "max_length": cfg.max_length, "config": config, "metrics": metrics,
            "job": run.job_id, "created": time.time()}
    save_checkpoint(folder, store.models_dir / f".tmp-{run.job_id}", run.model, run.tokenizer, weight, bias,
                    meta)
    spec = ModelSpec(
        name=cfg.name, source="checkpoint", location=str(folder), pooling=run.spec.pooling,
        max_length=cfg.max_length, labels=list(run.sel.classes), label_column=cfg.label, base=cfg.base,
        description=f"fine-tuned from {cfg.base} on {cfg.corpus} / {cfg.label} ({len(run.sel.classes)} classes)",
        verdict=metrics.get("verdict") or {},
    )
    store.save_model(cfg.name, spec.to_dict())
    return spec
