"""BENCHMARKS §28f: the lexical weight (and its hit-rate rule) chosen with each corpus left out, on every shared
corpus with keywords plus §28's title corpora; fused (old weights) vs fused (new) vs dense vs BM25 per held-out unit.

    MIREAD_BENCH_DATA=/work/shared/data .venv/bin/python benchmarks/hybrid_data.py pubmed jats exports \
        medical arxiv arxiv4k arxivj10k
    MIREAD_BENCH_DATA=/work/shared/data .venv/bin/python benchmarks/bench_hybrid_keywords.py
    MIREAD_BENCH_DATA=/work/shared/data .venv/bin/python benchmarks/bench_hybrid_keywords.py share   # that rule only

Each query's target rank under a rule is computed from its dense and BM25 top-200 exactly as `hybrid.fuse` orders
them (weighted RRF, ties by first appearance, dense first), vectorised so the grid of every fold costs nothing.
"""

from __future__ import annotations

import json
import sys
from itertools import product
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_hybrid_search import DEPTH, OUT, rank_of, rankings, ranks_with  # noqa: E402
from hybrid_data import CACHE, records, vectors  # noqa: E402

from core.evaluation.short_queries import per_query  # noqa: E402
from core.evaluation.verdict import paired_interval  # noqa: E402
from core.explore.search import hybrid  # noqa: E402

GRID = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
RULES = {"share": lambda w, s: w * s, "flat": lambda w, s: w if s > 0 else 0.0, "strict": lambda w, s: w * s * s}
BANDS = {"1-4": (1, 4), "5-20": (5, 20)}  # > 20 words: weight 0 by design (pasted abstracts rank as dense)
OLD = {"1-4": 2.0, "5-20": 2.0, "rule": "share"}  # the product's LEXICAL_WEIGHTS before §28f
SEEDS = (0, 1)
RRF_K = 60  # the product's RRF constant in §28f (10 since §28g): this script measures §28f's fusion


def corpora() -> dict[str, tuple[list[dict], np.ndarray]]:
    """unit name -> (records, document vectors); the PubMed demo split by its two baseline files."""
    from hybrid_data import stored

    out = {}
    pubmed, X = records("pubmed"), vectors("pubmed")
    years = stored("pubmed").papers_frame("pubmed")["year"].to_numpy()
    out["pubmed1977"] = ([pubmed[i] for i in np.flatnonzero(years < 2000)], X[years < 2000])
    out["pubmed2021"] = ([pubmed[i] for i in np.flatnonzero(years >= 2000)], X[years >= 2000])
    for name in ("jats", "exports", "medical", "arxiv", "arxiv4k", "arxivj10k"):
        if name in ("jats", "exports") or (CACHE / f"{name}-docs.npy").exists():
            out[name] = (records(name), vectors(name))
    return out


UNIT = {"arxiv": "arxiv", "arxiv4k": "arxiv"}  # arXiv 1,000 is the head of arXiv 4,000: one unit


def fused_rank(dense: np.ndarray, lexical: np.ndarray, target: int, w: float) -> float:
    """The target's 1-based rank in fuse([dense, lexical], [1, w], DEPTH), inf outside it."""
    lexical = lexical[lexical >= 0]
    if w <= 0:
        hit = np.flatnonzero(dense == target)
        return float(hit[0] + 1) if len(hit) else np.inf
    rows = np.concatenate([dense, lexical[~np.isin(lexical, dense)]])
    score = np.zeros(len(rows))
    pos = {int(r): i for i, r in enumerate(rows.tolist())}
    score[:len(dense)] += 1.0 / (RRF_K + np.arange(1, len(dense) + 1))
    score[[pos[int(r)] for r in lexical.tolist()]] += w / (RRF_K + np.arange(1, len(lexical) + 1))
    if target not in pos:
        return np.inf
    t = pos[target]
    ahead = int((score > score[t]).sum() + ((score == score[t]) & (np.arange(len(rows)) < t)).sum())
    return float(ahead + 1) if ahead < DEPTH else np.inf


def rule_ranks(d: dict) -> dict[tuple[str, float], np.ndarray]:
    """Per (hit-rate rule, grid weight): each query's target rank, with the weight applied to every query."""
    out = {}
    for rule, w in product(RULES, GRID):
        out[(rule, w)] = np.array([fused_rank(d["dense"][i], d["lexical"][i], int(t), RULES[rule](w, d["known"][i]))
                                   for i, t in enumerate(d["targets"])])
    return out


def band_of(words: int) -> str | None:
    return next((b for b, (lo, hi) in BANDS.items() if lo <= words <= hi), None)


def ranks_under(d: dict, table: dict, chosen: dict) -> np.ndarray:
    """Target ranks under a chosen rule: {'rule', '1-4': w, '5-20': w}; > 20 words dense."""
    out = np.empty(len(d["targets"]))
    for i, n in enumerate(d["words"]):
        band = band_of(n)
        out[i] = table[(chosen["rule"], chosen[band] if band else 0.0)][i]
    return out


def choose(data: dict, tables: dict, keys: list, rules: tuple[str, ...] = tuple(RULES)) -> dict:
    """The rule (among `rules`) and per-band weights with the best mean MRR over the title + keyword queries of
    `keys` (pooled)."""
    best: dict = {}
    for rule in rules:
        pick, total = {"rule": rule}, 0.0
        for band in BANDS:
            scores = {}
            for w in GRID:
                mrr = []
                for key in keys:
                    for kind, d in data[key].items():
                        inside = np.array([band_of(n) == band for n in d["words"]])
                        if inside.any():
                            mrr += per_query(tables[key][kind][(rule, w)])["MRR"][inside].tolist()
                if mrr:
                    scores[w] = float(np.mean(mrr))
            pick[band] = max(scores, key=scores.get) if scores else 0.0
            total += scores.get(pick[band], 0.0) if scores else 0.0
        pick["score"] = total
        if not best or total > best["score"] + 1e-12:
            best = pick
    return {k: v for k, v in best.items() if k != "score"}


def diff(a: dict, b: dict, metric: str, seed: int) -> list[float]:
    change = a[metric] - b[metric]
    lo, hi = paired_interval(change, seed)
    return [round(100 * float(change.mean()), 1), round(100 * lo, 1), round(100 * hi, 1)]


def main(rules: tuple[str, ...] = tuple(RULES)) -> dict:
    units = corpora()
    data = {(name, seed): rankings(recs, X, name, seed) for name, (recs, X) in units.items() for seed in SEEDS}
    tables = {key: {kind: rule_ranks(d) for kind, d in kinds.items()} for key, kinds in data.items()}
    check = data[("pubmed2021", 0)]["keywords"]  # the vectorised ranks equal hybrid.fuse's
    if hybrid.RRF_K == RRF_K:  # before §28g: the product's fusion was §28f's
        assert np.array_equal(ranks_with(check, lambda n, k: hybrid.lexical_weight(n, k)),
                              ranks_under(check, tables[("pubmed2021", 0)]["keywords"], OLD))
    found: dict = {"sizes": {n: len(r) for n, (r, _) in units.items()}, "chosen_without": {}, "held_out": {},
                   "known_share": {}}
    for key, kinds in data.items():
        for kind, d in kinds.items():
            known = np.array(d["known"])
            found["known_share"][f"{key[0]} s{key[1]} {kind}"] = {
                "all known": round(float((known == 1).mean()), 3), "none": round(float((known == 0).mean()), 3)}
    for held in sorted({UNIT.get(n, n) for n, _ in data}):
        train = [k for k in data if UNIT.get(k[0], k[0]) != held]
        chosen = choose(data, tables, train, rules)
        found["chosen_without"][held] = chosen
        for key in [k for k in data if UNIT.get(k[0], k[0]) == held]:
            for kind, d in data[key].items():
                t = tables[key][kind]
                m = {"dense": per_query(rank_of(d["dense"], d["targets"])),
                     "bm25": per_query(rank_of(d["lexical"], d["targets"])),
                     "old": per_query(ranks_under(d, t, OLD)), "new": per_query(ranks_under(d, t, chosen))}
                row: dict = {"n": len(d["targets"])}
                for metric in ("recall@1", "recall@10", "MRR"):
                    for name, v in m.items():
                        row[f"{name} {metric}"] = round(100 * float(v[metric].mean()), 1)
                    row[f"old-dense {metric}"] = diff(m["old"], m["dense"], metric, key[1])
                    row[f"new-dense {metric}"] = diff(m["new"], m["dense"], metric, key[1])
                    row[f"new-old {metric}"] = diff(m["new"], m["old"], metric, key[1])
                found["held_out"][f"{key[0]} s{key[1]} {kind}"] = row
    found["chosen_on_all"] = choose(data, tables, list(data), rules)
    return found


def table(found: dict) -> str:
    """The held-out rows as Markdown."""
    lines = ["| held out (seed) | queries | n | metric | dense | BM25 | fused old | fused new | old − dense | "
             "new − dense | new − old |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, row in found["held_out"].items():
        unit, seed, kind = name.split(" ")
        for metric in ("recall@10", "recall@1", "MRR"):
            cells = [f"{row[f'{m} {metric}']:.1f}" for m in ("dense", "bm25", "old", "new")]
            cells += ["{:+.1f} ({:+.1f} to {:+.1f})".format(*row[f"{c} {metric}"])
                      for c in ("old-dense", "new-dense", "new-old")]
            lines.append(f"| {unit} ({seed[1:]}) | {kind} | {row['n']} | {metric} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    import torch

    torch.set_num_threads(2)
    rules = tuple(sys.argv[1].split(",")) if len(sys.argv) > 1 else tuple(RULES)  # e.g. "share": that rule only
    result = main(rules)
    previous = json.loads(OUT.read_text()) if OUT.exists() else {}
    previous["loco_28f" + ("" if rules == tuple(RULES) else "_" + "_".join(rules))] = result
    OUT.write_text(json.dumps(previous, indent=1))
    print(json.dumps({k: v for k, v in result.items() if k != "held_out"}, indent=1))
    print(table(result))
