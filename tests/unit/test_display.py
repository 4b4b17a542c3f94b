"""Issue 29 §5: counts read '1 paper', not '1 papers'; tables show an empty cell, not 'None'."""

from __future__ import annotations

import numpy as np
import pandas as pd

from core.display import blank_missing, noun, plural


def test_plural_says_one_paper_and_two_papers():
    assert plural(1, "paper") == "1 paper" and plural(2, "paper") == "2 papers" and plural(0, "row") == "0 rows"
    assert plural(1200, "citing paper") == "1,200 citing papers" and plural(1, "study", "studies") == "1 study"
    assert plural(3, "study", "studies") == "3 studies" and noun(1, "row") == "row" and noun(5, "row") == "rows"


def test_a_table_shows_empty_cells_not_none():
    table = pd.DataFrame({"title": ["a", None], "year": [2019.0, np.nan],
                          "journal": [None, "J"], "n": [1, 2]})
    shown = blank_missing(table)
    assert shown["title"].tolist() == ["a", ""] and shown["journal"].tolist() == ["", "J"]
    assert shown["year"].tolist() == ["2019", ""]  # not 2019.0, not None
    assert shown["n"].tolist() == [1, 2] and table["title"].isna().tolist() == [False, True]  # the original is untouched
