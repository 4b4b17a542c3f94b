"""The ``journals`` task: how often a journal finder's suggestion is right, on held-out papers of known journals.

The labelled sample is split by paper (seeded): 80 % are the reference papers whose journals can be suggested,
20 % the queries; a query whose journal has no reference paper is left out (a finder cannot name a journal it has
never seen), and counted: every figure says how many were left out and why. Each method ranks every reference
journal for each query:

- ``knn``: the product's calibrated vote over the query's nearest reference papers (``core.explore.journals``);
- ``bm25``: the text baseline of JANE-style finders: the query's 50 best BM25 matches among the reference
  abstracts (the ``bm25s`` package), each journal scored by the summed scores of its papers there;
- ``head``: the model's trained journal head, when it has one (its classes; a journal outside them is a miss).

Metrics: top-1, top-5, top-10 accuracy (in %) and the mean rank of the true journal (ties share their ranks).

The ``journals-title`` task is the same split and methods with each held-out paper queried by its title alone (the
model embeds the title; BM25 matches its words; the head reads it without an abstract): how often the finder is right
for a query the way people type one into a box (Singh & Singh 2022 found scientific encoders weak on short queries).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from core.errors import MireadError
from core.evaluation.report import Result
from core.evaluation.task_names import JOURNAL_TASK, QUERIED_BY, TITLE_TASK

JOURNAL_METHODS: tuple[str, ...] = ("head", "knn", "bm25")
JOURNAL_METRICS: tuple[str, ...] = ("top-1", "top-5", "top-10", "mean rank")
TEST_SHARE = 0.2
NEIGHBOURS = 50

Predict = Callable[[list[tuple[str, str]]], np.ndarray]
Encode = Callable[[list[tuple[str, str]]], np.ndarray]


def true_ranks(scores: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """1-based rank of each row's true column among its scores, ties sharing their ranks (mid-rank)."""
    scores = np.asarray(scores, dtype=np.float64)
    own = scores[np.arange(len(truth)), truth][:, None]
    higher = (scores > own).sum(axis=1)
    tied = (scores == own).sum(axis=1) - 1
    return 1.0 + higher + tied / 2.0


def rank_metrics(ranks: np.ndarray) -> dict[str, float]:
    """Top-1/5/10 accuracy in % and the mean rank, from 1-based ranks."""
    ranks = np.asarray(ranks, dtype=np.float64)
    return {"top-1": float(np.mean(ranks <= 1) * 100), "top-5": float(np.mean(ranks <= 5) * 100),
            "top-10": float(np.mean(ranks <= 10) * 100), "mean rank": float(ranks.mean())}


def split_held_out(labels: Sequence[str | None], seed: int,
                   test_share: float = TEST_SHARE) -> tuple[np.ndarray, np.ndarray, int]:
    """(reference rows, query rows, left out): a seeded split by paper; queries keep only journals the reference
    has, and ``left out`` counts the held-out papers dropped for that (a finder cannot name an unseen journal)."""
    labelled = np.array([i for i, v in enumerate(labels) if v is not None])
    if len(labelled) < 10:
        raise MireadError("the journals task needs at least 10 papers with a journal")
    order = np.random.default_rng(seed).permutation(labelled)
    cut = max(1, int(round(len(order) * test_share)))
    held, reference = order[:cut], order[cut:]
    known = {labels[i] for i in reference}
    queries = np.array([i for i in held if labels[i] in known], dtype=np.int64)
    if len(queries) == 0:
        raise MireadError("no held-out paper has a journal that the other papers have; use a larger sample")
    return np.sort(reference), np.sort(queries), int(len(held) - len(queries))


def split_queries(labels: Sequence[str | None], seed: int, test_share: float = TEST_SHARE) -> tuple[np.ndarray, ...]:
    """(reference rows, query rows): a seeded split by paper; queries keep only journals the reference has."""
    return split_held_out(labels, seed, test_share)[:2]


def held_out_phrase(papers: int, left_out: int, where: str = "") -> str:
    """'40 held-out papers (3 more held out but left out: …)': the papers measured on, and those left out and why
    (the Journals page, the Evaluate page and the MCP tool say it in these words)."""
    extra = (f" ({left_out:,} more held out but left out: no reference paper has their journal, so no finder could "
             "name it)") if left_out else ""
    return f"{papers:,} held-out papers{where}{extra}"


def knn_scores(X: np.ndarray, reference: np.ndarray, queries: np.ndarray, codes: np.ndarray, n_journals: int,
               k: int = NEIGHBOURS, query_vectors: np.ndarray | None = None) -> np.ndarray:
    """[queries, journals] probabilities of the product's calibrated neighbour vote (cosine on unit vectors); the
    queries' own vectors are their rows of X unless `query_vectors` (their titles embedded alone) are given."""
    from core.explore.journals import vote_matrix

    ref = X[reference] / np.maximum(np.linalg.norm(X[reference], axis=1, keepdims=True), 1e-12)
    Q = X[queries] if query_vectors is None else np.asarray(query_vectors, dtype=np.float64)
    qry = Q / np.maximum(np.linalg.norm(Q, axis=1, keepdims=True), 1e-12)
    sims = qry @ ref.T
    k = min(k, len(reference))
    top = np.argpartition(-sims, k - 1, axis=1)[:, :k]
    top_scores = np.take_along_axis(sims, top, axis=1)
    shares = np.bincount(codes, minlength=n_journals) / len(codes)
    probs, _, _ = vote_matrix(top_scores, codes[top], n_journals, prior=shares)
    return probs


def bm25_scores(texts: Sequence[str], reference: np.ndarray, queries: np.ndarray, codes: np.ndarray,
                n_journals: int, k: int = NEIGHBOURS, query_texts: Sequence[str] | None = None) -> np.ndarray:
    """[queries, journals] summed BM25 scores of each journal's papers among a query's ``k`` best matches (the
    queries' texts are their rows of `texts` unless `query_texts` are given)."""
    import bm25s

    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize([texts[i] for i in reference], stopwords="en", show_progress=False),
                    show_progress=False)
    k = min(k, len(reference))
    asked = [texts[i] for i in queries] if query_texts is None else list(query_texts)
    docs, scores = retriever.retrieve(bm25s.tokenize(asked, stopwords="en", show_progress=False), k=k,
                                      show_progress=False, n_threads=1)
    out = np.zeros((len(queries), n_journals))
    np.add.at(out, (np.repeat(np.arange(len(queries)), k), codes[np.asarray(docs).ravel()]),
              np.asarray(scores).ravel())
    return out


def head_ranks(predict: Predict, head_labels: Sequence[str], pairs: list[tuple[str, str]],
               truth: Sequence[str]) -> np.ndarray:
    """Ranks of the true journals under a trained head; a journal the head does not know ranks last + 1."""
    probs = np.asarray(predict(pairs), dtype=np.float64)
    column = {label: j for j, label in enumerate(head_labels)}
    ranks = np.full(len(truth), float(len(head_labels) + 1))
    known = np.array([label in column for label in truth])
    if known.any():
        idx = np.array([column[label] for label, ok in zip(truth, known) if ok])
        ranks[known] = true_ranks(probs[known], idx)
    return ranks


def journal_finder(
    X: np.ndarray, labels: Sequence[str | None], titles: Sequence[str], abstracts: Sequence[str], *, model: str,
    seed: int = 0, predict: Predict | None = None, head_labels: Sequence[str] = (), title_encode: Encode | None = None,
) -> list[Result]:
    """The ``journals`` task's rows for one model: each method's top-1/5/10 and mean rank on held-out papers; with
    `title_encode` (the model's encoder) the ``journals-title`` task's: each held-out paper queried by its title
    alone, against the same reference papers (title and abstract)."""
    reference, queries, left_out = split_held_out(labels, seed)
    task = JOURNAL_TASK if title_encode is None else TITLE_TASK
    journals = sorted({labels[i] for i in reference})
    code = {j: c for c, j in enumerate(journals)}
    codes = np.array([code[labels[i]] for i in reference])
    truth = np.array([code[labels[i]] for i in queries])
    texts = [f"{t} {a}" for t, a in zip(titles, abstracts)]
    alone = f", each queried by {QUERIED_BY[task]}" if task == TITLE_TASK else ""
    note = (f"{held_out_phrase(len(queries), left_out)}{alone}, {len(reference)} reference papers, "
            f"{len(journals)} journals")
    pairs = [(titles[i], abstracts[i] if title_encode is None else "") for i in queries]
    vectors = None if title_encode is None else np.asarray(title_encode(pairs), dtype=np.float64)
    asked = None if title_encode is None else [titles[i] for i in queries]
    ranked = {"knn": true_ranks(knn_scores(X, reference, queries, codes, len(journals), query_vectors=vectors), truth),
              "bm25": true_ranks(bm25_scores(texts, reference, queries, codes, len(journals), query_texts=asked),
                                 truth)}
    if predict is not None and head_labels:
        ranked["head"] = head_ranks(predict, head_labels, pairs, [labels[i] for i in queries])
    results = []
    for method in JOURNAL_METHODS:
        if method not in ranked:
            continue
        extra = "; the text baseline: the same for every model" if method == "bm25" else ""
        ranks = np.asarray(ranked[method], dtype=np.float64)
        per_paper = {"top-1": ranks <= 1, "top-5": ranks <= 5, "top-10": ranks <= 10, "mean rank": ranks}
        for metric, value in rank_metrics(ranks).items():
            scores = per_paper[metric].astype(np.float64) * (100.0 if metric != "mean rank" else 1.0)
            results.append(Result(model, task, metric, value, None, len(queries), note + extra, method,
                                  scores.tolist(), left_out=left_out))
    return results
