"""A field's counts never fail on the values a file holds (CI's hypothesis drew a field '0\\x1f': read as a number,
white space and control characters stripped, then converted without them stripped, which raised ValueError and
stopped the whole import)."""

from __future__ import annotations

from core.store.field_stats import field_counts, value_kind


def test_a_number_with_a_control_character_around_it_is_counted_not_raised():
    assert value_kind("0\x1f") == "number"
    counts = field_counts(3, 3, False, ["0\x1f", "\x1f2.5", " 7 "])
    assert counts.numbers == 3 and counts.integral is False  # 2.5 is not whole


def test_whole_numbers_stay_integral():
    assert field_counts(2, 2, False, ["0\x1f", "12"]).integral is True
