"""Which fine-tuning objective makes MiniLM better on journals never seen in training: one command.

    .venv/bin/python benchmarks/objectives.py                       # every objective, then the table
    .venv/bin/python benchmarks/objectives.py --only base,ce+supcon # some; results found on disk are reused

Splits arxiv_journals by journal (seeded): the held-out journals never reach training. Trains on a
sample of the other journals, then scores the base and every fine-tuned model on the same seeded eval
sets, all embedded at max_length 128: held-out journals (linear probe, kNN, k-means purity), unseen
papers of the training journals, and transfer to arxiv_categories (category, field) and
medical_abstracts (disease). Each model's scores go to OUT/results/NAME.json (the base's embeddings
are cached too), so objectives can run one at a time; the markdown table covers all results found.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.embedding import Encoder, get_model
from core.evaluation import clustering_purity, knn_quality, linear_probe
from core.records import Paper  # noqa: E402
from core.store import Store
from core.training import TrainConfig, run_foreground

DATA = Path(os.environ.get("MIREAD_BENCH_DATA") or (
    "/work/shared/data" if Path("/work/shared/data").exists() else Path(__file__).parents[2] / "shared/data"))
EVAL_LENGTH = 128
COMMON = dict(epochs=1.0, batch_size=32, val_fraction=0.05, device="cpu")
# Each objective's TrainConfig options; "base" is the packaged model without training, "ce LP-FT" the defaults.
OBJECTIVES: dict[str, dict] = {
    "base": {},
    "supcon": dict(objective="supcon", lr=5e-5, supcon_weight=1.0, temperature=0.05, classes_per_batch=8),
    "ce+supcon": dict(objective="ce+supcon", lr=5e-5, head_warmup_epochs=0.5, supcon_weight=1.0,
                      temperature=0.05, classes_per_batch=8),
    "supcon+distill": dict(objective="supcon", lr=5e-5, supcon_weight=1.0, temperature=0.05,
                           classes_per_batch=8, distill_weight=10.0),
    "ce (paper)": dict(objective="ce", lr=5e-5, head_warmup_epochs=0.0),
    "ce LP-FT": dict(objective="ce", lr=1e-5, head_warmup_epochs=1.0),
    "ce LP-FT 3e-5": dict(objective="ce", lr=3e-5, head_warmup_epochs=20.0),
    "ce+supcon+distill": dict(objective="ce+supcon", lr=2e-5, head_warmup_epochs=20.0, supcon_weight=0.5,
                              temperature=0.1, classes_per_batch=8, distill_weight=10.0),
    "supcon+distill 300": dict(objective="supcon", lr=2e-5, head_warmup_epochs=20.0, supcon_weight=1.0,
                               temperature=0.1, classes_per_batch=8, distill_weight=300.0),
    "cos": dict(objective="cos", lr=2e-5, head_warmup_epochs=20.0, temperature=0.05),
    "cos 5e-5": dict(objective="cos", lr=5e-5, head_warmup_epochs=20.0, temperature=0.05),
    "cos+distill": dict(objective="cos", lr=2e-5, head_warmup_epochs=20.0, temperature=0.05, distill_weight=300.0),
}
# What `objectives.py` runs by default: the rows of the README's table.
DEFAULT_RUN = ("base", "ce LP-FT 3e-5", "ce+supcon+distill", "cos", "cos+distill")
PURITY_KS = (10, 20, 50, 100)
# The base's cached embeddings cover these full-size eval sets; smaller sets are prefixes of them.
FULL = {"heldout": 40, "seen": 8, "categories": 1500, "medical": 800}


def read(name: str) -> pd.DataFrame:
    """One labelled corpus of the shared data folder."""
    return pd.read_json(DATA / name, lines=True, compression="gzip", dtype=False)


def build_split(args: argparse.Namespace) -> dict[str, pd.DataFrame]:
    """The training papers and the four eval sets (seeded; each eval set a prefix of a fixed full-size draw)."""
    rng = np.random.default_rng(args.seed)
    journals = read("arxiv_journals.jsonl.gz")
    names = np.array(sorted(journals["journal"].unique()))
    held = set(rng.choice(names, size=args.holdout, replace=False))
    train, seen = [], []
    for _, group in journals[~journals["journal"].isin(held)].groupby("journal", sort=True):
        order = rng.permutation(len(group))
        seen.append(group.iloc[order[: args.seen_per_journal]])
        train.append(group.iloc[order[FULL["seen"] :][: args.per_journal]])
    heldout = [g.iloc[rng.permutation(len(g))[: args.eval_per_journal]]
               for _, g in journals[journals["journal"].isin(held)].groupby("journal", sort=True)]
    categories, medical = read("arxiv_categories.jsonl.gz"), read("medical_abstracts.jsonl.gz")
    pick = {"categories": np.random.default_rng([args.seed, 1]).permutation(len(categories))[: args.transfer],
            "medical": np.random.default_rng([args.seed, 2]).permutation(len(medical))[: args.medical]}
    return {
        "train": pd.concat(train),
        "heldout": pd.concat(heldout),
        "seen": pd.concat(seen),
        "categories": categories.iloc[pick["categories"]],
        "medical": medical.iloc[pick["medical"]],
    }


def to_papers(frame: pd.DataFrame) -> list[Paper]:
    return [Paper(str(r.id), str(r.title), str(r.abstract), {"journal": r.journal}) for r in frame.itertuples()]


def train_model(store: Store, split: dict[str, pd.DataFrame], name: str, options: dict,
                args: argparse.Namespace) -> dict:
    """Fine-tune the packaged model on the training papers; the finished job."""
    corpus = f"train-h{args.holdout}-p{args.per_journal}"
    if not store.has_corpus(corpus):
        store.import_papers(corpus, to_papers(split["train"]), source="arxiv_journals split")
    cfg = TrainConfig(corpus=corpus, label="journal", base=args.base, seed=args.seed, min_per_class=2,
                      max_length=args.train_length,
                      name=f"{name.replace(' ', '').replace('(', '').replace(')', '').replace('+', '-')}-"
                           f"{time.strftime('%H%M%S')}", eval_every=10**9,
                      **{**COMMON, "epochs": args.epochs, "device": args.device, **options})
    return run_foreground(store, cfg)


def embed_sets(encoder: Encoder, split: dict[str, pd.DataFrame], cache: Path | None,
               full: dict[str, pd.DataFrame]) -> dict[str, np.ndarray]:
    """Embeddings of every eval set; with a cache folder, of the full-size sets once, then looked up by id."""
    out = {}
    for key in ("heldout", "seen", "categories", "medical"):
        source = full[key] if cache else split[key]
        path = cache / f"{key}.npy" if cache else None
        if path and path.exists():
            vectors = np.load(path)
        else:
            vectors = encoder.encode(list(zip(source["title"].astype(str), source["abstract"].astype(str))))
            if path:
                path.parent.mkdir(parents=True, exist_ok=True)
                np.save(path, vectors)
        position = {pid: i for i, pid in enumerate(source["id"])}
        out[key] = vectors[[position[pid] for pid in split[key]["id"]]]
    return out


def score(X: dict[str, np.ndarray], split: dict[str, pd.DataFrame]) -> dict[str, float]:
    """Every metric of the table, in points (0-100)."""
    held = split["heldout"]["journal"].tolist()
    probe = linear_probe(X["heldout"], held, folds=4)
    metrics = {"HO F1": probe["macro_f1"][0], "HO acc": probe["accuracy"][0],
               "HO kNN": knn_quality(X["heldout"], held, k=10)["knn_accuracy"]}
    for k, value in clustering_purity(X["heldout"], held, PURITY_KS).items():
        metrics[f"HO pur@{k}"] = value
    seen = split["seen"]["journal"].tolist()
    metrics["seen F1"] = linear_probe(X["seen"], seen, folds=2)["macro_f1"][0]
    metrics["seen 1-NN"] = knn_quality(X["seen"], seen, k=1)["knn_accuracy"]
    for column in ("category", "field"):
        metrics[f"{column} F1"] = linear_probe(X["categories"], split["categories"][column].tolist())["macro_f1"][0]
    metrics["disease F1"] = linear_probe(X["medical"], split["medical"]["disease"].tolist())["macro_f1"][0]
    return {k: round(100 * v, 2) for k, v in metrics.items()}


def run_one(name: str, args: argparse.Namespace, split: dict[str, pd.DataFrame], full: dict[str, pd.DataFrame],
            out: Path) -> dict:
    """Train (unless base), embed the eval sets, score; the result record, also written to disk."""
    store = Store(out / "workspace")
    started, job = time.time(), None
    if name == "base":
        spec = get_model(args.base, store)
    else:
        job = train_model(store, split, name, OBJECTIVES[name], args)
        if job["status"] != "completed":
            raise SystemExit(f"{name}: training {job['status']}: {job.get('error')}")
        spec = get_model(job["model"], store)
    trained = time.time()
    encoder = Encoder(spec, device=args.device, batch_size=32, max_length=EVAL_LENGTH, fast=False)
    X = embed_sets(encoder, split, out / f"base-embeddings-{args.base}" if name == "base" else None, full)
    embedded = time.time()
    result = {
        "objective": name, "options": OBJECTIVES[name], "seed": args.seed, "base": args.base,
        "device": device_name(args.device), "epochs": args.epochs if job else 0,
        "train_papers": int(job["metrics"]["train_papers"]) if job else 0, "train_length": args.train_length,
        "train_minutes": round((trained - started) / 60, 1) if job else 0.0,
        "eval_minutes": round((embedded - trained) / 60, 1),
        "val_accuracy": round(100 * job["metrics"]["val_accuracy"], 2) if job else None,
        "metrics": score(X, split),
        "sizes": {k: len(v) for k, v in split.items()},
    }
    path = out / "results" / f"{name.replace(' ', '_')}{result_suffix(args)}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2), encoding="utf-8")
    return result


def device_name(device: str) -> str:
    """The device the run used, as recorded beside its result."""
    import torch

    if device != "cpu" and torch.cuda.is_available():
        return torch.cuda.get_device_name(0)
    return "cpu"


def result_suffix(args: argparse.Namespace) -> str:
    """Results differ by training size and eval sizes: they are part of the file name."""
    base = "" if args.base == "minilm" else f"-{args.base}"
    epochs = "" if args.epochs == 1.0 else f"-E{args.epochs:g}"
    return (f"{base}-p{args.per_journal}-L{args.train_length}{epochs}-e{args.eval_per_journal}-s{args.seen_per_journal}"
            f"-c{args.transfer}-m{args.medical}")


def table(results: list[dict]) -> str:
    """Markdown: one row per objective, each metric with its delta against the base."""
    base = next((r for r in results if r["objective"] == "base"), None)
    keys = list(results[0]["metrics"])
    lines = ["| objective | budget | " + " | ".join(keys) + " |", "|---|---|" + "---|" * len(keys)]
    for r in results:
        budget = (f"{r['train_papers']} papers x {r.get('epochs', 1):g} epoch x {r['train_length']} tokens, "
                  f"{r['train_minutes']} min"
                  if r["objective"] != "base" else "no training")
        cells = []
        for k in keys:
            value = r["metrics"][k]
            delta = f" ({value - base['metrics'][k]:+.1f})" if base and r is not base else ""
            cells.append(f"{value:.1f}{delta}")
        lines.append(f"| {r['objective']} | {budget} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(DEFAULT_RUN), help="comma-separated objectives to run; all: "
                        + ", ".join(OBJECTIVES))
    parser.add_argument("--fresh", action="store_true", help="rerun objectives whose results are on disk")
    parser.add_argument("--seed", default="0,1", help="seeds of the journal split, comma-separated")
    parser.add_argument("--holdout", type=int, default=40, help="journals held out of training")
    parser.add_argument("--per-journal", type=int, default=60, help="training papers per training journal")
    parser.add_argument("--train-length", type=int, default=96, help="max tokens per paper in training")
    parser.add_argument("--eval-per-journal", type=int, default=40, help="eval papers per held-out journal (<= 40)")
    parser.add_argument("--seen-per-journal", type=int, default=8, help="unseen papers per training journal (<= 8)")
    parser.add_argument("--transfer", type=int, default=800, help="arxiv_categories papers (<= 1500)")
    parser.add_argument("--medical", type=int, default=800, help="medical_abstracts papers (<= 800)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--base", default="minilm", help="the model fine-tuned and compared against (a preset name)")
    parser.add_argument("--epochs", type=float, default=1.0, help="passes over the training papers")
    parser.add_argument("--device", default="cpu", help="cpu, cuda or auto (training and evaluation embedding; "
                        "bf16 autocast on CUDA)")
    parser.add_argument("--out", default="/tmp/mired-objectives")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    asked = {"heldout": args.eval_per_journal, "seen": args.seen_per_journal, "categories": args.transfer,
             "medical": args.medical}
    if any(asked[k] > FULL[k] for k in FULL):
        raise SystemExit(f"eval sizes are capped at {FULL} (the base model's cached sets)")
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in OBJECTIVES]
    if unknown:
        raise SystemExit(f"unknown objective {unknown[0]!r}; choose from {', '.join(OBJECTIVES)}")
    per_seed = {}
    for seed in [int(x) for x in str(args.seed).split(",") if x.strip()]:
        per_seed[seed] = run_seed(argparse.Namespace(**{**vars(args), "seed": seed}), names)
        print(f"\nseed {seed}\n" + table(per_seed[seed]), flush=True)
    if len(per_seed) > 1:
        print("\n" + mean_deltas(per_seed))


def run_seed(args: argparse.Namespace, names: list[str]) -> list[dict]:
    """Run the objectives not yet on disk for one split seed; every result found for it (base first)."""
    out = Path(args.out) / f"seed{args.seed}"
    split = build_split(args)
    full = build_split(argparse.Namespace(**{**vars(args), "eval_per_journal": FULL["heldout"],
                                              "seen_per_journal": FULL["seen"], "transfer": FULL["categories"],
                                              "medical": FULL["medical"]}))
    print(f"seed {args.seed} sizes:", {k: len(v) for k, v in split.items()}, flush=True)
    sizes = result_suffix(args)
    for name in ["base"] + [n for n in names if n != "base"]:  # deltas need the base of the same split
        done = out / "results" / f"{name.replace(' ', '_')}{sizes}.json"
        if done.exists() and not (args.fresh and name in names):
            continue
        result = run_one(name, args, split, full, out)
        print(json.dumps(result), flush=True)
    found = [out / "results" / f"{n.replace(' ', '_')}{sizes}.json" for n in OBJECTIVES]
    return [json.loads(p.read_text()) for p in found if p.exists()]


def mean_deltas(per_seed: dict[int, list[dict]]) -> str:
    """Markdown: each objective's change against its seed's base, averaged over the seeds that ran it."""
    deltas: dict[str, list[dict[str, float]]] = {}
    for results in per_seed.values():
        base = next(r for r in results if r["objective"] == "base")
        for r in results:
            if r["objective"] != "base":
                deltas.setdefault(r["objective"], []).append(
                    {k: v - base["metrics"][k] for k, v in r["metrics"].items()})
    keys = list(next(iter(per_seed.values()))[0]["metrics"])
    lines = [f"mean change vs base over seeds {', '.join(map(str, per_seed))}",
             "| objective | seeds | " + " | ".join(keys) + " |", "|---|---|" + "---|" * len(keys)]
    for name, rows in deltas.items():
        cells = [f"{np.mean([row[k] for row in rows]):+.1f}" for k in keys]
        lines.append(f"| {name} | {len(rows)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
