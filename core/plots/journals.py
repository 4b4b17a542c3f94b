"""Plotly figures of the Journals page: the suggested journals' probabilities and the corpus-wide balance check."""

from __future__ import annotations

import html
from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go

from core.errors import MireadError
from core.plots.style import OTHER_COLOUR, PALETTE, finish, label_of, require_columns, short


def journal_bar_figure(labels: Sequence[str], probabilities: Sequence[float], title: str = "") -> go.Figure:
    """Horizontal bars of journal probabilities, highest at the top, with percentages."""
    if len(labels) != len(probabilities):
        raise MireadError(f"got {len(labels)} journal labels but {len(probabilities)} probabilities")
    pairs = sorted(zip(labels, (float(p) for p in probabilities)), key=lambda t: -t[1])
    names = [html.escape(short(label_of(label), 60), quote=False) for label, _ in pairs]
    probs = [p for _, p in pairs]
    fig = go.Figure(go.Bar(
        x=probs, y=names, orientation="h", text=[f"{p:.1%}" for p in probs], textposition="outside",
        marker_color=PALETTE[0], hovertemplate="%{y}: %{x:.1%}<extra></extra>", cliponaxis=False,
    ))
    top = max(probs, default=1.0)
    return finish(
        fig, title, height=80 + 32 * max(len(probs), 1), margin=dict(l=10, r=40, t=50 if title else 20, b=30),
        xaxis=dict(tickformat=".0%", range=[0, min(1.0, top * 1.2) or 1.0], title="probability"),
        yaxis=dict(autorange="reversed", automargin=True),
    )


def prediction_balance_figure(df: pd.DataFrame) -> go.Figure:
    """Grouped bars of predicted vs actual share per label (shows which journal swallows everything)."""
    require_columns(df, ["label", "predicted_share", "actual_share"], "prediction balance")
    df = df.sort_values("predicted_share", ascending=False)
    names = [html.escape(short(label_of(v), 40), quote=False) for v in df["label"]]
    fig = go.Figure([
        go.Bar(x=names, y=df["predicted_share"].to_numpy(float), name="predicted", marker_color=PALETTE[0]),
        go.Bar(x=names, y=df["actual_share"].to_numpy(float), name="actual", marker_color=OTHER_COLOUR),
    ])
    return finish(fig, "", barmode="group", yaxis=dict(tickformat=".0%", title="share of papers"),
                   xaxis=dict(title=None, tickangle=-45, automargin=True), legend=dict(orientation="h", y=1.08))
