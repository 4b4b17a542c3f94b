"""Topics over time: papers per year per group, checked against an independent count."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from core.errors import MireadError
from core.explore.timeline import papers_per_year
from tests.unit.test_plot_time import corpus


def test_papers_per_year_matches_an_independent_count():
    _, years, labels = corpus(1000)
    labels[3] = None  # a missing group
    table = papers_per_year(years, labels, top=5)
    known = [(int(y), g if g is not None else "(none)") for y, g in zip(years, labels) if not np.isnan(y)]
    sizes = Counter(g for _, g in known)
    top = [g for g, _ in sizes.most_common(5)]
    assert list(table.columns) == top + ["other"]
    assert list(table.index) == list(range(2000, 2011))
    expected = Counter((y, g if g in top else "other") for y, g in known)
    for (year, group), count in expected.items():
        assert table.loc[year, group] == count
    assert int(table.to_numpy().sum()) == len(known) == int((~np.isnan(years)).sum())


def test_papers_per_year_fills_missing_years_and_keeps_small_label_sets_whole():
    table = papers_per_year([2001, 2004, 2004.0, None], ["a", "b", "a", "b"], top=5)
    assert list(table.index) == [2001, 2002, 2003, 2004] and list(table.columns) == ["a", "b"]
    assert table.loc[2002].sum() == 0 and table.loc[2004, "a"] == 1 and table.to_numpy().sum() == 3
    with pytest.raises(MireadError):
        papers_per_year([None, None], ["a", "b"])
