"""Tokenising and padding as `embed` does them (512 papers a call, batches of 32 over length-sorted papers): the
one-thread tokenizer call and row-by-row padding of before 2026-11-28 (baseline, copied here) against
`core.embedding.tokens` (threads of tokenizer copies, numpy padding). Same real arXiv papers, interleaved runs.

    python benchmarks/bench_tokens.py --papers 10000 --reps 3
"""

from __future__ import annotations

import argparse
import os

from common import arxiv, interleave, median, report, row

CHUNK, BATCH, LENGTH = 512, 32, 256


def row_by_row(encoded: dict, idx, pad_id: int):
    """The padding before 2026-11-28."""
    import torch

    width = max(len(encoded["input_ids"][i]) for i in idx)
    batch = {}
    for key, values in encoded.items():
        out = torch.full((len(idx), width), pad_id if key == "input_ids" else 0, dtype=torch.long)
        for r, i in enumerate(idx):
            out[r, : len(values[i])] = torch.tensor(values[i], dtype=torch.long)
        batch[key] = out
    return batch


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=10000)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    import numpy as np
    from transformers import AutoTokenizer

    from core.embedding import ParallelTokenizer, collate
    from core.embedding.models import packaged_model_path

    tokenizer = AutoTokenizer.from_pretrained(packaged_model_path())
    records = arxiv(args.papers)
    titles, abstracts = [r["title"] for r in records], [r["abstract"] for r in records]
    parallel = ParallelTokenizer(tokenizer)
    keys = ("input_ids", "token_type_ids", "attention_mask")

    def one_call(a: list[str], b: list[str]) -> dict:
        return {k: v for k, v in tokenizer(a, b, truncation="longest_first", max_length=LENGTH).items() if k in keys}

    def threads(a: list[str], b: list[str]) -> dict:
        return parallel(a, b, truncation="longest_first", max_length=LENGTH)

    chunks = [(titles[s : s + CHUNK], abstracts[s : s + CHUNK]) for s in range(0, len(titles), CHUNK)]
    encoded = [one_call(*chunk) for chunk in chunks]
    batches = [(e, order[s : s + BATCH]) for e in encoded
               for order in [np.argsort([-len(ids) for ids in e["input_ids"]], kind="stable")]
               for s in range(0, len(order), BATCH)]
    cases = {
        "tokenise before": lambda: [one_call(*chunk) for chunk in chunks],
        "tokenise now": lambda: [threads(*chunk) for chunk in chunks],
        "pad before": lambda: [row_by_row(e, i, 0) for e, i in batches],
        "pad now": lambda: [collate(e, i, 0, "cpu") for e, i in batches],
    }
    times = interleave(cases, args.reps)
    rows = [row(f"{stage} {args.papers:,} papers as embed does (s)", median(times[f"{stage} now"]),
                median(times[f"{stage} before"]), "s", f"{os.cpu_count()} cores; baseline: "
                + ("one tokenizer call per 512 papers" if stage == "tokenise" else "row-by-row torch padding"))
            for stage in ("tokenise", "pad")]
    report("tokens", rows, {"times": times})


if __name__ == "__main__":
    main()
