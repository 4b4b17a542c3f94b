"""The `figures` task: on held-out papers, pick the caption a referencing sentence points to among the paper's
captions (Yamamoto et al. 2021's self-supervision signal, used as a test).

Metrics: accuracy@1, accuracy@3 and MRR over (masked sentence, caption) pairs, for each model (sentence vs caption
cosine) beside the random (expected values) and pick-first baselines; and how often each model's top figure for
the abstract agrees with the first model's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from core.embedding import get_model, read_checkpoint_meta, vectors_fingerprint
from core.errors import CorpusError
from core.evaluation.report import Result
from core.explore.figures import abstract_text, ranks_of, score_captions
from core.store import FigurePaper, Store, is_held_out

HELD_OUT = 0.3
METRICS = ("acc@1", "acc@3", "mrr")
EncoderFor = Callable[[Any], Any]


def rank_metrics(ranks: Sequence[int]) -> dict[str, float]:
    """accuracy@1, accuracy@3 and mean reciprocal rank of 1-based ranks of the right caption."""
    ranks = np.asarray(ranks, dtype=float)
    if not len(ranks):
        return {m: float("nan") for m in METRICS}
    return {"acc@1": float(np.mean(ranks <= 1)), "acc@3": float(np.mean(ranks <= 3)), "mrr": float(np.mean(1 / ranks))}


def random_metrics(sizes: Sequence[int]) -> dict[str, float]:
    """The expected metrics of a uniformly random ranking, per pair with ``sizes`` captions to choose from."""
    n = np.asarray(sizes, dtype=float)
    harmonic = np.array([np.sum(1 / np.arange(1, k + 1)) for k in sizes])
    return {"acc@1": float(np.mean(1 / n)), "acc@3": float(np.mean(np.minimum(3, n) / n)),
            "mrr": float(np.mean(harmonic / n))}


def first_ranks(papers: Sequence[FigurePaper]) -> list[int]:
    """Ranks under pick-first (figures in their order in the article): the caption's position + 1."""
    return [index + 1 for paper in papers for _, index in paper.pairs]


def model_ranks(encoder: Any, papers: Sequence[FigurePaper]) -> list[int]:
    """Ranks of the right caption when each masked sentence's paper captions are sorted by cosine."""
    queries = [s for paper in papers for s, _ in paper.pairs]
    groups = [paper.captions for paper in papers for _ in paper.pairs]
    targets = [index for paper in papers for _, index in paper.pairs]
    scored = _score_unique(encoder, queries, groups)
    return [int(ranks_of(scores)[target]) for scores, target in zip(scored, targets)]


def _score_unique(encoder: Any, queries: list[str], groups: list[list[str]]) -> list[np.ndarray]:
    """score_captions, encoding each distinct caption once (papers repeat their captions per sentence)."""
    captions = list(dict.fromkeys(c for group in groups for c in group))
    index = {c: i for i, c in enumerate(captions)}
    q = encoder.encode_texts(queries) if queries else np.zeros((0, 1), np.float32)
    c = encoder.encode_texts(captions) if captions else np.zeros((0, q.shape[1]), np.float32)
    return [c[[index[x] for x in group]] @ vector for vector, group in zip(q, groups)]


def held_out_papers(store: Store, corpus: str, seed: int, fraction: float = HELD_OUT) -> list[FigurePaper]:
    """The corpus's figure papers in the held-out part of the seeded split by paper."""
    papers = [p for p in store.figure_papers(corpus) if is_held_out(p.pid, seed, fraction)]
    if not papers:
        raise CorpusError(f"corpus {corpus!r} has no held-out papers with two captioned figures and a referencing "
                          "sentence; import JATS full text (with figures) first")
    return papers


def paper_interval(values: Sequence[float], paper_of: Sequence[int], papers: int,
                   seed: int = 0) -> tuple[float, float]:
    """The 95 % interval of a mean over sentence pairs, by a bootstrap over papers (a paper's sentences are not
    independent), never narrower than n papers allow (`floor_half_width`); within 0-1."""
    from core.evaluation.verdict import BOOTSTRAP, floor_half_width

    values = np.asarray(values, dtype=np.float64)
    where = np.asarray(paper_of, dtype=np.int64)
    sums = np.bincount(where, weights=values, minlength=papers)
    counts = np.bincount(where, minlength=papers).astype(np.float64)
    picks = np.random.default_rng(seed).integers(0, papers, size=(BOOTSTRAP, papers))
    means = sums[picks].sum(axis=1) / np.maximum(counts[picks].sum(axis=1), 1.0)
    low, high = np.percentile(means, [2.5, 97.5])
    value, floor = float(values.mean()), floor_half_width(papers)
    return max(0.0, min(float(low), value - floor)), min(1.0, max(float(high), value + floor))


def pair_scores(ranks: Sequence[int]) -> dict[str, np.ndarray]:
    """Each pair's acc@1, acc@3 and reciprocal rank (their means are `rank_metrics`)."""
    r = np.asarray(ranks, dtype=float)
    return {"acc@1": (r <= 1).astype(float), "acc@3": (r <= 3).astype(float), "mrr": 1 / r}


def _results(model: str, metrics: dict[str, float], papers: int, pairs: int, note: str = "",
             ranks: Sequence[int] | None = None, paper_of: Sequence[int] | None = None) -> list[Result]:
    """One Result per metric over `papers` papers and `pairs` sentence pairs, with the interval where ranks are."""
    out = []
    scores = pair_scores(ranks) if ranks is not None and len(ranks) else None
    for m in METRICS:
        low = high = None
        if scores is not None and paper_of is not None:
            low, high = paper_interval(scores[m], paper_of, papers)
        out.append(Result(model, "figures", m, round(metrics[m], 4), None, papers, note, low=low, high=high,
                          pairs=pairs))
    return out


def scorer_split(store: Store, name: str) -> tuple[int, float] | None:
    """The split (seed, held-out share) a figure scorer trained under: it trained on the papers outside it. None for
    any other model."""
    spec = get_model(name, store)
    meta = read_checkpoint_meta(Path(spec.location)) if spec.source == "checkpoint" else {}
    if meta.get("task") != "figures":
        return None
    config = meta.get("config") or {}
    return int(config.get("split_seed") or 0), float(config.get("held_out", HELD_OUT))


def _split_note(kept: int, held: int) -> str:
    if kept == held:
        return ""
    return (f"papers: the {kept} of the {held} held-out papers that the figure scorers held out too (they trained on "
            "the others)")


def figures_task(store: Store, corpus: str, models: Sequence[str], encoder_for: EncoderFor, seed: int = 0,
                 step: Callable[[str], None] | None = None, fraction: float = HELD_OUT) -> list[Result]:
    """The figures task for each model plus random and pick-first; cached per (corpus version, model, seed)."""
    held = held_out_papers(store, corpus, seed, fraction)
    splits = sorted({split for name in models if (split := scorer_split(store, name)) is not None})
    papers = [p for p in held if all(is_held_out(p.pid, s, share) for s, share in splits)]
    if not papers:
        raise CorpusError(f"none of the {len(held)} held-out papers of {corpus!r} was held out by every figure scorer "
                          "evaluated (they trained on them); evaluate with the seed each was trained with")
    pairs = sum(len(p.pairs) for p in papers)
    sizes = [len(p.captions) for p in papers for _ in p.pairs]
    version = store.corpus_version(corpus)
    paper_of = [i for i, p in enumerate(papers) for _ in p.pairs]
    results = _results("random (baseline)", random_metrics(sizes), len(papers), pairs, "expected value")
    first = first_ranks(papers)
    results += _results("pick-first (baseline)", rank_metrics(first), len(papers), pairs, ranks=first,
                        paper_of=paper_of)
    tops: dict[str, list[int]] = {}
    for name in models:
        spec = get_model(name, store)
        key = "figures-task:" + json.dumps({"corpus": corpus, "v": version, "model": vectors_fingerprint(spec),
                                            "seed": seed, "fraction": fraction, "ranks": 1, "splits": splits},
                                           sort_keys=True)
        cached = store.cache_get(key)
        if cached is None:
            encoder = encoder_for(spec)
            ranks = model_ranks(encoder, papers)
            abstracts = [store.paper(corpus, p.pid) for p in papers]
            scored = score_captions(encoder, [abstract_text(a.title, a.abstract) for a in abstracts],
                                    [p.captions for p in papers])
            cached = {"metrics": rank_metrics(ranks), "tops": [int(np.argmax(s)) for s in scored], "ranks": ranks}
            store.cache_put(key, cached)
        results += _results(name, cached["metrics"], len(papers), pairs, _split_note(len(papers), len(held)),
                            ranks=cached["ranks"], paper_of=paper_of)
        tops[name] = cached["tops"]
        if step:
            step(f"{name}: figures done")
    lead = next(iter(tops), None)
    for name in list(tops)[1:]:
        same = (np.asarray(tops[name]) == np.asarray(tops[lead])).astype(float)
        low, high = paper_interval(same, range(len(papers)), len(papers))
        results.append(Result(name, "figures", f"top figure = {lead}", round(float(same.mean()), 4), None,
                              len(papers), "share of held-out papers whose abstract picks the same top figure",
                              low=low, high=high))
    return results
