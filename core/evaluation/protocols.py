"""The MIReAD evaluation protocols on frozen embeddings; the tasks, one `Task` class each in the `PROTOCOLS` table;
and `run_protocols`, which runs any of them for one model.

MIReAD (Razdaibiedina & Brechalov, ACL 2023): a linear probe for the label, k-means cluster purity,
and pair retrieval (pairs ranked by the Pearson correlation of their embeddings, relevant when the
papers share a label) scored by average precision and ROC-AUC; plus a leave-one-out kNN check.
The robustness tasks of Singh & Singh 2022 ("self", "neighbours") live in `core.evaluation.robustness`.

Every function is pure: it takes arrays, labels and, where text must be embedded, an ``encode``
callable mapping ``[(title, abstract), ...]`` to an ``[n, d]`` array. Randomness comes from ``seed``;
large inputs are sampled and the sample size is part of each result.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from core.errors import CorpusError, MireadError
from core.evaluation import perturb
from core.evaluation.arrays import (
    BLOCK,
    Encode,
    Progress,
    as_matrix,
    as_set,
    labelled,
    normalise,
    sample_indices,
    top_k,
)
from core.evaluation.pair_bootstrap import paper_bootstrap
from core.evaluation.report import Result
from core.evaluation.robustness import alternative_self, textual_neighbours
from core.labels import is_missing

Predict = Callable[[list[tuple[str, str]]], np.ndarray]  # papers -> class probabilities of a trained head


# ---------------------------------------------------------------- MIReAD protocols


def linear_probe(
    X: np.ndarray, y: Sequence, folds: int = 4, seed: int = 0, max_samples: int = 20000, C: float = 1.0
) -> dict:
    """Macro-F1 and accuracy (mean, std over stratified folds) of a logistic regression on frozen X.

    Rows are L2-normalised first (cosine geometry, as everywhere else here), which makes C=1 a sound
    default whatever the model's output scale: on 1000 medical abstracts with MiniLM it beat a
    standardised probe (macro-F1 0.55 vs 0.49 at C=1) and ran ten times faster.
    """
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import accuracy_score, f1_score
    from sklearn.model_selection import StratifiedKFold

    X = as_matrix(X)
    labels, keep = labelled(y, len(X))
    pick = sample_indices(len(keep), max_samples, np.random.default_rng(seed))
    X, labels = normalise(X[keep[pick]]), labels[pick]
    classes, counts = np.unique(labels, return_counts=True)
    rare = classes[counts < folds]
    mask = ~np.isin(labels, rare)
    X, labels = X[mask], labels[mask]
    if len(np.unique(labels)) < 2:
        raise CorpusError(f"The linear probe needs at least two labels with {folds} or more papers each.")
    f1s, accuracies = [], []
    for train, test in StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed).split(X, labels):
        classifier = LogisticRegression(C=C, max_iter=1000)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            classifier.fit(X[train], labels[train])
        predicted = classifier.predict(X[test])
        f1s.append(f1_score(labels[test], predicted, average="macro", zero_division=0))
        accuracies.append(accuracy_score(labels[test], predicted))
    return {
        "macro_f1": (float(np.mean(f1s)), float(np.std(f1s))),
        "accuracy": (float(np.mean(accuracies)), float(np.std(accuracies))),
        "n": int(len(labels)),
        "classes": int(len(np.unique(labels))),
        "dropped_classes": int(len(rare)),
        "dropped_papers": int((~mask).sum()),
        "folds": folds,
    }


def purity(labels: Sequence, clusters: Sequence) -> float:
    """Share of items whose label is the majority label of their cluster."""
    from sklearn.metrics.cluster import contingency_matrix

    table = contingency_matrix(np.asarray(labels, dtype=object).astype(str), np.asarray(clusters))
    return float(table.max(axis=0).sum() / table.sum())


def clustering_purity(
    X: np.ndarray, y: Sequence, ks: Sequence[int] = (10, 20, 50, 100), seed: int = 0, max_samples: int = 50000
) -> dict[int, float]:
    """Purity of k-means clusters for each k (k larger than the sample is skipped)."""
    from sklearn.cluster import KMeans, MiniBatchKMeans
    from sklearn.exceptions import ConvergenceWarning

    X = as_matrix(X)
    labels, keep = labelled(y, len(X))
    pick = sample_indices(len(keep), max_samples, np.random.default_rng(seed))
    X, labels = X[keep[pick]], labels[pick]
    n, scores = len(labels), {}
    for k in ks:
        if k < 1:
            raise CorpusError(f"The number of clusters must be at least 1; got {k}.")
        if k > n:
            continue
        if n <= 10000:
            model = KMeans(n_clusters=k, n_init=3, random_state=seed)
        else:
            model = MiniBatchKMeans(n_clusters=k, n_init=3, batch_size=4096, random_state=seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            scores[int(k)] = purity(labels, model.fit_predict(X))
    return scores


def purity_sample_size(y: Sequence, max_samples: int = 50000) -> int:
    """How many papers ``clustering_purity`` clusters for these labels."""
    return min(sum(not is_missing(v) for v in y), max_samples)


def retrieval_scores(X: np.ndarray, label_sets: Sequence, n_pairs: int = 200_000, seed: int = 0) -> dict:
    """AP and ROC-AUC of ranking paper pairs by Pearson correlation (a pair is relevant if labels overlap), each with
    its 95 % interval from a bootstrap over the n papers (`ap_low`, `ap_high`, `auc_low`, `auc_high`)."""
    from sklearn.metrics import average_precision_score, roc_auc_score

    X = as_matrix(X)
    if len(label_sets) != len(X):
        raise CorpusError(f"Got {len(label_sets)} label sets for {len(X)} embeddings; they must match one to one.")
    sets = [as_set(v) for v in label_sets]
    keep = [i for i, s in enumerate(sets) if s]
    if len(keep) < 2:
        raise CorpusError("Pair retrieval needs at least two labelled papers.")
    sets = [sets[i] for i in keep]
    Z = X[keep]
    Z = normalise(Z - Z.mean(axis=1, keepdims=True))
    n = len(keep)
    if n * (n - 1) // 2 <= n_pairs:
        first, second = np.triu_indices(n, k=1)
    else:
        rng = np.random.default_rng(seed)
        first = rng.integers(0, n, size=n_pairs)
        second = (first + rng.integers(1, n, size=n_pairs)) % n
    scores = np.concatenate(
        [
            np.einsum("ij,ij->i", Z[first[s : s + 65536]], Z[second[s : s + 65536]])
            for s in range(0, len(first), 65536)
        ]
    )
    relevant = np.fromiter(
        (not sets[a].isdisjoint(sets[b]) for a, b in zip(first.tolist(), second.tolist())), bool, len(first)
    )
    if relevant.all() or not relevant.any():
        kind = "every" if relevant.all() else "no"
        raise CorpusError(f"Pair retrieval needs related and unrelated pairs, but {kind} sampled pair shares a label.")
    values = {"ap": float(average_precision_score(relevant, scores)), "auc": float(roc_auc_score(relevant, scores))}
    bounds = paper_bootstrap(first, second, scores, relevant, n, values, seed=seed)
    return {
        **values,
        **{f"{metric}_{end}": bounds[metric][i] for metric in values for i, end in enumerate(("low", "high"))},
        "pairs": int(len(first)),
        "relevant": int(relevant.sum()),
        "n": n,
    }


def knn_quality(X: np.ndarray, y: Sequence, k: int = 10, max_queries: int = 5000, seed: int = 0) -> dict:
    """Leave-one-out cosine kNN: majority-vote accuracy and precision@k (same-label share of the k nearest)."""
    X = as_matrix(X)
    labels, keep = labelled(y, len(X))
    if len(keep) < 2:
        raise CorpusError("The kNN check needs at least two labelled papers.")
    Z = normalise(X[keep])
    k = max(1, min(k, len(Z) - 1))
    queries = sample_indices(len(Z), max_queries, np.random.default_rng(seed))
    correct, precision, hits = 0, [], []
    for start in range(0, len(queries), BLOCK):
        block = queries[start : start + BLOCK]
        sims = Z[block] @ Z.T
        sims[np.arange(len(block)), block] = -np.inf
        neighbours = labels[top_k(sims, k)]
        precision.append((neighbours == labels[block][:, None]).mean(axis=1))
        # Counter keeps first-seen order among equal counts, so a tied vote goes to the nearer label.
        votes = [Counter(row.tolist()).most_common(1)[0][0] for row in neighbours]
        hits += [float(v == t) for v, t in zip(votes, labels[block])]
    correct = int(sum(hits))
    return {
        "knn_accuracy": correct / len(queries),
        "precision_at_k": float(np.concatenate(precision).mean()),
        "k": k,
        "n": int(len(queries)),
        "hits": hits,  # per query paper, in the seeded query order (the same for every model of one sample)
        "precisions": np.concatenate(precision).round(4).tolist(),
    }


# ---------------------------------------------------------------- the tasks: one class each, looked up by name


@dataclass(frozen=True)
class TaskInputs:
    """What one model's tasks run on: its embeddings X of the sampled papers, and what some tasks need besides."""

    X: np.ndarray
    labels: Sequence
    model: str
    seed: int = 0
    encode: Encode | None = None  # the model's encoder, for the text tasks
    titles: Sequence[str] | None = None
    abstracts: Sequence[str] | None = None
    label_sets: Sequence | None = None  # multi-label sets, for retrieval (default: the single labels)
    predict: Predict | None = None  # the model's trained journal head, for the journals task
    head_labels: Sequence[str] = ()


class Task:
    """One evaluation task, like sentence-transformers' `SentenceEvaluator`: its name, what it needs, and `run`, which
    turns one model's inputs into Result rows. A new task is one subclass and one entry in PROTOCOLS."""

    name: ClassVar[str]
    needs_text: ClassVar[bool] = False  # embeds perturbed text: needs the encoder, ignores the label column
    quick: ClassVar[bool] = False  # one of the Evaluate page's default protocols
    revision: ClassVar[int] = 0  # raised when the task's results change: its cached results are then not reused

    def needs_encoder(self, has_head: bool) -> bool:
        """Whether the runner must load the model's encoder (`has_head`: the model has a trained head)."""
        return self.needs_text

    def check(self, inputs: TaskInputs) -> None:
        """Refuse, before any task runs, inputs this task cannot use (one sentence)."""
        if self.needs_text and (inputs.encode is None or inputs.titles is None or inputs.abstracts is None):
            raise MireadError(f"The '{self.name}' task needs the model's encoder and the papers' titles and abstracts.")

    def run(self, inputs: TaskInputs) -> list[Result]:
        raise NotImplementedError


class ProbeTask(Task):
    name, quick = "probe", True

    def run(self, i: TaskInputs) -> list[Result]:
        r = linear_probe(i.X, i.labels, seed=i.seed)
        note = f"{r['classes']} labels; {r['dropped_classes']} with fewer than {r['folds']} papers dropped"
        return [Result(i.model, self.name, m, r[m][0], r[m][1], r["n"], note) for m in ("macro_f1", "accuracy")]


class PurityTask(Task):
    name, quick = "purity", True

    def run(self, i: TaskInputs) -> list[Result]:
        n = purity_sample_size(i.labels)
        scores = clustering_purity(i.X, i.labels, seed=i.seed)
        return [Result(i.model, self.name, f"purity@{k}", value, None, n) for k, value in scores.items()]


class RetrievalTask(Task):
    name, quick, revision = "retrieval", True, 1  # 1: AP and AUC with a 95 % interval (bootstrap over papers)

    def run(self, i: TaskInputs) -> list[Result]:
        r = retrieval_scores(i.X, i.label_sets if i.label_sets is not None else i.labels, seed=i.seed)
        note = (f"{r['relevant']:,} of {r['pairs']:,} pairs of {r['n']:,} papers share a label; 95 % interval: "
                "bootstrap over papers")
        return [Result(i.model, self.name, m, r[m], None, r["n"], note, low=r[f"{m}_low"], high=r[f"{m}_high"],
                       pairs=r["pairs"]) for m in ("ap", "auc")]


class KnnTask(Task):
    name, quick = "knn", True

    def run(self, i: TaskInputs) -> list[Result]:
        r = knn_quality(i.X, i.labels, seed=i.seed)
        return [Result(i.model, self.name, "knn_accuracy", r["knn_accuracy"], None, r["n"], per_paper=r["hits"]),
                Result(i.model, self.name, f"precision@{r['k']}", r["precision_at_k"], None, r["n"],
                       per_paper=r["precisions"])]


class SelfTask(Task):
    name, needs_text, revision = "self", True, 1  # 1: each query's score kept (for its interval)

    def run(self, i: TaskInputs) -> list[Result]:
        r = alternative_self(i.encode, i.titles, i.abstracts, seed=i.seed, doc_embeddings=i.X)
        scores = {"mrr": lambda rank: round(1.0 / rank, 6), "t100": lambda rank: float(rank <= 100)}
        return [Result(i.model, self.name, f"{part}_{metric}", r[part][metric], None, r["n"],
                       per_paper=[score(rank) for rank in r["ranks"][part]])
                for part in ("task1", "task2") for metric, score in scores.items()]


class NeighboursTask(Task):
    name, needs_text = "neighbours", True

    def run(self, i: TaskInputs) -> list[Result]:
        results = []
        for n, row in enumerate(textual_neighbours(i.encode, i.titles, i.abstracts, seed=i.seed, doc_embeddings=i.X)):
            note = f"{row['category']}; {'should keep' if row['expect_keep'] else 'should lose'} neighbours"
            if n == 0:
                note += ". " + perturb.pos_note()
            results += [Result(i.model, self.name, f"{row['family']}:{metric}", row[metric], None, row["n"], note)
                        for metric in ("nn1_ret", "nn10_ret", "aop10")]
        return results


class JournalsTask(Task):
    name, revision = "journals", 1  # 1: the held-out papers left out (journal unseen) are counted

    def needs_encoder(self, has_head: bool) -> bool:
        return has_head  # the trained head is scored beside kNN and BM25

    def run(self, i: TaskInputs) -> list[Result]:
        from core.evaluation.journal_finder import journal_finder

        if i.titles is None or i.abstracts is None:
            raise MireadError("The 'journals' task needs the papers' titles and abstracts.")
        return journal_finder(i.X, i.labels, i.titles, i.abstracts, model=i.model, seed=i.seed,
                              predict=i.predict, head_labels=i.head_labels)


class JournalsTitleTask(JournalsTask):
    """The journal finder asked with each held-out paper's title alone (the model embeds it): how often it is right
    for a query typed as a few words, which the Journals page shows beside such a query."""

    name, revision = "journals-title", 0

    def needs_encoder(self, has_head: bool) -> bool:
        return True  # each query's title is embedded alone

    def check(self, inputs: TaskInputs) -> None:
        if inputs.encode is None or inputs.titles is None or inputs.abstracts is None:
            raise MireadError("The 'journals-title' task needs the model's encoder and the papers' titles and "
                              "abstracts.")

    def run(self, i: TaskInputs) -> list[Result]:
        from core.evaluation.journal_finder import journal_finder

        return journal_finder(i.X, i.labels, i.titles, i.abstracts, model=i.model, seed=i.seed,
                              predict=i.predict, head_labels=i.head_labels, title_encode=i.encode)


PROTOCOLS: dict[str, Task] = {task.name: task for task in (
    ProbeTask(), PurityTask(), RetrievalTask(), KnnTask(), SelfTask(), NeighboursTask(), JournalsTask(),
    JournalsTitleTask())}
TASKS = tuple(PROTOCOLS)
QUICK_TASKS = tuple(name for name, task in PROTOCOLS.items() if task.quick)  # the Evaluate page's default protocols
TEXT_TASKS = frozenset(name for name, task in PROTOCOLS.items() if task.needs_text)


# ---------------------------------------------------------------- one model, all tasks


def run_protocols(
    X: np.ndarray,
    labels: Sequence,
    tasks: Sequence[str],
    *,
    model: str,
    encode: Encode | None = None,
    titles: Sequence[str] | None = None,
    abstracts: Sequence[str] | None = None,
    label_sets: Sequence | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    predict: Predict | None = None,
    head_labels: Sequence[str] = (),
) -> list[Result]:
    """Run the chosen tasks for one model's embeddings X and flatten them into Result rows (``predict`` and
    ``head_labels``: the model's trained journal head, for the journals task)."""
    unknown = [t for t in tasks if t not in PROTOCOLS]
    if unknown:
        raise MireadError(f"Unknown evaluation task '{unknown[0]}'; choose from {', '.join(TASKS)}.")
    inputs = TaskInputs(X, labels, model, seed, encode, titles, abstracts, label_sets, predict, head_labels)
    for task in tasks:
        PROTOCOLS[task].check(inputs)
    results: list[Result] = []
    for step, task in enumerate(tasks):
        if progress:
            progress(step / len(tasks), f"{model}: {task}")
        results += PROTOCOLS[task].run(inputs)
    if progress:
        progress(1.0, f"{model}: done")
    return results
