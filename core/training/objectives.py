"""Objective pieces: supervised contrastive loss, similarity distillation, the P x K sampler, layer-wise rates."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import torch

WEIGHT_DECAY = 0.01


def supcon_loss(features: torch.Tensor, labels: torch.Tensor, temperature: float = 0.1) -> torch.Tensor:
    """Supervised contrastive loss (Khosla et al. 2020) on L2-normalised vectors; same label = positive."""
    import torch

    z = torch.nn.functional.normalize(features.float(), dim=-1)
    n = len(z)
    self_mask = torch.eye(n, dtype=torch.bool, device=z.device)
    logits = (z @ z.T / temperature).masked_fill(self_mask, float("-inf"))
    log_prob = logits - torch.logsumexp(logits, dim=1, keepdim=True)
    positives = (labels[:, None] == labels[None, :]) & ~self_mask
    count = positives.sum(1)
    anchors = count > 0
    if not anchors.any():
        return z.sum() * 0.0
    summed = log_prob.masked_fill(~positives, 0.0).sum(1)
    return -(summed[anchors] / count[anchors]).mean()


def similarity_distill_loss(student: torch.Tensor, teacher: torch.Tensor) -> torch.Tensor:
    """Mean squared gap between the student's and the frozen teacher's in-batch cosine-similarity matrices."""
    import torch

    s = torch.nn.functional.normalize(student.float(), dim=-1)
    t = torch.nn.functional.normalize(teacher.float(), dim=-1)
    return torch.nn.functional.mse_loss(s @ s.T, t @ t.T)


def pk_batches(labels: np.ndarray, classes_per_batch: int, per_class: int,
               rng: np.random.Generator) -> list[np.ndarray]:
    """One epoch of P x K batches: each paper once; a batch holds up to P labels with up to K papers each."""
    groups: dict[int, list[np.ndarray]] = {}
    for c in np.unique(labels):
        idx = rng.permutation(np.flatnonzero(labels == c))
        groups[int(c)] = [idx[i : i + per_class] for i in range(0, len(idx), per_class)]
    batches = []
    while groups:
        classes = np.array(list(groups))
        weights = np.array([len(groups[c]) for c in classes], dtype=float)
        pick = rng.choice(classes, size=min(classes_per_batch, len(classes)), replace=False,
                          p=weights / weights.sum())
        batches.append(np.concatenate([groups[int(c)].pop() for c in pick]))
        for c in pick:
            if not groups[int(c)]:
                del groups[int(c)]
    return batches


def epoch_batches(labels: np.ndarray, objective: str, batch_size: int, classes_per_batch: int,
                  rng: np.random.Generator) -> list[np.ndarray]:
    """One epoch of batches (positions into `labels`): shuffled for ce, P x K for the supcon objectives."""
    if "supcon" in objective:
        p = classes_per_batch or max(2, batch_size // 4)
        return pk_batches(labels, p, max(2, batch_size // p), rng)
    order = rng.permutation(len(labels))
    return [order[i : i + batch_size] for i in range(0, len(order), batch_size)]


def param_groups(model: torch.nn.Module, lr: float, layer_decay: float = 1.0) -> list[dict[str, Any]]:
    """AdamW groups: layer-wise decayed learning rates (top layer = lr), no weight decay on biases/norms."""
    n_layers = int(getattr(model.config, "num_hidden_layers", 0))
    groups: dict[tuple[int, bool], list] = {}
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        found = re.search(r"\.(?:layer|layers|block)\.(\d+)\.", name)
        depth = int(found.group(1)) + 1 if found else (0 if "embed" in name else n_layers)
        decay = not (name.endswith("bias") or "norm" in name.lower())
        groups.setdefault((depth, decay), []).append(param)
    return [
        {"params": params, "lr": lr * layer_decay ** max(0, n_layers - depth),
         "weight_decay": WEIGHT_DECAY if decay else 0.0}
        for (depth, decay), params in sorted(groups.items())
    ]


