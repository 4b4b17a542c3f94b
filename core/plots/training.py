"""The Train page's live curves: one line per split of a metric against the step, the base model's score dashed."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from core.plots.style import PALETTE, finish, require_columns

TRAINING_SPLIT_ORDER = ("train", "train-probe", "val")
Band = tuple[str, Sequence[float], Sequence[float], Sequence[float]]  # legend note, steps, lows, highs
BASE_SPLIT = "base"  # the base encoder with the warmed-up head, scored on validation before fine-tuning


def training_curves_figure(metrics: pd.DataFrame, y: str = "loss", start_note: tuple[float, str] | None = None,
                           bands: Mapping[str, Band] | None = None) -> go.Figure:
    """One line per split (train, train-probe, val) of metric `y` against the step; the base model's score dashed;
    `bands` (split -> legend note, steps, lows, highs; `core.training.curves.interval_bands`): a split's 95 % band,
    shaded under its line, and the note (its papers) in its legend;
    `start_note` (value, text): an arrow at step 0 saying what the curve's first point is (the head warm-up)."""
    require_columns(metrics, ["step", "split", "name", "value"], "training metrics")
    rows = metrics[metrics["name"] == y].sort_values("step", kind="stable")
    fig = go.Figure()
    splits = [s for s in rows["split"].unique() if s != BASE_SPLIT]
    order = {name: i for i, name in enumerate(TRAINING_SPLIT_ORDER)}
    for i, split in enumerate(sorted(splits, key=lambda s: (order.get(s, len(order)), str(s)))):
        part = rows[rows["split"] == split]
        colour = PALETTE[order.get(split, len(order) + i) % len(PALETTE)]  # a split keeps its colour on every metric
        name = html.escape(str(split), quote=False)
        if bands and split in bands:
            note, steps, lows, highs = bands[split]
            fig.add_trace(go.Scatter(
                x=[*steps, *steps[::-1]], y=[*highs, *lows[::-1]], fill="toself", fillcolor=colour, opacity=0.18,
                line=dict(width=0), mode="lines", hoverinfo="skip", showlegend=False, name="95 % interval",
            ))
            name += f" ({html.escape(note, quote=False)})"
        fig.add_trace(go.Scatter(
            x=part["step"].to_numpy(), y=part["value"].to_numpy(float), name=name,
            mode="lines" if split == "train" and len(part) > 1 else "lines+markers",  # one point: a dot, not nothing
            line=dict(color=colour),
        ))
    base = rows[rows["split"] == BASE_SPLIT]
    if not base.empty:
        value, steps = float(base["value"].iloc[-1]), metrics["step"].to_numpy(float)
        first, last = float(steps.min()), float(steps.max())
        fig.add_trace(go.Scatter(
            x=[first, last], y=[value, value], name="base model", mode="lines" if last > first else "lines+markers",
            line=dict(dash="dash", color="#7f7f7f"), hovertemplate="base model: %{y:.4g}<extra></extra>",
        ))
    if start_note is not None:  # e.g. the train curve's first point is the head warm-up's loss, not an objective step
        fig.add_annotation(x=0, y=start_note[0], text=html.escape(start_note[1], quote=False), showarrow=True,
                           arrowhead=2, ax=40, ay=-30, font=dict(size=11))
    if rows.empty:
        fig.add_annotation(text="no metrics yet", showarrow=False, xref="paper", yref="paper", x=0.5, y=0.5)
    return finish(fig, "", xaxis=dict(title="step"), yaxis=dict(title=html.escape(y, quote=False)),
                   height=350, margin=dict(l=10, r=10, t=30, b=10))

