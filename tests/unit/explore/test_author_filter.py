"""Author names typed in part (helper qa16): each word begins a word of the name, any order, case or accents; cells
as lists, NumPy arrays (Arrow) or text joined by ';'."""

from __future__ import annotations

import numpy as np
import pandas as pd

from core.explore.search.authors import matching_authors
from core.explore.search.similar import filter_mask

FRAME = pd.DataFrame({"id": ["a", "b", "c", "d"], "title": ["w", "x", "y", "z"],
                      "authors": [["Müller, Anna", "Roe, Rita"], np.array(["Roebuck, T."]), "Smith J; Doe A", None]})


def test_each_typed_word_begins_a_word_of_the_name():
    assert matching_authors(FRAME, "rita ROE") == ["Roe, Rita"]
    assert matching_authors(FRAME, "roe") == ["Roe, Rita", "Roebuck, T."]
    assert matching_authors(FRAME, "muller") == ["Müller, Anna"]  # accents aside
    assert matching_authors(FRAME, "doe") == ["Doe A"]
    assert matching_authors(FRAME, "nobody") == [] and matching_authors(FRAME, "  ") == []
    assert matching_authors(FRAME, "ita") == []  # inside a word is not the start of one


def test_the_names_found_keep_the_papers_holding_them_whatever_the_cell_holds():
    assert filter_mask(FRAME, {"authors": matching_authors(FRAME, "roe")}).tolist() == [True, True, False, False]
    assert filter_mask(FRAME, {"authors": matching_authors(FRAME, "doe")}).tolist() == [False, False, True, False]
