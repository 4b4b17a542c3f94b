"""BENCHMARKS §28i: a query-side adapter for short queries, trained here on cached vectors, each corpus left out.

    MIREAD_BENCH_DATA=/work/shared/data nice -n 10 .venv/bin/python benchmarks/bench_query_adapter.py
    MIREAD_BENCH_DATA=/work/shared/data nice -n 10 .venv/bin/python benchmarks/bench_query_adapter.py early
    MIREAD_BENCH_DATA=/work/shared/data nice -n 10 .venv/bin/python benchmarks/bench_query_adapter.py corpus
    MIREAD_BENCH_DATA=/work/shared/data nice -n 10 .venv/bin/python benchmarks/bench_query_adapter.py insample

A query of <= 20 words is encoded as today (cached minilm vectors of §28f-§28h, seeds 0, 1, 2) and mapped
q' = normalise(q + A q), A = 0 at the start (full 384 x 384, or U V^T of rank 32 with U = 0), trained with in-batch
InfoNCE so that q' lands near its paper's (unchanged, cached) document vector. Variants: q''s ranking alone, q''s
ranking in place of q's in the product's fusion with BM25 ("swap"), or as a third list (weight w3). Each fold (one
unit held out) scores every configuration on each training unit with an adapter trained without that unit as well
(inner leave-one-out), units weighted equally (mean of the unit's MRR over its title + keyword queries of <= 20
words, three seeds), ties to the product; the choice is retrained on the six units and measured on the one left out.
Beside it (not chosen): the fold's best adapter fitted on the held-out unit's own queries ("own"; the product's
would-be fit), and on those plus the training units' pairs ("loco+own"), cross-fitted over two halves of the unit's
papers (odd / even rows): the queries of one half's papers are measured with the adapter fitted on the other half's.
"""

from __future__ import annotations

import json
import sys
import time
from itertools import combinations, product
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_hybrid_keywords import UNIT, corpora, diff  # noqa: E402
from bench_hybrid_search import OUT, rank_of, rankings  # noqa: E402
from bench_keywords_lexical import Counts, unit_score  # noqa: E402
from bench_keywords_prf import dense_top, target_rank, with_product  # noqa: E402
from hybrid_data import query_vectors  # noqa: E402

from core.evaluation.short_queries import per_query  # noqa: E402

SEEDS = (0, 1, 2)
ADAPTERS = [(r, tau) for r in (32, 0) for tau in (0.03, 0.05, 0.1)]  # rank (0 = full), temperature
# Round 2 (`early`): round 1's adapters fit their own training pairs almost perfectly (in-sample keyword MRR 94-100
# against 51-81 for the identity) and lost held out; fewer steps keep A small. tau 0.1: every fold's best in round 1.
EARLY = [(r, 0.1, steps) for r in (8, 0) for steps in (15, 40, 100)]
# Round 3 (`corpus`): round 2's grid with every batch drawn from one corpus (in-batch negatives of the same corpus).
CORPUS = [(*a, "corpus") for a in EARLY]
MODES = (("alone", 0.0), ("swap", 1.0), ("third", 0.5), ("third", 1.0), ("third", 2.0))
CONFIGS = [(a, m) for a in ADAPTERS for m in MODES]
PRODUCT = ("product",)
FAMILIES = {"alone": lambda c: c[1][0] == "alone", "swap": lambda c: c[1][0] == "swap",
            "third": lambda c: c[1][0] == "third", "all": lambda c: True}
STEPS, BATCH, LR, DECAY = 300, 512, 2e-3, 1e-2  # fixed before measuring


def load(only: tuple[str, ...] = (), seeds: tuple[int, ...] = SEEDS) -> tuple[dict, dict, dict]:
    """(query sets by (name, seed) and kind with vectors, product ranks; document vectors by name; groups by unit)."""
    data, docs, groups = {}, {}, {}
    for name, (recs, X) in corpora().items():
        if only and name not in only:
            continue
        docs[name] = X
        counts = Counts(recs)
        for seed in seeds:
            data[(name, seed)] = rankings(recs, X, name, seed)
            for kind, d in data[(name, seed)].items():
                with_product(d, counts)
                d["Q"] = query_vectors(f"{name}-s{seed}", kind, d["texts"])
                d["short"] = np.array([0 < n <= 20 for n in d["words"]])
                groups.setdefault(UNIT.get(name, name), []).append(((name, seed), kind, d["short"]))
            print(name, seed, flush=True)
    return data, docs, groups


def pairs(data: dict, docs: dict, units: set[str], skip=None, seeds: tuple[int, ...] = SEEDS) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(query vectors, their papers' vectors, paper keys, group ids) of the <= 20-word queries of `units` and
    `seeds`, duplicates dropped; `skip(unit, row)`: papers never trained on (the measured ones)."""
    seen, q, t, key, group = set(), [], [], [], []
    for (name, seed), kinds in data.items():
        unit = UNIT.get(name, name)
        if unit not in units or seed not in seeds:
            continue
        for kind, d in kinds.items():
            for i in np.flatnonzero(d["short"]):
                row = int(d["targets"][i])
                if (skip and skip(unit, row)) or (unit, row, d["texts"][i]) in seen:
                    continue
                seen.add((unit, row, d["texts"][i]))
                q.append(d["Q"][i])
                t.append(docs[name][row])
                key.append(hash((unit, row)))
                group.append(f"{unit}|{kind}")
    return np.array(q), np.array(t), np.array(key), np.array(group)


def train(Q: np.ndarray, T: np.ndarray, keys: np.ndarray, groups: np.ndarray, rank: int, tau: float,
          steps: int = STEPS, negatives: str = "mixed", seed: int = 0) -> np.ndarray:
    """The adapter's matrix A (q' = normalise(q + A q)), trained by in-batch InfoNCE; batches drawn with each
    ("unit|kind") group weighted equally, from all units ("mixed") or from one unit a step, units in turn at random
    ("corpus": the negatives are papers of the same corpus); another query of the same paper is not a negative."""
    import torch

    torch.manual_seed(seed)
    dim = Q.shape[1]
    if rank:
        U = torch.zeros(dim, rank, requires_grad=True)
        V = torch.nn.Parameter(torch.randn(dim, rank) / dim ** 0.5)
        params, matrix = [U, V], (lambda: U @ V.T)
    else:
        A = torch.zeros(dim, dim, requires_grad=True)
        params, matrix = [A], (lambda: A)
    opt = torch.optim.AdamW(params, lr=LR, weight_decay=DECAY)
    _, inv, sizes = np.unique(groups, return_inverse=True, return_counts=True)
    prob = 1.0 / sizes[inv]
    prob /= prob.sum()
    rng = np.random.default_rng(seed)
    q_all, t_all, k_all = torch.from_numpy(Q.astype(np.float32)), torch.from_numpy(T.astype(np.float32)), \
        torch.from_numpy(keys)
    unit_of = np.array([g.split("|")[0] for g in groups])
    members = {u: np.flatnonzero(unit_of == u) for u in np.unique(unit_of)}
    for _ in range(steps):
        pool = members[rng.choice(sorted(members))] if negatives == "corpus" else np.arange(len(Q))
        p = prob[pool] / prob[pool].sum()
        idx = torch.from_numpy(pool[rng.choice(len(pool), size=min(BATCH, len(pool)), replace=False, p=p)])
        q, t, k = q_all[idx], t_all[idx], k_all[idx]
        qp = torch.nn.functional.normalize(q + q @ matrix().T, dim=1)
        logits = qp @ t.T / tau
        same = (k[:, None] == k[None, :]) & ~torch.eye(len(k), dtype=torch.bool)
        logits = logits.masked_fill(same, float("-inf"))
        loss = torch.nn.functional.cross_entropy(logits, torch.arange(len(k)))
        opt.zero_grad()
        loss.backward()
        opt.step()
    return matrix().detach().numpy().astype(np.float32)


def adapted(Q: np.ndarray, A: np.ndarray) -> np.ndarray:
    Qp = Q + Q @ A.T
    return Qp / np.linalg.norm(Qp, axis=1, keepdims=True)


def mode_ranks(d: dict, lists: list[np.ndarray], mode: tuple[str, float]) -> np.ndarray:
    """Target ranks with q''s top DEPTH (`lists`) used as `mode`; queries of > 20 words keep the product's rank."""
    out = d["product"].copy()
    for i in np.flatnonzero(d["short"]):
        t, w, prime = int(d["targets"][i]), d["w"][i], lists[i]
        if mode[0] == "alone" or (mode[0] == "swap" and w <= 0):
            hit = np.flatnonzero(prime == t)
            out[i] = float(hit[0] + 1) if len(hit) else np.inf
        elif mode[0] == "swap":
            out[i] = target_rank([prime, d["lexical"][i]], [1.0, w], t)
        elif w > 0:
            out[i] = target_rank([d["dense"][i], d["lexical"][i], prime], [1.0, w, mode[1]], t)
        else:
            out[i] = target_rank([d["dense"][i], prime], [1.0, mode[1]], t)
    return out


def evaluate(data: dict, docs: dict, groups: dict, unit: str, A: np.ndarray,
             seeds: tuple[int, ...] = SEEDS) -> dict:
    """{mode: {(key, kind): target ranks}} on `unit`'s query sets of `seeds` with adapter A."""
    out: dict = {m: {} for m in MODES}
    for key, kind, _ in groups[unit]:
        if key[1] not in seeds:
            continue
        d = data[key][kind]
        lists = dense_top(adapted(d["Q"], A), docs[key[0]])
        for m in MODES:
            out[m][(key, kind)] = mode_ranks(d, lists, m)
    return out


def rows_for(data: dict, groups: dict, unit: str, ranks: dict, seeds: tuple[int, ...] = SEEDS) -> dict:
    """Held-out rows: each method's recall@1/@10 and MRR, and the paired differences with 95 % intervals."""
    out = {}
    for key, kind, _ in groups[unit]:
        if key[1] not in seeds:
            continue
        d = data[key][kind]
        m = {"dense": per_query(rank_of(d["dense"], d["targets"])),
             "bm25": per_query(rank_of(d["lexical"], d["targets"])), "product": per_query(d["product"])}
        m.update({name: per_query(r[(key, kind)]) for name, r in ranks.items()})
        row: dict = {"n": len(d["targets"])}
        for metric in ("recall@1", "recall@10", "MRR"):
            for name, v in m.items():
                row[f"{name} {metric}"] = round(100 * float(v[metric].mean()), 1)
            for name in ranks:
                row[f"{name}-product {metric}"] = diff(m[name], m["product"], metric, key[1])
                row[f"{name}-dense {metric}"] = diff(m[name], m["dense"], metric, key[1])
        out[f"{key[0]} s{key[1]} {kind}"] = row
    return out


def main() -> dict:
    started = time.time()
    data, docs, groups = load()
    units = sorted(groups)
    product_score = {u: unit_score({(key, kind): data[key][kind]["product"] for key, kind, _ in g}, g)
                     for u, g in groups.items()}
    inner: dict = {}  # (held, unit) -> {config: unit score}, adapter trained without both
    timing = {"train_s": 0.0, "eval_s": 0.0, "trainings": 0}
    for a, b in combinations(units, 2):
        P = pairs(data, docs, set(units) - {a, b})
        for adapter in ADAPTERS:
            t0 = time.perf_counter()
            A = train(*P, *adapter)
            t1 = time.perf_counter()
            for held, u in ((a, b), (b, a)):
                ranks = evaluate(data, docs, groups, u, A)
                for m in MODES:
                    inner.setdefault((held, u), {})[(adapter, m)] = unit_score(ranks[m], groups[u])
            timing["train_s"] += t1 - t0
            timing["eval_s"] += time.perf_counter() - t1
            timing["trainings"] += 1
        print(a, b, {k: round(v) for k, v in timing.items()}, flush=True)
    found: dict = {"pairs": {}, "chosen_without": {}, "inner_scores": {}, "held_out": {}}

    def pick(held: str, family: str, train_units: list[str]) -> tuple:
        pool = [PRODUCT] + [c for c in CONFIGS if FAMILIES[family](c)]

        def score(c: tuple) -> float:
            return float(np.mean([product_score[u] if c == PRODUCT else inner[(held, u)][c] for u in train_units]))
        return max(pool, key=lambda c: (score(c), c == PRODUCT))

    for held in units:
        train_units = [u for u in units if u != held]
        chosen = {f: pick(held, f, train_units) for f in FAMILIES}
        best_adapter = max(CONFIGS, key=lambda c: np.mean([inner[(held, u)][c] for u in train_units]))
        found["chosen_without"][held] = {f: list(c) for f, c in chosen.items()} | {"best adapter": list(best_adapter)}
        found["inner_scores"][held] = {"product": round(100 * float(np.mean([product_score[u] for u in train_units])),
                                                        2)} | {
            str(c): round(100 * float(np.mean([inner[(held, u)][c] for u in train_units])), 2) for c in CONFIGS}
        P = pairs(data, docs, set(train_units))
        found["pairs"][held] = int(len(P[0]))
        trained = {a: train(*P, *a) for a in {c[0] for c in [*chosen.values(), best_adapter] if c != PRODUCT}}
        evals = {a: evaluate(data, docs, groups, held, A) for a, A in trained.items()}
        ranks = {f: (evals[c[0]][c[1]] if c != PRODUCT else
                     {(key, kind): data[key][kind]["product"] for key, kind, _ in groups[held]})
                 for f, c in chosen.items()}
        ranks["adapter alone"] = evals[best_adapter[0]][("alone", 0.0)]
        ranks["best adapter"] = evals[best_adapter[0]][best_adapter[1]]
        rows = rows_for(data, groups, held, ranks)
        for name in ("own", "loco+own"):  # two halves of the unit's papers: fit on one half's queries, measure the other
            extra: dict = {name: {}, name + " alone": {}}
            for half in (0, 1):
                own = pairs(data, docs, {held}, skip=lambda unit, row, h=half: row % 2 == h)
                fit = own if name == "own" else tuple(np.concatenate([x, y]) for x, y in zip(own, P))
                found["pairs"][f"{held} {name} half {half}"] = int(len(fit[0]))
                ranks_h = evaluate(data, docs, groups, held, train(*fit, *best_adapter[0]))
                for label, m in ((name, best_adapter[1]), (name + " alone", ("alone", 0.0))):
                    for key_kind, r in ranks_h[m].items():
                        targets = data[key_kind[0]][key_kind[1]]["targets"]
                        mine = extra[label].setdefault(key_kind, np.full(len(targets), np.nan))
                        mine[targets % 2 == half] = r[targets % 2 == half]
            for label, row in rows_for(data, groups, held, extra).items():
                rows[label].update({k: v for k, v in row.items() if k.split(" ")[0].split("-")[0] == name})
        found["held_out"].update(rows)
        print(held, found["chosen_without"][held], flush=True)
    found["timing"] = {k: round(v) for k, v in timing.items()}
    found["seconds"] = round(time.time() - started)
    return found


def in_sample() -> dict:
    """Diagnostic (not held out): adapters trained and scored on the same pairs, the seed-0 queries of the keyword
    units PubMed 1977-79, JATS and exports; MRR of <= 20-word queries per set with q' vs the identity, and |A|."""
    data, docs, groups = load(("pubmed1977", "jats", "exports"), (0,))
    fit = pairs(data, docs, set(groups), seeds=(0,))

    def mrr(A: np.ndarray | None) -> dict:
        out = {}
        for (name, _), kinds in data.items():
            for kind, d in kinds.items():
                lists = dense_top(d["Q"] if A is None else adapted(d["Q"], A), docs[name])
                out[f"{name} {kind}"] = round(100 * float(per_query(rank_of(lists, d["targets"]))["MRR"][d["short"]]
                                                          .mean()), 2)
        return out
    found: dict = {"identity": mrr(None)}
    for rank, tau in ((32, 0.1), (0, 0.05), (0, 0.1)):
        A = train(*fit, rank, tau)
        found[f"rank {rank or 'full'}, tau {tau}"] = {"norm A": round(float(np.linalg.norm(A)), 2), **mrr(A)}
    return found


def table(found: dict, kind: str, metric: str, methods: tuple[str, ...]) -> str:
    """Markdown: per held-out set of `kind`, dense / product / each method, and method − product, method − dense."""
    head = ["held out (seed)", "n", "dense", "product", *methods, *(f"{m} − product" for m in methods),
            *(f"{m} − dense" for m in methods)]
    lines = ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for name, row in found["held_out"].items():
        unit, seed, k = name.split(" ")
        if k != kind:
            continue
        cells = [f"{unit} ({seed[1:]})", str(row["n"])]
        cells += [f"{row[f'{m} {metric}']:.1f}" for m in ("dense", "product", *methods)]
        for ref in ("product", "dense"):
            for m in methods:
                lo_hi = row[f"{m}-{ref} {metric}"]
                text = "{:+.1f} ({:+.1f} to {:+.1f})".format(*lo_hi)
                cells.append(f"**{text}**" if lo_hi[1] > 0 or lo_hi[2] < 0 else text)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    import torch

    torch.set_num_threads(1)  # 2 threads on 2 shared cores stalled trainings 5-10x in a trial
    if sys.argv[1:2] == ["insample"]:
        print(json.dumps(in_sample(), indent=1))
        sys.exit(0)
    variant = sys.argv[1] if sys.argv[1:2] in (["early"], ["corpus"]) else ""
    if variant:
        ADAPTERS[:] = EARLY if variant == "early" else CORPUS
        CONFIGS[:] = [(a, m) for a in ADAPTERS for m in MODES]
    result = main()
    previous = json.loads(OUT.read_text()) if OUT.exists() else {}
    previous["loco_28i_adapter" + (f"_{variant}" if variant else "")] = result
    OUT.write_text(json.dumps(previous, indent=1))
    print(json.dumps({k: result[k] for k in ("chosen_without", "pairs", "timing", "seconds")}, indent=1))
    for kind, metric in product(("keywords", "title"), ("recall@10", "recall@1", "MRR")):
        print(f"\n{kind}, {metric}\n" + table(result, kind, metric, ("all", "adapter alone", "own", "loco+own")))
