"""The Journals page's choice between a model's trained head and the neighbour vote, measured on held-out papers.

Where the corpus is the one the model was trained on, the held-out papers are the model's test split (never trained,
warmed up or validated on); elsewhere a seeded sample of the corpus's labelled papers. Each method ranks the journals
of each held-out paper: the head over its classes (a journal outside them is a miss), the vote leave-one-out over the
whole corpus (the paper is never its own neighbour), as the page would. Top-1 and top-5 come with their n and 95 %
Wilson intervals; the top-5 difference with a paired bootstrap interval; calibration as ECE and log-loss. The better
top-5 is the page's default. Results are cached in the store per corpus version and model.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from core.embedding import (
    ModelSpec,
    corpus_embeddings,
    get_encoder,
    load_head,
    read_checkpoint_meta,
    vectors_fingerprint,
)
from core.errors import MireadError
from core.evaluation.calibration import expected_calibration_error, log_loss, softmax
from core.evaluation.journal_finder import true_ranks
from core.evaluation.verdict import paired_verdict, proportion_interval
from core.explore.journals import label_codes, vote_blocks
from core.store import Store

SAMPLE = 500  # held-out papers drawn where the corpus is not the model's training corpus
CACHE_VERSION = 1
METHOD_NAMES = {"head": "trained head", "knn": "neighbour vote"}


def held_out_rows(spec: ModelSpec, corpus: str, ids: list[str], labelled: np.ndarray,
                  seed: int) -> tuple[np.ndarray, str]:
    """(rows, split): the model's test papers in this corpus, else a seeded sample of labelled rows."""
    meta = read_checkpoint_meta(Path(spec.location)) if spec.source == "checkpoint" else {}
    test = set(meta.get("test_ids") or [])
    if test and (meta.get("config") or {}).get("corpus") == corpus:
        rows = np.array([i for i in labelled if ids[i] in test], dtype=np.int64)
        if len(rows):
            return rows, "test"
    rng = np.random.default_rng(seed)
    pick = labelled if len(labelled) <= SAMPLE else np.sort(rng.choice(labelled, SAMPLE, replace=False))
    return np.asarray(pick, dtype=np.int64), "sample"


def _head_probabilities(spec: ModelSpec, vectors: np.ndarray, pairs: list[tuple[str, str]]) -> np.ndarray:
    """The head's probabilities: from the stored unit vectors when it takes them, else by encoding the papers."""
    loaded = load_head(Path(spec.location), spec.name)
    if loaded is not None and loaded[1]:
        weight = loaded[0].weight.detach().numpy().astype(np.float64)
        bias = loaded[0].bias.detach().numpy().astype(np.float64)
        return softmax(vectors @ weight.T + bias)
    return np.asarray(get_encoder(spec).predict(pairs), dtype=np.float64)


def _figures(probs: np.ndarray, truth: np.ndarray, known: np.ndarray) -> dict[str, Any]:
    """Top-1/top-5 hits with intervals, and calibration on the papers whose journal the method knows."""
    ranks = np.full(len(truth), np.inf)
    if known.any():
        ranks[known] = true_ranks(probs[known], truth[known])
    out: dict[str, Any] = {"hits5": (ranks <= 5).astype(float).tolist()}
    for k in (1, 5):
        right = float((ranks <= k).sum())
        low, high = proportion_interval(right, len(truth)) or (None, None)
        out.update({f"top{k}": right / max(1, len(truth)), f"top{k}_low": low, f"top{k}_high": high})
    if known.any():
        out.update(ece=expected_calibration_error(probs[known], truth[known]),
                   nll=log_loss(probs[known], truth[known]), calibrated_on=int(known.sum()))
    return out


def head_and_vote(store: Store, corpus: str, spec: ModelSpec, column: str, seed: int = 0) -> dict[str, Any] | None:
    """Head and vote measured on the same held-out papers; None when the model has no head for `column` or the
    corpus is not embedded with it (measuring would embed it: the page never starts that on its own)."""
    if not spec.has_head or spec.label_column != column or not store.has_corpus(corpus):
        return None
    fp = vectors_fingerprint(spec)
    if store.missing_hashes(corpus, fp):
        return None
    version = store.corpus_version(corpus)
    key = "journal-methods:" + json.dumps({"v": CACHE_VERSION, "corpus": corpus, "version": version, "model": fp,
                                            "column": column, "seed": seed}, sort_keys=True)
    cached = store.cache_get(key)
    if cached is not None:
        return cached
    frame = store.papers_frame(corpus)
    if column not in frame.columns:
        raise MireadError(f"corpus {corpus!r} has no column {column!r}")
    codes, names, _ = label_codes(frame[column])
    rows, split = held_out_rows(spec, corpus, frame["id"].astype(str).tolist(), np.flatnonzero(codes >= 0), seed)
    if len(rows) == 0:
        return None
    truth_text = [names[c] for c in codes[rows]]
    vectors = np.asarray(corpus_embeddings(store, corpus, spec), dtype=np.float64)[rows]
    texts = frame.iloc[rows]
    pairs = list(zip(texts["title"].fillna("").astype(str), texts["abstract"].fillna("").astype(str)))
    head_col = {label: j for j, label in enumerate(spec.labels)}
    head_known = np.array([t in head_col for t in truth_text])
    head_truth = np.array([head_col.get(t, 0) for t in truth_text])
    head = _figures(_head_probabilities(spec, vectors, pairs), head_truth, head_known)
    vote_probs = np.concatenate([p for p, _ in vote_blocks(store, corpus, spec, column, rows, frame=frame)])
    vote = _figures(vote_probs, codes[rows], np.ones(len(rows), dtype=bool))
    difference = paired_verdict(head.pop("hits5"), vote.pop("hits5"), metric="top-5 accuracy", split=split, seed=seed)
    result = {"corpus": corpus, "model": spec.name, "column": column, "split": split, "papers": int(len(rows)),
              "head": head, "knn": vote, "best": "head" if head["top5"] > vote["top5"] else "knn",
              "difference": difference.to_dict(), "head_classes": len(spec.labels),
              "head_misses": int((~head_known).sum())}
    store.cache_put(key, result)
    return result


def papers_measured(measured: dict[str, Any]) -> str:
    """What the papers measured on are: the model's held-out test papers, or a sample of the corpus's labelled papers
    (another corpus, or a model without a stored test split: not held out of its training)."""
    return "held-out test papers" if measured["split"] == "test" else "sampled labelled papers"


def measurably_better(measured: dict[str, Any]) -> bool:
    """Whether the default method's top-5 beats the other's: the paired difference's 95 % interval excludes 0."""
    difference = measured["difference"]
    return difference["low"] > 0 if measured["best"] == "head" else difference["high"] < 0


def method_summary(measured: dict[str, Any], method: str) -> str:
    """'neighbour vote: top-5 61.0 % (57.0–64.8), top-1 35.2 % (…) on 600 held-out test papers; ECE 0.04'."""
    from core.evaluation.verdict import interval_text

    figures = measured[method]
    where = papers_measured(measured)
    text = (f"{METHOD_NAMES[method]}: top-5 {interval_text(figures['top5'], figures['top5_low'], figures['top5_high'])}"
            f", top-1 {interval_text(figures['top1'], figures['top1_low'], figures['top1_high'])} on "
            f"{measured['papers']:,} {where}")
    if figures.get("ece") is not None:
        text += f"; calibration error (ECE) {figures['ece']:.3f}"
    return text


def head_temperature(spec: ModelSpec) -> float | None:
    """The temperature the head's probabilities were calibrated with on validation papers (None: not calibrated)."""
    if spec.source != "checkpoint":
        return None
    value = read_checkpoint_meta(Path(spec.location)).get("head_temperature")
    return None if value is None else float(value)
