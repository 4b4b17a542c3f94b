"""Highlight on the map (issue 32): one case-folded text per row, kept per corpus version, gives exactly what testing
each column gives, and never matches across two cells."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core.explore import highlight_mask, highlight_text


def _per_column(frame: pd.DataFrame, needle: str) -> np.ndarray:
    """The reference: each column's cells as text (missing: none), case-folded substring, one cell at a time."""
    mask = np.zeros(len(frame), dtype=bool)
    for column in frame.columns:
        values = frame[column]
        if values.dtype == object:
            values = values.map(lambda v: v if isinstance(v, str) else ("" if v is None else str(v)))
        for i, cell in enumerate(values.astype("string").fillna("")):
            mask[i] |= needle.casefold() in str(cell).casefold()
    return mask


@pytest.fixture
def frame() -> pd.DataFrame:
    return pd.DataFrame({
        "title": ["Malaria in Kenya", "Straße networks", "Graph neural nets", None, "ERK signalling"],
        "abstract": ["Plasmodium falciparum …", "", "We study GRAPHS.", "only an abstract", float("nan")],
        "authors": [["Smith, J."], ["Müller, K."], [], None, ["Ng, A.", "Li, B."]],
        "year": [2019, 2020.0, None, 2001, 1999],
    })


@pytest.mark.parametrize("needle", ["malaria", "STRASSE", "straße", "Strasse", "graph", "müller", "2019", "ng, a", "nan", "none",
                                    "kenya plasmodium", "a.', 'li", "x"])
def test_the_kept_text_matches_as_each_column_does(frame, needle):
    text = highlight_text(frame)
    assert highlight_mask(frame, needle, text).tolist() == _per_column(frame, needle).tolist()
    assert highlight_mask(frame, needle).tolist() == _per_column(frame, needle).tolist()


def test_no_match_spans_two_cells_and_an_empty_query_matches_nothing(frame):
    assert not highlight_mask(frame, "kenya plasmodium").any()  # the end of a title + the start of its abstract
    assert not highlight_mask(frame, "kenyaplasmodium").any()  # pandas 3's str.cat dropped the NUL between cells
    assert not highlight_mask(frame, "  ").any()
    assert not highlight_mask(frame, "\x00").any()


def test_a_query_asked_again_reads_its_kept_rows_not_every_papers_text(monkeypatch):
    """BENCHMARKS §31v: each year step or page run with a highlight on matched the same query over every paper's text
    again (0.5 s at 1M papers). The text and the last queries' rows are kept with the frame object."""
    import pandas as pd

    from core.explore.maps import highlight

    frame = pd.DataFrame({"title": ["Malaria in Kenya", "Straße tests", "Deep nets"], "year": [2020, 2021, 2022]})
    calls: list[str] = []
    match = highlight.highlight_mask
    monkeypatch.setattr(highlight, "highlight_mask", lambda f, q, text=None: calls.append(q) or match(f, q, text))
    first = highlight.kept_highlight(frame, " MALARIA ")
    again = highlight.kept_highlight(frame, "malaria")  # the same query, as typed another way
    assert first.tolist() == again.tolist() == [True, False, False]
    assert calls == ["malaria"]
    assert not again.flags.writeable  # shared by every run that asks: never changed in place
    assert highlight.kept_highlight(frame, "strasse").tolist() == [False, True, False]
    assert highlight.kept_highlight(frame, "  ").tolist() == [False, False, False]
    for k in range(highlight.KEPT_QUERIES):  # only the last few queries are kept
        highlight.kept_highlight(frame, str(2020 + k % 3) + "x" * k)
    highlight.kept_highlight(frame, "malaria")
    assert calls.count("malaria") == 2
    other = frame.copy()  # another frame object (a new corpus version) is matched on its own
    assert highlight.kept_highlight(other, "deep").tolist() == [False, False, True]
