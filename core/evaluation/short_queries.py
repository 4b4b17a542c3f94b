"""The ``short`` task: how well the corpus answers queries the way people type them, for dense, lexical and fused.

- ``title``: alternative-self retrieval (Singh & Singh 2022): each sampled paper's title is the query and the paper
  itself (title + abstract) the one right answer, among the whole corpus;
- ``keywords``: 2–4 of the paper's own keywords or MeSH terms (seeded), for corpora with a keywords column.

Per query kind and method: recall@1, recall@10 and MRR (the target's reciprocal rank, 0 past `DEPTH`), with n, the
Wilson interval of each recall and the paired bootstrap interval of fused minus dense.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core.errors import CorpusError
from core.evaluation.report import Result
from core.evaluation.verdict import paired_interval, proportion_interval
from core.explore.search.hybrid import DEPTH, fuse, lexical_weight
from core.explore.search.lexical import LexicalIndex

SHORT_TASK = "short"
KINDS = ("title", "keywords")
METHODS = ("dense", "lexical", "fused")
MAX_QUERIES = 500
Weight = Callable[[str, LexicalIndex], float]


def default_weight(text: str, index: LexicalIndex) -> float:
    """The lexical weight the product's search gives this query (over the whole corpus: no filter)."""
    known = index.known_share(text)
    if lexical_weight(len(text.split()), known) <= 0:
        return 0.0
    return lexical_weight(len(text.split()), known, coverage=index.coverage(text))


def keyword_query(keywords: Sequence[str], rng: np.random.Generator) -> str | None:
    """2–4 of a paper's keywords (distinct, seeded order), or None with fewer than two."""
    words = list(dict.fromkeys(str(k).strip() for k in keywords if str(k).strip()))
    if len(words) < 2:
        return None
    take = int(rng.integers(2, min(4, len(words)) + 1))
    return " ".join(words[i] for i in sorted(rng.choice(len(words), take, replace=False)))


def queries(titles: Sequence[str], abstracts: Sequence[str], keywords: Sequence[Sequence[str]] | None, seed: int,
            max_queries: int = MAX_QUERIES) -> dict[str, tuple[list[str], np.ndarray]]:
    """Per kind: (query texts, target rows) for a seeded sample of papers with an abstract (and keywords)."""
    rng = np.random.default_rng(seed)
    has_text = np.array([bool(str(t or "").strip()) and bool(str(a or "").strip()) for t, a in zip(titles, abstracts)])
    rows = rng.permutation(np.flatnonzero(has_text))
    out: dict[str, tuple[list[str], np.ndarray]] = {}
    picked = np.sort(rows[:max_queries])
    out["title"] = ([str(titles[i]) for i in picked], picked)
    if keywords is not None:
        texts, targets = [], []
        for row in rows:
            query = keyword_query(keywords[row] or [], rng)
            if query is not None:
                texts.append(query)
                targets.append(row)
            if len(texts) >= max_queries:
                break
        if texts:
            out["keywords"] = (texts, np.asarray(targets, dtype=np.int64))
    return out


def target_ranks(X: np.ndarray, Q: np.ndarray, texts: Sequence[str], targets: np.ndarray, index: LexicalIndex,
                 weight: Weight = default_weight, depth: int = DEPTH) -> dict[str, np.ndarray]:
    """1-based rank of each query's target per method (inf when outside the top `depth`)."""
    ranks = {m: np.full(len(texts), np.inf) for m in METHODS}
    for i, (text, q, target) in enumerate(zip(texts, Q, targets)):
        sims = np.asarray(X @ q, dtype=np.float32)
        top = np.argpartition(-sims, min(depth, len(sims) - 1))[:depth]
        dense = top[np.lexsort((top, -sims[top]))]
        lexical = index.search(text, depth)[1]
        w = weight(text, index)
        fused = fuse([dense, lexical], [1.0, w], depth) if w > 0 else dense
        for method, ranking in (("dense", dense), ("lexical", lexical), ("fused", fused)):
            hit = np.flatnonzero(ranking == target)
            if len(hit):
                ranks[method][i] = hit[0] + 1
    return ranks


def per_query(ranks: np.ndarray) -> dict[str, np.ndarray]:
    """Each query's recall@1, recall@10 (0/1) and reciprocal rank."""
    return {"recall@1": (ranks <= 1).astype(float), "recall@10": (ranks <= 10).astype(float),
            "MRR": np.where(np.isfinite(ranks), 1.0 / ranks, 0.0)}


def summary(model: str, kind: str, ranks: dict[str, np.ndarray], seed: int = 0) -> list[Result]:
    """The task's rows: each method's metrics with n and 95 % intervals; fused vs dense paired."""
    rows = []
    dense = per_query(ranks["dense"])
    for method in METHODS:
        values = per_query(ranks[method])
        for metric, scores in values.items():
            n = len(scores)
            low_high = proportion_interval(scores.sum(), n) if metric != "MRR" else None
            note = f"{kind} queries" + (f"; 95 % interval {low_high[0]:.3f}–{low_high[1]:.3f}" if low_high else "")
            if method == "fused" and n:
                lo, hi = paired_interval(scores - dense[metric], seed)
                note += f"; fused − dense {float(np.mean(scores - dense[metric])):+.3f} ({lo:+.3f} to {hi:+.3f})"
            rows.append(Result(model, SHORT_TASK, f"{kind} {metric}", float(np.mean(scores)) if n else float("nan"),
                               None, n, note, method, scores.tolist()))
    return rows


def keyword_lists(frame: Any, roles: dict[str, str]) -> list[list[str]] | None:
    """Each paper's keywords from the corpus's keyword columns (role 'keywords', or a column named so)."""
    columns = [c for c, r in roles.items() if r == "keywords" and c in frame.columns]
    columns = columns or [c for c in ("keywords", "mesh") if c in frame.columns]
    if not columns:
        return None
    out = []
    for values in zip(*(frame[c].tolist() for c in columns)):
        words: list[str] = []
        for value in values:
            if isinstance(value, (list, tuple, np.ndarray)):
                words += [str(v) for v in value]
            elif isinstance(value, str) and value.strip():
                words += [p.strip() for p in value.split(";") if p.strip()]
        out.append(words)
    return out


def short_task(store: Any, corpus: str, models: Sequence[str], encoder_for: Callable[[Any], Any], seed: int = 0,
               step: Callable[[str], None] | None = None, device: str = "auto", batch_size: int = 32,
               max_queries: int = MAX_QUERIES) -> list[Result]:
    """The short-query task for each model over the whole corpus (embedding what is missing), at most
    `max_queries` queries of each kind (the run's sample size, up to `MAX_QUERIES`)."""
    from core.embedding import corpus_embeddings, embed_corpus, get_model, vectors_fingerprint
    from core.explore.search.lexical import corpus_lexical

    frame = store.papers_frame(corpus)
    if len(frame) < 10:
        raise CorpusError(f"the short-query task needs at least 10 papers; corpus {corpus!r} has {len(frame)}")
    index = corpus_lexical(store, corpus, frame)
    sets = queries(frame["title"].tolist(), frame["abstract"].tolist(),
                   keyword_lists(frame, store.corpus(corpus).roles), seed, max_queries)
    results: list[Result] = []
    for name in models:
        spec = get_model(name, store)
        encoder = encoder_for(spec)
        if store.missing_hashes(corpus, vectors_fingerprint(spec)):
            embed_corpus(store, corpus, spec, device=device, batch_size=batch_size, encoder=encoder)
        X = np.asarray(corpus_embeddings(store, corpus, spec), dtype=np.float32)
        for kind, (texts, targets) in sets.items():
            Q = encoder.encode([(t, "") for t in texts])
            results += summary(name, kind, target_ranks(X, Q, texts, targets, index), seed)
        if step:
            step(f"{name}: short queries done")
    return results


def short_rows(store: Any, corpus: str, models: Sequence[str], encoder_for: Callable[[Any], Any], seed: int = 0,
               step: Callable[[str], None] | None = None, sample: int = MAX_QUERIES) -> dict[str, list[dict]]:
    """`short_task` as the evaluation document's results and errors (one sentence when the task cannot run), with
    as many queries of each kind as the run's sample size (up to `MAX_QUERIES`): no task's n above the sample."""
    from core.errors import MireadError

    try:
        return {"results": [r.to_dict() for r in short_task(store, corpus, models, encoder_for, seed, step,
                                                            max_queries=min(sample, MAX_QUERIES))]}
    except MireadError as exc:
        return {"errors": [{"model": None, "task": SHORT_TASK, "error": str(exc)}]}
