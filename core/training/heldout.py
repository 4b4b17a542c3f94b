"""The end of a run on papers it never trained on: split metrics from logits, the head's temperature fitted on
validation, and the verdict against the base on the test split (paired bootstrap over papers, 95 % interval; too few
test papers: no verdict, see `core.evaluation.verdict`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from core.evaluation.calibration import calibration_figures, fit_temperature
from core.evaluation.verdict import MIN_PER_CLASS, Verdict, enough_papers, paired_verdict, too_few_reason

Scores = tuple[np.ndarray, np.ndarray]  # logits [papers, classes], true class per paper


def split_metrics(logits: np.ndarray, target: np.ndarray) -> dict[str, float]:
    """Loss (mean cross-entropy), accuracy and top-5 accuracy of a split's logits."""
    if len(target) == 0:
        return {"loss": 0.0, "accuracy": 0.0, "top5_accuracy": 0.0}
    z = logits.astype(np.float64)
    top = z.max(axis=1, keepdims=True)
    log_norm = np.log(np.exp(z - top).sum(axis=1)) + top[:, 0]
    own = z[np.arange(len(target)), target]
    return {"loss": float((log_norm - own).mean()), "accuracy": float(hits(logits, target, 1).mean()),
            "top5_accuracy": float(hits(logits, target, 5).mean())}


def hits(logits: np.ndarray, target: np.ndarray, k: int) -> np.ndarray:
    """1.0 per paper whose true class is among its k highest logits (ties counted against it), else 0.0."""
    own = logits[np.arange(len(target)), target][:, None]
    return ((logits > own).sum(axis=1) < k).astype(np.float64)


def verdict_of(new: Scores, base: Scores | None, split: str, seed: int) -> Verdict | None:
    """The new model's accuracy against the base's on the same papers (their classes counted for the minimum); None
    without a base score. Without papers: a verdict of 0 papers, which says it is too few to judge."""
    if base is None:
        return None
    if len(new[1]) == 0:
        return Verdict(0, 0.0, 0.0, -1.0, 1.0, "accuracy", split, 0)
    return paired_verdict(hits(*new, 1), hits(*base, 1), metric="accuracy", split=split, seed=seed, groups=new[1])


def held_out_report(val: Scores, test: Scores | None, base: Scores | None, seed: int) -> tuple[dict[str, Any], float]:
    """Test metrics, the verdict against the base on the test split (never on validation, which early stopping used:
    without enough test papers the verdict says so) and calibration figures; and the head's temperature, fitted on
    the validation logits. `base`: the base's scores on the test papers."""
    temperature = fit_temperature(*val)
    out: dict[str, Any] = {"head_temperature": temperature, "test_papers": 0 if test is None else len(test[1])}
    if test is not None and len(test[1]):
        figures = split_metrics(*test)
        out.update(test_loss=figures["loss"], test_accuracy=figures["accuracy"],
                   test_top5_accuracy=figures["top5_accuracy"])
        out.update({f"test_{k}": v for k, v in calibration_figures(*test, temperature).items()})
        if base is not None:
            out["base_test_accuracy"] = split_metrics(*base)["accuracy"]
    no_papers = (np.zeros((0, 0)), np.zeros(0, dtype=np.int64))  # no test split: a verdict of 0 papers
    verdict = verdict_of(test if test is not None else no_papers, base, "test", seed)
    out["verdict"] = verdict.to_dict() if verdict is not None else None
    out["beats_base"] = None if verdict is None else verdict.beats_base
    return out, temperature


def verdict_outlook(class_papers: list[int], test_fraction: float) -> str | None:
    """Before a run: None when its test split will be large enough for a verdict, else the sentence saying it will be
    too few (the papers each class will hold out, from its papers and the test share, as `select` holds them out)."""
    from core.training.data import test_size

    sizes = [test_size(int(k), test_fraction) for k in class_papers]
    n, classes = sum(sizes), sum(size >= MIN_PER_CLASS for size in sizes)
    if enough_papers(n, classes):
        return None
    return (f"This run will hold out {n:,} test paper{'s' if n != 1 else ''}: {too_few_reason(n, classes)}. It will "
            "train, but its verdict against the base will be \"too few test papers to judge\"; raise Max papers, "
            "the Test share or the papers per class to get one.")
