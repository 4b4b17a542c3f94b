"""Tokenising many papers at once on all cores, and padding a batch of them into tensors.

Measured on an H200 (BENCHMARKS.md §2b): embedding 100k papers spent 49 of its 68 s in one-thread tokenisation
(the project sets TOKENIZERS_PARALLELISM=false, so the fast tokenizer's own thread pool stays off: it is not safe
across the forks of Streamlit, Ray and DataLoaders) and 7 s padding batches row by row. Here the texts are cut
into slices that Python threads tokenise side by side (the Rust tokenizer releases the GIL), each thread with its
own copy of the tokenizer (a fast tokenizer borrowed by two threads at once can fail with "Already borrowed"), and
a batch is padded with one numpy mask assignment per column. The result is the same as one tokenizer call.
"""

from __future__ import annotations

import copy
import os
import queue
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import torch

SLICE = 256  # at most this many texts per tokenizer call in a thread
MIN_SLICE = 16  # at least this many: a call costs ~0.1 ms on its own
COLUMNS = ("input_ids", "token_type_ids", "attention_mask")


class ParallelTokenizer:
    """`tokenizer(first, second, ...)` as one call would give it, computed by several threads for long lists."""

    def __init__(self, tokenizer: Any, workers: int | None = None):
        self.tokenizer = tokenizer
        self.workers = max(1, workers or os.cpu_count() or 1)
        self._copies: queue.SimpleQueue = queue.SimpleQueue()  # tokenizer copies not in use by a thread

    def _borrow(self) -> Any:
        try:
            return self._copies.get_nowait()
        except queue.Empty:
            return copy.deepcopy(self.tokenizer)

    def __call__(self, first: Sequence[str], second: Sequence[str] | None = None, **options: Any) -> dict[str, list]:
        """input_ids / token_type_ids / attention_mask lists (those the tokenizer gives) for every text, in order."""
        n = len(first)
        if not n:
            return {}  # the tokenizer itself fails on no texts
        size = min(SLICE, max(MIN_SLICE, -(-n // self.workers)))  # `embed` hands 512 papers: 32 each on 16 cores
        slices = [(start, min(n, start + size)) for start in range(0, n, size)]
        workers = min(self.workers, len(slices))
        if workers < 2:
            return _columns(self.tokenizer(*_texts(first, second, 0, n), **options))

        def run(bounds: tuple[int, int]) -> dict[str, list]:
            tokenizer = self._borrow()
            try:
                return _columns(tokenizer(*_texts(first, second, *bounds), **options))
            finally:
                self._copies.put(tokenizer)

        with ThreadPoolExecutor(workers, thread_name_prefix="tokenize") as pool:
            parts = list(pool.map(run, slices))
        return {key: list(chain.from_iterable(part[key] for part in parts)) for key in parts[0]}


def _texts(first: Sequence[str], second: Sequence[str] | None, start: int, stop: int) -> list[list[str]]:
    texts = [list(first[start:stop])]
    if second is not None:
        texts.append(list(second[start:stop]))
    return texts


def _columns(encoded: Any) -> dict[str, list]:
    return {key: encoded[key] for key in COLUMNS if key in encoded}


def collate(encoded: dict[str, list], idx: Sequence[int], pad_id: int, device: str) -> dict[str, torch.Tensor]:
    """Right-pad pre-tokenised examples to the longest in the batch: [len(idx), longest] int64 tensors."""
    import torch

    ids = encoded["input_ids"]
    lengths = np.fromiter((len(ids[i]) for i in idx), dtype=np.int64, count=len(idx))
    width = int(lengths.max()) if len(idx) else 0
    filled = np.arange(width) < lengths[:, None]
    batch = {}
    for key, values in encoded.items():
        out = np.full((len(idx), width), pad_id if key == "input_ids" else 0, dtype=np.int64)
        out[filled] = np.fromiter(chain.from_iterable(values[i] for i in idx), dtype=np.int64,
                                  count=int(lengths.sum()))
        batch[key] = torch.from_numpy(out).to(device)
    return batch


SAMPLE = 256  # papers tokenised to learn the corpus's characters per token (an ETA's work units)
CHARS_PER_TOKEN = 4.0  # without a tokenizer to ask: English text in WordPiece


def token_estimates(papers: Sequence[Any], encoder: Any) -> np.ndarray:
    """Each paper's tokens as the encoder will read them, known before the run: its characters over the corpus's
    characters per token (from the encoder's own tokenizer on an even sample of SAMPLE papers), plus the special
    tokens, capped at the encoder's max length (the rest is cut off and costs nothing)."""
    chars = np.array([len(p.title or "") + len(p.abstract or "") for p in papers], dtype=np.float64)
    per_token = CHARS_PER_TOKEN
    tokenizer = getattr(encoder, "tokenizer", None)
    if tokenizer is not None and len(papers):
        picked = [papers[i] for i in np.linspace(0, len(papers) - 1, min(SAMPLE, len(papers))).astype(int)]
        texts = [f"{p.title or ''} {p.abstract or ''}"[:20_000] for p in picked]
        counts = sum(len(ids) for ids in tokenizer(texts, add_special_tokens=False, verbose=False)["input_ids"])
        per_token = max(1.0, sum(len(t) for t in texts) / max(1, counts))
    return np.minimum(float(encoder.max_length), chars / per_token + 3.0)


def padded_work(sizes: np.ndarray, batch_size: int) -> np.ndarray:
    """The work done after each paper of one encode call, in padded tokens: the encoder goes longest first in batches
    of `batch_size`, each padded to its longest paper, so each paper costs its batch's first size."""
    ordered = np.sort(np.asarray(sizes, dtype=np.float64))[::-1]
    heads = ordered[(np.arange(len(ordered)) // max(1, batch_size)) * max(1, batch_size)]
    return np.cumsum(heads)
