"""Plotly figures of the Evaluate page: clustering purity against k and textual-neighbour retrieval per category."""

from __future__ import annotations

import html

import pandas as pd
import plotly.graph_objects as go

from core.plots.style import finish, require_columns


def purity_figure(df: pd.DataFrame) -> go.Figure:
    """Clustering purity against k, one line per model."""
    require_columns(df, ["model", "k", "purity"], "purity")
    fig = go.Figure()
    for model, part in df.sort_values("k").groupby("model", sort=False):
        fig.add_trace(go.Scatter(x=part["k"].to_numpy(), y=part["purity"].to_numpy(float),
                                 name=html.escape(str(model), quote=False), mode="lines+markers"))
    ks = df["k"].to_numpy(float)
    log_x = len(ks) > 0 and ks.min() > 0 and ks.max() / ks.min() >= 10
    return finish(fig, "", xaxis=dict(title="k (number of clusters)", type="log" if log_x else "linear",
                                         tickvals=sorted({int(k) for k in ks})),
                   yaxis=dict(title="purity", tickformat=".0%"))


def robustness_figure(df: pd.DataFrame) -> go.Figure:
    """Grouped bars of 10-nearest-neighbour retrieval per category, one bar colour per model."""
    require_columns(df, ["model", "category", "nn10_ret"], "robustness")
    fig = go.Figure()
    for model, part in df.groupby("model", sort=False):
        fig.add_trace(go.Bar(x=[html.escape(str(c), quote=False) for c in part["category"]],
                             y=part["nn10_ret"].to_numpy(float), name=html.escape(str(model), quote=False)))
    return finish(fig, "", barmode="group", yaxis=dict(title="NN@10 retrieval"), xaxis=dict(title=None))
