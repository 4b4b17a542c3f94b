"""A paper's fields as stored: orjson writes them, and they read back as the standard library would have written
them (dates and numpy ints as text, numpy floats as numbers, NaN/inf as null); what orjson refuses takes the old path."""

from __future__ import annotations

import datetime as dt
import json

import numpy as np
import pytest

from core.records import Paper, scrub
from core.store.batches import stored_form


def by_the_standard_library(fields: dict) -> object:
    try:
        text = json.dumps(fields, ensure_ascii=False, default=str, allow_nan=False)
    except ValueError:
        text = json.dumps(scrub(fields), ensure_ascii=False, default=str)
    return json.loads(text)


@pytest.mark.parametrize("fields", [
    {"journal": "Nature", "year": 2001, "authors": ["A. B", "C. D"], "score": 0.5, "open": True, "note": None},
    {"date": dt.datetime(2020, 1, 2, 3, 4, 5), "day": dt.date(2020, 1, 2), "n": np.int64(7), "x": np.float64(0.25)},
    {"bad": float("nan"), "big": float("inf"), "nested": {"a": [1, float("-inf")]}},
    {"huge": 2 ** 70, "text": "Straße – 漢字 \u00a0"},
    {"surrogate": "a\udc80b"},
    {1: "a number as a key"},
])
def test_stored_fields_read_back_as_the_standard_library_writes_them(fields):
    stored = stored_form(Paper("p1", "A title", "An abstract.", fields))[6]
    assert json.loads(stored) == by_the_standard_library(fields)


def test_nan_never_reaches_the_store():
    stored = stored_form(Paper("p1", "t", "a", {"v": float("nan"), "w": [float("inf")]}))[6]
    assert json.loads(stored) == {"v": None, "w": [None]} and "NaN" not in stored
