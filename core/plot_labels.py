"""Topic labels on a paper map (a plotly figure from core.plots.map_figure), drawn so two levels read as nested:
coarse topics in large bold type; at the fine level the fine topics in small type at their own centres, with the
coarse names still on top, larger and lighter. All label text is escaped."""

from __future__ import annotations

import html
from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

from core.explore.clusters import cluster_centres_2d
from core.explore.topics import Topics

MAX_FINE_LABELS = 40  # beyond this many fine topics only the largest are labelled (all stay in legend and cards)
LABEL_CHARS = 40  # as the legend shortens its entries


def _short(text: str, limit: int = LABEL_CHARS) -> str:
    text = " ".join(str(text).split())
    return html.escape(text if len(text) <= limit else text[: limit - 1].rstrip() + "…", quote=False)


def add_topic_labels(fig: go.Figure, coords: np.ndarray, topics: Topics, level: str,
                     names: Mapping[str, Mapping[int, str]], max_fine: int = MAX_FINE_LABELS) -> list[str]:
    """Label each topic of the level at the median position of its papers; the texts drawn, coarse first."""
    coords = np.asarray(coords, dtype=np.float64)
    drawn: list[str] = []
    fine_level = level == "fine"
    children: dict[int, list[str]] = {}
    for f, c in enumerate(topics.parent):
        children.setdefault(int(c), []).append(names["fine"].get(f, ""))
    for c, (x, y) in cluster_centres_2d(coords, topics.coarse).items():
        text = names["coarse"][c]
        inside = "<br>".join(_short(n, 60) for n in sorted(children.get(c, [])))
        fig.add_annotation(
            x=x, y=y, text=f"<b>{_short(text)}</b>", showarrow=False, name=f"coarse-{c}",
            font=dict(size=17 if fine_level else 14, color="rgba(17,17,17,0.55)" if fine_level else "#111111"),
            bgcolor=None if fine_level else "rgba(255,255,255,0.78)", borderpad=3,
            hovertext=f"<b>{_short(text, 80)}</b><br>{inside}", yshift=14 if fine_level else 0,
        )
        drawn.append(text)
    if fine_level:
        sizes = np.bincount(topics.fine, minlength=len(topics.parent))
        keep = set(np.argsort(-sizes, kind="stable")[:max_fine].tolist())
        for f, (x, y) in cluster_centres_2d(coords, topics.fine).items():
            if f in keep:
                text = names["fine"][f]
                fig.add_annotation(x=x, y=y, text=_short(text), showarrow=False, name=f"fine-{f}",
                                   font=dict(size=11, color="#111111"), bgcolor="rgba(255,255,255,0.72)",
                                   borderpad=2, hovertext=_short(f"{names['coarse'][int(topics.parent[f])]} › {text}",
                                                                 120))
                drawn.append(text)
    return drawn
