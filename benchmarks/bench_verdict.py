"""Issue 29 §3: the product's default `train` on a slice of arxiv_journals, judged on its held-out test papers.

    .venv/bin/python benchmarks/bench_verdict.py --workspace /tmp/bench29 prepare   # the slice, imported
    .venv/bin/python -m core --workspace /tmp/bench29 train --corpus arxiv30 --label journal --name minilm-arxiv30 --json
    .venv/bin/python benchmarks/bench_verdict.py --workspace /tmp/bench29 measure   # head vs vote, calibration

`prepare` writes the first `--journals` journals (sorted by DOI prefix) of arxiv_journals with `--per-journal`
papers each (seeded) and imports them as corpus `arxiv30`. `train` is the product's default run (TrainConfig
defaults: objective cos, 1 epoch, head warm-up, 20 % test papers). `measure` prints the model card's verdict and
calibration figures, embeds the corpus with the base and the new model, and measures the head against the
neighbour vote on the model's test papers (core.explore.journals.head_and_vote, what the Journals page shows).
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

import numpy as np

from core.store import Store

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "arxiv_journals.jsonl.gz"
CORPUS, MODEL = "arxiv30", "minilm-arxiv30"


def prepare(store: Store, journals: int, per_journal: int, seed: int) -> None:
    """Write and import the slice."""
    from core.io import read_papers

    rows: dict[str, list[dict]] = {}
    with gzip.open(DATA, "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            rows.setdefault(record["journal"], []).append(record)
    rng = np.random.default_rng(seed)
    chosen = [j for j in sorted(rows) if len(rows[j]) >= per_journal][:journals]
    out = Path(store.root) / f"{CORPUS}.jsonl"
    with out.open("w", encoding="utf-8") as handle:
        for journal in chosen:
            for i in rng.choice(len(rows[journal]), per_journal, replace=False):
                handle.write(json.dumps(rows[journal][i]) + "\n")
    store.import_papers(CORPUS, read_papers(out), source=out.name)
    print(f"{CORPUS}: {len(chosen)} journals x {per_journal} papers")


def measure(store: Store) -> None:
    """The model card's figures, then head against vote on the model's test papers."""
    from core.embedding import embed_corpus, get_model
    from core.evaluation import Verdict, head_and_vote

    spec = get_model(MODEL, store)
    verdict = Verdict.from_dict(spec.verdict)
    print(verdict.sentence("its base minilm") if verdict else "no verdict")
    meta = json.loads((Path(spec.location) / "mired.json").read_text())
    keys = ("test_accuracy", "base_test_accuracy", "test_top5_accuracy", "val_accuracy", "base_val_accuracy",
            "head_temperature", "test_nll_raw", "test_nll", "test_ece_raw", "test_ece", "seconds", "test_papers",
            "train_papers", "val_papers", "classes")
    print(json.dumps({k: meta["metrics"].get(k) for k in keys}, indent=1))
    for model in ("minilm", MODEL):
        embed_corpus(store, CORPUS, model)
    print(json.dumps(head_and_vote(store, CORPUS, spec, "journal"), indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workspace", default="/tmp/bench29")
    parser.add_argument("--journals", type=int, default=30)
    parser.add_argument("--per-journal", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("stage", choices=["prepare", "measure"])
    args = parser.parse_args()
    store = Store(args.workspace)
    if args.stage == "prepare":
        prepare(store, args.journals, args.per_journal, args.seed)
    else:
        measure(store)


if __name__ == "__main__":
    main()
