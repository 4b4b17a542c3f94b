"""The self-supervised figure scorer (Yamamoto et al. 2021): fine-tune an encoder so that a body sentence that
references a figure (its mention masked) lands nearest to that figure's caption among the same paper's captions.

A bi-encoder with in-paper negatives: per paper, softmax over its captions of cosine / temperature, cross-entropy
on the referenced one. Papers held out by the seeded split (`core.store.is_held_out`) are never trained on; a
few training papers give the live validation curve. The result is saved like any model and ranks figures anywhere.
"""

from __future__ import annotations

import json
import math
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any

import numpy as np

from core.config import resolve_device
from core.embedding import META_FILE, ModelSpec, load_backbone, pool
from core.errors import TrainingError
from core.store import FigurePaper, is_held_out
from core.training.prepare import base_spec, taken_names

if TYPE_CHECKING:
    from core.store import Store

FIGURES_KIND = "figures"
MAX_CAPTIONS = 16  # captions per paper in a training step (the referenced one always kept)
VAL_PAIRS = 200  # validation pairs scored at each evaluation, at most


class FigureCancelled(Exception):
    """Raised inside the loop when `should_stop()` asks it to stop."""


@dataclass
class FigureTrainConfig:
    """Settings of one figure-scorer training run."""

    corpus: str
    base: str = "minilm"
    name: str = ""
    epochs: float = 1.5
    lr: float = 6e-5
    temperature: float = 0.05
    batch_papers: int = 4
    sentences_per_paper: int = 16
    caption_length: int = 64
    sentence_length: int = 48
    frozen_layers: int = 3  # the embeddings and this many lowest layers stay fixed (fewer gradients on a CPU)
    split_seed: int = 0
    held_out: float = 0.3
    val_fraction: float = 0.1
    eval_every: int = 25
    seed: int = 0
    device: str = "auto"
    label: str = "figures"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FigureTrainConfig:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


def training_papers(store: Store, cfg: FigureTrainConfig) -> list[FigurePaper]:
    """The corpus's figure papers outside the held-out split."""
    return [p for p in store.figure_papers(cfg.corpus) if not is_held_out(p.pid, cfg.split_seed, cfg.held_out)]


def prepare_figure_config(store: Store, cfg: FigureTrainConfig) -> FigureTrainConfig:
    """Check the corpus, base and numbers; give the model a free name; TrainingError with one sentence."""
    store.corpus(cfg.corpus)
    base_spec(store, cfg.base)
    if not cfg.epochs > 0 or not cfg.lr > 0 or not cfg.temperature > 0 or cfg.batch_papers < 1:
        raise TrainingError("epochs, learning rate, temperature and papers per batch must be positive")
    if not 0 <= cfg.held_out < 1:
        raise TrainingError(f"the held-out fraction must be in [0, 1); got {cfg.held_out}")
    if len(training_papers(store, cfg)) < 3:
        raise TrainingError(f"corpus {cfg.corpus!r} has fewer than 3 training papers with two captioned figures and "
                            "a referencing sentence; import JATS full text (with figures) first")
    taken = taken_names(store)
    name = cfg.name.strip() or f"{cfg.base.rsplit('/', 1)[-1]}-figures-{cfg.corpus}"
    if not cfg.name.strip():
        stem, n = name, 2
        while name in taken:
            name, n = f"{stem}-{n}", n + 1
    elif name in taken:
        raise TrainingError(f"a model named {name!r} already exists; choose another name")
    cfg.name = name
    return cfg


class _Scorer:
    """The encoder under training and its two views: sentences and captions, each pooled and L2-normalised."""

    def __init__(self, spec: ModelSpec, device: str):
        self.spec, self.device = spec, device
        self.tokenizer, self.model = load_backbone(spec)
        self.model.to(device)

    def freeze(self, layers: int) -> None:
        """Keep the embeddings and the lowest ``layers`` transformer layers fixed (the top layer always trains)."""
        layers = min(layers, int(getattr(self.model.config, "num_hidden_layers", 1)) - 1)
        if layers <= 0:
            return
        for name, param in self.model.named_parameters():
            parts = name.split(".")
            low = "layer" in parts and int(parts[parts.index("layer") + 1]) < layers
            if name.startswith("embeddings.") or low:
                param.requires_grad_(False)

    def vectors(self, texts: Sequence[str], max_length: int) -> Any:
        import torch

        batch = self.tokenizer(list(texts), padding=True, truncation=True, max_length=max_length,
                               return_tensors="pt").to(self.device)
        hidden = self.model(**batch).last_hidden_state
        return torch.nn.functional.normalize(pool(hidden, batch["attention_mask"], self.spec.pooling), dim=-1)

    def paper_logits(self, batch: Sequence[tuple[list[str], list[str], list[int]]], cfg: FigureTrainConfig) -> list:
        """Per paper: (sentence x caption cosine / temperature, target indexes), for several papers at once."""
        import torch

        captions = self.vectors([c for caps, _, _ in batch for c in caps], cfg.caption_length)
        sentences = self.vectors([s for _, sents, _ in batch for s in sents], cfg.sentence_length)
        out, c0, s0 = [], 0, 0
        for caps, sents, targets in batch:
            logits = sentences[s0:s0 + len(sents)] @ captions[c0:c0 + len(caps)].T / cfg.temperature
            out.append((logits, torch.as_tensor(targets, device=self.device)))
            c0, s0 = c0 + len(caps), s0 + len(sents)
        return out

    def paper_losses(self, batch: Sequence[tuple[list[str], list[str], list[int]]], cfg: FigureTrainConfig) -> Any:
        """Mean in-paper cross-entropy over (captions, sentences, target indexes) of several papers."""
        import torch

        parts = self.paper_logits(batch, cfg)
        total = torch.stack([torch.nn.functional.cross_entropy(lg, t, reduction="sum") for lg, t in parts]).sum()
        return total / max(1, sum(len(t) for _, t in parts))


def _paper_batch(paper: FigurePaper, k: int, rng: np.random.Generator) -> tuple[list[str], list[str], list[int]]:
    """Up to k sentences of a paper and its captions (at most MAX_CAPTIONS, the referenced ones kept)."""
    pick = rng.choice(len(paper.pairs), size=min(k, len(paper.pairs)), replace=False)
    pairs = [paper.pairs[i] for i in pick]
    referenced = {i for _, i in pairs}
    others = [i for i in rng.permutation(len(paper.captions)).tolist() if i not in referenced]
    keep = sorted(referenced | set(others[:max(0, MAX_CAPTIONS - len(referenced))]))
    where = {old: new for new, old in enumerate(keep)}
    return [paper.captions[i] for i in keep], [s for s, _ in pairs], [where[i] for _, i in pairs]


def _validate(scorer: _Scorer, papers: Sequence[FigurePaper], cfg: FigureTrainConfig) -> dict[str, float]:
    """Loss and accuracy@1 on (at most VAL_PAIRS) validation pairs, without gradients."""
    import torch

    batch, left = [], VAL_PAIRS
    for paper in papers:
        pairs = paper.pairs[:left]
        if pairs:
            batch.append((paper.captions, [s for s, _ in pairs], [i for _, i in pairs]))
            left -= len(pairs)
    scorer.model.eval()
    correct, total, loss = 0, 0, 0.0
    with torch.inference_mode():
        for start in range(0, len(batch), 8):
            for logits, targets in scorer.paper_logits(batch[start:start + 8], cfg):
                loss += float(torch.nn.functional.cross_entropy(logits, targets, reduction="sum"))
                correct += int((logits.argmax(dim=1) == targets).sum())
                total += len(targets)
    scorer.model.train()
    return {"loss": loss / max(1, total), "accuracy": correct / max(1, total)}


def _save(store: Store, cfg: FigureTrainConfig, scorer: _Scorer, job_id: str, metrics: dict[str, Any]) -> ModelSpec:
    folder = store.models_dir / store.corpus_slug(cfg.name)
    if folder.exists():
        folder = store.models_dir / f"{store.corpus_slug(cfg.name)}-{job_id}"
    tmp = store.models_dir / f".tmp-{job_id}"
    shutil.rmtree(tmp, ignore_errors=True)
    scorer.model.save_pretrained(tmp)
    scorer.tokenizer.save_pretrained(tmp)
    meta = {"task": FIGURES_KIND, "labels": [], "pooling": scorer.spec.pooling, "base": cfg.base,
            "max_length": scorer.spec.max_length, "config": cfg.to_dict(), "metrics": metrics, "job": job_id,
            "created": time.time()}
    (tmp / META_FILE).write_text(json.dumps(meta, indent=2), encoding="utf-8")
    tmp.rename(folder)
    spec = ModelSpec(name=cfg.name, source="checkpoint", location=str(folder), pooling=scorer.spec.pooling,
                     max_length=scorer.spec.max_length, base=cfg.base,
                     description=f"figure scorer trained from {cfg.base} on {cfg.corpus}'s figure references "
                                 f"({metrics['pairs']} pairs, held-out split seed {cfg.split_seed})")
    store.save_model(cfg.name, spec.to_dict())
    return spec


def run_figure_training(store: Store, cfg: FigureTrainConfig, job_id: str,
                        should_stop: Callable[[], bool] = lambda: False) -> dict[str, Any]:
    """Train, recording loss/accuracy curves and progress; save and register the model; final metrics."""
    import torch

    started = time.time()
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    papers = training_papers(store, cfg)
    order = rng.permutation(len(papers))
    n_val = max(1, int(round(len(papers) * cfg.val_fraction)))
    val = [papers[i] for i in order[:n_val]]
    train = [papers[i] for i in order[n_val:]]
    if not train:
        raise TrainingError(f"corpus {cfg.corpus!r} has too few figure papers to train on")
    scorer = _Scorer(base_spec(store, cfg.base), resolve_device(cfg.device))
    scorer.freeze(cfg.frozen_layers)
    steps_per_epoch = math.ceil(len(train) / cfg.batch_papers)
    total = max(1, math.ceil(cfg.epochs * steps_per_epoch))
    trainable = [p for p in scorer.model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=cfg.lr, weight_decay=0.01)
    warmup = max(1, total // 10)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warmup, max(0.0, (total - s) / max(1, total - warmup))))

    def log(step: int, split: str, values: dict[str, float]) -> None:
        store.record_metrics(job_id, step, round(step / steps_per_epoch, 4), split, values, ts=time.time())

    base = _validate(scorer, val, cfg)
    log(0, "base", {"accuracy": base["accuracy"], "loss": base["loss"]})
    log(0, "val", base)
    scorer.model.train()
    step, seen = 0, 0
    while step < total:
        order = rng.permutation(len(train))  # one pass over the training papers
        for start in range(0, len(train), cfg.batch_papers):
            if step >= total:
                break
            if should_stop():
                raise FigureCancelled()
            batch = [_paper_batch(train[i], cfg.sentences_per_paper, rng)
                     for i in order[start:start + cfg.batch_papers]]
            loss = scorer.paper_losses(batch, cfg)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(trainable, 1.0)
            optimizer.step()
            schedule.step()
            step += 1
            seen += sum(len(s) for _, s, _ in batch)
            log(step, "train", {"loss": float(loss.detach()), "seconds_per_step": (time.time() - started) / step})
            if step % cfg.eval_every == 0 or step == total:
                log(step, "val", _validate(scorer, val, cfg))
            fraction = step / total
            elapsed = time.time() - started
            store.set_progress(job_id, fraction, time.time() + elapsed * (1 - fraction) / fraction)
    final = _validate(scorer, val, cfg)
    metrics = {"val_accuracy": final["accuracy"], "val_loss": final["loss"], "base_val_accuracy": base["accuracy"],
               "val_accuracy_gain": final["accuracy"] - base["accuracy"],
               "beats_base": final["accuracy"] > base["accuracy"], "steps": step, "pairs": seen,
               "train_papers": len(train), "val_papers": len(val), "seconds": round(time.time() - started, 1)}
    spec = _save(store, cfg, scorer, job_id, metrics)
    return {"model": spec.name, "metrics": metrics}
