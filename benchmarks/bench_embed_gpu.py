"""Benchmark 2: GPU embedding, abstracts/s at 256 tokens, bf16 autocast (core's default on CUDA) vs float32.

Models: the packaged MiniLM (22.7M parameters) and a BERT-base-sized model (110M, random weights from
BertConfig(), mean pooling: the throughput of SciBERT/MIReAD-sized encoders without downloading them).
Inputs: 2,048 real arXiv title/abstract pairs, padded/truncated to exactly 256 tokens so every batch costs
the same. The two modes alternate round by round. Without CUDA it records 'not measured'; `--smoke` runs
the same code on the CPU with a few papers, to check the script itself.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from contextlib import nullcontext
from pathlib import Path

from common import arxiv, median, report, row

TOKENS = 256


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=2048)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="run on the CPU with 16 papers (checks the script)")
    args = parser.parse_args()

    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"
    if args.smoke:
        device, args.papers, args.batch, args.rounds = "cpu", 16, 8, 1
    if device == "cpu" and not args.smoke:
        report("embed_gpu", [row("GPU embedding", None, None, "", "not measured: no GPU in this session")],
               {"status": "not measured: no GPU in this session"})
        return
    from transformers import AutoModel, AutoTokenizer, BertConfig, BertModel

    from core.embedding import get_model, pool

    spec = get_model("minilm")
    tokenizer = AutoTokenizer.from_pretrained(spec.location)
    records = arxiv(args.papers)
    batch = tokenizer([r["title"] for r in records], [r["abstract"] for r in records], truncation="longest_first",
                      max_length=TOKENS, padding="max_length", return_tensors="pt")
    batch = {k: v.to(device) for k, v in batch.items()}
    models = {"packaged MiniLM (22.7M)": AutoModel.from_pretrained(spec.location)}
    with tempfile.TemporaryDirectory() as tmp:
        BertModel(BertConfig(vocab_size=tokenizer.vocab_size)).save_pretrained(Path(tmp))
        models["BERT-base size (110M, random)"] = AutoModel.from_pretrained(tmp)
    rows = []
    name_of_device = torch.cuda.get_device_name(0) if device == "cuda" else "CPU (smoke test)"
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    for name, model in models.items():
        model = model.to(device).eval()
        modes = {"bf16 autocast": lambda: torch.autocast(device, dtype=torch.bfloat16), "float32": nullcontext}

        def run(mode: str) -> float:
            sync()
            start = time.perf_counter()
            with torch.inference_mode(), modes[mode]():
                for s in range(0, args.papers, args.batch):
                    part = {k: v[s : s + args.batch] for k, v in batch.items()}
                    pool(model(**part).last_hidden_state.float(), part["attention_mask"], "mean")
            sync()
            return args.papers / (time.perf_counter() - start)

        run("bf16 autocast"), run("float32")
        rates: dict[str, list[float]] = {m: [] for m in modes}
        for r in range(args.rounds):
            for mode in list(modes) if r % 2 == 0 else list(modes)[::-1]:
                rates[mode].append(run(mode))
        rows.append(row(f"{name}: abstracts/s at {TOKENS} tokens", median(rates["bf16 autocast"]),
                        median(rates["float32"]), "/s", f"bf16 autocast vs float32; batch {args.batch}; "
                        f"{name_of_device}", higher_is_better=True))
        model.cpu()
    report("embed_gpu_smoke" if args.smoke else "embed_gpu", rows,
           {"device": name_of_device, "batch": args.batch, "tokens": TOKENS})


if __name__ == "__main__":
    main()
