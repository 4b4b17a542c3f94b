"""k-means clusters of embeddings and c-TF-IDF keyword labels for them."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np

from core.errors import MireadError
from core.lazy import heavy

MINIBATCH_ABOVE = 20_000
MAX_DOCS_PER_CLUSTER = 2_000
# Words of two or more characters with at least one letter (drops bare numbers).
TOKEN_PATTERN = r"(?u)\b(?=\w*[^\W\d_])\w\w+\b"


def kmeans(X: np.ndarray, k: int, seed: int = 0) -> np.ndarray:
    """Return int64 cluster labels for the rows of X (k clipped to the number of rows)."""
    KMeans = heavy("sklearn.cluster").KMeans
    MiniBatchKMeans = heavy("sklearn.cluster").MiniBatchKMeans

    arr = np.asarray(X, dtype=np.float32)
    if arr.ndim != 2:
        raise MireadError(f"embeddings must be a 2-D array of shape [papers, dims], got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise MireadError("embeddings contain NaN or infinite values")
    if int(k) < 1:
        raise MireadError(f"the number of clusters must be at least 1, got {k}")
    n = arr.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    k = min(int(k), n)
    if k == 1:
        return np.zeros(n, dtype=np.int64)
    if n > MINIBATCH_ABOVE:
        model = MiniBatchKMeans(n_clusters=k, random_state=seed, batch_size=4096, n_init=3)
    else:
        model = KMeans(n_clusters=k, random_state=seed, n_init="auto")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit_predict(arr).astype(np.int64)


def _class_documents(
    texts: Sequence[str], labels: np.ndarray, classes: np.ndarray, seed: int
) -> list[str]:
    """Concatenate (a sample of at most MAX_DOCS_PER_CLUSTER) texts per class."""
    rng = np.random.default_rng(seed)
    docs = []
    for c in classes:
        rows = np.flatnonzero(labels == c)
        if len(rows) > MAX_DOCS_PER_CLUSTER:
            rows = np.sort(rng.choice(rows, MAX_DOCS_PER_CLUSTER, replace=False))
        docs.append(" ".join(str(texts[i]) for i in rows if texts[i] is not None))
    return docs


def _ctfidf(counts, n_classes: int) -> np.ndarray:
    """BERTopic's class TF-IDF: L1 term frequency per class times log(1 + A / f_t)."""
    normalize = heavy("sklearn.preprocessing").normalize

    counts = counts.astype(np.float64)
    words_per_class = np.asarray(counts.sum(axis=1)).ravel()
    term_freq = np.asarray(counts.sum(axis=0)).ravel()
    avg_words = words_per_class.sum() / max(n_classes, 1)
    idf = np.log(1 + avg_words / np.maximum(term_freq, 1))
    return normalize(counts, norm="l1", axis=1).multiply(idf).toarray()


def _pick_terms(ranked: Sequence[str], top_n: int) -> list[str]:
    """Take the best terms, skipping ones whose words are all already shown."""
    chosen: list[str] = []
    for term in ranked:
        words = set(term.split())
        if words <= {w for t in chosen for w in t.split()}:
            continue
        chosen = [t for t in chosen if not set(t.split()) <= words]
        chosen.append(term)
        if len(chosen) == top_n:
            break
    return chosen


def cluster_keywords(
    texts: Sequence[str], labels: np.ndarray, top_n: int = 4, seed: int = 0
) -> dict[int, list[str]]:
    """Return the top_n most distinctive words or bigrams of each cluster (c-TF-IDF)."""
    CountVectorizer = heavy("sklearn.feature_extraction.text").CountVectorizer

    labels = np.asarray(labels)
    if len(texts) != len(labels):
        raise MireadError(f"got {len(texts)} texts but {len(labels)} cluster labels")
    classes = np.unique(labels)
    if len(classes) == 0:
        return {}
    docs = _class_documents(texts, labels, classes, seed)
    vectorizer = CountVectorizer(
        stop_words="english", ngram_range=(1, 2), min_df=1, token_pattern=TOKEN_PATTERN
    )
    try:
        counts = vectorizer.fit_transform(docs)
    except ValueError:
        return {int(c): [] for c in classes}
    scores = _ctfidf(counts, len(classes))
    vocab = vectorizer.get_feature_names_out()
    result: dict[int, list[str]] = {}
    for row, c in enumerate(classes):
        order = np.argsort(-scores[row], kind="stable")
        ranked = [vocab[j] for j in order[: top_n * 5] if scores[row, j] > 0]
        result[int(c)] = _pick_terms(ranked, top_n)
    return result


def cluster_names(texts: Sequence[str], labels: np.ndarray, terms: int = 3) -> dict[int, str]:
    """A readable name per cluster: its number and its most distinctive keywords ("3: malaria, bed nets")."""
    keywords = cluster_keywords(texts, labels)
    return {int(c): f"{int(c)}: " + ", ".join(keywords.get(int(c), [])[:terms]) for c in np.unique(labels)}


def cluster_centres_2d(coords: np.ndarray, labels: np.ndarray) -> dict[int, tuple[float, float]]:
    """Return the median 2-D position of each cluster (where to draw its label)."""
    coords = np.asarray(coords, dtype=np.float64)
    labels = np.asarray(labels)
    if coords.ndim != 2 or coords.shape[1] != 2 or coords.shape[0] != len(labels):
        raise MireadError(
            f"map coordinates of shape {coords.shape} do not match {len(labels)} cluster labels"
        )
    centres = {}
    for c in np.unique(labels):
        x, y = np.median(coords[labels == c], axis=0)
        centres[int(c)] = (float(x), float(y))
    return centres
