"""The colours the browser answers by itself (ui/map/colours.py): the same codes, palette and legend a page run
makes for the option, packed once, only for the options whose colours are a column as it is."""

from __future__ import annotations

import numpy as np
import pandas as pd

from core.plots.map_data import colour_codes
from ui.map.colours import NONE, cheap_options, colour_choices, pack_choices, unpack_choices


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    journals = rng.choice(["A", "B", "<b>C</b>", None], 500).tolist()
    return pd.DataFrame({"id": [str(i) for i in range(500)], "journal": journals,
                         "year": rng.integers(1990, 2020, 500)})


def test_only_columns_as_they_are_are_answered_in_the_browser():
    options = ["journal", "year", "topics", "predicted journal", "collections", NONE]
    assert cheap_options(options, ["journal"], "year") == ("journal", "year", NONE)
    assert cheap_options(options, [], None) == (NONE,)


def test_each_option_has_the_codes_a_page_run_makes():
    frame = _frame()
    choices = colour_choices(frame, ("journal", "year", NONE), 12, "year")
    for name, scale in (("journal", False), ("year", True)):
        page = colour_codes(frame[name].tolist(), len(frame), 12, scale=scale)
        assert np.array_equal(choices[name].codes, page.codes)
        assert choices[name].palette == page.palette and choices[name].legend == page.legend
    assert set(choices[NONE].codes.tolist()) == {0} and choices[NONE].legend == []
    assert colour_choices(frame, ("journal", "year", NONE), 12, "year") is choices  # computed once per frame


def test_packed_once_with_one_byte_a_paper_an_option():
    frame = _frame()
    choices = colour_choices(frame, ("journal", NONE), 5, None)
    data = pack_choices(choices, len(frame), "map", "c:123")
    head, codes = unpack_choices(data)
    assert head["key"] == "c:123" and head["n"] == 500 and head["control"] == "map_colour"
    assert len(codes) == 2 * 500
    journal = head["options"]["journal"]
    assert np.array_equal(codes[journal["offset"]:journal["offset"] + 500], choices["journal"].codes)
    assert journal["legend"] == choices["journal"].legend  # key order kept: the browser compares legends as text
    assert [list(e) for e in journal["legend"]] == [list(e) for e in choices["journal"].legend]


def test_numbers_read_in_one_pass_give_what_the_value_by_value_reading_gives():
    from core.plots import map_data

    cases = [[1990, 2001, 1995], [1.5, float("nan"), 3.0], [2001, None, 1999], [True, 2], [True, False],
             ["1999", 2000], [float("nan"), float("nan")], [], [np.int64(3), 4], [float("inf"), 1.0]]
    for values in cases:
        fast = map_data._numeric(values)
        present = [v for v in values if not map_data.is_missing(v)]
        slow = None
        if present and not any(isinstance(v, (bool, np.bool_, str)) for v in present) and all(
                isinstance(v, (int, float, np.integer, np.floating)) for v in present):
            slow = np.array([np.nan if map_data.is_missing(v) else float(v) for v in values], dtype=np.float64)
        assert (fast is None) == (slow is None), values
        if fast is not None:
            assert np.array_equal(fast, slow, equal_nan=True), values


def test_a_label_columns_values_are_listed_once_per_frame():
    """BENCHMARKS §31y: each page run coloured by a label listed its 1M values again (`tolist`). The list is kept
    with the frame object, the colour options read the same list, and another frame is listed on its own."""
    import pandas as pd

    from ui.map.colours import column_values

    frame = pd.DataFrame({"journal": ["A", None, "B"], "year": [2001, 2002, 2003]})
    first = column_values(frame, "journal")
    assert first[::2] == ["A", "B"] and pd.isna(first[1]) and column_values(frame, "journal") is first
    assert column_values(frame.copy(), "journal") is not first
    colour_choices(frame, ("journal", NONE), 12, None)
    assert column_values(frame, "journal") is first
