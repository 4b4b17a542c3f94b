"""BERT-base size on a GPU: which way of running it gets past 50 % of the bf16 ceiling (shared/GPU.md item 2).

Same inputs and FLOP count as bench_embed_gpu.py (real arXiv title/abstract pairs, 256 tokens, a BERT-base-sized
model with random weights, mean pooling), one variant at a time, the variants alternating round by round:

- `autocast` (baseline, what core does on CUDA today): fp32 weights, bf16 autocast, SDPA attention;
- `bf16 weights`: the model cast to bfloat16 (no autocast casts around layer norms and GELU);
- `bf16 weights, eager attention`: the same with transformers' eager attention (what SDPA is worth);
- `bf16 weights, no mask (flash)`: SDPA restricted to its flash kernel, which takes no padding mask, so the
  inputs are papers cut to a full 256 tokens (throughput of the kernel; vectors checked on full papers only);
- `bf16 weights + torch.compile`: the bf16 model through `torch.compile` (compile time reported apart);
- `bf16 weights, length buckets`: papers sorted by length and each batch padded to its own longest paper (a
  multiple of 8); papers/s is what the product would see, and the share of the ceiling counts the FLOPs of the
  padded batches actually run.

Each variant's vectors are compared with fp32 (no autocast, TF32 off) on the same papers: the minimum and mean
cosine (the goal is >= 0.999). Also for the packaged MiniLM (real weights): bf16 weights vs fp32 cosines.

    python3 benchmarks/bench_bert_variants.py --papers 4096 --batches 256,512
    python benchmarks/bench_bert_variants.py --smoke          # a tiny BERT on the CPU: checks the script
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_embed_gpu import NOMINAL_BF16_TFLOPS, TOKENS, flops_per_paper, matmul_ceiling
from common import arxiv, median, report, row

VARIANTS = ("autocast", "bf16 weights", "bf16 weights, eager attention", "bf16 weights, no mask (flash)",
            "bf16 weights + torch.compile", "bf16 weights, length buckets")


def batch_flops(model, size: int, length: int) -> float:
    """Forward FLOPs of a batch of `size` papers padded to `length` tokens."""
    config = model.config
    embedding = sum(p.numel() for n, p in model.named_parameters() if "embeddings" in n)
    dense = sum(p.numel() for p in model.parameters()) - embedding
    return size * (2.0 * dense * length + 4.0 * config.num_hidden_layers * length**2 * config.hidden_size)


def cosines(a, b) -> tuple[float, float, float]:
    """Minimum and mean cosine between matching rows of two vector sets, and the minimum once both are centred on
    the reference's mean (a random-weight model maps every paper near one direction, so raw cosines flatter it)."""
    import torch

    a, b = a.float(), b.float()
    cos = torch.nn.functional.cosine_similarity(a, b, dim=1)
    centre = b.mean(0, keepdim=True)
    centred = torch.nn.functional.cosine_similarity(a - centre, b - centre, dim=1)
    return float(cos.min()), float(cos.mean()), float(centred.min())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=4096)
    parser.add_argument("--batches", default="256,512")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variants", default=";".join(VARIANTS), help="variants to run, separated by ;")
    parser.add_argument("--smoke", action="store_true", help="a tiny BERT on the CPU with 32 papers")
    args = parser.parse_args()

    import torch
    from transformers import AutoModel, AutoTokenizer, BertConfig, BertModel

    from core.embedding import get_model, pool

    device = "cuda" if torch.cuda.is_available() else "cpu"
    batches = [int(b) for b in args.batches.split(",") if b.strip()]
    wanted = [v.strip() for v in args.variants.split(";") if v.strip()]
    if args.smoke:
        device, args.papers, batches, args.rounds = "cpu", 32, [8, 16], 1
        wanted = [v for v in wanted if v != "bf16 weights, no mask (flash)"]
    elif device == "cpu":
        report("bert_variants", [row("BERT variants", None, None, "", "not measured: no GPU in this session")],
               {"status": "not measured: no GPU in this session"})
        return
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    spec = get_model("minilm")
    tokenizer = AutoTokenizer.from_pretrained(spec.location)
    records = arxiv(args.papers)
    titles, abstracts = [r["title"] for r in records], [r["abstract"] for r in records]
    fixed = tokenizer(titles, abstracts, truncation="longest_first", max_length=TOKENS, padding="max_length",
                      return_tensors="pt")
    lengths = fixed["attention_mask"].sum(1)
    full = (lengths == TOKENS).nonzero().flatten()  # papers that fill all 256 tokens: the flash variant's check
    fixed = {k: v.to(device) for k, v in fixed.items()}
    order = torch.argsort(lengths, descending=True).tolist()
    ragged = tokenizer([titles[i] for i in order], [abstracts[i] for i in order], truncation="longest_first",
                       max_length=TOKENS)

    def bucket(batch: int) -> list[dict]:
        """Batches of papers sorted by length, each padded to its own longest paper (a multiple of 8)."""
        out = []
        for s in range(0, len(order), batch):
            part = tokenizer.pad({k: v[s : s + batch] for k, v in ragged.items()}, padding="longest",
                                 pad_to_multiple_of=8, return_tensors="pt")
            out.append({k: v.to(device) for k, v in part.items()})
        return out

    with tempfile.TemporaryDirectory() as tmp:
        config = BertConfig(vocab_size=tokenizer.vocab_size) if not args.smoke else BertConfig(
            vocab_size=tokenizer.vocab_size, hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
            intermediate_size=128)
        torch.manual_seed(0)
        BertModel(config).save_pretrained(Path(tmp))
        fp32 = AutoModel.from_pretrained(tmp, dtype=torch.float32, attn_implementation="sdpa").to(device).eval()
        bf16 = AutoModel.from_pretrained(tmp, dtype=torch.bfloat16, attn_implementation="sdpa").to(device).eval()
        eager = AutoModel.from_pretrained(tmp, dtype=torch.bfloat16, attn_implementation="eager").to(device).eval()
    per_paper = flops_per_paper(fp32)
    ceiling = matmul_ceiling(device)
    name_of_device = torch.cuda.get_device_name(0) if device == "cuda" else "CPU (smoke test)"
    autocast = (lambda: torch.autocast("cuda", dtype=torch.bfloat16)) if device == "cuda" else (
        lambda: torch.autocast("cpu", dtype=torch.bfloat16))

    def flash():
        from torch.nn.attention import SDPBackend, sdpa_kernel

        return sdpa_kernel(SDPBackend.FLASH_ATTENTION)

    from contextlib import nullcontext

    compiled, compile_s = None, None
    if "bf16 weights + torch.compile" in wanted:
        start = time.perf_counter()
        compiled = torch.compile(bf16)
        try:
            with torch.inference_mode():
                for batch in batches:
                    part = {k: v[:batch] for k, v in fixed.items()}
                    compiled(**part)
            sync()
            compile_s = time.perf_counter() - start
        except Exception as error:  # noqa: BLE001 -- a variant that fails is reported, the others still run
            print("torch.compile failed:", repr(error)[:300])
            wanted.remove("bf16 weights + torch.compile")

    # What each variant runs: (model, context, inputs as a function of the batch size).
    def plain(batch: int) -> list[dict]:
        return [{k: v[s : s + batch] for k, v in fixed.items()} for s in range(0, args.papers, batch)]

    def unmasked(batch: int) -> list[dict]:
        return [{"input_ids": fixed["input_ids"][s : s + batch],
                 "token_type_ids": fixed["token_type_ids"][s : s + batch]} for s in range(0, args.papers, batch)]

    setup: dict[str, tuple[object, Callable, Callable[[int], list[dict]]]] = {
        "autocast": (fp32, autocast, plain),
        "bf16 weights": (bf16, nullcontext, plain),
        "bf16 weights, eager attention": (eager, nullcontext, plain),
        "bf16 weights, no mask (flash)": (bf16, flash, unmasked),
        "bf16 weights + torch.compile": (compiled, nullcontext, plain),
        "bf16 weights, length buckets": (bf16, nullcontext, bucket),
    }
    setup = {k: v for k, v in setup.items() if k in wanted}

    def vectors(model, context, parts: list[dict]) -> torch.Tensor:
        out = []
        with torch.inference_mode(), context():
            for part in parts:
                hidden = model(**part).last_hidden_state.float()
                mask = part.get("attention_mask", torch.ones_like(part["input_ids"]))
                out.append(pool(hidden, mask, "mean"))
        sync()
        return torch.cat(out)

    # The reference: fp32 weights, no autocast, TF32 off, fixed 256-token padding.
    reference = vectors(fp32, nullcontext, plain(batches[0]))
    unbucket = torch.empty(len(order), dtype=torch.long)
    unbucket[torch.tensor(order)] = torch.arange(len(order))
    checks = {}
    for name, (model, context, inputs) in setup.items():
        got = vectors(model, context, inputs(batches[0]))
        if name == "bf16 weights, length buckets":
            got = got[unbucket]
        rows_checked = full.to(got.device) if name == "bf16 weights, no mask (flash)" else slice(None)
        checks[name] = cosines(got[rows_checked], reference[rows_checked.to(reference.device)
                                                            if not isinstance(rows_checked, slice) else rows_checked])
        print(f"{name}: cosine with fp32 min {checks[name][0]:.5f} mean {checks[name][1]:.5f}, centred min "
              f"{checks[name][2]:.5f}", flush=True)

    rows, details = [], []
    for batch in batches:
        prepared = {name: inputs(batch) for name, (_, _, inputs) in setup.items()}
        flops = {name: sum(batch_flops(fp32, len(p["input_ids"]), p["input_ids"].shape[1]) for p in parts)
                 for name, parts in prepared.items()}

        def run(name: str) -> float:
            model, context, _ = setup[name]
            sync()
            start = time.perf_counter()
            with torch.inference_mode(), context():
                for part in prepared[name]:
                    hidden = model(**part).last_hidden_state.float()
                    pool(hidden, part.get("attention_mask", torch.ones_like(part["input_ids"])), "mean")
            sync()
            return time.perf_counter() - start

        for name in setup:
            run(name)  # warm-up
        seconds: dict[str, list[float]] = {name: [] for name in setup}
        names = list(setup)
        for r in range(args.rounds):
            for name in names if r % 2 == 0 else names[::-1]:
                seconds[name].append(run(name))
        base_rate = args.papers / median(seconds["autocast"]) if "autocast" in seconds else None
        for name in setup:
            rate = args.papers / median(seconds[name])
            tflops = flops[name] / median(seconds[name]) / 1e12
            share = 100 * tflops / ceiling if ceiling else None
            note = (f"{tflops:.1f} TFLOP/s" + (f" = {share:.1f} % of the measured {ceiling:.0f}" if ceiling else "")
                    + f"; cosine with fp32 min {checks[name][0]:.5f} (centred {checks[name][2]:.5f}); {name_of_device}")
            rows.append(row(f"BERT-base size, {name}, batch {batch}: papers/s", rate, base_rate, "/s", note,
                            higher_is_better=True))
            details.append({"variant": name, "batch": batch, "seconds": seconds[name], "papers_per_s": rate,
                            "tflops": tflops, "share_of_measured_ceiling": share,
                            "share_of_nominal_ceiling": 100 * tflops / NOMINAL_BF16_TFLOPS,
                            "flop_per_paper_fixed_256": per_paper,
                            "cosine_min": checks[name][0], "cosine_mean": checks[name][1],
                            "centred_cosine_min": checks[name][2]})
            print(f"batch {batch} {name}: {rate:,.0f} papers/s, {tflops:.1f} TFLOP/s"
                  + (f" ({share:.1f} %)" if share else ""), flush=True)

    # The packaged MiniLM with real weights: do bf16 weights keep its vectors?
    minilm32 = AutoModel.from_pretrained(spec.location, dtype=torch.float32).to(device).eval()
    minilm16 = AutoModel.from_pretrained(spec.location, dtype=torch.bfloat16).to(device).eval()
    mini_ref = vectors(minilm32, nullcontext, plain(batches[0]))
    mini_auto = vectors(minilm32, autocast, plain(batches[0]))
    mini_bf16 = vectors(minilm16, nullcontext, plain(batches[0]))
    minilm = {"autocast": cosines(mini_auto, mini_ref), "bf16 weights": cosines(mini_bf16, mini_ref)}
    print("MiniLM cosines with fp32:", minilm, flush=True)
    report("bert_variants_smoke" if args.smoke else "bert_variants", rows,
           {"device": name_of_device, "tokens": TOKENS, "papers": args.papers, "matmul_ceiling_tflops": ceiling,
            "compile_seconds": compile_s, "papers_filling_256_tokens": int(len(full)), "details": details,
            "minilm_cosines": minilm})


if __name__ == "__main__":
    main()
