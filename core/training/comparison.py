"""Whether a fine-tuned model beats its base: the base's validation scores beside the new model's, and the verdict
sentence, which comes from the stored `Verdict` (held-out test papers, n, 95 % interval) like on every other page."""

from __future__ import annotations

from typing import Any

from core.evaluation.verdict import Verdict


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
