"""The README's Results tables: the evaluation suite for a model on seeded samples of the three labelled files.

    .venv/bin/python benchmarks/eval_results.py [--per-file 2000] [--neighbour-sample 200] [--models minilm]

Imports a seeded sample of each file of ../shared/data into a workspace (default /tmp/mired-eval-results),
embeds it, runs `core.evaluation.evaluate_models` and prints markdown tables laid out by protocol (linear
probe, pair retrieval, cluster purity, kNN, alternative self, textual neighbours), one column per dataset
and label. Results are cached in the workspace, so a second run prints the same tables at once.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("MIREAD_FAST_CPU", "0")  # the README tables were measured in exact float32

import numpy as np  # noqa: E402

from core.evaluation import evaluate_models
from core.io import read_papers
from core.records import (
    Paper,  # noqa: E402
    md_escape,
)
from core.store import Store

DATA = Path(os.environ.get("MIREAD_DATA", ROOT.parent / "shared" / "data"))
DATASETS = [  # (short name, file, label columns)
    ("arxiv_journals", "arxiv_journals.jsonl.gz", ["journal"]),
    ("arxiv_categories", "arxiv_categories.jsonl.gz", ["category", "field"]),
    ("medical_abstracts", "medical_abstracts.jsonl.gz", ["disease"]),
]
TASKS = ["probe", "purity", "retrieval", "knn", "self"]


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def import_sample(store: Store, name: str, path: Path, n: int, seed: int) -> str:
    """Import a seeded sample of n papers of a file as corpus `name` (once)."""
    if store.has_corpus(name):
        return name
    papers = [p for p in read_papers(path) if isinstance(p, Paper)]
    pick = np.sort(np.random.default_rng(seed).choice(len(papers), size=min(n, len(papers)), replace=False))
    report = store.import_papers(name, [papers[i] for i in pick], source=path.name)
    log(f"{name}: {report.added} papers from {len(pick)} sampled of {len(papers)} in {path.name} "
        f"({report.merged} duplicates merged)")
    return name


def cell(results: list[dict], model: str, task: str, metric: str, with_std: bool = False) -> str:
    row = next((r for r in results if (r["model"], r["task"], r["metric"]) == (model, task, metric)), None)
    if row is None or row["value"] is None or (isinstance(row["value"], float) and math.isnan(row["value"])):
        return "–"
    text = f"{100 * row['value']:.1f}"
    return text + (f" ± {100 * row['std']:.1f}" if with_std and row.get("std") is not None else "")


def table(title: str, columns: list[tuple[str, dict]], models: list[str], metrics: list[tuple[str, str, str]],
          with_std: bool = False) -> str:
    """One markdown table: a row per model and metric, a column per dataset/label."""
    header = "| model | metric | " + " | ".join(name for name, _ in columns) + " |"
    lines = [f"**{title}**", "", header, "|---|---|" + "---:|" * len(columns)]
    for model in models:
        for task, metric, shown in metrics:
            cells = [cell(doc["results"], model, task, metric, with_std) for _, doc in columns]
            lines.append(f"| {md_escape(model)} | {shown} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workspace", default="/tmp/mired-eval-results")
    parser.add_argument("--models", default="minilm", help="comma-separated model names")
    parser.add_argument("--per-file", type=int, default=2000, help="papers sampled from each file")
    parser.add_argument("--neighbour-sample", type=int, default=200,
                        help="papers of the arxiv_journals sample perturbed for textual neighbours (0 = skip)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", default=None, help="also write every evaluation document to this file")
    args = parser.parse_args()
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    store = Store(args.workspace)
    started = time.perf_counter()

    def progress(done: int, total: int) -> None:
        log(f"  step {done}/{total}")

    columns: list[tuple[str, dict]] = []
    for short, file, labels in DATASETS:
        corpus = import_sample(store, f"{short}-{args.per_file}-s{args.seed}", DATA / file, args.per_file, args.seed)
        for label in labels:
            log(f"evaluating {corpus} / {label}")
            doc = evaluate_models(store, corpus, label, models, TASKS, seed=args.seed, sample=args.per_file,
                                  progress=progress, status=log)
            columns.append((f"{short} ({label})", doc))
    neighbours = None
    if args.neighbour_sample:
        corpus = f"arxiv_journals-{args.per_file}-s{args.seed}"
        log(f"textual neighbours on {args.neighbour_sample} papers of {corpus}")
        neighbours = evaluate_models(store, corpus, "journal", models, ["neighbours"], seed=args.seed,
                                     sample=args.neighbour_sample, progress=progress, status=log)

    sizes = ", ".join(f"{name}: {doc['sample']:,} of {doc['labelled']:,} labelled" for name, doc in columns)
    parts = [
        f"Model(s): {', '.join(md_escape(m) for m in models)}. Samples (seed {args.seed}): {sizes}. "
        "Scores in %; the linear probe is mean ± std over 4 stratified folds.",
        table("Linear probe (logistic regression on frozen embeddings)", columns, models,
              [("probe", "macro_f1", "macro-F1"), ("probe", "accuracy", "accuracy")], with_std=True),
        table("Pair retrieval (pairs ranked by Pearson correlation; relevant = same label)", columns, models,
              [("retrieval", "ap", "AP"), ("retrieval", "auc", "ROC-AUC")]),
        table("Clustering purity (k-means)", columns, models,
              [("purity", f"purity@{k}", f"purity@{k}") for k in (10, 20, 50, 100)]),
        table("Nearest neighbours (leave-one-out, cosine)", columns, models,
              [("knn", "knn_accuracy", "kNN accuracy (k=10)"), ("knn", "precision@10", "precision@10")]),
        table("Alternative self: find a paper from its title (labels play no part: one column per sample)",
              [columns[0], columns[1], columns[3]], models,
              [("self", "task1_mrr", "Task I MRR"), ("self", "task1_t100", "Task I T100"),
               ("self", "task2_mrr", "Task II MRR"), ("self", "task2_t100", "Task II T100")]),
    ]
    if neighbours is not None:
        parts.append(f"**Textual neighbours** ({neighbours['sample']} papers of the arxiv_journals sample, which are "
                     "both the perturbed queries and the search pool)\n\n" + neighbours["markdown"].split("\n\n", 1)[1])
    errors = [e for _, doc in columns for e in doc["errors"]]
    if errors:
        parts.append("\n".join(f"- {md_escape(e['model'])} ({e['task']}): {md_escape(e['error'])}" for e in errors))
    parts.append(f"Produced by `.venv/bin/python benchmarks/eval_results.py --per-file {args.per_file} "
                 f"--neighbour-sample {args.neighbour_sample} --seed {args.seed} --models {args.models}` "
                 f"in {time.perf_counter() - started:.0f} s.")
    print("\n\n".join(parts))
    if args.json:
        Path(args.json).write_text(json.dumps({"columns": [{"name": n, **d} for n, d in columns],
                                               "neighbours": neighbours}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
