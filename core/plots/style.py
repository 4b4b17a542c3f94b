"""What every chart shares: the palette and template, and the small text helpers (a label as legends show it, a
shortened text, a required column check, the escaped title)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative

from core.errors import MireadError
from core.labels import NONE_LABEL, label_text

OTHER_COLOUR = "#c7c7c7"
PALETTE = qualitative.Plotly + qualitative.D3[2:] + qualitative.Dark24
QUERY_COLOUR = "#d62728"
HIGHLIGHT_COLOUR = "#ff7f0e"
TEMPLATE = "plotly_white"


def label_of(value: Any) -> str:
    """A label as legends and cards show it: core.labels' text, '(none)' when missing."""
    return label_text(value, NONE_LABEL)


def short(text: str, limit: int) -> str:
    """Truncate text to limit characters with an ellipsis."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def require_columns(df: pd.DataFrame, columns: Sequence[str], what: str) -> None:
    """Raise when a frame lacks the columns a figure needs."""
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise MireadError(f"{what} data is missing column(s): {', '.join(missing)}")


def finish(fig: go.Figure, title: str, **layout: Any) -> go.Figure:
    """Apply the shared template and an escaped title."""
    fig.update_layout(template=TEMPLATE, title=html.escape(title, quote=False) if title else None, **layout)
    return fig
