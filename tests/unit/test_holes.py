"""Property tests over label columns with holes: missing, numeric, empty, lists and mixed values (issue 12).

Whatever a column holds, maps, highlight, legends, training's class selection, evaluation labels and exports work,
and every place reads a value the same way (a year 2019.0 is `2019`, a missing value is never a class).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.evaluation import label_values
from core.explore import highlight_mask
from core.labels import is_missing, label_text
from core.plots import map_figure, top_labels
from core.training import select_classes

CELL = st.one_of(
    st.none(), st.just(float("nan")), st.just(""), st.just("  "), st.integers(1900, 2030),
    st.integers(1900, 2030).map(float), st.sampled_from(["Nature", "Science", "J. Biol", "nature", "2019"]),
    st.lists(st.sampled_from(["a", "b"]), max_size=2), st.text(max_size=8),
)
COLUMN = st.lists(CELL, min_size=1, max_size=40)
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(COLUMN, st.text(min_size=1, max_size=4))
def test_highlight_never_fails_and_missing_cells_never_match(column, needle):
    frame = pd.DataFrame({"title": ["t"] * len(column), "abstract": ["a"] * len(column), "label": column})
    mask = highlight_mask(frame, needle)
    assert mask.shape == (len(column),) and mask.dtype == bool
    for i, value in enumerate(column):
        title_hit = needle.strip().lower() in "t" or needle.strip().lower() in "a"
        if is_missing(value) and not title_hit and needle.strip():
            assert not mask[i]


@FAST
@given(COLUMN, st.integers(1, 5))
def test_maps_draw_any_column_and_cards_show_the_real_value(column, legend):
    coords = np.arange(2 * len(column), dtype=np.float32).reshape(-1, 2)
    fig = map_figure(coords, color=column, color_name="label", max_legend=legend)
    drawn = sum(len(t.x) for t in fig.data)
    assert drawn == len(column)
    cards = [c for t in fig.data for c in (t.hovertext if t.hovertext is not None else [])]
    assert all(isinstance(c, str) for c in cards)
    assert not any("label: other" in c and "other" not in [label_text(v) for v in column] for c in cards)
    for value in column:
        if isinstance(value, float) and not math.isnan(value) and value.is_integer():
            assert not any(f"label: {value}" in c and f"label: {int(value)}" not in c for c in cards)


@FAST
@given(COLUMN)
def test_legends_use_label_text_and_fold_the_rest_into_other(column):
    folded = top_labels(column, max_labels=3)
    texts = [label_text(v, "(none)") for v in column]
    assert len(folded) == len(column)
    assert all(f == t or f == "other" for f, t in zip(folded, texts))
    assert len(set(folded) - {"other"}) <= 3


@FAST
@given(COLUMN)
def test_training_never_makes_a_class_of_a_missing_value(column):
    classes, rows = select_classes(column, min_per_class=1, max_per_class=100, seed=0)
    assert "" not in classes and "nan" not in classes and "None" not in classes
    assert all(not is_missing(column[i]) for i in rows)
    assert all(c == label_text(column[i]) for i in rows for c in [label_text(column[i])] if c in classes)


@FAST
@given(COLUMN)
def test_evaluation_labels_read_values_like_every_other_place(column):
    singles, sets = label_values(column)
    assert len(singles) == len(sets) == len(column)
    for value, single in zip(column, singles):
        if is_missing(value):
            assert single is None
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            assert single == label_text(value)
