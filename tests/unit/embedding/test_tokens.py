"""Tokenising on several threads and padding with numpy give exactly what one tokenizer call and row-by-row
padding gave (the GPU run in BENCHMARKS.md §2b found both to be the bottleneck of `embed`)."""

from concurrent.futures import ThreadPoolExecutor

import pytest
import torch
from transformers import AutoTokenizer

from core.embedding import ParallelTokenizer, collate
from core.embedding.models import packaged_model_path
from core.embedding.tokens import SLICE


@pytest.fixture(scope="module")
def tokenizer():
    return AutoTokenizer.from_pretrained(packaged_model_path())


def texts(n: int) -> tuple[list[str], list[str]]:
    """Titles and abstracts of every awkward kind: empty, very long (truncated), accented, CJK, emoji."""
    titles = [f"Paper {i}: é ü 数据 🧬 " + "word " * (i % 7) for i in range(n)]
    abstracts = ["" if i % 11 == 0 else ("long " * 400 if i % 5 == 0 else f"An abstract about topic {i % 13}.")
                 for i in range(n)]
    return titles, abstracts


def reference(tokenizer, first, second=None, **options):
    encoded = tokenizer(first, second, **options) if second is not None else tokenizer(first, **options)
    return {k: encoded[k] for k in ("input_ids", "token_type_ids", "attention_mask") if k in encoded}


def test_pairs_on_threads_equal_one_call(tokenizer):
    titles, abstracts = texts(3 * SLICE + 17)  # several slices, the last one short
    options = dict(truncation="longest_first", max_length=64)
    got = ParallelTokenizer(tokenizer, workers=4)(titles, abstracts, **options)
    assert got == reference(tokenizer, titles, abstracts, **options)
    assert set(got) == {"input_ids", "token_type_ids", "attention_mask"}
    assert max(len(ids) for ids in got["input_ids"]) == 64  # the long abstracts were truncated


def test_single_texts_and_a_single_query_equal_one_call(tokenizer):
    titles, _ = texts(SLICE + 1)
    tokenize = ParallelTokenizer(tokenizer, workers=3)
    assert tokenize(titles, truncation=True, max_length=32) == reference(tokenizer, titles, truncation=True,
                                                                          max_length=32)
    assert tokenize(["one query"], ["its abstract"], truncation="longest_first", max_length=32) == reference(
        tokenizer, ["one query"], ["its abstract"], truncation="longest_first", max_length=32)
    assert tokenize([], [], truncation="longest_first", max_length=32) == {}


def test_two_threads_sharing_one_parallel_tokenizer_get_their_own_results(tokenizer):
    """Pages embed from background threads: two calls at once must neither fail nor mix their texts."""
    tokenize = ParallelTokenizer(tokenizer, workers=4)
    a, b = texts(2 * SLICE), texts(2 * SLICE + 5)
    b = ([t.upper() for t in b[0]], b[1])
    options = dict(truncation="longest_first", max_length=48)
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda pair: tokenize(*pair, **options), [a, b, a, b]))
    assert results[0] == results[2] == reference(tokenizer, *a, **options)
    assert results[1] == results[3] == reference(tokenizer, *b, **options)


def row_by_row(encoded, idx, pad_id):
    """The padding as it was written before (the oracle)."""
    width = max(len(encoded["input_ids"][i]) for i in idx)
    batch = {}
    for key, values in encoded.items():
        out = torch.full((len(idx), width), pad_id if key == "input_ids" else 0, dtype=torch.long)
        for row, i in enumerate(idx):
            out[row, : len(values[i])] = torch.tensor(values[i], dtype=torch.long)
        batch[key] = out
    return batch


@pytest.mark.parametrize("pad_id", [0, 7])
def test_collate_pads_like_row_by_row(tokenizer, pad_id):
    titles, abstracts = texts(40)
    encoded = reference(tokenizer, titles, abstracts, truncation="longest_first", max_length=80)
    for idx in ([0], [5, 3, 39, 0], list(range(40))[::-1], [11, 22]):
        got, want = collate(encoded, idx, pad_id, "cpu"), row_by_row(encoded, idx, pad_id)
        assert set(got) == set(want)
        for key in want:
            assert got[key].dtype == torch.long
            assert torch.equal(got[key], want[key]), key


class Counting:
    """A stand-in tokenizer that records how many texts each call got (shared by its copies)."""

    calls: list[int] = []

    def __call__(self, first, second=None, **options):
        Counting.calls.append(len(first))
        return {"input_ids": [[1, len(t)] for t in first], "attention_mask": [[1, 1] for _ in first]}


def test_a_chunk_of_512_papers_is_spread_over_every_worker():
    """`embed` hands the encoder 512 papers at a time: on 16 cores that is 16 calls of 32, not 2 of 256."""
    Counting.calls = []
    got = ParallelTokenizer(Counting(), workers=16)([f"t{i}" for i in range(512)], [""] * 512)
    assert sorted(Counting.calls) == [32] * 16
    assert got["input_ids"] == [[1, len(f"t{i}")] for i in range(512)]  # in input order
    Counting.calls = []
    ParallelTokenizer(Counting(), workers=16)(["a"] * 40)
    assert sorted(Counting.calls) == [8, 16, 16]  # never slices below 16 texts
