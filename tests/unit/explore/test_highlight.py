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


def test_the_text_built_in_the_background_is_the_one_every_query_reads(monkeypatch):
    """BENCHMARKS §31y: the first word typed on a 1M-paper map built the case-folded text of every paper in its own
    run (0.6–3.6 s). The map page starts that build in a background thread; a query waits for it, never builds
    again, and a build that failed is started again."""
    import threading

    from core.explore import warm_highlight
    from core.explore.maps import highlight

    frame = pd.DataFrame({"title": ["Malaria in Kenya", "Straße tests", "Deep nets"], "year": [2020, 2021, 2022]})
    started, release, builds = threading.Event(), threading.Event(), []
    build = highlight.highlight_text

    def slow(f: pd.DataFrame):
        builds.append(threading.current_thread().name)
        started.set()
        assert release.wait(10)
        return build(f)

    monkeypatch.setattr(highlight, "highlight_text", slow)
    warm_highlight(frame)
    assert started.wait(10)  # under way in another thread: the page's run is not held up
    assert builds and builds[0] != threading.current_thread().name
    warm_highlight(frame)  # asked again (the next page run): the same build
    release.set()
    assert highlight.kept_highlight(frame, "strasse").tolist() == [False, True, False]
    assert highlight.kept_highlight(frame, "deep").tolist() == [False, False, True]
    assert len(builds) == 1

    broken = frame.copy()
    failures = iter([RuntimeError("out of memory")])
    monkeypatch.setattr(highlight, "highlight_text", lambda f: (_ for _ in ()).throw(next(failures, None) or
                                                                                     RuntimeError("again")))
    warm_highlight(broken)
    with pytest.raises(RuntimeError, match="out of memory"):
        highlight.kept_highlight(broken, "deep")
    monkeypatch.setattr(highlight, "highlight_text", build)
    assert highlight.kept_highlight(broken, "deep").tolist() == [False, False, True]  # built again, not stuck


QUERIES = ["a", "é", "ß", "ss", "straße", "STRASSE", "malaria kenya", "in k", "0", "20", "2021", "ΣΊΣΥΦΟΣ", "σίσυφος",
           "ﬁ", "fi", "İ", "i̇", "日本", "本語", "müller, k", "'], ['", "nan", "z", "  deep  ", "ǅ", "x"]


def test_a_match_in_parts_on_the_pool_gives_the_rows_one_match_gives(monkeypatch):
    """The match over many rows runs in parts on a thread pool: every query (1–2 characters, phrases, non-ASCII,
    case-folds that change length) finds exactly the rows of the whole text's match and of each column's."""
    import pyarrow.compute as pc

    from core.explore.maps import highlight

    rng = np.random.default_rng(3)
    words = np.array(["Malaria", "in", "Kenya", "Straße", "STRASSE", "σίσυφος", "ΣΊΣΥΦΟΣ", "ﬁsh", "İstanbul", "日本語",
                      "Deep", "nets", "ǅemal", "x", "0", "2021"])
    n = 2_003
    frame = pd.DataFrame({
        "title": [" ".join(rng.choice(words, 4)) for _ in range(n)],
        "authors": [[str(a) for a in rng.choice(["Müller, K.", "Li, B."], 2)] if k % 7 else None for k in range(n)],
        "year": [2019 + k % 4 if k % 5 else None for k in range(n)],
    })
    text = highlight.highlight_text(frame)
    monkeypatch.setattr(highlight, "MATCH_PART", 150)  # 14 parts, the last a short one
    monkeypatch.setattr(highlight, "MATCH_THREADS", 2)
    parts: list[int] = []
    whole = pc.match_substring

    def counted(array, pattern):
        parts.append(len(array))
        return whole(array, pattern)

    monkeypatch.setattr(pc, "match_substring", counted)
    for query in QUERIES:
        needle = query.strip().casefold()
        expected = whole(text, needle).to_numpy(zero_copy_only=False)
        found = highlight.highlight_mask(frame, query, text)
        assert found.dtype == bool and found.tolist() == expected.tolist(), query
        assert found.tolist() == _per_column(frame, query.strip()).tolist(), query
    assert parts[:14] == [150] * 13 + [n - 13 * 150]
