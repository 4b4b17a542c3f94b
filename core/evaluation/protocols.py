"""Evaluation protocols on frozen embeddings: MIReAD's and Singh & Singh 2022's robustness probes.

MIReAD (Razdaibiedina & Brechalov, ACL 2023): a linear probe for the label, k-means cluster purity,
and pair retrieval (pairs ranked by the Pearson correlation of their embeddings, relevant when the
papers share a label) scored by average precision and ROC-AUC; plus a leave-one-out kNN check.
Singh & Singh (Findings of ACL 2022): alternative-self retrieval (find a paper from its title alone)
and textual neighbours (does a perturbed paper still land next to its original?).

Every function is pure: it takes arrays, labels and, where text must be embedded, an ``encode``
callable mapping ``[(title, abstract), ...]`` to an ``[n, d]`` array. Randomness comes from ``seed``;
large inputs are sampled and the sample size is part of each result.
"""

from __future__ import annotations

import math
import warnings
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import numpy as np

from core.evaluation import perturb
from core.errors import CorpusError, MireadError
from core.labels import is_missing, label_text

if TYPE_CHECKING:
    import pandas as pd

Encode = Callable[[list[tuple[str, str]]], np.ndarray]
Progress = Callable[[float, str], None]

TASKS = ("probe", "purity", "retrieval", "knn", "self", "neighbours")
_BLOCK = 512
_TIE = 1e-6  # similarities this close to the original's count as ties, and ties go to the original


@dataclass
class Result:
    """One number of the evaluation table: a model's score on one task's metric."""

    model: str
    task: str
    metric: str
    value: float
    std: float | None = None
    n: int | None = None
    note: str = ""

    def to_dict(self) -> dict:
        """Plain dict with keys model, task, metric, value, std, n, note."""
        return asdict(self)


# ---------------------------------------------------------------- input checks and helpers


def _matrix(X: np.ndarray, what: str = "Embeddings") -> np.ndarray:
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


def _labels(y: Sequence, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Labels as strings and the indices of papers that have one (missing labels are left out)."""
    if len(y) != n:
        raise CorpusError(f"Got {len(y)} labels for {n} embeddings; they must match one to one.")
    keep = np.array([i for i, v in enumerate(y) if not is_missing(v)], dtype=int)
    return np.array([label_text(y[i]) for i in keep], dtype=object), keep


def _as_set(value: object) -> frozenset[str]:
    """A label set: a plain label is a singleton, a missing one is empty."""
    if is_missing(value):
        return frozenset()
    if isinstance(value, str) or not isinstance(value, Iterable):
        return frozenset({label_text(value)})
    return frozenset(label_text(v) for v in value if not is_missing(v))


def _sample(n: int, limit: int, rng: np.random.Generator) -> np.ndarray:
    """All indices when n <= limit, else a sorted random sample of ``limit`` of them."""
    if n <= limit:
        return np.arange(n)
    return np.sort(rng.choice(n, size=limit, replace=False))


def _normalise(X: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return X / np.maximum(norms, 1e-12)


def _top_k(sims: np.ndarray, k: int) -> np.ndarray:
    """Column indices of the k largest values of each row, best first."""
    part = np.argpartition(-sims, kth=k - 1, axis=1)[:, :k]
    order = np.argsort(-np.take_along_axis(sims, part, axis=1), axis=1, kind="stable")
    return np.take_along_axis(part, order, axis=1)


def _texts(titles: Sequence[str], abstracts: Sequence[str]) -> tuple[list[str], list[str]]:
    if len(titles) != len(abstracts):
        raise CorpusError(f"Got {len(titles)} titles and {len(abstracts)} abstracts; they must match one to one.")
    if len(titles) < 2:
        raise CorpusError("Title retrieval and neighbour checks need at least two papers.")
    return [t or "" for t in titles], [a or "" for a in abstracts]


def _embed(encode: Encode, pairs: list[tuple[str, str]], what: str) -> np.ndarray:
    X = _matrix(encode(pairs), what)
    if len(X) != len(pairs):
        raise MireadError(f"The encoder returned {len(X)} vectors for {len(pairs)} {what.lower()}.")
    return _normalise(X)


def _corpus(encode: Encode, titles: list[str], abstracts: list[str], doc_embeddings: np.ndarray | None) -> np.ndarray:
    """Normalised title+abstract embeddings: the ones given, else encoded."""
    if doc_embeddings is None:
        return _embed(encode, list(zip(titles, abstracts)), "Paper embeddings")
    docs = _matrix(doc_embeddings, "Paper embeddings")
    if len(docs) != len(titles):
        raise CorpusError(f"Got {len(docs)} paper embeddings for {len(titles)} papers; they must match one to one.")
    return _normalise(docs)


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

    X = _matrix(X)
    labels, keep = _labels(y, len(X))
    pick = _sample(len(keep), max_samples, np.random.default_rng(seed))
    X, labels = _normalise(X[keep[pick]]), labels[pick]
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

    X = _matrix(X)
    labels, keep = _labels(y, len(X))
    pick = _sample(len(keep), max_samples, np.random.default_rng(seed))
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
    """AP and ROC-AUC of ranking paper pairs by Pearson correlation; a pair is relevant if labels overlap."""
    from sklearn.metrics import average_precision_score, roc_auc_score

    X = _matrix(X)
    if len(label_sets) != len(X):
        raise CorpusError(f"Got {len(label_sets)} label sets for {len(X)} embeddings; they must match one to one.")
    sets = [_as_set(v) for v in label_sets]
    keep = [i for i, s in enumerate(sets) if s]
    if len(keep) < 2:
        raise CorpusError("Pair retrieval needs at least two labelled papers.")
    sets = [sets[i] for i in keep]
    Z = X[keep]
    Z = _normalise(Z - Z.mean(axis=1, keepdims=True))
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
    return {
        "ap": float(average_precision_score(relevant, scores)),
        "auc": float(roc_auc_score(relevant, scores)),
        "pairs": int(len(first)),
        "relevant": int(relevant.sum()),
        "n": n,
    }


def knn_quality(X: np.ndarray, y: Sequence, k: int = 10, max_queries: int = 5000, seed: int = 0) -> dict:
    """Leave-one-out cosine kNN: majority-vote accuracy and precision@k (same-label share of the k nearest)."""
    X = _matrix(X)
    labels, keep = _labels(y, len(X))
    if len(keep) < 2:
        raise CorpusError("The kNN check needs at least two labelled papers.")
    Z = _normalise(X[keep])
    k = max(1, min(k, len(Z) - 1))
    queries = _sample(len(Z), max_queries, np.random.default_rng(seed))
    correct, precision = 0, []
    for start in range(0, len(queries), _BLOCK):
        block = queries[start : start + _BLOCK]
        sims = Z[block] @ Z.T
        sims[np.arange(len(block)), block] = -np.inf
        neighbours = labels[_top_k(sims, k)]
        precision.append((neighbours == labels[block][:, None]).mean(axis=1))
        # Counter keeps first-seen order among equal counts, so a tied vote goes to the nearer label.
        votes = [Counter(row.tolist()).most_common(1)[0][0] for row in neighbours]
        correct += int(sum(v == t for v, t in zip(votes, labels[block])))
    return {
        "knn_accuracy": correct / len(queries),
        "precision_at_k": float(np.concatenate(precision).mean()),
        "k": k,
        "n": int(len(queries)),
    }


# ---------------------------------------------------------------- Singh & Singh 2022


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
    titles, abstracts = _texts(titles, abstracts)
    docs = _corpus(encode, titles, abstracts, doc_embeddings)
    titled = np.array([i for i, t in enumerate(titles) if t.strip()], dtype=int)
    if len(titled) == 0:
        raise CorpusError("Alternative-self retrieval needs papers with titles; every title is empty.")
    title_docs = _embed(encode, [(titles[i], "") for i in titled], "Title embeddings")
    chosen = _sample(len(titled), max_queries, np.random.default_rng(seed))
    ranks1, ranks2 = [], []
    for start in range(0, len(chosen), _BLOCK):
        block = chosen[start : start + _BLOCK]
        rows = np.arange(len(block))
        queries = title_docs[block]
        sims = queries @ docs.T
        own = sims[rows, titled[block]]
        rank1 = 1 + (sims > own[:, None] + _TIE).sum(axis=1)
        distractor = queries @ title_docs.T
        distractor[rows, block] = -np.inf
        ranks1.append(rank1)
        ranks2.append(rank1 + (distractor > own[:, None] + _TIE).sum(axis=1))
    r1, r2 = np.concatenate(ranks1), np.concatenate(ranks2)
    return {
        "task1": {"mrr": float(np.mean(1.0 / r1)), "t100": float(np.mean(r1 <= 100))},
        "task2": {"mrr": float(np.mean(1.0 / r2)), "t100": float(np.mean(r2 <= 100))},
        "n": int(len(chosen)),
        "pool": int(len(docs)),
        "distractors": int(len(titled) - 1),
    }


def neighbour_scores(Q: np.ndarray, D: np.ndarray, own: Sequence[int], k: int = 10) -> dict:
    """NN1_Ret, NN10_Ret and AOP-10 of perturbed queries Q against corpus D (row own[i] is Q[i]'s original).

    The original's rank counts only papers scoring more than 1e-6 above it, so an exact duplicate of
    the original in the corpus does not count as a miss.
    """
    Q, D = _normalise(_matrix(Q, "Perturbed embeddings")), _normalise(_matrix(D, "Paper embeddings"))
    own = np.asarray(own, dtype=int)
    k = max(1, min(k, len(D) - 1))
    nn1, nnk, overlap = [], [], []
    for start in range(0, len(Q), _BLOCK):
        rows, mine = np.arange(len(Q[start : start + _BLOCK])), own[start : start + _BLOCK]
        sims = Q[start : start + _BLOCK] @ D.T
        rank = 1 + (sims > sims[rows, mine][:, None] + _TIE).sum(axis=1)
        nn1.append(rank == 1)
        nnk.append(rank <= k)
        sims[rows, mine] = -np.inf
        original = D[mine] @ D.T
        original[rows, mine] = -np.inf
        for moved, kept in zip(_top_k(sims, k), _top_k(original, k)):
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
    titles, abstracts = _texts(titles, abstracts)
    names = list(families) if families is not None else list(perturb.FAMILIES)
    resolved = [perturb.resolve(name, pool=abstracts) for name in names]
    docs = _corpus(encode, titles, abstracts, doc_embeddings)
    sample = _sample(len(titles), max_papers, np.random.default_rng(seed))
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
            scores = neighbour_scores(_embed(encode, pairs, "Perturbed embeddings"), docs, changed, k)
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
        sentences.append("Every meaning-preserving perturbation keeps the original paper in the top 10 for most papers.")
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


# ---------------------------------------------------------------- one model, all tasks


def _need_text(task: str, encode: Encode | None, titles: Sequence | None, abstracts: Sequence | None) -> None:
    if encode is None or titles is None or abstracts is None:
        raise MireadError(f"The '{task}' task needs the model's encoder and the papers' titles and abstracts.")


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
) -> list[Result]:
    """Run the chosen tasks for one model's embeddings X and flatten them into Result rows."""
    unknown = [t for t in tasks if t not in TASKS]
    if unknown:
        raise MireadError(f"Unknown evaluation task '{unknown[0]}'; choose from {', '.join(TASKS)}.")
    for task in tasks:
        if task in ("self", "neighbours"):
            _need_text(task, encode, titles, abstracts)
    results: list[Result] = []
    for step, task in enumerate(tasks):
        if progress:
            progress(step / len(tasks), f"{model}: {task}")
        if task == "probe":
            r = linear_probe(X, labels, seed=seed)
            note = f"{r['classes']} labels; {r['dropped_classes']} with fewer than {r['folds']} papers dropped"
            for metric in ("macro_f1", "accuracy"):
                results.append(Result(model, task, metric, r[metric][0], r[metric][1], r["n"], note))
        elif task == "purity":
            n = purity_sample_size(labels)
            for k, value in clustering_purity(X, labels, seed=seed).items():
                results.append(Result(model, task, f"purity@{k}", value, None, n))
        elif task == "retrieval":
            r = retrieval_scores(X, label_sets if label_sets is not None else labels, seed=seed)
            note = f"{r['relevant']} of {r['pairs']} pairs share a label"
            results += [Result(model, task, m, r[m], None, r["pairs"], note) for m in ("ap", "auc")]
        elif task == "knn":
            r = knn_quality(X, labels, seed=seed)
            results.append(Result(model, task, "knn_accuracy", r["knn_accuracy"], None, r["n"]))
            results.append(Result(model, task, f"precision@{r['k']}", r["precision_at_k"], None, r["n"]))
        elif task == "self":
            r = alternative_self(encode, titles, abstracts, seed=seed, doc_embeddings=X)
            for part in ("task1", "task2"):
                for metric in ("mrr", "t100"):
                    results.append(Result(model, task, f"{part}_{metric}", r[part][metric], None, r["n"]))
        elif task == "neighbours":
            rows = textual_neighbours(encode, titles, abstracts, seed=seed, doc_embeddings=X)
            for i, row in enumerate(rows):
                note = f"{row['category']}; {'should keep' if row['expect_keep'] else 'should lose'} neighbours"
                if i == 0:
                    note += ". " + perturb.pos_note()
                for metric in ("nn1_ret", "nn10_ret", "aop10"):
                    results.append(Result(model, task, f"{row['family']}:{metric}", row[metric], None, row["n"], note))
    if progress:
        progress(1.0, f"{model}: done")
    return results


# ---------------------------------------------------------------- tables


def results_table(results: Sequence[Result]) -> pd.DataFrame:
    """A pandas DataFrame with one row per model and one 'task:metric' column per metric."""
    import pandas as pd

    cells: dict[str, dict[str, float]] = {}
    for r in results:
        cells.setdefault(r.model, {})[f"{r.task}:{r.metric}"] = r.value
    columns = list(dict.fromkeys(f"{r.task}:{r.metric}" for r in results))
    table = pd.DataFrame.from_dict(cells, orient="index", columns=columns)
    table.index.name = "model"
    return table


def lower_is_better(column: str) -> bool:
    """True for neighbour scores of destructive (LO-DS) families, where keeping the neighbours is wrong."""
    parts = column.split(":")
    return len(parts) == 3 and parts[0] == "neighbours" and parts[1] in perturb.FAMILIES and not perturb.expect_keep(parts[1])


def best_per_column(table: pd.DataFrame) -> dict[str, str]:
    """The best model for each column (higher is better, except for LO-DS neighbour scores)."""
    best = {}
    for column in table.columns:
        values = table[column].astype(float)
        if values.notna().any():
            best[column] = str(values.idxmin() if lower_is_better(column) else values.idxmax())
    return best


def to_markdown(table: pd.DataFrame) -> str:
    """The table as GitHub markdown, three decimals, the best model of each column in bold."""
    best = best_per_column(table)
    lines = [
        "| model | " + " | ".join(table.columns) + " |",
        "|---|" + "---:|" * len(table.columns),
    ]
    for model, row in table.iterrows():
        cells = []
        for column in table.columns:
            value = row[column]
            text = "–" if value is None or math.isnan(float(value)) else f"{float(value):.3f}"
            cells.append(f"**{text}**" if best.get(column) == str(model) and text != "–" else text)
        lines.append(f"| {model} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
