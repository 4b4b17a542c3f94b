"""Benchmark: the self-supervised figure scorer against zero-shot, random and pick-first (issue 15).

The 400 CC BY PubMed Central articles (../shared/data/pmc_figures/jats_cc_by_400.tar.gz) are imported with their
figures; for each seed the papers are split by paper (30% held out, `core.store.is_held_out`), the bi-encoder
figure scorer is fine-tuned from the packaged MiniLM on the training papers' (masked referencing sentence,
caption) pairs with in-paper negatives, and the `figures` evaluation task scores the held-out papers: accuracy@1,
accuracy@3 and MRR of picking the referenced caption among the paper's captions, for zero-shot MiniLM, the trained
scorer, random (expected value) and pick-first. Run it under `flock /tmp/miread-heavy.lock` on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DATA = ROOT.parent / "shared" / "data" / "pmc_figures" / "jats_cc_by_400.tar.gz"
KINDS = ("random (baseline)", "pick-first (baseline)", "zero-shot minilm", "trained")


def main(argv: list[str] | None = None) -> int:
    from core.embedding import get_encoder
    from core.evaluation.figures import figures_task
    from core.store import Store, import_file
    from core.training import FigureTrainConfig, run_foreground

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--epochs", type=float, default=1.5)
    parser.add_argument("--lr", type=float, default=6e-5)
    parser.add_argument("--frozen-layers", type=int, default=3)
    parser.add_argument("--sentences", type=int, default=16, help="referencing sentences per paper and step")
    parser.add_argument("--caption-length", type=int, default=64, help="caption tokens in training")
    parser.add_argument("--workspace", default=None, help="default: a fresh temporary folder")
    parser.add_argument("--out", default=None, help="also write the results as JSON here")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    workspace = Path(args.workspace or tempfile.mkdtemp(prefix="bench-figures-"))
    store = Store(workspace)
    if not store.has_corpus("pmc400"):
        import_file(store, args.data, "pmc400")  # papers and their figures, one transaction
    print(f"corpus pmc400: {store.corpus('pmc400').papers} papers, {store.figure_count('pmc400')} figures",
          file=sys.stderr)
    runs = []
    for seed in (int(s) for s in args.seeds.split(",")):
        name = (f"figures-bench-s{seed}-e{args.epochs:g}-lr{args.lr:g}-f{args.frozen_layers}-k{args.sentences}"
                f"-c{args.caption_length}")
        t0 = time.perf_counter()
        if name not in {m["name"] for m in store.saved_models()}:
            cfg = FigureTrainConfig(corpus="pmc400", name=name, epochs=args.epochs, lr=args.lr, split_seed=seed,
                                    seed=seed, frozen_layers=args.frozen_layers, eval_every=10**6,
                                    sentences_per_paper=args.sentences, caption_length=args.caption_length)
            job = run_foreground(store, cfg)
            if job["status"] != "completed":
                raise SystemExit(f"training failed: {job['error']}")
        train_s = time.perf_counter() - t0
        t1 = time.perf_counter()
        results = figures_task(store, "pmc400", ["minilm", name], get_encoder, seed=seed)
        row = {"seed": seed, "train_seconds": round(train_s, 1), "eval_seconds": round(time.perf_counter() - t1, 1)}
        for r in results:
            kind = {"minilm": "zero-shot minilm", name: "trained"}.get(r.model, r.model)
            row[f"{kind}:{r.metric}"] = r.value
            row["pairs" if r.metric == "acc@1" else "papers"] = r.n
        runs.append(row)
        print(json.dumps(row), file=sys.stderr)
    print(table(runs, args))
    print(f"\ntotal {time.perf_counter() - started:.0f} s; workspace {workspace}")
    if args.out:
        Path(args.out).write_text(json.dumps({"args": vars(args), "runs": runs}, indent=2), encoding="utf-8")
    return 0


def table(runs: list[dict], args: argparse.Namespace) -> str:
    """Mean ± std over seeds of each method's metrics, and the trained scorer's gain over zero-shot."""
    lines = [f"figures task, held-out 30% of papers, seeds {args.seeds}, epochs {args.epochs:g}, lr {args.lr:g}, "
             f"frozen layers {args.frozen_layers}, sentences/paper {args.sentences}, caption tokens "
             f"{args.caption_length}, "
             f"held-out pairs per seed {[r['pairs'] for r in runs]}", "",
             "| method | acc@1 | acc@3 | MRR |", "|---|---:|---:|---:|"]
    for kind in KINDS:
        cells = []
        for metric in ("acc@1", "acc@3", "mrr"):
            values = np.array([r[f"{kind}:{metric}"] for r in runs])
            cells.append(f"{values.mean():.3f} ± {values.std():.3f}")
        lines.append(f"| {kind} | {' | '.join(cells)} |")
    gain = np.array([r["trained:acc@1"] - r["zero-shot minilm:acc@1"] for r in runs])
    first = np.array([r["trained:acc@1"] - r["pick-first (baseline):acc@1"] for r in runs])
    agree = [r.get("trained:top figure = minilm") for r in runs]
    lines += ["", f"trained − zero-shot acc@1: {100 * gain.mean():+.1f} points (per seed "
              f"{', '.join(f'{100 * g:+.1f}' for g in gain)}); trained − pick-first: {100 * first.mean():+.1f} points",
              f"abstract's top figure, trained = zero-shot: {agree}",
              f"train seconds per seed: {[r['train_seconds'] for r in runs]}; "
              f"eval seconds: {[r['eval_seconds'] for r in runs]}"]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
