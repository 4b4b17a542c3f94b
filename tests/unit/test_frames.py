"""core.frames: a value derived from a frame is computed once per frame object, again when its rows change."""

from __future__ import annotations

import pandas as pd

from core.frames import derived


def test_a_derived_value_is_computed_once_per_frame_and_again_when_its_rows_change() -> None:
    calls = []

    def count_ids(frame: pd.DataFrame) -> int:
        calls.append(len(frame))
        return len(set(frame["id"]))

    frame = pd.DataFrame({"id": ["a", "b", "a"]})
    assert derived(frame, "distinct", count_ids) == 2 and derived(frame, "distinct", count_ids) == 2
    assert calls == [3]
    other = frame.copy()  # another object, another value
    assert derived(other, "distinct", count_ids) == 2 and calls == [3, 3]
    frame.loc[3] = ["c"]  # a row added in place
    assert derived(frame, "distinct", count_ids) == 3 and calls == [3, 3, 4]
