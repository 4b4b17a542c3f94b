"""Whether a fine-tuned model beats its base: the base's validation scores beside the new model's, in one sentence."""

from __future__ import annotations

from typing import Any


def base_metrics(base: dict[str, float], val: dict[str, float]) -> dict[str, Any]:
    """The base model's validation scores and whether the fine-tuned model beats them (None without a base)."""
    if not base or "accuracy" not in base:
        return {"base_val_loss": None, "base_val_accuracy": None, "base_val_top5_accuracy": None,
                "val_accuracy_gain": None, "beats_base": None}
    gain = val["accuracy"] - base["accuracy"]
    return {"base_val_loss": base["loss"], "base_val_accuracy": base["accuracy"],
            "base_val_top5_accuracy": base["top5_accuracy"], "val_accuracy_gain": gain, "beats_base": gain > 0}


def base_comparison(metrics: dict[str, Any], base: str = "its base") -> str | None:
    """One sentence saying whether the fine-tuned model beats its base on validation (None without a base score)."""
    if metrics.get("base_val_accuracy") is None or metrics.get("val_accuracy") is None:
        return None
    points = 100 * (metrics["val_accuracy"] - metrics["base_val_accuracy"])
    size = f"{abs(points):.1f}" if abs(points) >= 0.1 else f"{abs(points):.2f}"
    scores = f"validation accuracy {metrics['val_accuracy']:.1%} against {metrics['base_val_accuracy']:.1%}"
    if points > 0:
        return f"The new model beats {base} by {size} points ({scores})."
    if points == 0:
        return f"The new model is no better than {base} on validation ({scores})."
    return (f"The new model is {size} points worse than {base} on validation: {scores}. Fine-tuning made "
            "it worse; try fewer epochs, a lower encoder learning rate, more papers or a distill weight, "
            f"or keep using {base}.")
