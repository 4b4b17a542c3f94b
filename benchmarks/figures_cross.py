"""Bi-encoder or cross-encoder for the figure scorer (issue 15): cost and quality measured on the same data.

    flock /tmp/miread-heavy.lock .venv/bin/python benchmarks/figures_cross.py --workspace /tmp/bench-fig --seed 0

Yamamoto et al. (BIR 2021) score (text, caption) pairs with a SciBERT cross-encoder. The product trains a
bi-encoder (core/training/figures.py). This script trains a cross-encoder from the same packaged MiniLM on the
same (masked referencing sentence, caption) pairs of the same training papers (split by paper, `is_held_out`), with
the same in-paper negatives and listwise loss (softmax over the paper's captions, cross-entropy on the referenced
one), the same frozen lower layers and learning rate, for a wall-clock budget (default: the bi-encoder's own
training time in `benchmarks/figures.py`). Both are then scored on the same held-out pairs (accuracy@1/@3, MRR),
and the cost of each is measured in the same run: training pairs per second and the time to rank every figure of
50 held-out papers for their abstracts (what the map's hover cards need). The bi-encoder rows come from the models
`benchmarks/figures.py` saved in the workspace (run it first).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


class CrossScorer:
    """MiniLM reading "sentence [SEP] caption" jointly; a linear layer on the mean-pooled states gives the score."""

    def __init__(self, frozen_layers: int, max_length: int):
        import torch

        from core.embedding import get_model
        from core.embedding.encoder import pool
        from core.embedding.models import load_backbone

        self.spec = get_model("minilm")
        self.tokenizer, self.model = load_backbone(self.spec)
        self.head = torch.nn.Linear(self.model.config.hidden_size, 1)
        self.pool, self.max_length = pool, max_length
        for name, param in self.model.named_parameters():
            parts = name.split(".")
            if name.startswith("embeddings.") or ("layer" in parts and int(parts[parts.index("layer") + 1]) <
                                                  frozen_layers):
                param.requires_grad_(False)

    def scores(self, texts: list[str], captions: list[str]):
        """One score per (text, caption) pair."""
        batch = self.tokenizer(texts, captions, padding=True, truncation="longest_first",
                               max_length=self.max_length, return_tensors="pt")
        hidden = self.model(**batch).last_hidden_state
        return self.head(self.pool(hidden, batch["attention_mask"], self.spec.pooling)).squeeze(-1)

    def parameters(self):
        return [p for p in self.model.parameters() if p.requires_grad] + list(self.head.parameters())


def paper_loss(scorer: CrossScorer, caps: list[str], sents: list[str], targets: list[int]):
    """Cross-entropy of each sentence's referenced caption among its paper's captions."""
    import torch

    texts = [s for s in sents for _ in caps]
    pairs = [c for _ in sents for c in caps]
    logits = scorer.scores(texts, pairs).view(len(sents), len(caps))
    return torch.nn.functional.cross_entropy(logits, torch.as_tensor(targets), reduction="sum"), len(sents)


def cross_ranks(scorer: CrossScorer, papers, limit: int, rng: np.random.Generator) -> list[int]:
    """Rank of the referenced caption for (at most `limit`, seeded) held-out pairs, scored by the cross-encoder."""
    import torch

    from core.explore.figures import ranks_of

    pairs = [(p, s, i) for p in papers for s, i in p.pairs]
    pick = sorted(rng.choice(len(pairs), size=min(limit, len(pairs)), replace=False).tolist())
    ranks = []
    with torch.no_grad():
        for j in pick:
            paper, sentence, target = pairs[j]
            scores = scorer.scores([sentence] * len(paper.captions), paper.captions).numpy()
            ranks.append(int(ranks_of(scores)[target]))
    return ranks, pick


def main(argv: list[str] | None = None) -> int:
    import torch

    from core.embedding import get_encoder, get_model
    from core.evaluation.figures import held_out_papers, model_ranks, rank_metrics
    from core.explore.figures import abstract_text, score_captions
    from core.store import Store, is_held_out
    from core.training.figures import _paper_batch

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workspace", default="/tmp/bench-fig")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=float, default=0, help="training seconds (default: the bi-encoder's)")
    parser.add_argument("--lr", type=float, default=6e-5)
    parser.add_argument("--frozen-layers", type=int, default=3)
    parser.add_argument("--sentences", type=int, default=4, help="referencing sentences per paper and step")
    parser.add_argument("--papers-per-step", type=int, default=2)
    parser.add_argument("--max-length", type=int, default=112, help="sentence + caption tokens")
    parser.add_argument("--eval-pairs", type=int, default=400)
    parser.add_argument("--figures-json", default="/tmp/figures.json", help="benchmarks/figures.py --out")
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    torch.manual_seed(args.seed)
    store = Store(Path(args.workspace))
    bi_name = next(m["name"] for m in store.saved_models() if m["name"].startswith(f"figures-bench-s{args.seed}-"))
    budget = args.budget
    if not budget and Path(args.figures_json).exists():
        runs = json.loads(Path(args.figures_json).read_text())["runs"]
        budget = next(r["train_seconds"] for r in runs if r["seed"] == args.seed)
    budget = budget or 900.0
    train = [p for p in store.figure_papers("pmc400") if not is_held_out(p.pid, args.seed)]
    held = held_out_papers(store, "pmc400", args.seed)
    rng = np.random.default_rng(args.seed)

    scorer = CrossScorer(args.frozen_layers, args.max_length)
    optimiser = torch.optim.AdamW(scorer.parameters(), lr=args.lr)
    started, steps, seen, losses = time.perf_counter(), 0, 0, []
    while time.perf_counter() - started < budget:
        order = rng.permutation(len(train))
        for start in range(0, len(order), args.papers_per_step):
            total, count = 0, 0
            for k in order[start:start + args.papers_per_step]:
                loss, n = paper_loss(scorer, *_paper_batch(train[k], args.sentences, rng))
                total, count = total + loss, count + n
            optimiser.zero_grad()
            (total / max(1, count)).backward()
            optimiser.step()
            steps, seen = steps + 1, seen + count
            losses.append(float(total) / max(1, count))
            if time.perf_counter() - started >= budget:
                break
    train_s = time.perf_counter() - started
    print(f"cross-encoder: {steps} steps, {seen} training sentences in {train_s:.0f} s; loss "
          f"{np.mean(losses[:10]):.3f} -> {np.mean(losses[-10:]):.3f}", file=sys.stderr)

    scorer.model.eval()
    ranks, pick = cross_ranks(scorer, held, args.eval_pairs, np.random.default_rng(1000 + args.seed))
    rows = {"cross-encoder (trained, budget)": rank_metrics(ranks)}
    for label, name in (("bi-encoder zero-shot minilm", "minilm"), ("bi-encoder trained (product)", bi_name)):
        all_ranks = model_ranks(get_encoder(get_model(name, store)), held)  # as the figures task scores it
        rows[label] = rank_metrics([all_ranks[j] for j in pick])

    sample = held[:50]  # cost at use time: rank every figure of 50 papers for their abstracts
    abstracts = [abstract_text(a.title, a.abstract) for a in (store.paper("pmc400", p.pid) for p in sample)]
    bi = get_encoder(get_model(bi_name, store), fast=False)  # fp32 like the cross-encoder; loaded before the clock
    bi.encode_texts(abstracts[:2])
    t0 = time.perf_counter()
    score_captions(bi, abstracts, [p.captions for p in sample])
    bi_use = time.perf_counter() - t0
    t0 = time.perf_counter()
    with torch.no_grad():
        for text, paper in zip(abstracts, sample):
            scorer.scores([text] * len(paper.captions), paper.captions)
    cross_use = time.perf_counter() - t0
    doc = {"seed": args.seed, "budget_s": budget, "steps": steps, "training_sentences": seen,
           "train_seconds": round(train_s, 1), "eval_pairs": len(pick), "metrics": rows,
           "use_seconds_50_papers": {"bi-encoder": round(bi_use, 2), "cross-encoder": round(cross_use, 2)}}
    print(json.dumps(doc, indent=2))
    if args.out:
        Path(args.out).write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
