"""Plotly figures, one chart family per module: pure functions from arrays and frames to figures; all user text is
escaped. style.py (palette, template, text helpers), maps.py (the paper map), timeline.py (the year animation and
papers per year), picture.py (faded points as one PNG), labels.py (topic labels on a map), journals.py, training.py,
evaluation.py (the Journals, Train and Evaluate charts), export.py (a figure as standalone HTML).

No domain package imports this one; pages and the CLI draw what the domain packages compute. Public names load
lazily (PEP 562), so importing the package costs nothing until a name is used.
"""

from __future__ import annotations

from core.lazy import exporter

_EXPORTS = {
    "add_citation_lines": "maps",
    "add_topic_labels": "labels",
    "cluster_centres_2d": "labels",
    "add_year_animation": "timeline",
    "export_html": "export",
    "hover_cards": "maps",
    "is_legend_entry": "maps",
    "journal_bar_figure": "journals",
    "legend_entry": "maps",
    "map_figure": "maps",
    "narrow_screen_css": "labels",
    "overlay_visible_rows": "timeline",
    "points_picture": "picture",
    "prediction_balance_figure": "journals",
    "purity_figure": "evaluation",
    "robustness_figure": "evaluation",
    "sample_rows": "maps",
    "selected_rows": "maps",
    "top_labels": "maps",
    "topics_over_time_figure": "timeline",
    "training_curves_figure": "training",
    "window_label": "timeline",
    "windows_with_papers": "timeline",
    "year_windows": "timeline",
}
__all__ = sorted(_EXPORTS)
__getattr__ = exporter(__name__, _EXPORTS)
