"""What the map component is sent (core.plots.map_data): positions in [-1, 1], colour codes, highlight bits."""

from __future__ import annotations

import numpy as np
import pytest

from core.errors import MireadError
from core.plots.map_data import colour_codes, highlight_bits, unit_frame


def test_positions_fit_in_the_unit_square_keeping_the_aspect_and_windows_go_both_ways():
    coords = np.array([[10.0, 5.0], [30.0, 6.0], [20.0, 7.0]])
    unit = unit_frame(coords)
    xy = unit.to_unit(coords)
    assert xy.dtype == np.float32 and np.abs(xy).max() <= 1.0
    assert np.ptp(xy[:, 0]) / np.ptp(xy[:, 1]) == pytest.approx(20 / 2)  # one scale for both axes
    box = (12.0, 18.0, 5.5, 6.5)
    assert unit.box_to_data(unit.box_to_unit(box)) == pytest.approx(box)


def test_the_most_frequent_labels_get_colours_and_the_rest_is_other():
    values = ["a"] * 5 + ["b"] * 3 + ["c"] * 2 + ["d"] + [None]
    colours = colour_codes(values, len(values), max_legend=2)
    assert colours.codes.dtype == np.uint8 and len(colours.codes) == len(values)
    assert [e["label"] for e in colours.legend] == ["a", "b", "other"]
    assert [e["count"] for e in colours.legend] == [5, 3, 4]
    assert colours.codes[0] == 0 and colours.codes[5] == 1 and colours.codes[-1] == 2
    assert colours.palette[2] == "#c7c7c7"


def test_years_are_binned_on_a_scale_with_missing_ones_last():
    values = [2001, 2002, 2003, None, 2019]
    colours = colour_codes(values, 5, scale=True)
    labels = [e["label"] for e in colours.legend]
    assert labels[-1] == "(none)" and not any(".0" in label for label in labels)
    assert colours.codes[3] == len(colours.palette) - 1


def test_highlight_bits_pack_eight_papers_a_byte_and_refuse_a_wrong_length():
    mask = np.zeros(10, dtype=bool)
    mask[[0, 9]] = True
    bits = highlight_bits(mask, 10)
    assert bits.tolist() == [0b10000000, 0b01000000]
    assert highlight_bits(None, 10) is None
    with pytest.raises(MireadError):
        highlight_bits(mask, 11)


def test_no_colour_is_one_code_and_a_wrong_length_is_refused():
    assert colour_codes(None, 4).codes.tolist() == [0, 0, 0, 0]
    with pytest.raises(MireadError):
        colour_codes(["a"], 2)


def test_text_first_is_labels_and_numbers_after_missing_ones_are_still_numbers():
    # the first present value decides text at once (BENCHMARKS §31m); a label column with numbers later stays labels
    mixed = colour_codes([None, "J. A", 3, 4, "J. A"], 5, max_legend=2)
    assert [e["label"] for e in mixed.legend][:1] == ["J. A"] and mixed.palette[-1] == "#c7c7c7"
    years = colour_codes([None, float("nan")] + list(range(1990, 2010)), 22)
    assert years.legend[-1]["label"] == "(none)" and years.legend[0]["label"].startswith("1990")
    flags = colour_codes([None, True, False, True], 4)
    assert sorted(e["label"] for e in flags.legend) == ["(none)", "False", "True"]
