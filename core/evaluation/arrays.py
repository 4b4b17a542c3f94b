"""Input checks and array helpers shared by the MIReAD protocols and the robustness probes.

Embeddings are validated into finite 2-D arrays, labels into strings with the missing ones left out,
and text is embedded through an ``encode`` callable mapping ``[(title, abstract), ...]`` to an
``[n, d]`` array; every check fails with one sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np

from core.errors import CorpusError, MireadError
from core.labels import is_missing, label_text

Encode = Callable[[list[tuple[str, str]]], np.ndarray]
Progress = Callable[[float, str], None]

BLOCK = 512  # query rows scored at once
TIE = 1e-6  # similarities this close to the original's count as ties, and ties go to the original


def as_matrix(X: np.ndarray, what: str = "Embeddings") -> np.ndarray:
    """Validate a 2-D finite array; float64 input stays float64, anything else becomes float32."""
    try:
        X = np.asarray(X)
        if X.dtype != np.float64:
            X = X.astype(np.float32, copy=False)
    except (TypeError, ValueError):
        raise CorpusError(f"{what} must be numbers; got values that are not.") from None
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise CorpusError(f"{what} must be a non-empty 2-D array (papers x dimensions); got shape {X.shape}.")
    if not np.isfinite(X).all():
        raise CorpusError(f"{what} contain NaN or infinite values.")
    return X


def labelled(y: Sequence, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Labels as strings and the indices of papers that have one (missing labels are left out)."""
    if len(y) != n:
        raise CorpusError(f"Got {len(y)} labels for {n} embeddings; they must match one to one.")
    keep = np.array([i for i, v in enumerate(y) if not is_missing(v)], dtype=int)
    return np.array([label_text(y[i]) for i in keep], dtype=object), keep


def as_set(value: object) -> frozenset[str]:
    """A label set: a plain label is a singleton, a missing one is empty."""
    if is_missing(value):
        return frozenset()
    if isinstance(value, str) or not isinstance(value, Iterable):
        return frozenset({label_text(value)})
    return frozenset(label_text(v) for v in value if not is_missing(v))


def sample_indices(n: int, limit: int, rng: np.random.Generator) -> np.ndarray:
    """All indices when n <= limit, else a sorted random sample of ``limit`` of them."""
    if n <= limit:
        return np.arange(n)
    return np.sort(rng.choice(n, size=limit, replace=False))


def normalise(X: np.ndarray) -> np.ndarray:
    """Rows scaled to unit L2 norm (all-zero rows stay zero)."""
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return X / np.maximum(norms, 1e-12)


def top_k(sims: np.ndarray, k: int) -> np.ndarray:
    """Column indices of the k largest values of each row, best first."""
    part = np.argpartition(-sims, kth=k - 1, axis=1)[:, :k]
    order = np.argsort(-np.take_along_axis(sims, part, axis=1), axis=1, kind="stable")
    return np.take_along_axis(part, order, axis=1)


def check_texts(titles: Sequence[str], abstracts: Sequence[str]) -> tuple[list[str], list[str]]:
    """Titles and abstracts as lists of strings (None becomes ""); at least two papers, one to one."""
    if len(titles) != len(abstracts):
        raise CorpusError(f"Got {len(titles)} titles and {len(abstracts)} abstracts; they must match one to one.")
    if len(titles) < 2:
        raise CorpusError("Title retrieval and neighbour checks need at least two papers.")
    return [t or "" for t in titles], [a or "" for a in abstracts]


def embed(encode: Encode, pairs: list[tuple[str, str]], what: str) -> np.ndarray:
    """Normalised embeddings of ``(title, abstract)`` pairs; one vector per pair or a MireadError."""
    X = as_matrix(encode(pairs), what)
    if len(X) != len(pairs):
        raise MireadError(f"The encoder returned {len(X)} vectors for {len(pairs)} {what.lower()}.")
    return normalise(X)


def corpus_vectors(
    encode: Encode, titles: list[str], abstracts: list[str], doc_embeddings: np.ndarray | None
) -> np.ndarray:
    """Normalised title+abstract embeddings: the ones given, else encoded."""
    if doc_embeddings is None:
        return embed(encode, list(zip(titles, abstracts)), "Paper embeddings")
    docs = as_matrix(doc_embeddings, "Paper embeddings")
    if len(docs) != len(titles):
        raise CorpusError(f"Got {len(docs)} paper embeddings for {len(titles)} papers; they must match one to one.")
    return normalise(docs)
