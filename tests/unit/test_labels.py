"""One missing test, one label text and one default label column for every page and command."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from core.labels import default_label_column, is_missing, label_text, plain_value


@pytest.mark.parametrize("value", [None, float("nan"), np.nan, pd.NA, pd.NaT, "", "   ", np.float32("nan")])
def test_missing_values_are_missing(value):
    assert is_missing(value) and label_text(value) == "" and label_text(value, "(none)") == "(none)"
    assert plain_value(value) is None


@pytest.mark.parametrize("value", [0, 0.0, False, "0", [], ["a"], "x"])
def test_present_values_are_not_missing(value):
    assert not is_missing(value)


@pytest.mark.parametrize("value, text", [(2019.0, "2019"), (np.float64(2019.0), "2019"), (np.int64(2019), "2019"),
                                         (2019, "2019"), ("2019", "2019"), (2.5, "2.5"), ("  Nature ", "Nature"),
                                         (True, "True")])
def test_label_text_reads_a_year_as_2019(value, text):
    assert label_text(value) == text


def test_plain_value_is_json_ready():
    assert plain_value(np.float64(2019.0)) == 2019 and type(plain_value(np.float64(2019.0))) is int
    assert type(plain_value(np.int64(7))) is int and plain_value(2.5) == 2.5 and plain_value("x") == "x"
    assert not math.isnan(plain_value(1.5))


def test_the_default_label_column_prefers_the_models_label_then_a_journal_column():
    assert default_label_column(["year", "journal", "mesh"]) == "journal"
    assert default_label_column(["year", "venue"]) == "venue"
    assert default_label_column(["year", "journal"], preferred="year") == "year"
    assert default_label_column(["year", "journal"], preferred="gone") == "journal"
    assert default_label_column(["mesh", "year"]) == "mesh"
    assert default_label_column([]) is None
