"""The journal finder with a fine-tuned head: the `journals` task for the packaged MiniLM and a model fine-tuned
(with its journal head) on other papers of the same journals, several split seeds.

    .venv/bin/python benchmarks/journal_head.py                       # ~25 min on 2 CPU cores, once
    .venv/bin/python benchmarks/journal_head.py --per-journal 10 --seeds 0   # to check it runs

The pool is the first ``--pool`` arXiv-journals papers (the sample of benchmarks/journal_finder.py, 191 journals);
the training corpus is ``--per-journal`` other papers (seeded) of each of those journals, taken from the rest of
the file, so no pool paper — query or reference — is ever seen in training. The model is trained by the product's
own `train` (objective `cos`, its default) and both models are scored by the product's `evaluate --tasks journals`
on the pool for every split seed (80 % reference, 20 % held-out queries): the kNN vote of each model's vectors, the
BM25 baseline, and the fine-tuned model's head. Mean over seeds.
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
METRICS = ("top-1", "top-5", "top-10", "mean rank")


def corpora(store: Store, args: argparse.Namespace, out: Path) -> tuple[str, str]:
    """Import the pool and the disjoint training papers once."""
    pool, train = f"journals-pool-{args.pool}", f"journals-train-{args.per_journal}"
    with gzip.open(DATA / "arxiv_journals.jsonl.gz", "rt", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    for i, r in enumerate(rows):
        r.setdefault("id", f"aj{i}")
    journals = {r["journal"] for r in rows[: args.pool]}
    rng = np.random.default_rng(0)
    rest = [rows[i] for i in rng.permutation(np.arange(args.pool, len(rows)))]
    taken: dict[str, int] = {}
    chosen = []
    for r in rest:
        if r["journal"] in journals and taken.get(r["journal"], 0) < args.per_journal:
            taken[r["journal"]] = taken.get(r["journal"], 0) + 1
            chosen.append(r)
    for name, part in ((pool, rows[: args.pool]), (train, chosen)):
        if not store.has_corpus(name):
            path = out / f"{name}.jsonl"
            path.write_text("\n".join(json.dumps({k: r[k] for k in ("id", "title", "abstract", "journal")})
                                      for r in part), encoding="utf-8")
            store.import_papers(name, read_papers(path), source=path.name)
    return pool, train


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="benchmarks/out/journal_head")
    parser.add_argument("--pool", type=int, default=4000)
    parser.add_argument("--per-journal", type=int, default=40)
    parser.add_argument("--seeds", default="0,1,2,3,4")
    parser.add_argument("--epochs", type=float, default=1.0)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    store = Store(out / "workspace")
    pool, train = corpora(store, args, out)
    done = out / f"model-{args.per_journal}-e{args.epochs}.json"
    if done.exists():
        trained = json.loads(done.read_text())
    else:
        cfg = TrainConfig(corpus=train, label="journal", seed=0, epochs=args.epochs, device="cpu",
                          name=f"minilm-journal-head-{args.per_journal}")
        started = time.time()
        job = run_foreground(store, cfg)
        if job["status"] != "completed":
            raise SystemExit(f"training: {job['status']}: {job.get('error')}")
        trained = {"model": job["model"], "seconds": round(time.time() - started), "papers": store.corpus(train).papers}
        done.write_text(json.dumps(trained))
    print(f"trained {trained['model']} on {trained['papers']} papers in {trained['seconds']} s", file=sys.stderr)
    found: dict[tuple[str, str, str], list[float]] = {}
    note = ""
    for seed in [int(s) for s in args.seeds.split(",")]:
        doc = evaluate_models(store, pool, "journal", ["minilm", trained["model"]], ["journals"], seed=seed,
                              sample=args.pool, device="cpu", batch_size=64)
        for r in doc["results"]:
            if r["task"] == "journals":
                found.setdefault((r["model"], r["method"], r["metric"]), []).append(r["value"])
                note = (r.get("note") or "").split(";")[0]
    lines = [f"pool {args.pool} papers ({note}); head trained on {trained['papers']} other papers of the same "
             f"journals in {trained['seconds']} s; seeds {args.seeds}", "",
             "| model | method | " + " | ".join(METRICS) + " |", "|---|---|" + "---:|" * len(METRICS)]
    for (model, method) in dict.fromkeys((m, k) for m, k, _ in found):
        if method == "bm25" and model != "minilm":  # the text baseline is the same for every model
            continue
        cells = []
        for metric in METRICS:
            values = found.get((model, method, metric), [])
            cells.append(f"{np.mean(values):.1f} ± {np.std(values):.1f}" if values else "")  # % and ranks
        lines.append(f"| {model} | {method} | " + " | ".join(cells) + " |")
    (out / "table.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
