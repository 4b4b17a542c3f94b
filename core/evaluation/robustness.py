"""Robustness probes of Singh & Singh (Findings of ACL 2022) on frozen embeddings.

Alternative-self retrieval finds a paper from its title alone; textual neighbours asks whether a
perturbed paper (see `core.evaluation.perturb`) still lands next to its original. Both are pure:
text is embedded through an ``encode`` callable mapping ``[(title, abstract), ...]`` to an ``[n, d]``
array and randomness comes from ``seed``. `robustness_for_abstract` runs every perturbation on one
pasted paper against an embedded corpus (the Evaluate page's Robustness tab).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from core.errors import CorpusError
from core.evaluation import perturb
from core.evaluation.arrays import (
    BLOCK,
    TIE,
    Encode,
    Progress,
    as_matrix,
    check_texts,
    corpus_vectors,
    embed,
    normalise,
    sample_indices,
    top_k,
)

if TYPE_CHECKING:
    import pandas as pd


def alternative_self(
    encode: Encode,
    titles: Sequence[str],
    abstracts: Sequence[str],
    seed: int = 0,
    max_queries: int = 1000,
    doc_embeddings: np.ndarray | None = None,
) -> dict:
    """Find each paper from its title alone: MRR and T100 against title+abstract documents.

    Task I: the documents are the title+abstract embeddings of all papers. Task II: the title-only
    embeddings of all other papers join the pool as distractors (the query's own title-only entry is
    left out: it is the query itself). Ranks count only documents scoring more than 1e-6 above the
    paper, so ties (duplicate papers) go to the paper. ``doc_embeddings`` (the corpus already embedded
    by the same model) skips re-encoding.
    """
    titles, abstracts = check_texts(titles, abstracts)
    docs = corpus_vectors(encode, titles, abstracts, doc_embeddings)
    titled = np.array([i for i, t in enumerate(titles) if t.strip()], dtype=int)
    if len(titled) == 0:
        raise CorpusError("Alternative-self retrieval needs papers with titles; every title is empty.")
    title_docs = embed(encode, [(titles[i], "") for i in titled], "Title embeddings")
    chosen = sample_indices(len(titled), max_queries, np.random.default_rng(seed))
    ranks1, ranks2 = [], []
    for start in range(0, len(chosen), BLOCK):
        block = chosen[start : start + BLOCK]
        rows = np.arange(len(block))
        queries = title_docs[block]
        sims = queries @ docs.T
        own = sims[rows, titled[block]]
        rank1 = 1 + (sims > own[:, None] + TIE).sum(axis=1)
        distractor = queries @ title_docs.T
        distractor[rows, block] = -np.inf
        ranks1.append(rank1)
        ranks2.append(rank1 + (distractor > own[:, None] + TIE).sum(axis=1))
    r1, r2 = np.concatenate(ranks1), np.concatenate(ranks2)
    return {
        "task1": {"mrr": float(np.mean(1.0 / r1)), "t100": float(np.mean(r1 <= 100))},
        "task2": {"mrr": float(np.mean(1.0 / r2)), "t100": float(np.mean(r2 <= 100))},
        "ranks": {"task1": r1.tolist(), "task2": r2.tolist()},  # each query's, in the seeded query order
        "n": int(len(chosen)),
        "pool": int(len(docs)),
        "distractors": int(len(titled) - 1),
    }


def neighbour_scores(Q: np.ndarray, D: np.ndarray, own: Sequence[int], k: int = 10) -> dict:
    """NN1_Ret, NN10_Ret and AOP-10 of perturbed queries Q against corpus D (row own[i] is Q[i]'s original).

    The original's rank counts only papers scoring more than 1e-6 above it, so an exact duplicate of
    the original in the corpus does not count as a miss.
    """
    Q, D = normalise(as_matrix(Q, "Perturbed embeddings")), normalise(as_matrix(D, "Paper embeddings"))
    own = np.asarray(own, dtype=int)
    k = max(1, min(k, len(D) - 1))
    nn1, nnk, overlap = [], [], []
    for start in range(0, len(Q), BLOCK):
        rows, mine = np.arange(len(Q[start : start + BLOCK])), own[start : start + BLOCK]
        sims = Q[start : start + BLOCK] @ D.T
        rank = 1 + (sims > sims[rows, mine][:, None] + TIE).sum(axis=1)
        nn1.append(rank == 1)
        nnk.append(rank <= k)
        sims[rows, mine] = -np.inf
        original = D[mine] @ D.T
        original[rows, mine] = -np.inf
        for moved, kept in zip(top_k(sims, k), top_k(original, k)):
            overlap.append(len(np.intersect1d(moved, kept)) / k)
    return {
        "nn1_ret": float(np.concatenate(nn1).mean()),
        "nn10_ret": float(np.concatenate(nnk).mean()),
        "aop10": float(np.mean(overlap)),
        "n": int(len(Q)),
    }


def textual_neighbours(
    encode: Encode,
    titles: Sequence[str],
    abstracts: Sequence[str],
    families: Sequence[str] | None = None,
    seed: int = 0,
    max_papers: int = 500,
    k: int = 10,
    doc_embeddings: np.ndarray | None = None,
    progress: Progress | None = None,
) -> list[dict]:
    """For each perturbation family, how well perturbed papers keep their place among the originals.

    Papers the family leaves unchanged (e.g. no digits to delete) are not counted; ``n`` says how many
    were. ``k`` (10 by default) sets both NN10_Ret and AOP-10, whose names follow the paper.
    """
    titles, abstracts = check_texts(titles, abstracts)
    names = list(families) if families is not None else list(perturb.FAMILIES)
    resolved = [perturb.resolve(name, pool=abstracts) for name in names]
    docs = corpus_vectors(encode, titles, abstracts, doc_embeddings)
    sample = sample_indices(len(titles), max_papers, np.random.default_rng(seed))
    rows = []
    for step, (name, (category, function)) in enumerate(zip(names, resolved)):
        if progress:
            progress(step / len(names), f"perturbation {name}")
        rng = np.random.default_rng([seed, zlib.crc32(name.encode())])
        changed, pairs = [], []
        for i in sample.tolist():
            pair = function(titles[i], abstracts[i], rng)
            if pair != (titles[i], abstracts[i]) and (pair[0].strip() or pair[1].strip()):
                changed.append(i)
                pairs.append(pair)
        if changed:
            scores = neighbour_scores(embed(encode, pairs, "Perturbed embeddings"), docs, changed, k)
        else:
            scores = {"nn1_ret": math.nan, "nn10_ret": math.nan, "aop10": math.nan, "n": 0}
        rows.append({"family": name, "category": category, **scores, "expect_keep": perturb.expect_keep(name)})
    if progress:
        progress(1.0, "perturbations done")
    return rows


def neighbours_summary(rows: Sequence[dict]) -> str:
    """A few sentences on which perturbations keep a paper's neighbours, and whether that is right."""
    sentences = []
    lost = [r["family"] for r in rows if r["expect_keep"] and r["n"] and r["nn10_ret"] < 0.5]
    if lost:
        sentences.append(
            f"These meaning-preserving perturbations lose the original paper from the top 10 for most papers: "
            f"{', '.join(lost)}."
        )
    elif any(r["expect_keep"] and r["n"] for r in rows):
        sentences.append("Every meaning-preserving perturbation keeps the original paper in the top 10 for most "
                         "papers.")
    for r in rows:
        if r["expect_keep"] or not r["n"]:
            continue
        share = f"{r['nn1_ret']:.0%}"
        if r["nn1_ret"] >= 0.5:
            sentences.append(
                f"{r['family']} ({r['category']}) destroys the text, so the original should not stay the nearest "
                f"neighbour, yet it does for {share} of papers: the model follows surface words more than meaning."
            )
        else:
            sentences.append(
                f"{r['family']} ({r['category']}) destroys the text and should not keep neighbours; the original stays "
                f"nearest for only {share} of papers, as expected."
            )
    sentences.append(perturb.pos_note())
    return " ".join(sentences)


# ---------------------------------------------------------------- one pasted abstract


def robustness_for_abstract(
    encoder: Any, corpus_matrix: np.ndarray, frame: pd.DataFrame, title: str, abstract: str, k: int = 10,
    seed: int = 0,
) -> list[dict]:
    """The original's top-k corpus neighbours, then each perturbation family's and their overlap with them.

    The first row is the unperturbed query ("original"); each row has family, category, expect_keep,
    changed (False when the family leaves this text as it is), title, abstract, overlap (share of the
    original's top-k kept) and neighbours [{rank, row, id, title, score, shared}].
    """
    title, abstract = (title or "").strip(), (abstract or "").strip()
    if not title and not abstract:
        raise CorpusError("paste a title or an abstract to probe")
    matrix = np.asarray(corpus_matrix, dtype=np.float32)
    if matrix.ndim != 2 or len(matrix) != len(frame) or len(matrix) == 0:
        raise CorpusError(f"the corpus has {len(frame)} papers but {len(matrix)} embeddings; embed it again")
    k = max(1, min(int(k), len(matrix)))
    pool = frame["abstract"].fillna("").astype(str).tolist() if "abstract" in frame.columns else []
    queries = [("original", "", True, title, abstract)]
    for name in perturb.FAMILIES:
        category, function = perturb.resolve(name, pool=pool)
        rng = np.random.default_rng([seed, zlib.crc32(name.encode())])
        new_title, new_abstract = function(title, abstract, rng)
        queries.append((name, category, perturb.expect_keep(name), new_title, new_abstract))
    vectors = np.asarray(encoder.encode([(q[3], q[4]) for q in queries]), dtype=np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    norms = np.maximum(np.linalg.norm(matrix, axis=1), 1e-12)
    scores = (vectors @ matrix.T) / norms
    top = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    original = set(top[0].tolist())
    ids = frame["id"].astype(str).tolist()
    titles = frame["title"].fillna("").astype(str).tolist()
    out = []
    for (family, category, keep, new_title, new_abstract), best, row_scores in zip(queries, top, scores):
        changed = family == "original" or (new_title, new_abstract) != (title, abstract)
        out.append({
            "family": family, "category": category, "expect_keep": keep, "changed": changed,
            "title": new_title, "abstract": new_abstract,
            "overlap": len(original.intersection(best.tolist())) / k,
            "neighbours": [{"rank": rank, "row": int(i), "id": ids[i], "title": titles[i],
                            "score": float(row_scores[i]), "shared": int(i) in original}
                           for rank, i in enumerate(best.tolist(), start=1)],
        })
    return out
