"""How a run's live curves read where they start: the train loss at step 0 is the head warm-up's last loss (the head
alone, fitted on the training papers with the encoder frozen), not a step of the objective, so a curve that starts
near 0 and rises is the objective taking over, not training making the model worse."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

WARMUP_NOTE = "head warm-up"  # the annotation at the train curve's first point
COUNT = "papers"  # a metric row: how many papers a split's scores at that step count (its interval's n)
PROPORTIONS = ("accuracy", "top5_accuracy")  # shares of papers: a 95 % Wilson band where the split logged its n


def warmup_start(metrics: pd.DataFrame) -> float | None:
    """The train loss logged at step 0 (the head warm-up's last loss) when later train steps follow it; else None."""
    rows = metrics[(metrics["split"] == "train") & (metrics["name"] == "loss")]
    if rows.empty or not (rows["step"] == 0).any() or not (rows["step"] > 0).any():
        return None
    return float(rows.loc[rows["step"] == 0, "value"].iloc[-1])


def start_annotation(metrics: pd.DataFrame) -> tuple[float, str] | None:
    """(value, text) of the arrow at the train loss curve's first point, for `training_curves_figure`; None
    without a warm-up point."""
    start = warmup_start(metrics)
    return None if start is None else (start, f"{WARMUP_NOTE} ({start:.3g})")


def curve_start_note(metrics: pd.DataFrame) -> str | None:
    """One sentence on where the train loss curve starts and why it may rise from there; None without a warm-up
    point."""
    start = warmup_start(metrics)
    if start is None:
        return None
    first = float(metrics[(metrics["split"] == "train") & (metrics["name"] == "loss")
                          & (metrics["step"] > 0)].sort_values("step")["value"].iloc[0])
    return (f"Where the curves start: the **train** loss at step 0 ({start:.3g}) is the head warm-up's last loss, the "
            "head alone fitted on these same training papers with the encoder frozen, so it is near 0 when the head "
            f"has memorised them. From step 1 on it is the objective's loss of each batch (first {first:.3g}), another "
            "quantity: a rise from step 0 is not training making the model worse. Read **val** and the verdict on "
            "held-out test papers.")


def interval_bands(metrics: pd.DataFrame, y: str) -> dict[str, tuple[str, list[float], list[float], list[float]]]:
    """Each split's 95 % Wilson band of the share `y` over the papers it logged at every step (`COUNT`), for
    `training_curves_figure`: split -> ("n = … papers", steps, lows, highs); none for other metrics or a run logged
    without counts (older runs)."""
    from core.evaluation.verdict import proportion_interval

    if y not in PROPORTIONS:
        return {}
    rows = metrics[metrics["name"] == y].sort_values("step", kind="stable")
    out = {}
    for split in rows["split"].unique():
        part = rows[rows["split"] == split]
        logged = metrics[(metrics["name"] == COUNT) & (metrics["split"] == split)].groupby("step")["value"].last()
        counts = [logged.get(step) for step in part["step"]]
        if not counts or any(n is None or n <= 0 for n in counts):
            continue
        bounds = [proportion_interval(v * n, int(n)) for v, n in zip(part["value"].astype(float), counts, strict=True)]
        shown = sorted({int(n) for n in counts})
        note = f"n = {shown[0]:,} papers" if len(shown) == 1 else f"n = {shown[0]:,}–{shown[-1]:,} papers"
        out[str(split)] = (note, part["step"].astype(float).tolist(), [b[0] for b in bounds], [b[1] for b in bounds])
    return out
