"""Journal prediction: the fine-tuned head's softmax, or a kNN vote over a corpus label column; evidence papers."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from core.embedding import Encoder, ModelSpec, get_encoder, get_model
from core.errors import MireadError, NotEmbeddedError
from core.explore.search import clip_query, corpus_index

if TYPE_CHECKING:
    import pandas as pd

    from core.store import Store

KNN_NEIGHBOURS = 50


@dataclass
class Prediction:
    """Top journals for one query, the method that produced them, and evidence papers per journal."""

    model: str
    method: str  # "head" | "knn"
    label_column: str
    predictions: list[dict[str, Any]] = field(default_factory=list)
    disagreement: str | None = None
    note: str | None = None  # why evidence papers are missing, when they are

    def to_dict(self) -> dict[str, Any]:
        return {"model": self.model, "method": self.method, "label_column": self.label_column,
                "predictions": self.predictions, "disagreement": self.disagreement, "note": self.note}


def knn_vote(scores: np.ndarray, labels: list[Any], temperature: float = 0.05) -> dict[str, float]:
    """Similarity-weighted vote of neighbour labels: softmax(score / T) summed per label."""
    if len(scores) == 0:
        return {}
    weights = np.exp((scores - scores.max()) / temperature)
    totals: dict[str, float] = {}
    for weight, label in zip(weights, labels):
        if label is None or (isinstance(label, float) and np.isnan(label)) or str(label) == "":
            continue
        totals[str(label)] = totals.get(str(label), 0.0) + float(weight)
    norm = sum(totals.values()) or 1.0
    return {k: v / norm for k, v in sorted(totals.items(), key=lambda kv: -kv[1])}


def predict_journals(
    store: Store | None, model: str | ModelSpec = "minilm", *, title: str, abstract: str,
    corpus: str | None = None, label_column: str | None = None, k: int = 5, evidence: int = 3,
    encoder: Encoder | None = None, frame: pd.DataFrame | None = None,
) -> Prediction:
    """Top-k labels with probabilities: the trained head if the model has one, else kNN over the corpus."""
    if not (title or "").strip() and not (abstract or "").strip():
        raise MireadError("the query is empty: paste a title and/or an abstract")
    spec = model if isinstance(model, ModelSpec) else get_model(model, store)
    title, abstract = clip_query(title, spec.max_length), clip_query(abstract, spec.max_length)
    encoder = encoder or get_encoder(spec)
    vector = encoder.encode([(title, abstract)])[0]

    neighbours: list[tuple[float, int]] = []
    note = None
    column = label_column or spec.label_column or ""
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
                scores, idx = index.search(vector[None, :], min(KNN_NEIGHBOURS, len(frame)))
                neighbours = [(float(s), int(i)) for s, i in zip(scores[0], idx[0]) if i >= 0]

    knn = knn_vote(np.array([s for s, _ in neighbours]), [frame.iloc[i][column] for _, i in neighbours]) if neighbours else {}
    if encoder.head is not None:
        probs = encoder.predict([(title, abstract)])[0]
        ranked = sorted(zip(spec.labels, probs.tolist()), key=lambda kv: -kv[1])[:k]
        method, column = "head", spec.label_column or column
    elif knn:
        ranked, method = list(knn.items())[:k], "knn"
    else:
        raise MireadError(
            f"model {spec.name!r} has no trained journal head; choose a corpus with a journal (or label) "
            "column so journals can be suggested from its nearest papers"
        )

    predictions = []
    for label, probability in ranked:
        ids = []
        if neighbours:
            ids = [_evidence(frame, i, s) for s, i in neighbours if str(frame.iloc[i][column]) == str(label)][:evidence]
        predictions.append({"label": label, "probability": round(float(probability), 4),
                            "evidence": [e["id"] for e in ids], "evidence_papers": ids})
    disagreement = None
    if method == "head" and knn:
        top_knn = next(iter(knn))
        if top_knn != str(ranked[0][0]):
            disagreement = (f"The model's head suggests {ranked[0][0]!s}, but most of the nearest papers "
                            f"in the corpus are from {top_knn}.")
    return Prediction(spec.name, method, column, predictions, disagreement, note)


def _evidence(frame: pd.DataFrame, row: int, score: float) -> dict[str, Any]:
    record = frame.iloc[row]
    out = {"id": str(record["id"]), "title": record["title"], "score": round(score, 4)}
    for extra in ("year", "doi", "url"):
        if extra in frame.columns and record[extra] is not None and str(record[extra]) not in ("", "nan"):
            out[extra] = record[extra]
    return out


def prediction_balance(
    store: Store, corpus: str, model: str | ModelSpec, label_column: str, sample: int = 2000, seed: int = 0,
    k: int = 20,
) -> pd.DataFrame:
    """How often each label is predicted (leave-one-out kNN, or the head) versus how often it occurs."""
    import pandas as pd

    spec = model if isinstance(model, ModelSpec) else get_model(model, store)
    frame = store.papers_frame(corpus)
    if label_column not in frame.columns:
        raise MireadError(f"corpus {corpus!r} has no column {label_column!r}")
    rng = np.random.default_rng(seed)
    rows = np.arange(len(frame)) if len(frame) <= sample else np.sort(rng.choice(len(frame), sample, replace=False))
    labels = frame[label_column].astype(str).to_numpy()
    predicted = predict_corpus_labels(store, corpus, spec, label_column, rows, k=k, frame=frame)
    actual = Counter(labels[rows])
    guessed = Counter(predicted)
    n = len(rows)
    table = pd.DataFrame(
        [{"label": lab, "actual_share": actual.get(lab, 0) / n, "predicted_share": guessed.get(lab, 0) / n}
         for lab in set(actual) | set(guessed)]
    )
    table["ratio"] = table["predicted_share"] / table["actual_share"].where(table["actual_share"] > 0)
    return table.sort_values("predicted_share", ascending=False).reset_index(drop=True)


def predict_corpus_labels(
    store: Store, corpus: str, spec: ModelSpec, label_column: str, rows: np.ndarray | None = None, k: int = 20,
    frame: pd.DataFrame | None = None,
) -> list[str]:
    """Predicted label of corpus papers: the model's head, else a leave-one-out kNN vote over `label_column`."""
    frame = frame if frame is not None else store.papers_frame(corpus)
    rows = np.arange(len(frame)) if rows is None else np.asarray(rows)
    encoder = get_encoder(spec) if spec.has_head else None
    if encoder is not None and encoder.head is not None:
        probs = encoder.predict([(frame.at[i, "title"], frame.at[i, "abstract"]) for i in rows])
        return [spec.labels[j] for j in probs.argmax(1)]
    if label_column not in frame.columns:
        raise MireadError(f"corpus {corpus!r} has no column {label_column!r}")
    labels = frame[label_column].astype(str).to_numpy()
    index = corpus_index(store, corpus, spec)
    predicted: list[str] = []
    for start in range(0, len(rows), 1024):
        part = rows[start : start + 1024]
        scores, idx = index.search(np.asarray(index.matrix[part]), k + 1)
        for q, row in enumerate(part):
            keep = (idx[q] != row) & (idx[q] >= 0)
            vote = knn_vote(scores[q][keep][:k], [labels[i] for i in idx[q][keep][:k]])
            predicted.append(next(iter(vote), ""))
    return predicted
