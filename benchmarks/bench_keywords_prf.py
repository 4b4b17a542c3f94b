"""BENCHMARKS §28h: a third signal for short queries, pseudo-relevance feedback, chosen leaving each corpus out.

    MIREAD_BENCH_DATA=/work/shared/data nice -n 10 .venv/bin/python benchmarks/bench_keywords_prf.py
    MIREAD_BENCH_DATA=/work/shared/data nice -n 10 .venv/bin/python benchmarks/bench_keywords_prf.py seed 2
    MIREAD_BENCH_DATA=/work/shared/data nice -n 10 .venv/bin/python benchmarks/bench_keywords_prf.py ceiling
    nice -n 10 .venv/bin/python benchmarks/bench_keywords_prf.py cost 100000     # and 1000000

Same units, seeds, queries and cached vectors as §28f/§28g (benchmarks/bench_hybrid_keywords.py). The baseline is
the product's fusion (8 x share x coverage^2, RRF k 10). Variants, applied only where the product fuses (<= 20 words,
some word known): dense PRF (Rocchio: q' = normalise(q + beta x mean of the top-m papers' vectors), the top m from
the fused or the BM25 ranking; q''s ranking fused as a third list, swapped for q's, or alone) and lexical PRF
(RM3-style: the top-t stems of the top-m BM25 papers added to the query). Each fold chooses, per family and over
all, the configuration with the best mean over its six training units of the unit's MRR (title + keyword queries of
<= 20 words, both seeds, units weighted equally; ties to the product), measured on the unit left out.
"""

from __future__ import annotations

import json
import os
import sys
import time
from itertools import product
from pathlib import Path

import numpy as np
from scipy import sparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_hybrid_keywords import SEEDS, UNIT, corpora, diff  # noqa: E402
from bench_hybrid_search import DEPTH, OUT, rank_of, rankings  # noqa: E402
from bench_keywords_lexical import BASE, Counts, coverage, fusion_ranks, top, unit_score  # noqa: E402
from hybrid_data import query_vectors  # noqa: E402

from core.evaluation.short_queries import per_query  # noqa: E402
from core.explore.search import hybrid  # noqa: E402

PRODUCT_RULE = (hybrid.RRF_K, "coverage", 8.0, hybrid.COVERAGE_POWER)  # the product's fusion since §28g
SOURCES, MS, BETAS = ("fused", "bm25"), (3, 5, 10), (0.5, 1.0, 2.0)
MODES = (("third", 0.5), ("third", 1.0), ("third", 2.0), ("swap", 1.0), ("only", 1.0))
ROCCHIO = [("rocchio", s, m, b, mode, w3) for s, m, b in product(SOURCES, MS, BETAS) for mode, w3 in MODES]
RM3 = [("rm3", m, t, lam) for m in (3, 5, 10) for t in (5, 10, 20) for lam in (0.5, 0.7)]
PRODUCT = ("product",)
FAMILIES = {"rocchio third": lambda c: c[0] == "rocchio" and c[4] == "third",
            "rocchio swap": lambda c: c[0] == "rocchio" and c[4] == "swap",
            "rocchio only": lambda c: c[0] == "rocchio" and c[4] == "only",
            "rm3": lambda c: c[0] == "rm3", "all": lambda c: True}


def product_weight(d: dict) -> np.ndarray:
    """The product's lexical weight per query (hybrid.lexical_weight with the query's coverage)."""
    return np.array([0.0 if n == 0 or n > 20 or s <= 0 else 8.0 * s * c ** hybrid.COVERAGE_POWER
                     for n, s, c in zip(d["words"], d["known"], d["coverage"])])


def with_product(d: dict, counts: Counts) -> None:
    """A query set's coverage, the product's lexical weight and the product's fused ranks, added in place."""
    d["coverage"] = coverage(counts, d["texts"])
    d["w"] = product_weight(d)
    d["product"] = fusion_ranks(d, PRODUCT_RULE)


def target_rank(lists: list[np.ndarray], weights: list[float], target: int, rrf_k: int = hybrid.RRF_K) -> float:
    """The target's 1-based rank in hybrid.fuse(lists, weights, DEPTH) (every weight > 0), inf outside it."""
    lists = [np.asarray(x)[np.asarray(x) >= 0] for x in lists]
    rows = np.concatenate(lists)
    contrib = np.concatenate([w / (rrf_k + np.arange(1, len(x) + 1)) for x, w in zip(lists, weights)])
    uniq, first, inv = np.unique(rows, return_index=True, return_inverse=True)
    score = np.zeros(len(uniq))
    np.add.at(score, inv, contrib)
    hit = np.searchsorted(uniq, target)
    if hit >= len(uniq) or uniq[hit] != target:
        return np.inf
    s, f = score[hit], first[hit]
    ahead = int((score > s).sum() + ((score == s) & (first < f)).sum())
    return float(ahead + 1) if ahead < DEPTH else np.inf


def check_target_rank(trials: int = 2000) -> None:
    """target_rank equals the rank in hybrid.fuse on random triples of lists and weights."""
    rng = np.random.default_rng(0)
    for _ in range(trials):
        lists = [rng.choice(300, size=int(rng.integers(1, 200)), replace=False) for _ in range(3)]
        weights = [1.0, float(rng.choice([0.5, 1, 2, 8])), float(rng.choice([0.5, 1, 2]))]
        target = int(rng.choice(np.concatenate(lists)))
        hit = np.flatnonzero(hybrid.fuse(lists, weights, DEPTH) == target)
        assert target_rank(lists, weights, target) == (float(hit[0] + 1) if len(hit) else np.inf)


def dense_top(Qp: np.ndarray, X: np.ndarray) -> list[np.ndarray]:
    """Per query vector: the top DEPTH papers by inner product, ties by row (as rankings())."""
    out = []
    for sims in Qp @ X.T:
        t = np.argpartition(-sims, DEPTH)[:DEPTH]
        out.append(t[np.lexsort((t, -sims[t]))])
    return out


def rocchio_lists(d: dict, Q: np.ndarray, X: np.ndarray, source: str, m: int, beta: float) -> list | None:
    """q''s top DEPTH per query (None where PRF does not apply: the product does not fuse)."""
    Qp = Q.astype(np.float64).copy()
    apply = d["w"] > 0
    for i in np.flatnonzero(apply):
        fb = d["fused_top"][i][:m] if source == "fused" else d["lexical"][i][:m]
        fb = fb[fb >= 0]
        if len(fb):
            Qp[i] = Qp[i] + beta * X[fb].astype(np.float64).mean(axis=0)
    Qp /= np.linalg.norm(Qp, axis=1, keepdims=True)
    lists = dense_top(Qp.astype(np.float32), X)
    return [lists[i] if apply[i] else None for i in range(len(lists))]


def rocchio_ranks(d: dict, prf: list, mode: str, w3: float) -> np.ndarray:
    out = np.empty(len(d["targets"]))
    for i, t in enumerate(d["targets"]):
        dense, lex, w = d["dense"][i], d["lexical"][i], d["w"][i]
        if prf[i] is None:
            out[i] = d["product"][i]
        elif mode == "third":
            out[i] = target_rank([dense, lex, prf[i]], [1.0, w, w3], int(t))
        elif mode == "swap":
            out[i] = target_rank([prf[i], lex], [1.0, w], int(t))
        else:
            hit = np.flatnonzero(prf[i] == t)
            out[i] = float(hit[0] + 1) if len(hit) else np.inf
    return out


class Expander:
    """RM3-style expansion of a unit's queries: the top-m BM25 papers' stem distributions, weighted by each paper's
    normalised BM25 score; the top t stems mixed with the query's own (lambda of the weight on the query)."""

    def __init__(self, counts: Counts):
        self.c = counts
        self.W = counts.weights(*BASE[:3])
        lengths = np.asarray(counts.full.sum(axis=1)).ravel()
        self.P = (sparse.diags(1.0 / np.maximum(lengths, 1)) @ counts.full.tocsr()).tocsr()
        self._memo: dict = {}

    def lists(self, d: dict, m: int, t: int, lam: float) -> list:
        q = self.c.query(d["texts"]).tocsr()
        rows, cols, vals = [], [], []
        for i, own, (e_cols, e_vals) in self.feedback(d, q, m):
            e_cols, e_vals = e_cols[:t], e_vals[:t] / e_vals[:t].sum()
            rows += [i] * (len(own) + len(e_cols))
            cols += own.tolist() + e_cols.tolist()
            vals += [lam / len(own)] * len(own) + ((1 - lam) * e_vals).tolist()
        Qx = sparse.csr_matrix((vals, (rows, cols)), shape=q.shape)  # duplicates summed
        expanded = top((Qx @ self.W.T).toarray().astype(np.float32))
        return [expanded[i] if Qx.indptr[i + 1] > Qx.indptr[i] else None for i in range(q.shape[0])]

    def feedback(self, d: dict, q: sparse.csr_matrix, m: int) -> list:
        """Per fused query with known stems: (row, its stems, (stems, weights) of the feedback model, best first)."""
        key = (id(d), m)
        if key not in self._memo:
            base = (q @ self.W.T).toarray()
            out = []
            for i in np.flatnonzero(d["w"] > 0):
                own = q.indices[q.indptr[i]:q.indptr[i + 1]]
                fb = d["lexical"][i][:m]
                fb = fb[fb >= 0]
                s = base[i, fb]
                if not len(own) or not len(fb) or s.sum() <= 0:
                    continue
                parts = [(self.P.indices[self.P.indptr[r]:self.P.indptr[r + 1]],
                          w * self.P.data[self.P.indptr[r]:self.P.indptr[r + 1]]) for r, w in zip(fb, s / s.sum())]
                stems, inv = np.unique(np.concatenate([p[0] for p in parts]), return_inverse=True)
                weights = np.zeros(len(stems))
                np.add.at(weights, inv, np.concatenate([p[1] for p in parts]))
                order = np.argsort(-weights, kind="stable")
                out.append((int(i), own, (stems[order], weights[order])))
            self._memo[key] = out
        return self._memo[key]


def rm3_ranks(d: dict, lex: list) -> np.ndarray:
    return np.array([d["product"][i] if lex[i] is None or not len(lex[i]) else
                     target_rank([d["dense"][i], lex[i]], [1.0, d["w"][i]], int(t))
                     for i, t in enumerate(d["targets"])])


def load(seeds: tuple[int, ...] = SEEDS) -> tuple[dict, dict, dict]:
    """(query sets by (unit, seed) and kind with product ranks, fused tops, PRF ranks by config; units' groups)."""
    data, groups, timing = {}, {}, {"rocchio_s": 0.0, "rm3_s": 0.0}
    only = os.environ.get("MIREAD_PRF_UNITS")  # a trial on some units: "pubmed2021,jats"
    for name, (recs, X) in corpora().items():
        if only and name not in only.split(","):
            continue
        counts = Counts(recs)
        expander = Expander(counts)
        for seed in seeds:
            data[(name, seed)] = rankings(recs, X, name, seed)
            for kind, d in data[(name, seed)].items():
                with_product(d, counts)
                mine = np.array([target_rank([d["dense"][i], d["lexical"][i]], [1.0, w], int(t)) if w > 0 else
                                 rank_of([d["dense"][i]], np.array([t]))[0]
                                 for i, (t, w) in enumerate(zip(d["targets"], d["w"]))])
                assert np.array_equal(mine, d["product"]), (name, seed, kind)
                d["fused_top"] = [hybrid.fuse([d["dense"][i], d["lexical"][i]], [1.0, w], 10) if w > 0 else
                                  d["dense"][i][:10] for i, w in enumerate(d["w"])]
                Q = query_vectors(f"{name}-s{seed}", kind, d["texts"])
                d["ranks"] = {PRODUCT: d["product"]}
                started = time.perf_counter()
                for source, m, beta in product(SOURCES, MS, BETAS):
                    prf = rocchio_lists(d, Q, X, source, m, beta)
                    for mode, w3 in MODES:
                        d["ranks"][("rocchio", source, m, beta, mode, w3)] = rocchio_ranks(d, prf, mode, w3)
                timing["rocchio_s"] += time.perf_counter() - started
                started = time.perf_counter()
                for config in RM3:
                    d["ranks"][config] = rm3_ranks(d, expander.lists(d, *config[1:]))
                timing["rm3_s"] += time.perf_counter() - started
                short = np.array([0 < n <= 20 for n in d["words"]])
                groups.setdefault(UNIT.get(name, name), []).append(((name, seed), kind, short))
                print(name, seed, kind, len(d["targets"]), {k: round(v) for k, v in timing.items()}, flush=True)
    return data, groups, timing


def main() -> dict:
    started = time.time()
    check_target_rank()
    data, groups, timing = load()
    configs = [PRODUCT, *ROCCHIO, *RM3]
    score = {c: {u: unit_score({(key, kind): data[key][kind]["ranks"][c] for key, kind, _ in g}, g)
                 for u, g in groups.items()} for c in configs}
    found: dict = {"timing": {k: round(v) for k, v in timing.items()},
                   "score": {str(c): v for c, v in score.items()}, "chosen_without": {}, "held_out": {}}

    def pick(train: list[str], family: str) -> tuple:
        pool = [c for c in configs if c == PRODUCT or FAMILIES[family](c)]
        return max(pool, key=lambda c: (np.mean([score[c][u] for u in train]), c == PRODUCT))

    for held in groups:
        train = [u for u in groups if u != held]
        chosen = {f: pick(train, f) for f in FAMILIES}
        found["chosen_without"][held] = {f: list(c) for f, c in chosen.items()}
        for key, kind, _ in groups[held]:
            d = data[key][kind]
            m = {"dense": per_query(rank_of(d["dense"], d["targets"])),
                 "bm25": per_query(rank_of(d["lexical"], d["targets"])), "product": per_query(d["product"])}
            m.update({f: per_query(d["ranks"][c]) for f, c in chosen.items()})
            row: dict = {"n": len(d["targets"])}
            for metric in ("recall@1", "recall@10", "MRR"):
                for name, v in m.items():
                    row[f"{name} {metric}"] = round(100 * float(v[metric].mean()), 1)
                row[f"product-dense {metric}"] = diff(m["product"], m["dense"], metric, key[1])
                for f in FAMILIES:
                    row[f"{f}-product {metric}"] = diff(m[f], m["product"], metric, key[1])
                    row[f"{f}-dense {metric}"] = diff(m[f], m["dense"], metric, key[1])
            found["held_out"][f"{key[0]} s{key[1]} {kind}"] = row
        print(held, found["chosen_without"][held], flush=True)
    found["chosen_on_all"] = {f: list(pick(list(groups), f)) for f in FAMILIES}
    found["seconds"] = round(time.time() - started)
    return found


def table(found: dict, family: str, metric: str) -> str:
    lines = [f"| held out (seed) | queries | n | dense | product | {family} | product − dense | {family} − dense | "
             f"{family} − product |", "|---" * 9 + "|"]
    for name, row in found["held_out"].items():
        unit, seed, kind = name.split(" ")
        cells = [f"{row[f'{m} {metric}']:.1f}" for m in ("dense", "product", family)]
        cells += ["{:+.1f} ({:+.1f} to {:+.1f})".format(*row[f"{c} {metric}"])
                  for c in ("product-dense", f"{family}-dense", f"{family}-product")]
        lines.append(f"| {unit} ({seed[1:]}) | {kind} | {row['n']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def fresh_seed(seed: int) -> dict:
    """Every unit's queries of `seed` (drawn after the choice) under the configuration its fold chose over all
    families (seeds 0 and 1), against the product and dense."""
    chosen = json.loads(OUT.read_text())["loco_28h_prf"]["chosen_without"]
    data, _, _ = load((seed,))
    out: dict = {}
    for (name, _), kinds in data.items():
        config = tuple(chosen[UNIT.get(name, name)]["all"])
        for kind, d in kinds.items():
            m = {"dense": per_query(rank_of(d["dense"], d["targets"])), "product": per_query(d["product"]),
                 "all": per_query(d["ranks"][config])}
            row: dict = {"n": len(d["targets"]), "config": list(config)}
            for metric in ("recall@1", "recall@10", "MRR"):
                for key, v in m.items():
                    row[f"{key} {metric}"] = round(100 * float(v[metric].mean()), 1)
                for x, y in (("all", "product"), ("all", "dense"), ("product", "dense")):
                    row[f"{x}-{y} {metric}"] = diff(m[x], m[y], metric, seed)
            out[f"{name} s{seed} {kind}"] = row
            print(name, kind, {k: v for k, v in row.items() if "recall@10" in k or k == "n"}, flush=True)
    return out


def ceiling() -> dict:
    """In-sample, optimistic: per keyword unit and seed, the best recall@10 gain over the product of any
    configuration (of each family), picked on the very queries it is scored on."""
    os.environ.setdefault("MIREAD_PRF_UNITS", "pubmed1977,pubmed2021,jats,exports")
    data, _, _ = load()
    out: dict = {}
    for (name, seed), kinds in data.items():
        d, best = kinds["keywords"], {}
        base = float((d["product"] <= 10).mean())
        for c, r in d["ranks"].items():
            family = c[0] if c[0] != "rocchio" else f"rocchio {c[4]}"
            best[family] = max(best.get(family, -1.0), round(100 * (float((r <= 10).mean()) - base), 1))
        out[f"{name} s{seed}"] = {"product recall@10": round(100 * base, 1), "best gain by family": best}
    return out


def cost(n: int, queries: int = 200, m: int = 3) -> dict:
    """Query-time cost of dense PRF at n papers (synthetic clustered 384-d vectors, the vector index core builds at
    that size): the dense search itself vs the feedback vector (mean of m result rows) plus a second search, in ms,
    alternating query by query."""
    from synthetic import clustered_unit_vectors

    from core.explore import VectorIndex

    matrix = clustered_unit_vectors(n)
    started = time.perf_counter()
    index = VectorIndex(matrix)
    built = time.perf_counter() - started
    rng = np.random.default_rng(0)
    times: dict[str, list[float]] = {"dense search": [], "PRF: mean of top m + second search": []}
    for row in rng.integers(0, n, queries):
        q = matrix[row] + rng.normal(0, 0.05, matrix.shape[1]).astype(np.float32)
        q /= np.linalg.norm(q)
        t = time.perf_counter()
        _, rows = index.search(q[None, :], DEPTH)
        times["dense search"].append(time.perf_counter() - t)
        t = time.perf_counter()
        qp = q + np.asarray(index.matrix[np.sort(rows[0][:m])], dtype=np.float32).mean(axis=0)
        index.search((qp / np.linalg.norm(qp))[None, :], DEPTH)
        times["PRF: mean of top m + second search"].append(time.perf_counter() - t)
    return {"papers": n, "index": index.kind, "build_s": round(built, 1),
            **{k: {"p50_ms": round(1000 * float(np.percentile(v, 50)), 2),
                   "p95_ms": round(1000 * float(np.percentile(v, 95)), 2)} for k, v in times.items()}}


if __name__ == "__main__":
    import torch

    torch.set_num_threads(2)
    if sys.argv[1:2] == ["ceiling"]:
        previous = json.loads(OUT.read_text())
        previous["ceiling_28h"] = ceiling()
        OUT.write_text(json.dumps(previous, indent=1))
        print(json.dumps(previous["ceiling_28h"], indent=1))
        sys.exit(0)
    if sys.argv[1:2] in (["seed"], ["cost"]):
        key = f"check_28h_seed{sys.argv[2]}" if sys.argv[1] == "seed" else f"cost_28h_{sys.argv[2]}"
        value = fresh_seed(int(sys.argv[2])) if sys.argv[1] == "seed" else cost(int(sys.argv[2]))
        previous = json.loads(OUT.read_text())
        previous[key] = value
        OUT.write_text(json.dumps(previous, indent=1))
        print(json.dumps(value if sys.argv[1] == "cost" else {}, indent=1))
        sys.exit(0)
    result = main()
    previous = json.loads(OUT.read_text()) if OUT.exists() else {}
    previous["loco_28h_prf"] = result
    OUT.write_text(json.dumps(previous, indent=1))
    print(json.dumps({k: v for k, v in result.items() if k in ("chosen_without", "chosen_on_all", "seconds",
                                                               "timing")}, indent=1))
    for family in FAMILIES:
        for metric in ("recall@10", "recall@1", "MRR"):
            print(f"\n{family}, {metric}\n" + table(result, family, metric))
