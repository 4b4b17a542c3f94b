"""Helpers shared by the core.evaluation tests: vectors at known angles, a toy corpus, a bag-of-words encoder."""

from __future__ import annotations

import math
import string

import numpy as np
from sklearn.feature_extraction.text import HashingVectorizer


def unit(degrees: float, scale: float = 1.0) -> np.ndarray:
    """A 2-D vector at the given angle: cosine similarity of two of them is cos(angle difference)."""
    r = math.radians(degrees)
    return scale * np.array([math.cos(r), math.sin(r)])


def angles(*degrees: float) -> np.ndarray:
    return np.stack([unit(d) for d in degrees])


def random_word(rng) -> str:
    return "".join(rng.choice(list(string.ascii_lowercase), size=6))


def synthetic_corpus(n: int = 40):
    rng = np.random.default_rng(0)
    vocab = [random_word(rng) for _ in range(600)]
    titles, abstracts = [], []
    for i in range(n):
        own = rng.choice(vocab, size=25, replace=False)
        titles.append(" ".join(rng.choice(own, size=5)).capitalize())
        abstracts.append(" ".join(" ".join(rng.choice(own, size=8)).capitalize() + "." for _ in range(4)))
    return titles, abstracts


def bag_of_words(pairs):
    vectoriser = HashingVectorizer(n_features=2**12, alternate_sign=False, lowercase=True)
    return vectoriser.transform([f"{t} {a}" for t, a in pairs]).toarray()
