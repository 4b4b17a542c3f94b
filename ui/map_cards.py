"""A map's hover cards, cached: one escaped card per paper (title, first authors, the colour's value, year,
journal, …, its figure) is the slowest part of a big map's figure (~0.5 s of Python string work at 50k papers), and
the same cards serve every rerun that does not change the corpus, the colour or the papers' figures."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
import streamlit as st

from core.display import author_text
from core.explore import hover_frame
from core.plots import hover_cards
from core.plots.style import label_of
from ui.figures_view import summaries
from ui.resources import settings, store


@st.cache_data(show_spinner=False, max_entries=6)
def _cards(key: tuple, _frame: pd.DataFrame, _colour: str, _values: Sequence | None,
           _figures: list | None) -> list[str]:
    """The cards of `key` (the arguments after it are not hashed: the key stands for them)."""
    hover = hover_frame(_frame).drop(columns=[_colour], errors="ignore")  # the colour's value has its own line
    if "authors" in _frame.columns:  # the first three authors, after the title
        hover.insert(1 if "title" in hover.columns else 0, "authors", _frame["authors"].map(author_text))
    if _figures is not None:  # each paper's visual summary
        hover = hover.assign(figure=_figures)
    shown = None if _values is None else [label_of(v) for v in _values]  # the real value, never "other"
    return hover_cards(len(_frame), shown, _colour, hover)


def _digest(values: Sequence[Any] | None) -> int | None:
    """A cheap fingerprint of a column of values (any type) for the cache key."""
    return None if values is None else hash(tuple(map(repr, values)))


def map_cards(corpus: str, frame: pd.DataFrame, colour: str, values: Sequence | None, ranked: dict) -> list[str]:
    """One hover card per row of `frame` coloured by `colour` with `values`; `ranked`: the papers' ranked figures."""
    figures = summaries(ranked, frame["id"].astype(str).tolist(), limit=90) if ranked else None
    key = (str(settings().workspace), corpus, store().corpus(corpus).version, len(frame), colour, _digest(values),
           _digest(figures))
    return _cards(key, frame, colour, values, figures)
