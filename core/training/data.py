"""Which papers a training run uses: class selection like the MIReAD paper, a stratified split, batching."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from core.errors import TrainingError
from core.labels import label_text

if TYPE_CHECKING:
    import pandas as pd

    from core.store import Store
    from core.training.config import TrainConfig

PAPER_MIN_PER_CLASS = 100  # the MIReAD paper kept journals with at least 100 papers...
PAPER_MAX_PER_CLASS = 300  # ...and sampled at most 300 of each


def class_limits(n_papers: int, min_per_class: int | None = None,
                 max_per_class: int | None = None) -> tuple[int, int]:
    """Minimum and maximum papers per class: the given ones, or defaults scaled to the corpus size."""
    low = min_per_class if min_per_class is not None else max(5, min(PAPER_MIN_PER_CLASS, n_papers // 200))
    high = max_per_class if max_per_class is not None else max(PAPER_MAX_PER_CLASS, low)
    return int(low), int(high)


def select_classes(labels: Sequence[Any], min_per_class: int, max_per_class: int,
                   seed: int) -> tuple[list[str], np.ndarray]:
    """Classes with at least `min_per_class` papers, and row indices with at most `max_per_class` of each."""
    values = np.array([label_text(v) for v in labels], dtype=object)
    names, counts = np.unique(values[values != ""].astype(str), return_counts=True)
    kept = [str(n) for n, c in zip(names, counts) if c >= min_per_class]
    rng = np.random.default_rng(seed)
    rows = []
    for name in kept:
        idx = np.flatnonzero(values == name)
        if len(idx) > max_per_class:
            idx = rng.choice(idx, size=max_per_class, replace=False)
        rows.append(idx)
    return kept, np.sort(np.concatenate(rows)) if rows else np.zeros(0, dtype=np.int64)


def _quotas(counts: np.ndarray, max_papers: int) -> np.ndarray:
    """Papers per class summing to `max_papers` (2 per class at least), shared in proportion to the class sizes."""
    quota = np.minimum(counts, 2)
    spare = max_papers - int(quota.sum())
    if spare <= 0:
        return quota
    room = counts - quota  # more papers than max_papers in all, so room.sum() > spare
    share = room * spare / room.sum()
    extra = np.floor(share).astype(np.int64)
    order = np.argsort(-(share - extra), kind="stable")
    extra[order[: spare - int(extra.sum())]] += 1
    return quota + extra


def _cap_papers(rows: np.ndarray, y: np.ndarray, max_papers: int, seed: int) -> np.ndarray:
    """`max_papers` rows (at least 2 per class), each class keeping its share."""
    if len(rows) <= max_papers:
        return rows
    rng = np.random.default_rng(seed + 1)
    classes, counts = np.unique(y, return_counts=True)
    kept = [rng.choice(rows[y == c], size=int(q), replace=False) for c, q in zip(classes, _quotas(counts, max_papers))]
    return np.sort(np.concatenate(kept))


def selected_rows(labels: Sequence[Any], min_per_class: int | None, max_per_class: int | None,
                  max_papers: int | None, seed: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The classes, frame rows and class index per row that training uses: class limits, then the paper cap."""
    low, high = class_limits(len(labels), min_per_class, max_per_class)
    classes, rows = select_classes(labels, low, high, seed)
    code = {name: i for i, name in enumerate(classes)}

    def codes(chosen: np.ndarray) -> np.ndarray:
        return np.array([code[label_text(labels[r])] for r in chosen], dtype=np.int64)

    y = codes(rows)
    if max_papers and len(classes):
        rows = _cap_papers(rows, y, int(max_papers), seed)
        y = codes(rows)
    return classes, rows, y


@dataclass
class Selection:
    """The classes and frame rows one run trains on, with its train/validation/test split."""

    classes: list[str]
    rows: np.ndarray
    y: np.ndarray  # class index per selected row
    train: np.ndarray  # positions into rows
    val: np.ndarray
    test: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # never trained or stopped on


def test_size(papers: int, fraction: float) -> int:
    """Test papers held out of a class of `papers`: its rounded share, leaving the class 2 papers at least."""
    return max(0, min(int(round(fraction * papers)), papers - 2))


def hold_out_test(y: np.ndarray, fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(kept, test) positions: a seeded share of each class's papers held out, leaving each class 2 papers at least."""
    rng = np.random.default_rng(seed + 3)
    test = []
    for c in np.unique(y):
        idx = np.flatnonzero(y == c)
        size = test_size(len(idx), fraction)
        if size > 0:
            test.append(rng.choice(idx, size=size, replace=False))
    held = np.sort(np.concatenate(test)) if test else np.zeros(0, dtype=np.int64)
    return np.setdiff1d(np.arange(len(y)), held), held


def select(frame: pd.DataFrame, cfg: TrainConfig) -> Selection:
    """Apply the class limits, the paper cap and the stratified validation split to a papers frame."""
    from sklearn.model_selection import train_test_split

    if cfg.label not in frame.columns:
        raise TrainingError(f"corpus {cfg.corpus!r} has no column {cfg.label!r}")
    labels = frame[cfg.label].tolist()
    classes, rows, y = selected_rows(labels, cfg.min_per_class, cfg.max_per_class, cfg.max_papers, cfg.seed)
    if len(classes) < 2:
        low = class_limits(len(labels), cfg.min_per_class, cfg.max_per_class)[0]
        raise TrainingError(
            f"column {cfg.label!r} of corpus {cfg.corpus!r} has {len(classes)} class(es) with at least "
            f"{low} papers; training needs 2 or more (lower the minimum papers per class)"
        )
    kept, test = hold_out_test(y, cfg.test_fraction, cfg.seed)
    n_val = max(len(classes), int(round(cfg.val_fraction * len(rows))))
    if len(kept) - n_val < len(classes):
        raise TrainingError(
            f"{len(rows)} papers in {len(classes)} classes are too few for a validation split; "
            "add papers or raise max papers"
        )
    train, val = train_test_split(kept, test_size=n_val, stratify=y[kept], random_state=cfg.seed)
    return Selection(classes, rows, y, np.sort(np.asarray(train)), np.sort(np.asarray(val)), test)


def class_preview(store: Store, corpus: str, label: str, min_per_class: int | None = None,
                  max_per_class: int | None = None, max_papers: int | None = None, seed: int = 0) -> pd.DataFrame:
    """Papers per class, whether training uses the class and how many of its papers (label, papers, used, sampled)."""
    import pandas as pd

    frame = store.papers_frame(corpus, with_abstract=False)
    if label not in frame.columns:
        raise TrainingError(f"corpus {corpus!r} has no column {label!r}")
    labels = frame[label].tolist()
    classes, _, y = selected_rows(labels, min_per_class, max_per_class, max_papers, seed)
    used = dict(zip(classes, np.bincount(y, minlength=len(classes)).tolist()))
    names = pd.Series([label_text(v) for v in labels], dtype=object)
    counts = names[names != ""].value_counts()
    out = pd.DataFrame({"label": counts.index.astype(str), "papers": counts.to_numpy(dtype=int)})
    out["used"] = out["label"].isin(used)
    out["sampled"] = out["label"].map(used).fillna(0).astype(int)
    return out.sort_values(["papers", "label"], ascending=[False, True], ignore_index=True)


PROBE_MAX = 1000  # papers in the train-probe sample, at most
PROBE_SPLIT = "train-probe"  # training papers held out of the head warm-up, scored like validation


def probe_sample(train: np.ndarray, n_val: int, seed: int) -> np.ndarray:
    """A fixed sample of training positions kept out of the head warm-up: train accuracy the head has not memorised."""
    size = min(n_val, len(train) // 4, PROBE_MAX)
    if size < 1:
        return np.zeros(0, dtype=np.int64)
    return np.sort(np.random.default_rng(seed + 2).choice(train, size=size, replace=False))
