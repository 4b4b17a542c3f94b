"""Citation-informed training (SPECTER) against the packaged MiniLM and the label objective: one command.

    .venv/bin/python benchmarks/citations.py                          # base, specter, cos+specter, cos; seed 0
    .venv/bin/python benchmarks/citations.py --seeds 0,1 --only base,specter
    .venv/bin/python benchmarks/citations.py --hard-ratios 0,0.4,1 --only specter   # choose the hard:easy ratio
    .venv/bin/python benchmarks/citations.py --seeds 0,1 --only base,specter --lr 1e-5   # another learning rate
    .venv/bin/python benchmarks/citations.py --seeds 0,1 --only base,specter-inbatch,cos+specter-inbatch
    .venv/bin/python benchmarks/citations.py --seeds 0 --only base,specter-inbatch --batch-size 32   # more negatives
    .venv/bin/python benchmarks/citations.py --base scibert   # a base without citation training (needs the hub)

A snowball sample (seeded) of ``--papers`` papers of arxiv_citations with the links inside it is imported into a
workspace; each split seed holds out 20% of the citing papers as query papers (their links never make training
triplets) and trains MiniLM with each objective for ``--epochs`` (label: category), then scores every model with the
product's own evaluation: cite / cocite (MAP, nDCG, recall@10, nDCG@10 on the held-out queries) and the category
probe (macro-F1) and kNN accuracy on the same papers, plus the label probe on a sample of citeseer_citations (papers
that never reach training). Results go to OUT/results/*.json (reused on the next run); the markdown table averages
over the seeds and gives each model's change against the base of the same seed.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.evaluation import evaluate_models  # noqa: E402
from core.io import read_papers  # noqa: E402
from core.store import Store  # noqa: E402
from core.training import TrainConfig, run_foreground  # noqa: E402

DATA = Path("/work/shared/data") if Path("/work/shared/data").exists() else Path(__file__).parents[2] / "shared/data"
RUNS: dict[str, dict] = {
    "base": {},
    "specter": dict(objective="specter", cite_loss="triplet", lr=5e-5, head_warmup_epochs=1.0),
    "cos+specter": dict(objective="cos+specter", cite_loss="triplet", lr=2e-5, head_warmup_epochs=20.0,
                        temperature=0.05, cite_weight=1.0),
    "cos": dict(objective="cos", lr=2e-5, head_warmup_epochs=20.0, temperature=0.05),
    # the same triplets, scored with in-batch negatives (InfoNCE, the loss MiniLM itself was trained with)
    "specter-inbatch": dict(objective="specter", cite_loss="in-batch", lr=2e-5, head_warmup_epochs=1.0,
                            temperature=0.05),
    "cos+specter-inbatch": dict(objective="cos+specter", cite_loss="in-batch", lr=2e-5, head_warmup_epochs=20.0,
                                temperature=0.05, cite_weight=1.0),
}
CITE_METRICS = ("MAP", "nDCG", "recall@10", "nDCG@10")


def read_jsonl(name: str) -> list[dict]:
    with gzip.open(DATA / name, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def snowball(rows: list[dict], size: int, seed: int) -> list[dict]:
    """``size`` papers grown from random start papers along citation links (both ways), seeded: a dense subgraph."""
    rng = np.random.default_rng(seed)
    by_id = {r["id"]: r for r in rows}
    neighbours: dict[str, set[str]] = {r["id"]: set() for r in rows}
    for r in rows:
        for d in r["references"]:
            if d in by_id:
                neighbours[r["id"]].add(d)
                neighbours[d].add(r["id"])
    order = [rows[i]["id"] for i in rng.permutation(len(rows))]
    chosen: dict[str, None] = {}
    queue: list[str] = []
    for start in order:
        if len(chosen) >= size:
            break
        if start in chosen or not neighbours[start]:
            continue
        queue.append(start)
        while queue and len(chosen) < size:
            pid = queue.pop(0)
            if pid in chosen:
                continue
            chosen[pid] = None
            queue += sorted(neighbours[pid] - set(chosen))
    return [by_id[p] for p in sorted(chosen)]


def prepare(store: Store, args: argparse.Namespace) -> dict:
    """Import the citation sample and the citeseer sample once; their sizes and links."""
    corpus, other = f"arxiv-cite-{args.papers}", "citeseer"
    if not store.has_corpus(corpus):
        sample = snowball(read_jsonl("arxiv_citations.jsonl.gz"), args.papers, 0)
        path = Path(args.out) / f"{corpus}.jsonl"
        path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in sample), encoding="utf-8")
        report = store.import_papers(corpus, read_papers(path), source=path.name)
        print(f"imported {corpus}: {report.added} papers, links {report.links}", file=sys.stderr)
    if not store.has_corpus(other):
        rows = read_jsonl("citeseer_citations.jsonl.gz")
        pick = np.random.default_rng(0).permutation(len(rows))[: args.citeseer]
        path = Path(args.out) / "citeseer.jsonl"
        path.write_text("\n".join(json.dumps({k: rows[i][k] for k in ("id", "title", "abstract", "label")})
                                  for i in sorted(pick)), encoding="utf-8")
        store.import_papers(other, read_papers(path), source=path.name)
    return {"corpus": corpus, "papers": store.corpus(corpus).papers, "links": store.link_count(corpus),
            "citeseer": other}


def train(store: Store, corpus: str, run: str, seed: int, args: argparse.Namespace, extra: dict) -> dict:
    options = {**RUNS[run], **extra}
    cfg = TrainConfig(corpus=corpus, label="category", base=args.base, seed=seed, epochs=args.epochs,
                      batch_size=args.batch_size, max_length=args.max_length, min_per_class=20,
                      max_per_class=args.max_per_class, val_fraction=0.1, eval_every=args.eval_every, device="cpu",
                      name=f"{run.replace('+', '-')}-s{seed}-{time.strftime('%H%M%S')}", **options)
    started = time.time()
    job = run_foreground(store, cfg)
    if job["status"] != "completed":
        raise SystemExit(f"{run} seed {seed}: {job['status']}: {job.get('error')}")
    return {"model": job["model"], "seconds": round(time.time() - started, 1), "metrics": job["metrics"]}


def score(store: Store, names: dict, model: str, seed: int, args: argparse.Namespace) -> dict:
    started = time.time()
    doc = evaluate_models(store, names["corpus"], "category", [model], ["cite", "cocite", "probe", "knn"],
                          seed=seed, sample=args.papers, device="cpu", batch_size=64)
    other = evaluate_models(store, names["citeseer"], "label", [model], ["probe", "knn"], seed=0,
                            sample=args.citeseer, device="cpu", batch_size=64)
    out: dict[str, float] = {}
    for row in doc["results"]:
        if row["model"] == model and row["task"] in ("cite", "cocite"):
            out[f"{row['task']} {row['metric']}"] = 100 * row["value"]
        if row["model"] == "random (baseline)" and row["task"] in ("cite", "cocite"):
            out[f"random {row['task']} {row['metric']}"] = 100 * row["value"]
        if row["model"] == model and (row["task"], row["metric"]) in (("probe", "macro_f1"), ("knn", "knn_accuracy")):
            out[f"category {row['task']}"] = 100 * row["value"]
    for row in other["results"]:
        if row["model"] == model and (row["task"], row["metric"]) in (("probe", "macro_f1"), ("knn", "knn_accuracy")):
            out[f"citeseer {row['task']}"] = 100 * row["value"]
    out["eval seconds"] = round(time.time() - started, 1)
    queries = [r["n"] for r in doc["results"] if r["model"] == model and r["task"] == "cite"]
    out["queries"] = queries[0] if queries else 0
    return out


def table(results: list[dict]) -> str:
    """Mean over seeds of each run, and its mean change against the base of the same seed (points)."""
    columns = ["cite MAP", "cite nDCG", "cite recall@10", "cite nDCG@10", "cocite MAP", "cocite nDCG",
               "category probe", "category knn", "citeseer probe", "citeseer knn"]
    base = {r["seed"]: r["scores"] for r in results if r["run"] == "base"}
    lines = ["| model | seeds | " + " | ".join(columns) + " | train s |", "|---|---:|" + "---:|" * (len(columns) + 1)]
    for run in dict.fromkeys(r["run"] for r in results):
        rows = [r for r in results if r["run"] == run]
        cells = []
        for c in columns:
            mean = np.mean([r["scores"].get(c, np.nan) for r in rows])
            deltas = [r["scores"][c] - base[r["seed"]][c] for r in rows if r["seed"] in base and run != "base"]
            cells.append(f"{mean:.1f}" + (f" ({np.mean(deltas):+.1f})" if deltas else ""))
        seconds = np.mean([r.get("train_seconds", 0) for r in rows])
        lines.append(f"| {run} | {','.join(str(r['seed']) for r in rows)} | " + " | ".join(cells)
                     + f" | {seconds:.0f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="benchmarks/out/citations")
    parser.add_argument("--papers", type=int, default=2000)
    parser.add_argument("--citeseer", type=int, default=1000)
    parser.add_argument("--seeds", default="0")
    parser.add_argument("--only", default=",".join(RUNS))
    parser.add_argument("--hard-ratios", default="", help="specter runs with these hard-negative shares instead")
    parser.add_argument("--epochs", type=float, default=1.0)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--max-per-class", type=int, default=150)
    parser.add_argument("--eval-every", type=int, default=40)
    parser.add_argument("--base", default="minilm", help="the encoder every run starts from (e.g. scibert, which "
                        "needs the Hugging Face hub; a model folder)")
    parser.add_argument("--lr", type=float, default=None, help="learning rate of the trained runs (named in the label)")
    args = parser.parse_args()
    tag = "" if args.base == "minilm" else f"-b{Path(args.base).name}"  # results of another base kept apart
    out = Path(args.out)
    (out / "results").mkdir(parents=True, exist_ok=True)
    store = Store(out / "workspace")
    names = prepare(store, args)
    print(f"corpus {names['corpus']}: {names['papers']} papers, {names['links']} links", file=sys.stderr)
    plan = [(run, {}) for run in args.only.split(",") if run]
    if args.hard_ratios:
        plan = [(f"specter hard {r}", {"hard_ratio": float(r)}) for r in args.hard_ratios.split(",")]
    if args.lr is not None:
        plan = [(label if label == "base" else f"{label} lr {args.lr:g}", {**extra, "lr": args.lr})
                for label, extra in plan]
    if args.batch_size != 16:  # another batch size: its own runs (the base is the same)
        plan = [(label if label == "base" else f"{label} batch {args.batch_size}", extra) for label, extra in plan]
    for seed in [int(s) for s in args.seeds.split(",")]:
        for label, extra in plan:
            run = label.split(" ")[0]
            path = out / "results" / f"{label.replace(' ', '_')}-p{args.papers}-e{args.epochs}{tag}-s{seed}.json"
            if path.exists():
                continue
            record: dict = {"run": label, "seed": seed, "papers": names["papers"], "links": names["links"]}
            if run == "base":
                model = args.base
            else:
                trained = train(store, names["corpus"], run, seed, args, extra)
                model = trained["model"]
                record.update(train_seconds=trained["seconds"], train_metrics=trained["metrics"])
                print(f"{label} seed {seed}: trained in {trained['seconds']} s", file=sys.stderr)
            record["scores"] = score(store, names, model, seed, args)
            path.write_text(json.dumps(record, indent=1))
            print(f"{label} seed {seed}: {json.dumps(record['scores'])}", file=sys.stderr)
    results = [json.loads(p.read_text()) for p in sorted((out / "results").glob(f"*-p{args.papers}-e{args.epochs}{tag}-s*.json"))]
    order = {name: i for i, name in enumerate(RUNS)}
    results.sort(key=lambda r: (order.get(r["run"], len(order)), r["run"], r["seed"]))
    print(table(results))


if __name__ == "__main__":
    main()
