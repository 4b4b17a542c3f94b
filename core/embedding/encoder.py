"""The encoder: `[CLS] title [SEP] abstract [SEP]` -> pooled, L2-normalised float32 vectors."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from core.config import resolve_device
from core.embedding.checkpoint import load_head
from core.embedding.models import ModelSpec, fingerprint, get_model, load_backbone
from core.embedding.quantize import KINDS, fast_fingerprint, fast_kind, fast_setting, make_fast
from core.embedding.tokens import ParallelTokenizer, collate, padded_work, token_estimates
from core.records import Paper, scrub

if TYPE_CHECKING:
    import torch

    from core.store import Store

Progress = Callable[[int, int], None]
CHUNK = 512  # papers embedded between two saves to the cache: an interrupted embed resumes here
GPU_BATCH = 256  # MiniLM on an H200: 23.4 s of forward passes for 100k papers at 32, 5.6 s at 256 (BENCHMARKS.md §2b)


def default_batch_size(device: str) -> int:
    """Papers per forward pass when none is asked for: 32 on a CPU (one batch per core), 256 on a GPU."""
    return GPU_BATCH if resolve_device(device).startswith("cuda") else 32


CHARS_PER_TOKEN_LIMIT = 16  # no token is longer than this many characters: text beyond it is never read


def clip_text(text: str, limit: int) -> str:
    """Text the tokenizer accepts quickly: lone surrogates replaced, clipped to `limit` characters."""
    return scrub((text or "")[:limit])


def pool(hidden: torch.Tensor, attention_mask: torch.Tensor, pooling: str) -> torch.Tensor:
    """Mean of the non-padding token states, or the [CLS] state."""
    if pooling == "cls":
        return hidden[:, 0]
    mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
    return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)


def pairs_of(items: Sequence[Paper] | Sequence[tuple[str, str]]) -> tuple[list[str], list[str]]:
    """Titles and abstracts of Paper records or (title, abstract) tuples."""
    titles, abstracts = [], []
    for item in items:
        if isinstance(item, Paper):
            titles.append(item.title or "")
            abstracts.append(item.abstract or "")
        else:
            titles.append(item[0] or "")
            abstracts.append(item[1] or "")
    return titles, abstracts


def autocast_context(device: str) -> Any:
    """bf16 autocast on CUDA (fp16 where bf16 is unsupported); nothing on CPU."""
    import torch

    if device.startswith("cuda"):
        dtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        return torch.autocast("cuda", dtype=dtype)
    return nullcontext()


def vectors_fingerprint(spec: ModelSpec, fast: bool | None = None, device: str = "auto") -> str:
    """The cache key of a model's vectors: the model fingerprint, or a distinct one in a fast CPU mode."""
    if fast is False or (fast is None and fast_setting() == "off"):
        return fingerprint(spec)
    return fast_fingerprint(fingerprint(spec), fast_kind(fast, resolve_device(device)))


@contextmanager
def batch_parallel(device: str, batches: int) -> Iterator[Callable]:
    """A `map` that runs CPU batches side by side, one core each, instead of splitting every op across cores.

    Per-op threading needs all its threads scheduled at once and waits at every op for the slowest; on a
    shared or busy CPU that made encoding 1.5x slower (BENCHMARKS.md). One batch per core avoids it. A
    single batch (one query) keeps per-op threading, which is what lowers its latency.
    """
    import torch

    threads = torch.get_num_threads()
    workers = min(threads, batches, os.cpu_count() or 1)
    if not device.startswith("cpu") or workers < 2:
        yield map
        return
    pool = ThreadPoolExecutor(workers, thread_name_prefix="encode", initializer=torch.set_num_threads, initargs=(1,))
    try:
        yield pool.map
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        torch.set_num_threads(threads)  # threads started later inherit the last value set


class Encoder:
    """One loaded model: `encode()` is its verb; `predict()` uses a trained journal head when present.

    `fast=True` (or MIREAD_FAST_CPU=1) runs a CPU encoder in bf16 (int8 where the CPU lacks bf16); its
    vectors are cached under their own fingerprint. `fast=None` follows the environment.
    """

    def __init__(self, spec: ModelSpec, device: str = "auto", batch_size: int = 32, max_length: int | None = None,
                 fast: bool | None = None):
        self.spec = spec
        self.device = resolve_device(device)
        self.batch_size = max(1, batch_size)
        self.max_length = min(512, max_length or spec.max_length)
        self.fast = fast_kind(fast, self.device)
        self.tokenizer, model = load_backbone(spec)
        self.tokenize = ParallelTokenizer(self.tokenizer)
        self.model = make_fast(model, self.fast).to(self.device)
        self.fingerprint = fast_fingerprint(fingerprint(spec), self.fast)
        loaded = load_head(Path(spec.location), spec.name) if spec.labels else None
        self.head: torch.nn.Linear | None = loaded[0].to(self.device) if loaded else None
        self.head_unit_input = bool(loaded and loaded[1])  # a head trained on unit vectors ('cos') gets them here too

    @property
    def dim(self) -> int:
        return int(self.model.config.hidden_size)

    def _forward(self, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        """Pooled float32 vectors of one padded batch (safe to call from several threads at once)."""
        import torch

        with torch.inference_mode(), autocast_context(self.device):
            hidden = self.model(**batch).last_hidden_state.float()
            return pool(hidden, batch["attention_mask"], self.spec.pooling)

    def _pooled_batches(self, first: list[str], second: list[str] | None, progress: Progress | None):
        """(positions, pooled float32 vectors) per batch of texts of similar token length, longest first."""
        limit = CHARS_PER_TOKEN_LIMIT * self.max_length
        first = [clip_text(t, limit) for t in first]
        second = None if second is None else [clip_text(t, limit) for t in second]
        pairs = [first] if second is None else [first, second]
        truncation = True if second is None else "longest_first"
        encoded = self.tokenize(*pairs, truncation=truncation, max_length=self.max_length)
        order = np.argsort([-len(ids) for ids in encoded["input_ids"]], kind="stable")
        batches = [order[start : start + self.batch_size] for start in range(0, len(order), self.batch_size)]
        pad_id = self.tokenizer.pad_token_id or 0

        def run(idx: np.ndarray) -> torch.Tensor:
            return self._forward(collate(encoded, idx, pad_id, self.device))

        done = 0
        with batch_parallel(self.device, len(batches)) as mapper:
            for idx, pooled in zip(batches, mapper(run, batches)):
                done += len(idx)
                if progress:
                    progress(done, len(order))
                yield idx, pooled

    def encode(
        self, items: Sequence[Paper] | Sequence[tuple[str, str]], progress: Progress | None = None,
        normalize: bool = True,
    ) -> np.ndarray:
        """Embed papers in input order: float32 [n, d], L2-normalised unless asked otherwise."""
        titles, abstracts = pairs_of(items)
        return self._encode(titles, abstracts, progress, normalize)

    def encode_texts(self, texts: Sequence[str], progress: Progress | None = None,
                     normalize: bool = True) -> np.ndarray:
        """Embed single texts (no title/abstract pair) in input order, as sentence-transformers does."""
        return self._encode([t or "" for t in texts], None, progress, normalize)

    def _encode(self, first: list[str], second: list[str] | None, progress: Progress | None,
                normalize: bool) -> np.ndarray:
        import torch

        out = np.zeros((len(first), self.dim), dtype=np.float32)
        if not first:
            return out
        for idx, pooled in self._pooled_batches(first, second, progress):
            if normalize:
                pooled = torch.nn.functional.normalize(pooled, dim=-1)
            out[idx] = pooled.cpu().numpy()
        return out

    def predict(self, items: Sequence[Paper] | Sequence[tuple[str, str]]) -> np.ndarray:
        """Class probabilities [n, classes] from the trained head (ModelError-free: call only if has head)."""
        import torch

        if self.head is None:
            raise ValueError("this model has no journal head")
        titles, abstracts = pairs_of(items)
        out = np.zeros((len(titles), len(self.spec.labels)), dtype=np.float32)
        for idx, pooled in self._pooled_batches(titles, abstracts, None):
            with torch.inference_mode():
                if self.head_unit_input:
                    pooled = torch.nn.functional.normalize(pooled, dim=-1)
                out[idx] = torch.softmax(self.head(pooled), dim=-1).cpu().numpy()
        return out


_ENCODERS: dict[tuple, Encoder] = {}


def get_encoder(spec: ModelSpec, device: str = "auto", batch_size: int = 32, fast: bool | None = None) -> Encoder:
    """A process-wide cached Encoder per (model fingerprint, device, fast mode)."""
    key = (fingerprint(spec), spec.name, device, fast_setting() if fast is None else fast)
    if key not in _ENCODERS:
        _ENCODERS[key] = Encoder(spec, device=device, batch_size=batch_size, fast=fast)
    encoder = _ENCODERS[key]
    encoder.batch_size = batch_size
    return encoder


@dataclass
class EmbedReport:
    """What `embed_corpus` did."""

    corpus: str
    model: str
    new: int
    cached: int
    total: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {"corpus": self.corpus, "model": self.model, "new": self.new, "cached": self.cached,
                "total": self.total, "seconds": round(self.seconds, 3)}


def embed_corpus(
    store: Store, corpus: str, model: str | ModelSpec = "minilm", *, device: str = "auto",
    batch_size: int | None = None, progress: Progress | None = None, encoder: Encoder | None = None,
    fast: bool | None = None, only: Collection[str] | None = None, work: Callable[[float, float], None] | None = None,
) -> EmbedReport:
    """Embed the corpus papers that have no cached vector for this model (and mode); saves every CHUNK papers.
    Without a batch size, `default_batch_size` of the device. `only`: text hashes to embed, the rest left alone (an
    evaluation's sample). `work(done, total)`: the same progress in units of work for an ETA (padded tokens: each
    paper's tokens, known before the run (`tokens.token_estimates`), in the encoder's longest-first batches, each
    padded to its longest paper), first called once the model is loaded."""
    started = time.perf_counter()
    spec = model if isinstance(model, ModelSpec) else get_model(model, store)
    info = store.corpus(corpus)
    fp = encoder.fingerprint if encoder is not None else vectors_fingerprint(spec, fast, device)
    missing = set(store.missing_hashes(corpus, fp))
    if only is not None:
        missing &= set(only)
    total = info.papers
    if missing:
        encoder = encoder or get_encoder(spec, device=device, batch_size=batch_size or default_batch_size(device),
                                         fast=fast)
        todo = [p for p in _unique_by_hash(store.papers(corpus)) if p.hash in missing]
        sizes = token_estimates(todo, encoder) if work else np.zeros(len(todo))
        batch = int(getattr(encoder, "batch_size", 32) or 32)
        chunks = [padded_work(sizes[start : start + CHUNK], batch) for start in range(0, len(todo), CHUNK)]
        total_work = float(sum(c[-1] for c in chunks))
        if work:
            work(0.0, total_work)
        done_before, work_before = 0, 0.0
        for start, ordered in zip(range(0, len(todo), CHUNK), chunks):
            part = todo[start : start + CHUNK]

            def report(done: int, _n: int, base: int = done_before, wbase: float = work_before,
                       ordered: np.ndarray = ordered) -> None:
                if work and done:  # first: a progress line drawn now reads the ETA with this batch in it
                    work(wbase + float(ordered[min(done, len(ordered)) - 1]), total_work)
                if progress:
                    progress(base + done, len(todo))

            vectors = encoder.encode(part, progress=report)
            store.add_embeddings(fp, [p.hash for p in part], vectors)
            done_before += len(part)
            work_before += float(ordered[-1])
    elif progress:
        progress(0, 0)
    new = len(missing)
    return EmbedReport(corpus, spec.name, new, total - new, total, time.perf_counter() - started)


def _unique_by_hash(papers: list[Paper]) -> list[Paper]:
    seen: set[str] = set()
    out = []
    for paper in papers:
        if paper.hash not in seen:
            seen.add(paper.hash)
            out.append(paper)
    return out


def model_names_by_vectors_fingerprint(specs: Sequence[ModelSpec]) -> dict[str, str]:
    """Model name per vectors fingerprint, the exact one and each fast mode's (named 'model (bf16)')."""
    names: dict[str, str] = {}
    for spec in specs:
        exact = fingerprint(spec)
        names.update({fast_fingerprint(exact, kind): f"{spec.name} ({kind})" for kind in KINDS})
        names[exact] = spec.name
    return names


def corpus_embeddings(store: Store, corpus: str, model: str | ModelSpec, fast: bool | None = None) -> np.ndarray:
    """The stored embedding matrix of a corpus for a model (corpus order), in the exact or fast mode's cache."""
    spec = model if isinstance(model, ModelSpec) else get_model(model, store)
    return store.embeddings(corpus, vectors_fingerprint(spec, fast))
