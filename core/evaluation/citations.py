"""The `cite` and `cocite` tasks: do a paper's vectors land near the papers it cites (or that are cited with it)?

Query papers are held out by paper (`core.store.links.citation_split`, the split `train` uses too, so their
outgoing links are never training triplets when the seeds match). For each query:

* SciDocs-style candidate ranking: its positives (up to 5) among 25 random papers that are not positives, ranked
  by cosine; ``MAP`` (scikit-learn's average precision per query, averaged) and ``nDCG`` over the 30 candidates.
* Full-corpus retrieval: every other paper ranked by cosine; ``recall@10`` and ``nDCG@10`` of its positives.

Positives: `cite`, the papers the query cites; `cocite`, the papers cited together with the query by some third
paper (at least once). The spread (``std``) is over query papers.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from core.embedding import corpus_embeddings, embed_corpus, get_model, read_checkpoint_meta, vectors_fingerprint
from core.errors import CorpusError, MireadError
from core.evaluation.report import Result
from core.store import Store
from core.store.links import CITE_HELD_OUT, citation_graph, citation_split, is_cite_query

CITE_TASKS = ("cite", "cocite")
METRICS = ("MAP", "nDCG", "recall@10", "nDCG@10")
POSITIVES = 5
NEGATIVES = 25
MAX_QUERIES = 1000
EncoderFor = Callable[[Any], Any]


def cocited(cites: dict[int, list[int]], n: int) -> dict[int, set[int]]:
    """Paper -> the papers cited together with it by some third paper (positions)."""
    out: dict[int, set[int]] = {}
    for refs in cites.values():
        unique = sorted(set(refs))
        if len(unique) < 2 or len(unique) > 200:  # a huge reference list (a review) co-cites everything: left out
            continue
        for a in unique:
            out.setdefault(a, set()).update(b for b in unique if b != a)
    return out


def positives_of(task: str, cites: dict[int, list[int]], n: int) -> dict[int, set[int]]:
    """Each paper's positives for a task: what it cites, or what is co-cited with it."""
    if task == "cite":
        return {q: set(refs) - {q} for q, refs in cites.items() if set(refs) - {q}}
    return {q: s for q, s in cocited(cites, n).items() if s}


def candidate_sets(positives: dict[int, set[int]], queries: Sequence[int], n: int,
                   seed: int) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """(query, candidate positions, 0/1 relevance) per query: up to 5 positives and 25 random non-positives."""
    rng = np.random.default_rng(seed)
    out = []
    for q in queries:
        pos = np.array(sorted(positives[q]), dtype=np.int64)
        if len(pos) > POSITIVES:
            pos = np.sort(rng.choice(pos, size=POSITIVES, replace=False))
        excluded = positives[q] | {q}
        pool = n - len(excluded)
        if pool <= 0:
            continue
        neg: set[int] = set()
        while len(neg) < min(NEGATIVES, pool):
            for c in rng.integers(0, n, size=2 * NEGATIVES):
                if int(c) not in excluded and len(neg) < NEGATIVES:
                    neg.add(int(c))
        cand = np.concatenate([pos, np.array(sorted(neg), dtype=np.int64)])
        rel = np.concatenate([np.ones(len(pos)), np.zeros(len(neg))])
        out.append((q, cand, rel))
    return out


def ranking_metrics(X: np.ndarray, sets: list[tuple[int, np.ndarray, np.ndarray]]) -> dict[str, np.ndarray]:
    """Per-query MAP and nDCG of candidate sets scored by cosine of the rows of X (unit vectors)."""
    from sklearn.metrics import average_precision_score, ndcg_score

    aps, ndcgs = [], []
    for q, cand, rel in sets:
        scores = X[cand] @ X[q]
        aps.append(average_precision_score(rel, scores))
        ndcgs.append(ndcg_score(rel[None, :], scores[None, :]))
    return {"MAP": np.array(aps), "nDCG": np.array(ndcgs)}


def retrieval_metrics(X: np.ndarray, positives: dict[int, set[int]], queries: Sequence[int],
                      k: int = 10) -> dict[str, np.ndarray]:
    """Per-query recall@k and nDCG@k of a query's positives among every other paper of the corpus."""
    from sklearn.metrics import ndcg_score

    recall, ndcg = [], []
    for start in range(0, len(queries), 256):
        part = list(queries[start:start + 256])
        scores = X[part] @ X.T
        scores[np.arange(len(part)), part] = -np.inf  # the query itself is not a result
        top = np.argpartition(-scores, min(k, scores.shape[1] - 1), axis=1)[:, :k]
        rel = np.zeros_like(scores)
        for i, q in enumerate(part):
            rel[i, list(positives[q])] = 1.0
            hits = len(set(top[i].tolist()) & positives[q])
            recall.append(hits / len(positives[q]))
        finite = np.where(np.isfinite(scores), scores, -1e9)
        ndcg += [ndcg_score(rel[i:i + 1], finite[i:i + 1], k=k) for i in range(len(part))]
    return {"recall@10": np.array(recall), "nDCG@10": np.array(ndcg)}


def task_metrics(X: np.ndarray, task: str, cites: dict[int, list[int]], held_out: Sequence[int],
                 seed: int, max_queries: int = MAX_QUERIES) -> tuple[dict[str, np.ndarray], int]:
    """Per-query values of the four metrics for held-out query papers (positions into X), and the query count."""
    n = len(X)
    positives = positives_of(task, cites, n)
    queries = [q for q in held_out if q in positives]
    if len(queries) > max_queries:
        queries = sorted(np.random.default_rng(seed).choice(queries, size=max_queries, replace=False).tolist())
    if not queries:
        return {m: np.zeros(0) for m in METRICS}, 0
    X = np.asarray(X, dtype=np.float32)
    X = X / np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-12)
    sets = candidate_sets(positives, queries, n, seed)
    out = ranking_metrics(X, sets)
    out.update(retrieval_metrics(X, positives, queries))
    return out, len(queries)


def _summary(model: str, task: str, values: dict[str, np.ndarray], n: int, note: str = "") -> list[Result]:
    """One Result per metric: the mean over query papers with its per-paper scores (its 95 % interval)."""
    return [Result(model, task, m, round(float(np.mean(values[m])), 4) if n else float("nan"),
                   round(float(np.std(values[m])), 4) if n else None, n, note,
                   per_paper=[float(v) for v in values[m]] if n else None) for m in METRICS]


def trained_split(store: Store, name: str, depth: int = 8) -> list[tuple[int, float]]:
    """The citation splits (seed, held-out share) a model and the fine-tuned models below it trained under: their
    other citing papers' links were training triplets. [] for a model that never learned from links."""
    spec = get_model(name, store)
    meta = read_checkpoint_meta(Path(spec.location)) if spec.source == "checkpoint" else {}
    config = meta.get("config") or {}
    out = []
    if "specter" in str(config.get("objective", "")):
        seed = config.get("cite_split_seed", config.get("seed"))
        out.append((int(seed or 0), float(config.get("cite_held_out") or CITE_HELD_OUT)))
    base = config.get("base") or meta.get("base")
    if base and base != name and depth > 0:
        try:
            out += trained_split(store, str(base), depth - 1)
        except MireadError:  # a base deleted since: its split is unknown
            pass
    return out


def untrained_queries(ids: list[str], held_out: Sequence[int], splits: Sequence[tuple[int, float]]) -> list[int]:
    """The held-out query papers that every one of `splits` held out too (no model trained on their links)."""
    return [q for q in held_out if all(is_cite_query(ids[q], seed, share) for seed, share in splits)]


def _split_note(kept: int, held: int) -> str:
    if kept == held:
        return ""
    return (f"query papers: the {kept} of the {held} held-out citing papers that the fine-tuned models held out "
            "too (their other papers' links were training triplets)")


def citation_tasks(store: Store, corpus: str, models: Sequence[str], tasks: Sequence[str], encoder_for: EncoderFor,
                   seed: int = 0, step: Callable[[str], None] | None = None, device: str = "auto",
                   batch_size: int = 32, fraction: float = CITE_HELD_OUT,
                   max_queries: int = MAX_QUERIES) -> list[Result]:
    """The cite / cocite tasks for each model (and a random baseline), cached per corpus version, links and model."""
    ids = store.papers_frame(corpus, with_abstract=False)["id"].astype(str).tolist()
    pairs = store.links(corpus)
    if not pairs:
        raise CorpusError(f"corpus {corpus!r} has no citation links; import a file with a references column first")
    cites = citation_graph(ids, pairs)
    held = citation_split(ids, cites, seed, fraction)[1]
    splits = sorted({split for name in models for split in trained_split(store, name)})
    held_out = untrained_queries(ids, held, splits)
    version = store.corpus_version(corpus)
    rng = np.random.default_rng(seed + 7)
    random_X = rng.standard_normal((len(ids), 16)).astype(np.float32)
    results: list[Result] = []
    for task in tasks:
        values, n = task_metrics(random_X, task, cites, held_out, seed, max_queries)
        results += _summary("random (baseline)", task, values, n, "random vectors")
    for name in models:
        spec = get_model(name, store)
        key = "cite-task:" + json.dumps({"corpus": corpus, "v": version, "links": len(pairs),
                                         "model": vectors_fingerprint(spec), "seed": seed, "fraction": fraction,
                                         "max": max_queries, "tasks": list(tasks), "splits": splits}, sort_keys=True)
        cached = store.cache_get(key)
        if cached is None:
            encoder = encoder_for(spec) if store.missing_hashes(corpus, vectors_fingerprint(spec)) else None
            embed_corpus(store, corpus, spec, device=device, batch_size=batch_size, encoder=encoder)
            X = np.asarray(corpus_embeddings(store, corpus, spec))
            cached = {}
            for task in tasks:
                values, n = task_metrics(X, task, cites, held_out, seed, max_queries)
                cached[task] = {"n": n, "values": {m: v.tolist() for m, v in values.items()}}
            store.cache_put(key, cached)
        note = _split_note(len(held_out), len(held))
        for task in tasks:
            values = {m: np.asarray(v) for m, v in cached[task]["values"].items()}
            results += _summary(name, task, values, cached[task]["n"], note)
        if step:
            step(f"{name}: {', '.join(tasks)} done")
    return results
