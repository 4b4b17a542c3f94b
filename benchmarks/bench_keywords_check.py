"""BENCHMARKS §28g, after the choice: (1) the product's search path (short_queries.target_ranks: LexicalIndex.search,
default_weight with coverage, hybrid.fuse with RRF_K) gives the ranks bench_keywords_lexical.py computed for the
chosen rule; (2) titles as queries on the whole 42,252-paper arXiv journal corpus (§28e's >= 40k check): dense vs
the §28f fusion (2 x share, k 60) vs the product's; (3) the cost the coverage adds to a query.

    MIREAD_BENCH_DATA=/work/shared/data nice -n 10 .venv/bin/python benchmarks/hybrid_data.py arxivj
    MIREAD_BENCH_DATA=/work/shared/data nice -n 10 .venv/bin/python benchmarks/bench_keywords_check.py
    MIREAD_BENCH_DATA=/work/shared/data nice -n 10 .venv/bin/python benchmarks/bench_keywords_check.py seed 2
    MIREAD_BENCH_DATA=/work/shared/data nice -n 10 .venv/bin/python benchmarks/bench_keywords_check.py pool
    MIREAD_BENCH_DATA=/work/shared/data nice -n 10 .venv/bin/python benchmarks/bench_keywords_check.py oracle

`seed 2`: fresh queries (a third seed, drawn after the choice) on every unit, each unit under the rule its fold
chose without it (`loco_28g_fusion`), against the old fusion and dense. `pool`: the keyword queries of seeds 0, 1
and 2 together per keyword unit (the seeds' draws overlap: the interval treats them as independent, so it is narrower
than it should be). `oracle`: per keyword unit and seed, the share of targets in dense's or BM25's top 10 / top 5
(the room any fusion of the two rankings has) and in neither's top 20.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_hybrid_keywords import SEEDS, UNIT, corpora, diff, fused_rank  # noqa: E402
from bench_hybrid_search import OUT, rank_of, rankings  # noqa: E402
from bench_keywords_lexical import PRODUCT, Counts, coverage, fusion_ranks  # noqa: E402
from hybrid_data import query_vectors, records, vectors  # noqa: E402

from core.evaluation.short_queries import per_query, target_ranks  # noqa: E402
from core.explore.search.lexical import LexicalIndex  # noqa: E402

CHOSEN = (10, "coverage", 8.0, 2)


def same_as_product() -> dict:
    """Share of queries whose target rank under CHOSEN (the benchmark's vectorised fusion) equals the product's."""
    recs, X = corpora()["pubmed2021"]
    index = LexicalIndex.build([f"{r['title']} {r['abstract']}" for r in recs])
    counts, out = Counts(recs), {}
    for kind, d in rankings(recs, X, "pubmed2021", 0).items():
        d["coverage"] = coverage(counts, d["texts"])
        Q = query_vectors("pubmed2021-s0", kind, d["texts"])
        product = target_ranks(X, Q, d["texts"], d["targets"], index)["fused"]
        mine = fusion_ranks(d, CHOSEN)
        out[kind] = {"equal": round(float(np.mean(product == mine)), 4),
                     "MRR product": round(float(per_query(product)["MRR"].mean()), 4),
                     "MRR bench": round(float(per_query(mine)["MRR"].mean()), 4)}
    return out


def metric_row(m: dict, row: dict, seed: int) -> dict:
    """`row` plus each ranking's recall@1/@10 and MRR (percent) and the paired differences old/new − dense, new − old."""
    for metric in ("recall@1", "recall@10", "MRR"):
        for name, v in m.items():
            row[f"{name} {metric}"] = round(100 * float(v[metric].mean()), 1)
        for x, y in (("old", "dense"), ("new", "dense"), ("new", "old")):
            row[f"{x}-{y} {metric}"] = diff(m[x], m[y], metric, seed)
    return row


def titles_42k() -> dict:
    recs, X = records("arxivj"), vectors("arxivj")
    index = LexicalIndex.build([f"{r['title']} {r['abstract']}" for r in recs])
    out: dict = {"papers": len(recs)}
    for seed in SEEDS:
        d = rankings(recs, X, "arxivj", seed)["title"]
        Q = query_vectors(f"arxivj-s{seed}", "title", d["texts"])
        ranks = target_ranks(X, Q, d["texts"], d["targets"], index)
        assert np.array_equal(ranks["dense"], rank_of(d["dense"], d["targets"]))
        old = np.array([fused_rank(d["dense"][i], d["lexical"][i], int(t),
                                   2.0 * d["known"][i] if 0 < d["words"][i] <= 20 else 0.0)
                        for i, t in enumerate(d["targets"])])
        m = {"dense": per_query(ranks["dense"]), "bm25": per_query(ranks["lexical"]), "old": per_query(old),
             "new": per_query(ranks["fused"])}
        out[f"s{seed}"] = metric_row(m, {"n": len(d["targets"])}, seed)
        if seed == SEEDS[0]:
            started = time.perf_counter()
            for text in d["texts"]:
                index.coverage(text, 1.0)
            out["coverage_us_per_query"] = round(1e6 * (time.perf_counter() - started) / len(d["texts"]), 1)
    return out


def fresh_seed(seed: int) -> dict:
    """Each unit's queries of `seed` under the rule chosen without the unit (seeds 0 and 1), vs old and dense."""
    chosen = json.loads(OUT.read_text())["loco_28g_fusion"]["chosen_without"]
    out: dict = {}
    for name, (recs, X) in corpora().items():
        rule, counts = tuple(chosen[UNIT.get(name, name)]), Counts(recs)
        for kind, d in rankings(recs, X, name, seed).items():
            d["coverage"] = coverage(counts, d["texts"])
            m = {"dense": per_query(rank_of(d["dense"], d["targets"])), "old": per_query(fusion_ranks(d, PRODUCT)),
                 "new": per_query(fusion_ranks(d, rule))}
            row = metric_row(m, {"n": len(d["targets"]), "rule": list(rule)}, seed)
            out[f"{name} s{seed} {kind}"] = row
            print(name, kind, {k: v for k, v in row.items() if "recall@10" in k or k == "n"}, flush=True)
    return out


def oracle() -> dict:
    """Per keyword unit and seed: targets in dense's top k, BM25's, either's (k 10, 5), neither's top 20 (%)."""
    units, out = corpora(), {}
    for name in ("pubmed1977", "pubmed2021", "jats", "exports"):
        recs, X = units[name]
        for seed in SEEDS:
            d = rankings(recs, X, name, seed)["keywords"]
            dense, words = rank_of(d["dense"], d["targets"]), rank_of(d["lexical"], d["targets"])
            out[f"{name} s{seed}"] = {key: round(100 * float(np.mean(v)), 1) for key, v in (
                ("dense top 10", dense <= 10), ("BM25 top 10", words <= 10),
                ("either top 10", (dense <= 10) | (words <= 10)), ("either top 5", (dense <= 5) | (words <= 5)),
                ("neither top 20", (dense > 20) & (words > 20)))}
    return out


def pooled(seeds: tuple[int, ...] = (0, 1, 2)) -> dict:
    """Keyword queries of all `seeds` together per keyword unit, each under its fold's rule: new/old/dense."""
    from core.evaluation.verdict import paired_interval

    chosen = json.loads(OUT.read_text())["loco_28g_fusion"]["chosen_without"]
    units, out = corpora(), {}
    for name in ("pubmed1977", "pubmed2021", "jats", "exports"):
        (recs, X), ranks = units[name], {m: [] for m in ("dense", "old", "new")}
        counts, rule = Counts(recs), tuple(chosen[name])
        for seed in seeds:
            d = rankings(recs, X, name, seed)["keywords"]
            d["coverage"] = coverage(counts, d["texts"])
            ranks["dense"].append(rank_of(d["dense"], d["targets"]))
            ranks["old"].append(fusion_ranks(d, PRODUCT))
            ranks["new"].append(fusion_ranks(d, rule))
        m = {k: per_query(np.concatenate(v)) for k, v in ranks.items()}
        for metric in ("recall@10", "recall@1", "MRR"):
            for x, y in (("new", "old"), ("new", "dense"), ("old", "dense")):
                change = m[x][metric] - m[y][metric]
                lo, hi = paired_interval(change, 0)
                out[f"{name} {metric} {x}-{y}"] = [round(100 * float(change.mean()), 1), round(100 * lo, 1),
                                                   round(100 * hi, 1), len(change)]
    return out


if __name__ == "__main__":
    import torch

    torch.set_num_threads(2)
    if sys.argv[1:2] in (["pool"], ["oracle"]):
        key = "check_28g_pooled" if sys.argv[1] == "pool" else "check_28g_oracle"
        previous = json.loads(OUT.read_text())
        previous[key] = pooled() if sys.argv[1] == "pool" else oracle()
        OUT.write_text(json.dumps(previous, indent=1))
        print(json.dumps(previous[key], indent=1))
        sys.exit(0)
    if sys.argv[1:2] == ["seed"]:
        fresh = fresh_seed(int(sys.argv[2]))
        previous = json.loads(OUT.read_text())
        previous[f"check_28g_seed{sys.argv[2]}"] = fresh
        OUT.write_text(json.dumps(previous, indent=1))
        sys.exit(0)
    result = {"same_as_product": same_as_product()}
    print(json.dumps(result), flush=True)
    result["titles_42k"] = titles_42k()
    previous = json.loads(OUT.read_text()) if OUT.exists() else {}
    previous["check_28g"] = result
    OUT.write_text(json.dumps(previous, indent=1))
    print(json.dumps(result, indent=1))
