"""Visual summaries: rank each paper's figures by how well its caption matches the paper's title and abstract.

Zero-shot with any model (cosine of the abstract and caption vectors); a figure scorer trained on the Train page
is a model like any other and ranks the same way. Rankings are cached per (corpus version, model, paper).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from core.embedding import get_encoder, get_model, vectors_fingerprint

if TYPE_CHECKING:
    from core.store import Store

EncoderFor = Callable[[Any], Any]
CAPTION_PREVIEW = 240


def abstract_text(title: str, abstract: str) -> str:
    """The query text of a paper for caption matching: its title and abstract."""
    return f"{title}. {abstract}".strip(". ")


def score_captions(encoder: Any, queries: Sequence[str], captions: Sequence[Sequence[str]]) -> list[np.ndarray]:
    """For each query, the cosine of its vector with each of its own captions' vectors (one batch call each)."""
    flat = [c for group in captions for c in group]
    query_vectors = encoder.encode_texts(list(queries))
    caption_vectors = encoder.encode_texts(flat) if flat else np.zeros((0, query_vectors.shape[1]), np.float32)
    out, start = [], 0
    for vector, group in zip(query_vectors, captions):
        out.append(caption_vectors[start:start + len(group)] @ vector)
        start += len(group)
    return out


def ranks_of(scores: np.ndarray) -> np.ndarray:
    """1-based ranks by descending score; ties keep the figures' order."""
    order = np.argsort(-np.asarray(scores), kind="stable")
    ranks = np.empty(len(order), dtype=int)
    ranks[order] = np.arange(1, len(order) + 1)
    return ranks


def rank_figures(store: Store, corpus: str, model: str, pids: Sequence[str] | None = None,
                 encoder_for: EncoderFor | None = None, device: str = "auto") -> dict[str, list[dict[str, Any]]]:
    """Each paper's captioned figures with score and rank (best first); papers without figures are left out."""
    spec = get_model(model, store)
    fp = vectors_fingerprint(spec)
    version = store.corpus_version(corpus)
    figures = store.figures(corpus, pids)
    out: dict[str, list[dict[str, Any]]] = {}
    todo = []
    for pid, items in figures.items():
        items = [f for f in items if f["caption"]]
        if not items:
            continue
        cached = store.cache_get(f"figure-rank:{corpus}:{version}:{fp}:{pid}")
        if cached is not None and len(cached) == len(items):
            out[pid] = [dict(f, score=c["score"], rank=c["rank"]) for f, c in zip(items, cached)]
        else:
            todo.append((pid, items))
    if todo:
        encoder = encoder_for(spec) if encoder_for else get_encoder(spec, device=device)
        papers = {p.id: p for p in store.papers(corpus)} if len(todo) > 50 else {
            pid: store.paper(corpus, pid) for pid, _ in todo}
        queries = [abstract_text(papers[pid].title, papers[pid].abstract) for pid, _ in todo]
        scored = score_captions(encoder, queries, [[f["caption"] for f in items] for _, items in todo])
        for (pid, items), scores in zip(todo, scored):
            ranks = ranks_of(scores)
            out[pid] = [dict(f, score=round(float(s), 4), rank=int(r)) for f, s, r in zip(items, scores, ranks)]
            store.cache_put(f"figure-rank:{corpus}:{version}:{fp}:{pid}",
                            [{"score": f["score"], "rank": f["rank"]} for f in out[pid]])
    return {pid: sorted(items, key=lambda f: f["rank"]) for pid, items in out.items()}


def visual_summary(figures: Sequence[dict[str, Any]] | None, limit: int = CAPTION_PREVIEW) -> str:
    """'Figure 3 — caption' of a paper's top-ranked figure (the caption cut at ``limit`` characters); '' if none."""
    if not figures:
        return ""
    top = figures[0]
    caption = top["caption"] if len(top["caption"]) <= limit else top["caption"][:limit].rsplit(" ", 1)[0] + " …"
    return f"{top['label']} — {caption}"


def choice_margin(figures: Sequence[dict[str, Any]] | None) -> str:
    """How sure the choice of the top figure is: the runner-up's score and how far behind it is ('' without
    figures): 'runner-up FIGURE 3 at 0.561, 0.011 lower', '… as high (a toss-up)', or 'its only figure'."""
    if not figures:
        return ""
    if len(figures) == 1:
        return "its only figure"
    top, second = figures[0], figures[1]
    gap = float(top["score"]) - float(second["score"])
    behind = "as high (a toss-up)" if round(gap, 3) <= 0 else f"{gap:.3f} lower"
    return f"runner-up {second['label']} at {float(second['score']):.3f}, {behind}"


def figures_document(store: Store, corpus: str, model: str, pids: Sequence[str] | None = None,
                     encoder_for: EncoderFor | None = None) -> dict[str, Any]:
    """The `figures --json` document: {"corpus", "model", "papers": [{"id", "title", "figures": [...]}]}."""
    ranked = rank_figures(store, corpus, model, pids, encoder_for)
    order = list(pids) if pids else sorted(ranked)
    titles = {pid: store.paper(corpus, pid).title for pid in order if pid in ranked}
    papers = [{"id": pid, "title": titles[pid], "figures": [
        {"label": f["label"], "caption": f["caption"], "score": f["score"], "rank": f["rank"], "id": f["id"],
         "position": f["position"], "image": str(store.figure_image(f["image"]) or "") or None}
        for f in ranked[pid]]} for pid in order if pid in ranked]
    return {"corpus": corpus, "model": model, "papers": papers}
