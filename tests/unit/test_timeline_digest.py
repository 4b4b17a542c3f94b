"""The Topics-over-time chart is drawn again exactly when its data (each paper's year and group) changes."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ui.map.time import _digest


def test_the_same_years_and_groups_give_the_same_key_however_they_are_held():
    years = pd.Series([2001.0, 2002.0, np.nan])
    assert _digest(years, ["A", "B", None], "journal") == _digest(years.copy(), ("A", "B", None), "journal")
    assert _digest(years, ["A", "B", None], "journal") == _digest(years, np.array(["A", "B", None], dtype=object),
                                                                 "journal")


def test_any_change_of_a_year_a_group_its_type_or_the_colour_gives_another_key():
    years = pd.Series([2001.0, 2002.0, 2002.0])
    base = _digest(years, ["A", "B", "B"], "journal")
    others = [
        _digest(pd.Series([2001.0, 2003.0, 2002.0]), ["A", "B", "B"], "journal"),  # a year
        _digest(pd.Series([2001.0, np.nan, 2002.0]), ["A", "B", "B"], "journal"),  # a year lost
        _digest(years, ["A", "B", "A"], "journal"),  # a paper's group
        _digest(years, ["A", "C", "C"], "journal"),  # a group renamed
        _digest(years, ["A", "B", None], "journal"),  # a group lost
        _digest(years, ["A", "B", "None"], "journal"),  # the text "None" is a group, not a missing one
        _digest(years, ["B", "A", "A"], "journal"),  # the same codes, other names
        _digest(years, ["A", "B", "B"], "topics"),  # the colour's name
    ]
    assert len({base, *others}) == len(others) + 1
    assert _digest(years, [1, 2, 2], "k") != _digest(years, ["1", "2", "2"], "k")
