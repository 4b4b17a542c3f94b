"""BENCHMARKS §28: fused (BM25 + minilm, weighted RRF) vs dense alone on short queries, the lexical weight chosen on
training corpora and checked on held-out ones; stemming on/off; BM25 build time and query p95 at scale.

    MIREAD_BENCH_DATA=/work/shared/data .venv/bin/python benchmarks/bench_hybrid_search.py quality
    MIREAD_BENCH_DATA=/work/shared/data .venv/bin/python benchmarks/bench_hybrid_search.py loco
    .venv/bin/python benchmarks/bench_hybrid_search.py scale 100000

Corpora (vectors cached in /tmp/hybrid-bench by benchmarks/hybrid_data.py): the PubMed demo corpus split by its two
baseline files (1977–79 = training, 2018–21 = held out; both with MeSH/keywords), the first 1,000 arXiv-categories
papers and the first 1,000 medical abstracts (held out, titles only: no keywords field).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hybrid_data import CACHE, query_vectors, records, vectors  # noqa: E402

from core.evaluation.short_queries import per_query, queries  # noqa: E402
from core.evaluation.verdict import paired_interval, proportion_interval  # noqa: E402
from core.explore.search.hybrid import fuse  # noqa: E402
from core.explore.search.lexical import LexicalIndex  # noqa: E402

GRID = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)
BUCKETS = {"1-4 words": (1, 4), "5-20 words": (5, 20), "21-60 words": (21, 60)}
DEPTH = 200
OUT = Path(__file__).resolve().parent / "results" / "bench_hybrid_search.json"


def corpora() -> dict[str, tuple[list[dict], np.ndarray]]:
    """name -> (records, document vectors)."""
    pubmed, X = records("pubmed"), vectors("pubmed")
    from hybrid_data import stored

    years = stored("pubmed").papers_frame("pubmed")["year"].to_numpy()
    old = np.flatnonzero(years < 2000)
    new = np.flatnonzero(years >= 2000)
    out = {"pubmed-1977 (train)": ([pubmed[i] for i in old], X[old]),
           "pubmed-2021 (held out)": ([pubmed[i] for i in new], X[new])}
    for name in ("arxiv", "medical", "arxiv4k", "arxivj"):
        if (CACHE / f"{name}-docs.npy").exists():
            recs = records(name)
            out[f"{name.removesuffix('4k')}-{len(recs)} (held out)"] = (recs, vectors(name))
    return out


def rankings(recs: list[dict], X: np.ndarray, name: str, seed: int, stem: bool = True) -> dict[str, dict]:
    """Per query kind: texts, targets, dense and lexical rankings (top DEPTH) and known shares."""
    index = LexicalIndex.build([f"{r['title']} {r['abstract']}" for r in recs], stem=stem)
    has_kw = any(r["keywords"] for r in recs)
    sets = queries([r["title"] for r in recs], [r["abstract"] for r in recs],
                   [r["keywords"] for r in recs] if has_kw else None, seed)
    out = {}
    for kind, (texts, targets) in sets.items():
        Q = query_vectors(name.split()[0] + f"-s{seed}", kind, texts)
        dense, lexical = [], []
        for q, text in zip(Q, texts):
            sims = X @ q
            top = np.argpartition(-sims, DEPTH)[:DEPTH]
            dense.append(top[np.lexsort((top, -sims[top]))])
            lexical.append(index.search(text, DEPTH)[1])
        out[kind] = {"texts": texts, "targets": targets, "dense": dense, "lexical": lexical,
                     "known": [index.known_share(t) for t in texts], "words": [len(t.split()) for t in texts]}
    return out


def ranks_with(data: dict, weight_of) -> np.ndarray:
    """Target ranks of the fused ranking with lexical weight weight_of(words, known) per query."""
    ranks = np.full(len(data["texts"]), np.inf)
    for i, target in enumerate(data["targets"]):
        w = weight_of(data["words"][i], data["known"][i])
        order = fuse([data["dense"][i], data["lexical"][i]], [1.0, w], DEPTH) if w > 0 else data["dense"][i]
        hit = np.flatnonzero(order == target)
        if len(hit):
            ranks[i] = hit[0] + 1
    return ranks


def rank_of(ranking_list: list[np.ndarray], targets: np.ndarray) -> np.ndarray:
    out = np.full(len(targets), np.inf)
    for i, (order, target) in enumerate(zip(ranking_list, targets)):
        hit = np.flatnonzero(order == target)
        if len(hit):
            out[i] = hit[0] + 1
    return out


def compare(data: dict, weight_of, seed: int) -> dict:
    """Dense, lexical and fused metrics with Wilson intervals and the paired fused − dense interval."""
    dense = per_query(rank_of(data["dense"], data["targets"]))
    lexical = per_query(rank_of(data["lexical"], data["targets"]))
    fused = per_query(ranks_with(data, weight_of))
    row = {"n": len(data["targets"])}
    for metric in ("recall@1", "recall@10", "MRR"):
        for name, values in (("dense", dense), ("lexical", lexical), ("fused", fused)):
            row[f"{name} {metric}"] = round(float(values[metric].mean()), 4)
            if metric != "MRR":
                lo, hi = proportion_interval(values[metric].sum(), len(values[metric]))
                row[f"{name} {metric} ci"] = [round(lo, 4), round(hi, 4)]
        lo, hi = paired_interval(fused[metric] - dense[metric], seed)
        row[f"fused-dense {metric}"] = [round(float((fused[metric] - dense[metric]).mean()), 4), round(lo, 4),
                                        round(hi, 4)]
    return row


def quality(seeds: tuple[int, ...] = (0, 1)) -> dict:
    from core.explore.search import hybrid

    found: dict = {"grid": {}, "chosen": {}, "held_out": {}, "default": {}, "stemming": {}}
    data = {(name, seed): rankings(recs, X, name, seed) for name, (recs, X) in corpora().items() for seed in seeds}
    train = [k for k in data if "train" in k[0]]
    for bucket, (lo, hi) in BUCKETS.items():  # the grid on training corpora: mean MRR over queries in the bucket
        scores = {}
        for w in GRID:
            mrr = []
            for key in train:
                for kind, d in data[key].items():
                    inside = np.array([lo <= n <= hi for n in d["words"]])
                    if inside.any():
                        mrr += per_query(ranks_with(d, lambda n, k, w=w: w * k))["MRR"][inside].tolist()
            scores[w] = (round(float(np.mean(mrr)), 4), len(mrr)) if mrr else None
        found["grid"][bucket] = scores
        valid = {w: s[0] for w, s in scores.items() if s}
        found["chosen"][bucket] = max(valid, key=valid.get) if valid else None
    print(json.dumps({"grid": found["grid"], "chosen": found["chosen"]}, indent=1), flush=True)
    found["grid_per_corpus"] = {}  # for the record: each corpus's own best weight (not used to choose)
    for (name, seed), kinds in data.items():
        for kind, d in kinds.items():
            found["grid_per_corpus"][f"{name} s{seed} {kind}"] = {
                str(w): round(float(per_query(ranks_with(d, lambda n, k, w=w: w * k))["MRR"].mean()), 4) for w in GRID}
    for (name, seed), kinds in data.items():  # the product's weights (hybrid.LEXICAL_WEIGHTS) on every corpus
        for kind, d in kinds.items():
            found["default"][f"{name} s{seed} {kind}"] = compare(
                d, lambda n, k: hybrid.lexical_weight(n, k), seed)
    for name, (recs, X) in corpora().items():  # stemming: lexical MRR with and without, seed 0
        plain = rankings(recs, X, name, 0, stem=False)
        for kind in plain:
            found["stemming"][f"{name} {kind}"] = {
                "stemmed": round(float(per_query(rank_of(data[(name, 0)][kind]["lexical"],
                                                         plain[kind]["targets"]))["MRR"].mean()), 4),
                "plain": round(float(per_query(rank_of(plain[kind]["lexical"], plain[kind]["targets"]))["MRR"].mean()),
                               4)}
    return found


def unit_of(name: str) -> str:
    """The corpus a benchmark corpus is drawn from: arXiv 1,000 is the head of arXiv 4,000, so they are one unit."""
    return name.split(" ")[0].rsplit("-", 1)[0] if not name.startswith("pubmed") else name.split(" ")[0]


def choose(data: dict, keys: list) -> dict[str, float]:
    """Per query-length bucket, the grid weight with the best mean MRR over the queries of `keys`."""
    chosen = {}
    for bucket, (lo, hi) in BUCKETS.items():
        scores = {}
        for w in GRID:
            mrr = []
            for key in keys:
                for d in data[key].values():
                    inside = np.array([lo <= n <= hi for n in d["words"]])
                    if inside.any():
                        mrr += per_query(ranks_with(d, lambda n, k, w=w: w * k))["MRR"][inside].tolist()
            if mrr:
                scores[w] = float(np.mean(mrr))
        chosen[bucket] = max(scores, key=scores.get) if scores else 0.0
    return chosen


def weight_from(chosen: dict[str, float]):
    def weight_of(n: int, known: float) -> float:
        for bucket, (lo, hi) in BUCKETS.items():
            if lo <= n <= hi:
                return chosen[bucket] * known
        return 0.0
    return weight_of


def loco(seeds: tuple[int, ...] = (0, 1)) -> dict:
    """Leave one corpus out: the weights chosen on the other corpora, measured on the one left out (both seeds out
    together); then the weights chosen on all of them (the product's)."""
    data = {(name, seed): rankings(recs, X, name, seed) for name, (recs, X) in corpora().items() for seed in seeds}
    units = sorted({unit_of(name) for name, _ in data})
    found: dict = {"held_out": {}, "chosen_without": {}}
    for held in units:
        chosen = choose(data, [k for k in data if unit_of(k[0]) != held])
        found["chosen_without"][held] = chosen
        for key in [k for k in data if unit_of(k[0]) == held]:
            for kind, d in data[key].items():
                found["held_out"][f"{key[0]} s{key[1]} {kind}"] = compare(d, weight_from(chosen), key[1])
    found["chosen_on_all"] = choose(data, list(data))
    return found


def scale(n: int, queries_n: int = 200) -> dict:
    """BM25 build time and lexical query p95 over n synthetic papers (Zipf words, 150 words each)."""
    from bench_bm25_build import synthetic

    texts, qs = synthetic(n)
    qs = qs[:queries_n]
    started = time.perf_counter()
    index = LexicalIndex.build(texts, stem=True)
    build = time.perf_counter() - started
    times = []
    for q in qs:
        t = time.perf_counter()
        index.search(q, 200)
        times.append(time.perf_counter() - t)
    return {"papers": n, "build_s": round(build, 2), "query_p50_ms": round(1000 * float(np.percentile(times, 50)), 2),
            "query_p95_ms": round(1000 * float(np.percentile(times, 95)), 2)}


if __name__ == "__main__":
    import torch

    torch.set_num_threads(2)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    what = sys.argv[1] if len(sys.argv) > 1 else "quality"
    result = (quality() if what == "quality" else loco() if what == "loco"
              else scale(int(sys.argv[2]) if len(sys.argv) > 2 else 100_000))
    previous = json.loads(OUT.read_text()) if OUT.exists() else {}
    previous[what if what in ("quality", "loco") else f"scale-{result['papers']}"] = result
    OUT.write_text(json.dumps(previous, indent=1))
    print(json.dumps(result, indent=1))
