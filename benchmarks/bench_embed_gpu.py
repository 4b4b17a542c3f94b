"""Benchmark 2: GPU embedding, abstracts/s at 256 tokens, bf16 autocast (core's default on CUDA) vs float32.

Models: the packaged MiniLM (22.7M parameters) and a BERT-base-sized model (110M, random weights from
BertConfig(), mean pooling: the throughput of SciBERT/MIReAD/mpnet-sized encoders without downloading them).
Inputs: real arXiv title/abstract pairs, padded/truncated to exactly 256 tokens so every batch costs the same.
Each batch size in `--batches` is measured in both modes, the two modes alternating round by round; the
forward pass goes through core's own `autocast_context` and `pool`, as `embed` does.

The bf16 rows also say which fraction of the bf16 matrix ceiling they reach: the model's FLOPs per paper
(2 x non-embedding parameters x tokens, plus 4 x layers x tokens^2 x width for attention's two products) times
papers/s, against (a) a bf16 8192^3 matrix product measured in the same run and (b) the nominal 790 TFLOP/s.
Without CUDA it records 'not measured'; `--smoke` runs the same code on the CPU with a few papers.

    python benchmarks/bench_embed_gpu.py --batches 64,128,256,512
"""

from __future__ import annotations

import argparse
import tempfile
import time
from contextlib import nullcontext
from pathlib import Path

from common import arxiv, median, report, row

TOKENS = 256
NOMINAL_BF16_TFLOPS = 790.0  # H100/H200 dense bf16, as measured on random data here (device KINDS.md)


def flops_per_paper(model, tokens: int = TOKENS) -> float:
    """Forward FLOPs of one padded paper: the dense layers and attention's QK^T and AV products."""
    config = model.config
    embedding = sum(p.numel() for n, p in model.named_parameters() if "embeddings" in n)
    dense = sum(p.numel() for p in model.parameters()) - embedding
    return 2.0 * dense * tokens + 4.0 * config.num_hidden_layers * tokens**2 * config.hidden_size


def matmul_ceiling(device: str, size: int = 8192, reps: int = 10) -> float | None:
    """TFLOP/s of a bf16 size^3 matrix product on this GPU (the mean of `reps` after three warm-ups)."""
    import torch

    if not device.startswith("cuda"):
        return None
    a = torch.randn(size, size, device=device, dtype=torch.bfloat16)
    b = torch.randn(size, size, device=device, dtype=torch.bfloat16)
    for _ in range(3):
        a @ b
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(reps):
        a @ b
    torch.cuda.synchronize()
    return 2.0 * size**3 * reps / (time.perf_counter() - start) / 1e12


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=4096)
    parser.add_argument("--batches", default="64,128,256,512", help="batch sizes to measure, comma-separated")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="run on the CPU with 16 papers (checks the script)")
    args = parser.parse_args()

    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"
    batches = [int(b) for b in args.batches.split(",") if b.strip()]
    if args.smoke:
        device, args.papers, batches, args.rounds = "cpu", 16, [4, 8], 1
    if device == "cpu" and not args.smoke:
        report("embed_gpu", [row("GPU embedding", None, None, "", "not measured: no GPU in this session")],
               {"status": "not measured: no GPU in this session"})
        return
    from transformers import AutoModel, AutoTokenizer, BertConfig, BertModel

    from core.embedding import autocast_context, get_model, pool

    spec = get_model("minilm")
    tokenizer = AutoTokenizer.from_pretrained(spec.location)
    records = arxiv(args.papers)
    encoded = tokenizer([r["title"] for r in records], [r["abstract"] for r in records], truncation="longest_first",
                        max_length=TOKENS, padding="max_length", return_tensors="pt")
    encoded = {k: v.to(device) for k, v in encoded.items()}
    models = {"packaged MiniLM (22.7M)": AutoModel.from_pretrained(spec.location, dtype=torch.float32)}
    with tempfile.TemporaryDirectory() as tmp:
        BertModel(BertConfig(vocab_size=tokenizer.vocab_size)).save_pretrained(Path(tmp))
        models["BERT-base size (110M, random)"] = AutoModel.from_pretrained(tmp, dtype=torch.float32)
    name_of_device = torch.cuda.get_device_name(0) if device == "cuda" else "CPU (smoke test)"
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    ceiling = matmul_ceiling(device)
    modes = {"bf16 autocast": lambda: autocast_context(device) if device == "cuda"
             else torch.autocast("cpu", dtype=torch.bfloat16), "float32": nullcontext}
    rows, details = [], []
    for name, model in models.items():
        model = model.to(device).eval()
        per_paper = flops_per_paper(model)
        for batch in batches:
            def run(mode: str, batch: int = batch) -> float:
                sync()
                start = time.perf_counter()
                with torch.inference_mode(), modes[mode]():
                    for s in range(0, args.papers, batch):
                        part = {k: v[s : s + batch] for k, v in encoded.items()}
                        pool(model(**part).last_hidden_state.float(), part["attention_mask"], "mean")
                sync()
                return args.papers / (time.perf_counter() - start)

            run("bf16 autocast"), run("float32")  # warm-up: kernels chosen, memory pools filled
            rates: dict[str, list[float]] = {m: [] for m in modes}
            for r in range(args.rounds):
                for mode in list(modes) if r % 2 == 0 else list(modes)[::-1]:
                    rates[mode].append(run(mode))
            bf16, fp32 = median(rates["bf16 autocast"]), median(rates["float32"])
            tflops = bf16 * per_paper / 1e12
            share = f"{100 * tflops / ceiling:.1f} % of the measured {ceiling:.0f}" if ceiling else "-"
            rows.append(row(f"{name}, batch {batch}: abstracts/s at {TOKENS} tokens", bf16, fp32, "/s",
                            f"bf16 autocast vs float32; bf16 = {tflops:.1f} TFLOP/s = {share} and "
                            f"{100 * tflops / NOMINAL_BF16_TFLOPS:.1f} % of the nominal {NOMINAL_BF16_TFLOPS:.0f} "
                            f"TFLOP/s; {name_of_device}", higher_is_better=True))
            details.append({"model": name, "batch": batch, "bf16_per_s": rates["bf16 autocast"],
                            "fp32_per_s": rates["float32"], "gflop_per_paper": per_paper / 1e9,
                            "bf16_tflops": tflops,
                            "share_of_measured_ceiling": tflops / ceiling if ceiling else None,
                            "share_of_nominal_ceiling": tflops / NOMINAL_BF16_TFLOPS})
        model.cpu()
    report("embed_gpu_smoke" if args.smoke else "embed_gpu", rows,
           {"device": name_of_device, "tokens": TOKENS, "papers": args.papers, "matmul_ceiling_tflops": ceiling,
            "details": details})


if __name__ == "__main__":
    main()
