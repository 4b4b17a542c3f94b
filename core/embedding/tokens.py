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
