"""Journal prediction: the fine-tuned head's softmax, or a calibrated kNN vote over a corpus label column."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from core.embedding import Encoder, ModelSpec, get_encoder, get_model
from core.errors import MireadError, NotEmbeddedError
from core.explore.search.similar import clip_query, corpus_index, query_warning, read_warning
from core.labels import is_missing, label_text

if TYPE_CHECKING:
    import pandas as pd

    from core.store import Store

# The vote's defaults, chosen by benchmarks/journal_calibration.py (BENCHMARKS.md, "Journal calibration"): lowest
# leave-one-out log-loss on arXiv-journals corpora of 3,000 papers (191 journals) with top-5 no worse than the old
# vote (T=0.05, k=50, no prior), one-neighbour journals no surer than they turn out to be, and top-1 on a dense
# 8-label column within 1 point. Log-loss 5.08 -> 3.79, ECE 0.172 -> 0.032, top-5 41.6 -> 44.4 %.
KNN_NEIGHBOURS = 50
KNN_TEMPERATURE = 0.1
KNN_PRIOR_STRENGTH = 2.0  # pseudo-papers spread by corpus share: one paper alone gives < (1 + 2 share) / 3, ~1/3

_CODES: dict[tuple[str, str, int, str, int], tuple[np.ndarray, list[str], np.ndarray]] = {}
_CODES_LOCK = threading.Lock()


@dataclass
class Prediction:
    """Top journals for one query, the method that produced them, and evidence papers per journal."""

    model: str
    method: str  # "head" | "knn"
    label_column: str
    predictions: list[dict[str, Any]] = field(default_factory=list)
    disagreement: str | None = None
    note: str | None = None  # why evidence papers are missing, when they are
    warning: str | None = None  # the query is too short to place well
    nearest: int = 0  # how many nearest corpus papers voted (0: none were consulted)

    def to_dict(self) -> dict[str, Any]:
        return {"model": self.model, "method": self.method, "label_column": self.label_column,
                "predictions": self.predictions, "disagreement": self.disagreement, "note": self.note,
                "warning": self.warning, "nearest": self.nearest}


@dataclass(frozen=True)
class LabelVote:
    """One label's part in a neighbour vote: calibrated probability, neighbour count, raw weight share."""

    probability: float
    neighbours: int
    weight_share: float


def vote_matrix(
    scores: np.ndarray, codes: np.ndarray, n_labels: int, temperature: float = KNN_TEMPERATURE,
    prior: np.ndarray | None = None, prior_strength: float = KNN_PRIOR_STRENGTH,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Votes of many queries at once: probabilities, neighbour counts and weight shares, each [queries, labels].

    Each neighbour counts as exp((score - best score) / temperature) of a paper: the nearest as one, farther
    ones less. With a prior, `prior_strength` pseudo-papers spread by the prior join them:
    p = (votes + strength * prior) / (all votes + strength), so a label carried by one paper stays below
    (1 + strength * its prior) / (1 + strength). Codes < 0 are ignored; a query without a labelled
    neighbour gets a row of zeros.
    """
    scores = np.atleast_2d(np.asarray(scores, dtype=np.float64))
    codes = np.atleast_2d(np.asarray(codes, dtype=np.int64))
    n = scores.shape[0]
    valid = (codes >= 0) & np.isfinite(scores)
    top = np.where(valid, scores, -np.inf).max(axis=1, keepdims=True) if scores.size else np.zeros((n, 1))
    top = np.where(np.isfinite(top), top, 0.0)
    weights = np.where(valid, np.exp(np.where(valid, scores - top, 0.0) / temperature), 0.0)
    rows = np.broadcast_to(np.arange(n)[:, None], codes.shape)[valid]
    counts = np.zeros((n, n_labels))
    np.add.at(counts, (rows, codes[valid]), 1.0)
    votes = np.zeros((n, n_labels))
    np.add.at(votes, (rows, codes[valid]), weights[valid])
    total = weights.sum(axis=1, keepdims=True)
    voted = total > 0
    share = votes / np.where(voted, total, 1.0)
    if prior is None or prior_strength <= 0:
        return share, counts, share
    prior = np.asarray(prior, dtype=np.float64)
    probs = (votes + prior_strength * prior[None, :]) / (total + prior_strength * prior.sum())
    return np.where(voted, probs, 0.0), counts, share


def knn_vote_details(
    scores: Sequence[float] | np.ndarray, labels: Sequence[Any], temperature: float = KNN_TEMPERATURE,
    prior: Mapping[str, float] | None = None, prior_strength: float = KNN_PRIOR_STRENGTH,
) -> dict[str, LabelVote]:
    """The calibrated vote of one query's neighbours per label text, most probable first; missing labels ignored."""
    texts = [label_text(v) for v in labels]
    if not any(texts):
        return {}
    prior = None if prior is None else {label_text(name): share for name, share in prior.items()}
    names = list(dict.fromkeys([*(prior or {}), *(t for t in texts if t)]))
    position = {name: i for i, name in enumerate(names)}
    codes = np.array([[position[t] if t else -1 for t in texts]])
    weights = None if prior is None else np.array([float(prior.get(name, 0.0)) for name in names])
    probs, counts, share = vote_matrix(np.asarray(scores, dtype=np.float64)[None, :], codes, len(names),
                                       temperature, weights, prior_strength)
    order = sorted(range(len(names)), key=lambda j: (-probs[0, j], -share[0, j], names[j]))
    return {names[j]: LabelVote(float(probs[0, j]), int(counts[0, j]), float(share[0, j]))
            for j in order if probs[0, j] > 0}


def knn_vote(
    scores: Sequence[float] | np.ndarray, labels: Sequence[Any], temperature: float = KNN_TEMPERATURE,
    prior: Mapping[str, float] | None = None, prior_strength: float = KNN_PRIOR_STRENGTH,
) -> dict[str, float]:
    """Probability per label text from a similarity-weighted neighbour vote, smoothed towards `prior` if given."""
    details = knn_vote_details(scores, labels, temperature, prior, prior_strength)
    return {name: vote.probability for name, vote in details.items()}


def label_codes(values: pd.Series) -> tuple[np.ndarray, list[str], np.ndarray]:
    """A code per row (-1 when missing), the label texts (2019.0 reads '2019'), and each label's share of rows."""
    import pandas as pd

    try:
        raw, uniques = pd.factorize(values, use_na_sentinel=True)
        texts = [label_text(u) for u in uniques]
    except TypeError:  # unhashable cells (lists): compare their text forms
        raw, uniques = pd.factorize(pd.Series([label_text(v) for v in values], dtype=object))
        texts = [str(u) for u in uniques]
    names = sorted({t for t in texts if t})
    position = {name: i for i, name in enumerate(names)}
    remap = np.array([position.get(t, -1) for t in texts] + [-1], dtype=np.int64)
    codes = remap[raw]  # raw -1 (missing) picks the trailing -1
    counts = np.bincount(codes[codes >= 0], minlength=len(names)).astype(np.float64)
    return codes, names, counts / max(counts.sum(), 1.0)


def label_prior(values: pd.Series | Sequence[Any]) -> dict[str, float]:
    """Each label's share of the non-missing values of a corpus column, keyed by its text."""
    import pandas as pd

    _, names, shares = label_codes(pd.Series(list(values) if not isinstance(values, pd.Series) else values,
                                             dtype=object))
    return dict(zip(names, shares.tolist()))


def _corpus_codes(store: Store | None, corpus: str | None, frame: pd.DataFrame,
                  column: str) -> tuple[np.ndarray, list[str], np.ndarray]:
    """label_codes of a corpus column, cached per corpus version (a 1M-row column takes ~0.1 s)."""
    if store is None or corpus is None:
        return label_codes(frame[column])
    key = (str(store.root), corpus, store.corpus_version(corpus), column, len(frame))
    found = _CODES.get(key)
    if found is None:
        found = label_codes(frame[column])
        with _CODES_LOCK:
            for old in [k for k in _CODES if k[:2] == key[:2] and k != key]:
                del _CODES[old]
            _CODES[key] = found
    return found


def predict_journals(
    store: Store | None, model: str | ModelSpec = "minilm", *, title: str, abstract: str,
    corpus: str | None = None, label_column: str | None = None, k: int = 5, evidence: int = 3,
    encoder: Encoder | None = None, frame: pd.DataFrame | None = None, method: str | None = None,
    within: Sequence[str] | None = None,
) -> Prediction:
    """Top-k labels with probabilities: the trained head if the model has one for the column (or `method` "head"),
    else, or with `method` "knn", the calibrated vote of the nearest corpus papers. `within` (paper ids, e.g. a
    collection's) limits the vote to those papers; the head knows no such limit, so it is not used then."""
    if method not in (None, "head", "knn"):
        raise MireadError(f"unknown journal method {method!r}; choose head or knn")
    if within is not None:
        if method == "head":
            raise MireadError("the trained head cannot be limited to a collection; suggest with the neighbour vote")
        if not corpus or store is None:
            raise MireadError("suggestions from a collection need its corpus")
        method = "knn"
    if not (title or "").strip() and not (abstract or "").strip():
        raise MireadError("the query is empty: paste a title and/or an abstract")
    spec = model if isinstance(model, ModelSpec) else get_model(model, store)
    pasted = f"{title} {abstract}"
    title, abstract = clip_query(title, spec.max_length), clip_query(abstract, spec.max_length)
    encoder = encoder or get_encoder(spec)
    vector = encoder.encode([(title, abstract)])[0]
    long_text = read_warning(encoder, pasted, title, abstract)

    neighbours: list[tuple[float, int]] = []
    note = None
    column = label_column or spec.label_column or ""
    codes, names, shares = np.zeros(0, dtype=np.int64), [], np.zeros(0)
    if corpus and store is not None:
        frame = frame if frame is not None else store.papers_frame(corpus)
        if not column:
            labels = store.corpus(corpus).labels
            column = labels[0] if labels else ""
        if column and column not in frame.columns:
            raise MireadError(f"corpus {corpus!r} has no column {column!r}")
        if column:
            try:
                index = corpus_index(store, corpus, spec)
            except NotEmbeddedError:
                if encoder.head is None:
                    raise
                index = None  # the head answers alone; evidence papers need the corpus's vectors
                note = (f"No evidence papers: corpus {corpus!r} is not embedded with {spec.name!r} yet "
                        "(embed it on the Library page).")
            if index is not None:
                codes, names, shares = _corpus_codes(store, corpus, frame, column)
                mask = None
                if within is not None:
                    mask = frame["id"].astype(str).isin({str(i) for i in within}).to_numpy()
                    if not mask.any():
                        raise MireadError(f"none of the chosen papers is in corpus {corpus!r} now")
                size = len(frame) if mask is None else int(mask.sum())
                scores, idx = index.search(vector[None, :], min(KNN_NEIGHBOURS, size), mask)
                neighbours = [(float(s), int(i)) for s, i in zip(scores[0], idx[0]) if i >= 0 and np.isfinite(s)]

    votes: dict[str, LabelVote] = {}
    if neighbours:
        votes = knn_vote_details([s for s, _ in neighbours],
                                 [names[codes[i]] if codes[i] >= 0 else None for _, i in neighbours],
                                 prior=dict(zip(names, shares.tolist())))
    if method == "knn" and not votes:
        raise MireadError("the neighbour vote needs a corpus with this label column, embedded with this model")
    if encoder.head is not None and method != "knn" and (not label_column or label_column == spec.label_column):
        probs = encoder.predict([(title, abstract)])[0]
        ranked = sorted(zip(spec.labels, probs.tolist()), key=lambda kv: -kv[1])[:k]
        method, column = "head", spec.label_column or column
    elif votes:
        ranked, method = [(name, vote.probability) for name, vote in votes.items()][:k], "knn"
    else:
        raise MireadError(
            f"model {spec.name!r} has no trained journal head; choose a corpus with a journal (or label) "
            "column so journals can be suggested from its nearest papers"
        )

    predictions = []
    none = LabelVote(0.0, 0, 0.0)
    for label, probability in ranked:
        text = label_text(label)
        papers = [_evidence(frame, i, s) for s, i in neighbours
                  if codes[i] >= 0 and names[codes[i]] == text][:evidence]
        vote = votes.get(text, none)
        predictions.append({"label": text, "probability": round(float(probability), 4),
                            "neighbours": vote.neighbours, "weight_share": round(vote.weight_share, 4),
                            "evidence": [e["id"] for e in papers], "evidence_papers": papers})
    disagreement = None
    if method == "head" and votes:
        top_knn = max(votes, key=lambda name: votes[name].weight_share)
        if top_knn != label_text(ranked[0][0]):
            disagreement = (f"The model's head suggests {label_text(ranked[0][0])}, but most of the nearest "
                            f"papers in the corpus are from {top_knn}.")
    return Prediction(spec.name, method, column, predictions, disagreement, note,
                      warning=query_warning(title, abstract) or long_text, nearest=len(neighbours))


def _evidence(frame: pd.DataFrame, row: int, score: float) -> dict[str, Any]:
    record = frame.iloc[row]
    out = {"id": str(record["id"]), "title": record["title"], "score": round(score, 4)}
    for extra in ("year", "doi", "url"):
        if extra in frame.columns and not is_missing(record[extra]):
            out[extra] = record[extra]
    return out


def prediction_balance(
    store: Store, corpus: str, model: str | ModelSpec, label_column: str, sample: int = 2000, seed: int = 0,
    k: int = KNN_NEIGHBOURS,
) -> pd.DataFrame:
    """How often each label is predicted (leave-one-out kNN, or the head) versus how often it occurs."""
    import pandas as pd

    spec = model if isinstance(model, ModelSpec) else get_model(model, store)
    frame = store.papers_frame(corpus)
    if label_column not in frame.columns:
        raise MireadError(f"corpus {corpus!r} has no column {label_column!r}")
    rng = np.random.default_rng(seed)
    rows = np.arange(len(frame)) if len(frame) <= sample else np.sort(rng.choice(len(frame), sample, replace=False))
    codes, names, _ = _corpus_codes(store, corpus, frame, label_column)
    predicted = predict_corpus_labels(store, corpus, spec, label_column, rows, k=k, frame=frame)
    actual = Counter(names[c] for c in codes[rows] if c >= 0)
    guessed = Counter(p for p in predicted if p)
    n = len(rows)
    table = pd.DataFrame(
        [{"label": lab, "actual": actual.get(lab, 0), "predicted": guessed.get(lab, 0),
          "actual_share": actual.get(lab, 0) / n, "predicted_share": guessed.get(lab, 0) / n}
         for lab in sorted(set(actual) | set(guessed))],
        columns=["label", "actual", "predicted", "actual_share", "predicted_share"],
    )
    table["ratio"] = table["predicted_share"] / table["actual_share"].where(table["actual_share"] > 0)
    table = table.sort_values("predicted_share", ascending=False, kind="stable").reset_index(drop=True)
    table.attrs.update(papers=n, corpus_papers=len(frame))  # the check's n, and whether it was a sample
    return table


def predict_corpus_labels(
    store: Store, corpus: str, spec: ModelSpec, label_column: str, rows: np.ndarray | None = None,
    k: int = KNN_NEIGHBOURS, frame: pd.DataFrame | None = None,
) -> list[str]:
    """Predicted label of corpus papers: the model's head, else a leave-one-out kNN vote over `label_column`."""
    frame = frame if frame is not None else store.papers_frame(corpus)
    rows = np.arange(len(frame)) if rows is None else np.asarray(rows)
    encoder = get_encoder(spec) if spec.has_head and spec.label_column == label_column else None
    if encoder is not None and encoder.head is not None:  # a head trained on another column answers another question
        probs = encoder.predict([(frame.at[i, "title"], frame.at[i, "abstract"]) for i in rows])
        return [spec.labels[j] for j in probs.argmax(1)]
    predicted: list[str] = []
    for probs, names in vote_blocks(store, corpus, spec, label_column, rows, k, frame):
        top = probs.argmax(axis=1)
        predicted.extend(names[j] if probs[q, j] > 0 else "" for q, j in enumerate(top))
    return predicted


def vote_blocks(
    store: Store, corpus: str, spec: ModelSpec, label_column: str, rows: np.ndarray, k: int = KNN_NEIGHBOURS,
    frame: pd.DataFrame | None = None,
) -> Iterator[tuple[np.ndarray, list[str]]]:
    """The leave-one-out vote of corpus papers `rows` (each paper never its own neighbour), in blocks of rows:
    ([block, labels] probabilities, label texts)."""
    frame = frame if frame is not None else store.papers_frame(corpus)
    if label_column not in frame.columns:
        raise MireadError(f"corpus {corpus!r} has no column {label_column!r}")
    codes, names, shares = _corpus_codes(store, corpus, frame, label_column)
    index = corpus_index(store, corpus, spec)
    rows = np.asarray(rows, dtype=np.int64)
    block = max(1, min(1024, 2_000_000 // max(len(names), 1)))  # [block, labels] float arrays stay ~16 MB
    for start in range(0, len(rows), block):
        part = rows[start : start + block]
        scores, idx = index.search(np.asarray(index.matrix[part]), min(k + 1, len(frame)))
        own = idx == part[:, None]
        own[~own.any(axis=1), -1] = True  # a paper missing from its own top k+1 (exact ties): drop the farthest
        neighbour_codes = np.where(own | (idx < 0), -1, codes[np.maximum(idx, 0)])
        yield vote_matrix(scores, neighbour_codes, len(names), prior=shares)[0], names
