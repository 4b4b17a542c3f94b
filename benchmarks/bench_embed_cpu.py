"""Benchmark 1: CPU embedding, core's Encoder (exact and fast) vs sentence-transformers' encode.

Fair input: sentence-transformers embeds one string per paper, so both get the identical single text
`title + ". " + abstract`, the same 256-token limit and batch size 32 (`Encoder.encode_texts`). The app's
own path (title/abstract as a token pair, `Encoder.encode`) is timed beside it for information. The 2,000
abstracts are split into blocks; every block is embedded by each contender in a rotating order, so machine
load hits all of them alike. Quality of the fast mode: cosine to exact per paper, and top-10 neighbour
overlap with exact on a 10k-paper corpus (vectors cached in benchmarks/out/ for the search and map benchmarks).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from common import arxiv, interleave, median, percentile, report, row
from vectors import real_vectors

MAX_LENGTH = 256
BATCH = 32


def top10(vectors: np.ndarray, k: int = 10) -> np.ndarray:
    """Each row's k nearest other rows by inner product."""
    from core.explore import exact_topk

    out = []
    for start in range(0, len(vectors), 500):
        _, idx = exact_topk(vectors, vectors[start : start + 500], k + 1)
        rows = np.arange(start, start + len(idx))
        out.append(np.stack([[j for j in found if j != r][:k] for found, r in zip(idx, rows)]))
    return np.concatenate(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=2000)
    parser.add_argument("--blocks", type=int, default=10)
    parser.add_argument("--overlap-papers", type=int, default=10_000)
    parser.add_argument("--single-reps", type=int, default=30)
    args = parser.parse_args()

    import torch
    from sentence_transformers import SentenceTransformer

    from core.embedding import Encoder, cpu_supports_bf16, get_model

    spec = get_model("minilm")
    records = arxiv(args.papers)
    texts = [f"{r['title']}. {r['abstract']}" for r in records]
    pairs = [(r["title"], r["abstract"]) for r in records]
    st = SentenceTransformer(spec.location, device="cpu")
    st.max_seq_length = MAX_LENGTH
    exact = Encoder(spec, device="cpu", batch_size=BATCH, max_length=MAX_LENGTH, fast=False)
    fast = Encoder(spec, device="cpu", batch_size=BATCH, max_length=MAX_LENGTH, fast=True)

    def st_encode(items: list[str]) -> np.ndarray:
        return st.encode(items, batch_size=BATCH, normalize_embeddings=True, show_progress_bar=False)

    st_encode(texts[:8]), exact.encode_texts(texts[:8]), fast.encode_texts(texts[:8])
    totals = {"st": 0.0, "exact": 0.0, "fast": 0.0, "exact_pairs": 0.0, "fast_pairs": 0.0}
    ratios: dict[str, list[float]] = {"exact": [], "fast": [], "exact_pairs": [], "fast_pairs": []}
    outputs: dict[str, list[np.ndarray]] = {"st": [], "exact": [], "fast": []}
    bounds = np.linspace(0, len(texts), args.blocks + 1).astype(int)
    for b, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:])):
        block, block_pairs = texts[lo:hi], pairs[lo:hi]
        cases = {
            "st": lambda: outputs["st"].append(st_encode(block)),
            "exact": lambda: outputs["exact"].append(exact.encode_texts(block)),
            "fast": lambda: outputs["fast"].append(fast.encode_texts(block)),
            "exact_pairs": lambda: exact.encode(block_pairs),
            "fast_pairs": lambda: fast.encode(block_pairs),
        }
        names = list(cases)
        order = names[b % len(names):] + names[: b % len(names)]
        times = interleave({n: cases[n] for n in order}, 1)
        for name, t in times.items():
            totals[name] += t[0]
        for name in ratios:
            ratios[name].append(times["st"][0] / times[name][0])
        print(f"block {b}: " + ", ".join(f"{n} {t[0]:.1f}s" for n, t in times.items()), flush=True)
    vec = {name: np.concatenate(parts) for name, parts in outputs.items()}
    cos_exact = np.sum(vec["exact"] * vec["st"], axis=1)
    cos_fast = np.sum(vec["fast"] * vec["exact"], axis=1)
    n = len(texts)

    one = pairs[len(pairs) // 2]
    one_text = texts[len(texts) // 2]
    single = interleave({
        "st": lambda: st_encode([one_text]),
        "exact": lambda: exact.encode([one]),
        "fast": lambda: fast.encode([one]),
    }, args.single_reps)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    single_1t = interleave({
        "st": lambda: st_encode([one_text]),
        "exact": lambda: exact.encode([one]),
        "fast": lambda: fast.encode([one]),
    }, args.single_reps)
    cpu_single = {}
    for name, enc in (("exact", exact), ("fast", fast)):
        start = time.process_time()
        for _ in range(5):
            enc.encode([one])
        cpu_single[name] = (time.process_time() - start) / 5
    torch.set_num_threads(threads)

    overlap_n = args.overlap_papers
    exact_vectors = real_vectors(overlap_n, "exact")
    fast_vectors = real_vectors(overlap_n, fast.fast)
    truth, approx = top10(exact_vectors), top10(fast_vectors)
    overlap = float(np.mean([len(set(a) & set(t)) / 10 for a, t in zip(approx, truth)]))
    cos_corpus = np.sum(exact_vectors * fast_vectors, axis=1)

    rows = [
        row(f"{n:,} abstracts, exact (same single text as ST)", totals["exact"], totals["st"], "s",
            f"median per-block speed-up {median(ratios['exact']):.2f}x"),
        row(f"{n:,} abstracts, fast mode ({fast.fast})", totals["fast"], totals["st"], "s",
            f"median per-block speed-up {median(ratios['fast']):.2f}x"),
        row(f"{n:,} abstracts, exact, title/abstract pair (app path)", totals["exact_pairs"], totals["st"], "s",
            f"median per-block speed-up {median(ratios['exact_pairs']):.2f}x"),
        row(f"{n:,} abstracts, fast, title/abstract pair (app path)", totals["fast_pairs"], totals["st"], "s",
            f"median per-block speed-up {median(ratios['fast_pairs']):.2f}x"),
        row("exact: abstracts/s", n / totals["exact"], n / totals["st"], "/s", higher_is_better=True),
        row("fast: abstracts/s", n / totals["fast"], n / totals["st"], "/s", higher_is_better=True),
        row("exact vs ST: min cosine per paper", float(cos_exact.min()), None, "", "bar: >= 0.9999"),
        row(f"fast vs exact: min cosine per paper ({n:,})", float(cos_fast.min()), None, ""),
        row(f"fast vs exact: min cosine per paper ({overlap_n:,})", float(cos_corpus.min()), None, ""),
        row(f"fast vs exact: top-10 neighbour overlap ({overlap_n:,} papers)", overlap, None, "",
            "bar for default use: >= 0.9"),
        row("one abstract, exact: p50 latency", median(single["exact"]) * 1000, median(single["st"]) * 1000, "ms",
            f"{threads} threads; p95 {percentile(single['exact'], 95) * 1000:.0f} ms; target < 50 ms"),
        row("one abstract, fast: p50 latency", median(single["fast"]) * 1000, median(single["st"]) * 1000, "ms",
            f"{threads} threads; p95 {percentile(single['fast'], 95) * 1000:.0f} ms"),
        row("one abstract, exact, 1 thread: p50 latency", median(single_1t["exact"]) * 1000,
            median(single_1t["st"]) * 1000, "ms", f"min {min(single_1t['exact']) * 1000:.0f} ms; "
            f"CPU time {cpu_single['exact'] * 1000:.0f} ms"),
        row("one abstract, fast, 1 thread: p50 latency", median(single_1t["fast"]) * 1000,
            median(single_1t["st"]) * 1000, "ms", f"min {min(single_1t['fast']) * 1000:.0f} ms; "
            f"CPU time {cpu_single['fast'] * 1000:.0f} ms"),
    ]
    report("embed_cpu", rows, {
        "papers": n, "blocks": args.blocks, "max_length": MAX_LENGTH, "batch_size": BATCH,
        "fast_mode": fast.fast, "cpu_bf16": cpu_supports_bf16(), "threads": threads,
        "block_ratios": ratios, "overlap_papers": overlap_n,
        "papers_per_hour_exact": 3600 * n / totals["exact_pairs"], "papers_per_hour_fast": 3600 * n / totals["fast_pairs"],
    })


if __name__ == "__main__":
    main()
