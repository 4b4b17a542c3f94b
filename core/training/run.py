"""One fine-tuning run's state: its papers and split, the encoder and head, and the pieces of a step (losses,
scores, the head warm-up), which `core.training.loop` drives."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np

from core.config import resolve_device
from core.embedding import ParallelTokenizer, autocast_context, collate, load_backbone, pool
from core.training.citations import CitationData
from core.training.config import CITATION_OBJECTIVES, COSINE_OBJECTIVES, TrainConfig
from core.training.data import probe_sample, select
from core.training.heldout import Scores, split_metrics
from core.training.objectives import WEIGHT_DECAY, epoch_batches, similarity_distill_loss, supcon_loss
from core.training.prepare import base_spec
from core.training.recording import QuietRecorder, Recorder

if TYPE_CHECKING:
    import torch

    from core.store import Store


class Cancelled(Exception):
    """Raised inside the loop when `should_stop()` asks it to stop."""


class TrainingRun:
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
        tokenize = ParallelTokenizer(self.tokenizer)
        self.encoded = tokenize(titles, abstracts, truncation="longest_first", max_length=cfg.max_length)
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
            everything = tokenize(frame["title"].fillna("").astype(str).tolist(),
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
