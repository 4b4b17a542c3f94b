"""BENCHMARKS §28j: MiniLM fine-tuned on (short query -> its paper) pairs of training corpora, measured held out.

    MIREAD_BENCH_DATA=/work/shared/data nice -n 19 .venv/bin/python benchmarks/bench_query_encoder.py probe
    MIREAD_BENCH_DATA=/work/shared/data nice -n 19 .venv/bin/python benchmarks/bench_query_encoder.py query
    MIREAD_BENCH_DATA=/work/shared/data nice -n 19 .venv/bin/python benchmarks/bench_query_encoder.py both 0   # seeds

Training pairs come from the training corpora only (PubMed 1977-79, medical 1,000, arXiv 4,000, arXiv journals
10,000): the benchmark's own title and keyword queries (core.evaluation.short_queries.queries, every paper, query
seeds 10-14, <= 20 words, duplicates dropped) -> the paper (title + abstract). Contrastive loss of scale 20
(MultipleNegativesRankingLoss's), every batch drawn from one (corpus, kind) group, kinds weighted equally; word
embeddings frozen. Two variants:
- `query`: only the query side is tuned (an asymmetric query encoder, SPECTER2's ad-hoc-query idea); the papers keep
  the product's cached vectors, so nothing is re-embedded and pasted abstracts keep the product's encoder (<= 20
  words use the tuned encoder); negatives: every paper of the batch's corpus (fixed vectors).
- `both`: one encoder tuned on both sides (papers truncated to DOC_LEN tokens in training); every held-out corpus is
  re-embedded with it and every query (pasted abstracts too) is encoded with it; in-batch negatives (another query
  of the same paper is not one).
Held out: PubMed 2018-21, JATS 400, exports 223 (never seen in training), seeds 0, 1, 2 (tuning seed = query seed).
Dense = the product's cached vectors; product = its fusion (BM25 + dense, 8 x share x coverage^2, RRF k 10); tuned =
the tuned encoder's ranking in place of dense in the same fusion; tuned alone = its dense ranking. Pasted-abstract
check: each held-out paper's abstract as the query (up to 500 per corpus, seeded), target its paper.
"""

from __future__ import annotations

import json
import sys
import time
from itertools import product
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_hybrid_keywords import corpora, diff  # noqa: E402
from bench_hybrid_search import OUT, rank_of, rankings  # noqa: E402
from bench_keywords_lexical import Counts  # noqa: E402
from bench_keywords_prf import dense_top, target_rank, with_product  # noqa: E402

from core.evaluation.short_queries import per_query, queries  # noqa: E402

TRAIN_UNITS = ("pubmed1977", "medical", "arxiv4k", "arxivj10k")
HELD = ("pubmed2021", "jats", "exports")
SEEDS = (0, 1, 2)
TRAIN_QUERY_SEEDS = range(10, 15)
# fixed before measuring (the probe only timed steps)
# The probe (5 steps, load 7 on the 2 shared cores): "query" 8.5 s a step at batch 64, "both" 38 s; its in-batch
# loss was already 0.46 at step 0 (64 random papers of one corpus are easy negatives). Hence, before measuring: the
# word-embedding matrix frozen, batch 32, and in "query" mode every paper of the batch's corpus a negative (its
# vectors are cached and fixed, so the full softmax costs nothing); "both" keeps in-batch negatives.
STEPS = {"query": 200, "both": 150}
BATCH, LR, DECAY, WARMUP, SCALE, QUERY_LEN, DOC_LEN = 32, 2e-5, 0.01, 0.1, 20.0, 32, 128
METRICS = ("recall@1", "recall@10", "MRR")


def training_pairs(units: dict) -> dict[str, list[tuple[str, int]]]:
    """{"unit|kind": [(query, paper row)]} from the training corpora's benchmark queries of <= 20 words."""
    groups: dict[str, list[tuple[str, int]]] = {}
    for name in TRAIN_UNITS:
        recs = units[name][0]
        has_kw = any(r["keywords"] for r in recs)
        seen = set()
        for seed in TRAIN_QUERY_SEEDS:
            sets = queries([r["title"] for r in recs], [r["abstract"] for r in recs],
                           [r["keywords"] for r in recs] if has_kw else None, seed, max_queries=len(recs))
            for kind, (texts, targets) in sets.items():
                for text, row in zip(texts, targets.tolist()):
                    if 0 < len(text.split()) <= 20 and (text, row) not in seen:
                        seen.add((text, row))
                        groups.setdefault(f"{name}|{kind}", []).append((text, int(row)))
    return groups


def embed(model, tok, first: list[str], second: list[str], max_length: int):
    """Mean-pooled, L2-normalised vectors with gradients, tokenised as core's Encoder does (title/abstract pairs)."""
    import torch

    batch = tok(first, second, truncation="longest_first", max_length=max_length, padding=True, return_tensors="pt")
    hidden = model(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
    return torch.nn.functional.normalize((hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9), dim=-1)


def train(units: dict, groups: dict, mode: str, seed: int, steps: int | None = None) -> tuple[object, dict]:
    """The tuned AutoModel and its timing; mode "query" (papers: cached vectors) or "both" (papers encoded too)."""
    import torch
    from transformers import get_linear_schedule_with_warmup

    from core.embedding import get_model
    from core.embedding.models import load_backbone

    steps = steps or STEPS[mode]
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    tok, model = load_backbone(get_model("minilm"))
    model.train()
    model.embeddings.word_embeddings.weight.requires_grad_(False)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=LR, weight_decay=DECAY)
    sched = get_linear_schedule_with_warmup(opt, int(WARMUP * steps), steps)
    kinds = sorted({g.split("|")[1] for g in groups})
    started, losses = time.perf_counter(), []
    for step in range(steps):
        kind = kinds[rng.integers(len(kinds))]
        names = sorted(g for g in groups if g.endswith("|" + kind))
        group = names[rng.integers(len(names))]
        pool = groups[group]
        picked = [pool[i] for i in rng.choice(len(pool), size=min(BATCH, len(pool)), replace=False)]
        recs, X = units[group.split("|")[0]]
        rows = torch.tensor([row for _, row in picked])
        q = embed(model, tok, [t for t, _ in picked], [""] * len(picked), QUERY_LEN)
        if mode == "both":
            d = embed(model, tok, [recs[r]["title"] for _, r in picked], [recs[r]["abstract"] for _, r in picked],
                      DOC_LEN)
            same = (rows[:, None] == rows[None, :]) & ~torch.eye(len(rows), dtype=torch.bool)
            logits = (SCALE * q @ d.T).masked_fill(same, float("-inf"))
            loss = torch.nn.functional.cross_entropy(logits, torch.arange(len(rows)))
        else:  # every paper of the corpus is a negative: its cached vectors
            loss = torch.nn.functional.cross_entropy(SCALE * q @ torch.from_numpy(X).T, rows)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        losses.append(float(loss.detach()))
        if step % 25 == 0:
            print(f"step {step} loss {np.mean(losses[-25:]):.3f} {time.perf_counter() - started:.0f}s", flush=True)
    model.eval()
    return model, {"steps": steps, "train_s": round(time.perf_counter() - started, 1),
                   "loss_first25": round(float(np.mean(losses[:25])), 3),
                   "loss_last25": round(float(np.mean(losses[-25:])), 3)}


def encoder_with(model):
    """core's Encoder (the product's encoding path) carrying the tuned weights (None: the packaged ones)."""
    from core.embedding import Encoder, get_model

    enc = Encoder(get_model("minilm"), device="cpu", batch_size=32, fast=False)
    if model is not None:
        enc.model.load_state_dict(model.state_dict())
    enc.model.eval()
    return enc


def abstract_queries(recs: list[dict], seed: int, n: int = 500) -> tuple[list[str], np.ndarray]:
    rows = np.flatnonzero([bool(r["title"].strip()) and len(r["abstract"].split()) > 20 for r in recs])
    rows = np.sort(np.random.default_rng(seed).permutation(rows)[:n])
    return [recs[i]["abstract"] for i in rows], rows


def measure(units: dict, mode: str, seed: int, enc, base) -> tuple[dict, dict]:
    """Held-out rows (each kind's metrics and paired differences) and timing, for one tuned encoder."""
    rows, timing = {}, {"encode_docs_s": 0.0, "encode_queries_s": 0.0}
    for name in HELD:
        recs, X = units[name]
        counts = Counts(recs)
        X2 = X
        if mode == "both":
            t0 = time.perf_counter()
            X2 = enc.encode([(r["title"], r["abstract"]) for r in recs])
            timing["encode_docs_s"] += time.perf_counter() - t0
        data = rankings(recs, X, name, seed)
        texts, targets = abstract_queries(recs, seed)
        t0 = time.perf_counter()
        A0 = base.encode([(t, "") for t in texts])  # the product's vector of a pasted abstract
        A1 = enc.encode([(t, "") for t in texts])
        timing["encode_queries_s"] += time.perf_counter() - t0
        data["abstract"] = {"targets": targets, "dense": dense_top(A0, X), "tuned": dense_top(A1, X2)}
        for kind, d in data.items():
            if kind == "abstract":
                m = {"dense": per_query(rank_of(d["dense"], targets)),
                     "tuned": per_query(rank_of(d["tuned"], targets))}
            else:
                with_product(d, counts)
                t0 = time.perf_counter()
                Q = enc.encode([(t, "") for t in d["texts"]])
                timing["encode_queries_s"] += time.perf_counter() - t0
                lists = dense_top(Q, X2)
                use = np.array([mode == "both" or 0 < n <= 20 for n in d["words"]])
                alone = rank_of(lists, d["targets"])
                fused = np.array([d["product"][i] if not use[i] else
                                  target_rank([lists[i], d["lexical"][i]], [1.0, d["w"][i]], int(t))
                                  if d["w"][i] > 0 else alone[i] for i, t in enumerate(d["targets"])])
                m = {"dense": per_query(rank_of(d["dense"], d["targets"])),
                     "bm25": per_query(rank_of(d["lexical"], d["targets"])), "product": per_query(d["product"]),
                     "tuned alone": per_query(np.where(use, alone, rank_of(d["dense"], d["targets"]))),
                     "tuned": per_query(fused)}
            row: dict = {"n": len(d["targets"])}
            for metric in METRICS:
                row.update({f"{k} {metric}": round(100 * float(v[metric].mean()), 1) for k, v in m.items()})
                row[f"tuned-dense {metric}"] = diff(m["tuned"], m["dense"], metric, seed)
                if "product" in m:
                    row[f"tuned-product {metric}"] = diff(m["tuned"], m["product"], metric, seed)
                    row[f"product-dense {metric}"] = diff(m["product"], m["dense"], metric, seed)
                    row[f"tuned alone-dense {metric}"] = diff(m["tuned alone"], m["dense"], metric, seed)
            rows[f"{name} s{seed} {kind}"] = row
        print(name, seed, {k: v for k, v in rows[f"{name} s{seed} keywords"].items() if "recall@10" in k}
              if f"{name} s{seed} keywords" in rows else "", flush=True)
    return rows, {k: round(v, 1) for k, v in timing.items()}


def check_encoder(units: dict, base) -> float:
    """Largest |difference| between the cached query vectors and core's Encoder here (the same encoding path)."""
    from hybrid_data import query_vectors

    d = rankings(*units["exports"], "exports", 0)["keywords"]
    return float(np.abs(base.encode([(t, "") for t in d["texts"]]) - query_vectors("exports-s0", "keywords",
                                                                                   d["texts"])).max())


def main(mode: str, seeds: tuple[int, ...] = SEEDS) -> dict:
    started = time.time()
    units = corpora()
    groups = training_pairs(units)
    base = encoder_with(None)
    found: dict = {"pairs": {g: len(p) for g, p in groups.items()}, "encoder_check": check_encoder(units, base),
                   "timing": {}, "held_out": {}}
    print(found["pairs"], found["encoder_check"], flush=True)
    for seed in seeds:
        model, timing = train(units, groups, mode, seed)
        rows, more = measure(units, mode, seed, encoder_with(model), base)
        found["timing"][seed] = timing | more
        found["held_out"].update(rows)
        print(seed, found["timing"][seed], flush=True)
        save(f"heldout_28j_encoder_{mode}", found | {"seconds": round(time.time() - started)})  # each seed kept
    found["seconds"] = round(time.time() - started)
    return found


def save(key: str, value: dict) -> None:
    previous = json.loads(OUT.read_text()) if OUT.exists() else {}
    previous[key] = value
    OUT.write_text(json.dumps(previous, indent=1))


def table(found: dict, kind: str, metric: str) -> str:
    """Markdown: per held-out set of `kind`: n, dense, product, tuned alone, tuned; differences with 95 % intervals."""
    cols = ("tuned-dense", "tuned-product", "product-dense", "tuned alone-dense")
    head = ["held out (seed)", "n", "dense", "product", "tuned alone", "tuned", *(c.replace("-", " − ") for c in cols)]
    if kind == "abstract":
        cols, head = ("tuned-dense",), ["held out (seed)", "n", "dense", "tuned", "tuned − dense"]
    lines = ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for name, row in found["held_out"].items():
        unit, seed, k = name.split(" ")
        if k != kind:
            continue
        shown = ("dense", "tuned") if kind == "abstract" else ("dense", "product", "tuned alone", "tuned")
        cells = [f"{unit} ({seed[1:]})", str(row["n"]), *(f"{row[f'{m} {metric}']:.1f}" for m in shown)]
        for c in cols:
            lo_hi = row[f"{c} {metric}"]
            text = "{:+.1f} ({:+.1f} to {:+.1f})".format(*lo_hi)
            cells.append(f"**{text}**" if lo_hi[1] > 0 or lo_hi[2] < 0 else text)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def probe() -> None:
    """Seconds per training step of each mode (5 steps), to size STEPS; nothing measured."""
    units = corpora()
    groups = training_pairs(units)
    print({g: len(p) for g, p in groups.items()})
    for mode in ("query", "both"):
        print(mode, train(units, groups, mode, 0, steps=5)[1], flush=True)


if __name__ == "__main__":
    import torch

    torch.set_num_threads(2)
    if sys.argv[1:2] == ["tables"]:  # the markdown of a saved (perhaps partial) run
        saved = json.loads(OUT.read_text())[f"heldout_28j_encoder_{sys.argv[2]}"]
        for kind, metric in product(("keywords", "title", "abstract"), METRICS):
            print(f"\n{kind}, {metric}\n" + table(saved, kind, metric))
        sys.exit(0)
    if sys.argv[1:2] == ["probe"]:
        probe()
        sys.exit(0)
    variant = sys.argv[1] if sys.argv[1:2] in (["query"], ["both"]) else "query"
    result = main(variant, tuple(int(s) for s in sys.argv[2:]) or SEEDS)
    save(f"heldout_28j_encoder_{variant}", result)
    print(json.dumps({k: result[k] for k in ("pairs", "encoder_check", "timing", "seconds")}, indent=1))
    for kind, metric in product(("keywords", "title"), METRICS):
        print(f"\n{kind}, {metric}\n" + table(result, kind, metric))
    for metric in METRICS:
        print(f"\nabstract, {metric}\n" + table(result, "abstract", metric))
