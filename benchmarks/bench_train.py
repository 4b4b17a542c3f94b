"""Benchmark 7: training throughput, core's loop (core.train.run_training) vs a plain Hugging Face Trainer.

Same packaged model (AutoModelForSequenceClassification from its folder for the Trainer; core puts its own
linear head on the mean-pooled vector), same papers (real arXiv titles + abstracts as token pairs), batch 16,
max length 128, AdamW at 2e-5, float32 on CPU, no evaluation inside the timed steps. Samples/s is the median
over steps of batch / step time (step end to step end, so data loading counts), first step left out. Runs
alternate ours, HF, HF, ours. Needs `accelerate` for the Trainer.
"""

from __future__ import annotations

import argparse
import math
import tempfile
import time
from pathlib import Path

from common import arxiv, median, report, row

BATCH = 16
MAX_LENGTH = 128
CLASSES = 16


def papers(steps: int) -> list[dict]:
    """Enough papers of CLASSES journals for `steps` training batches after a 10% validation split."""
    per_class = math.ceil(steps * BATCH / 0.88 / CLASSES) + 1
    by_journal: dict[str, list[dict]] = {}
    for r in arxiv(42_252):
        bucket = by_journal.setdefault(r["journal"], [])
        if len(bucket) < per_class:
            bucket.append(r)
    full = [j for j, b in by_journal.items() if len(b) >= per_class][:CLASSES]
    return [r for j in full for r in by_journal[j]]


def ours(records: list[dict], workdir: Path, steps: int, run: int) -> list[float]:
    """Per-step samples/s of core's loop, from the metrics it records."""
    from core.records import Paper
    from core.store import Store
    from core.training import TrainConfig, run_training

    store = Store(workdir / f"ws-{run}")
    store.import_papers("train", [Paper(r["id"], r["title"], r["abstract"], {"journal": r["journal"]}) for r in records])
    cfg = TrainConfig(corpus="train", label="journal", base="minilm", name=f"bench-{run}", batch_size=BATCH,
                      max_length=MAX_LENGTH, lr=2e-5, val_fraction=0.1, eval_every=10**6, min_per_class=2,
                      max_per_class=len(records), device="cpu", epochs=1.0)
    result = run_training(store, cfg, job_id=f"bench-{run}")
    with store.connect() as conn:
        rates = [r[0] for r in conn.execute(
            "SELECT value FROM metrics WHERE job = ? AND split = 'train' AND name = 'samples_per_s' ORDER BY step",
            (f"bench-{run}",)).fetchall()]
    print(f"ours: {result['metrics']['steps']} steps, {len(rates)} windows", flush=True)
    return rates[1:]


def hugging_face(records: list[dict], workdir: Path, steps: int) -> list[float]:
    """Per-step samples/s of transformers.Trainer on the same data and settings."""
    import torch
    from transformers import (
        AutoModelForSequenceClassification,
        AutoTokenizer,
        DataCollatorWithPadding,
        Trainer,
        TrainerCallback,
        TrainingArguments,
    )

    from core.embedding import get_model

    spec = get_model("minilm")
    tokenizer = AutoTokenizer.from_pretrained(spec.location)
    labels = sorted({r["journal"] for r in records})
    model = AutoModelForSequenceClassification.from_pretrained(spec.location, num_labels=len(labels))
    enc = tokenizer([r["title"] for r in records], [r["abstract"] for r in records], truncation="longest_first",
                    max_length=MAX_LENGTH)
    data = [{"input_ids": enc["input_ids"][i], "token_type_ids": enc["token_type_ids"][i],
             "attention_mask": enc["attention_mask"][i], "labels": labels.index(r["journal"])}
            for i, r in enumerate(records)]
    ends: list[float] = []

    class Clock(TrainerCallback):
        def on_step_end(self, args, state, control, **kwargs):
            ends.append(time.perf_counter())

    args = TrainingArguments(output_dir=str(workdir / "hf"), per_device_train_batch_size=BATCH, max_steps=steps,
                             learning_rate=2e-5, warmup_steps=max(1, steps // 10), logging_steps=10**6, save_strategy="no",
                             report_to=[], use_cpu=True, seed=0, disable_tqdm=True, dataloader_num_workers=0)
    trainer = Trainer(model=model, args=args, train_dataset=data, data_collator=DataCollatorWithPadding(tokenizer),
                      callbacks=[Clock()])
    threads = torch.get_num_threads()
    trainer.train()
    torch.set_num_threads(threads)
    return [BATCH / (b - a) for a, b in zip(ends[:-1], ends[1:])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=16, help="training steps per run")
    parser.add_argument("--reps", type=int, default=2)
    args = parser.parse_args()

    import torch

    records = papers(args.steps)
    results: dict[str, list[float]] = {"ours": [], "hf": []}
    with tempfile.TemporaryDirectory(prefix="miread-train-") as tmp:
        for rep in range(args.reps):
            order = ["ours", "hf"] if rep % 2 == 0 else ["hf", "ours"]
            for name in order:
                rates = (ours(records, Path(tmp), args.steps, rep) if name == "ours"
                         else hugging_face(records, Path(tmp), args.steps))
                results[name] += rates
                print(f"{name}: median {median(rates):.2f} samples/s over {len(rates)} steps", flush=True)
    rows = [row(f"training samples/s (batch {BATCH}, {MAX_LENGTH} tokens, CPU fp32)", median(results["ours"]),
                median(results["hf"]), "samples/s", f"{len(records)} papers, {CLASSES} journals; "
                f"{torch.get_num_threads()} threads; baseline = transformers.Trainer", higher_is_better=True)]
    report("train", rows, {"per_step": results, "papers": len(records)})


if __name__ == "__main__":
    main()
