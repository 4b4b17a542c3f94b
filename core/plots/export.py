"""A figure as one standalone HTML page (the map's download and `python -m core map --out`)."""

from __future__ import annotations

import plotly.graph_objects as go
import plotly.io as pio


def export_html(fig: go.Figure) -> str:
    """Return the figure as one standalone HTML page with plotly.js inlined (works offline)."""
    return pio.to_html(fig, include_plotlyjs=True, full_html=True, config={"displaylogo": False})
