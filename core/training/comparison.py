"""Whether a fine-tuned model beats its base: the base's validation scores beside the new model's, and the verdict
sentence, which comes from the stored `Verdict` (held-out test papers, n, 95 % interval) like on every other page."""

from __future__ import annotations

from typing import Any

from core.evaluation.verdict import Verdict, proportion_interval


def base_metrics(base: dict[str, float], val: dict[str, float]) -> dict[str, Any]:
    """The base model's validation scores beside the final ones (None without a base)."""
    if not base or "accuracy" not in base:
        return {"base_val_loss": None, "base_val_accuracy": None, "base_val_top5_accuracy": None,
                "val_accuracy_gain": None, "beats_base": None}
    return {"base_val_loss": base["loss"], "base_val_accuracy": base["accuracy"],
            "base_val_top5_accuracy": base["top5_accuracy"], "val_accuracy_gain": val["accuracy"] - base["accuracy"],
            "beats_base": None}


def verdict_of_metrics(metrics: dict[str, Any]) -> Verdict | None:
    """The stored verdict of a run's final metrics (None for runs without a base score, or from before verdicts)."""
    return Verdict.from_dict(metrics.get("verdict"))


def base_comparison(metrics: dict[str, Any], base: str = "its base") -> str | None:
    """One sentence saying whether the fine-tuned model beats its base, with n and the 95 % interval (None without a
    base score)."""
    verdict = verdict_of_metrics(metrics)
    if verdict is not None:
        return verdict.sentence(base)
    if metrics.get("base_val_accuracy") is None or metrics.get("val_accuracy") is None:
        return None
    return (f"Validation accuracy {metrics['val_accuracy']:.1%} against {metrics['base_val_accuracy']:.1%} for {base}, "
            f"on {metrics.get('val_papers', 'an unknown number of')} papers and without an interval: this run predates "
            "held-out test papers, so it cannot say whether the model beats its base; train it again to know.")


def _share(name: str, value: float | None, papers: int, unit: str = "") -> str | None:
    """'accuracy 43.8 % (95 % interval 34.9–53.0 %)': a share of `papers` papers with its Wilson interval."""
    bounds = proportion_interval(value * papers, papers) if value is not None and papers > 0 else None
    if bounds is None:
        return None
    return f"{name} {100 * value:.1f} % ({unit}{100 * bounds[0]:.1f}–{100 * bounds[1]:.1f} %)"


def accuracy_figures(metrics: dict[str, Any]) -> str | None:
    """The run's accuracies, each with the papers it was measured on and its 95 % (Wilson) interval: 'On 112 held-out
    test papers: accuracy 43.8 % (95 % interval 34.9–53.0 %), top-5 81.2 % (73.0–87.4 %). On 57 validation papers:
    accuracy 50.9 % (38.3–63.4 %).' None when no papers were counted."""
    parts = []
    for split, where in (("test", "held-out test"), ("val", "validation")):
        papers = int(metrics.get(f"{split}_papers") or 0)
        first = _share("accuracy", metrics.get(f"{split}_accuracy"), papers, "95 % interval " if not parts else "")
        if first is None:
            continue
        top5 = _share("top-5", metrics.get(f"{split}_top5_accuracy"), papers) if not parts else None  # the tile's
        said = f"{first}, {top5}" if top5 else first
        parts.append(f"On {papers:,} {where} paper{'s' if papers != 1 else ''}: {said}.")
    return " ".join(parts) or None
