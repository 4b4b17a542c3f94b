"""Issue 42 (BENCHMARKS §31q): the highlight's text is built and searched by pyarrow. It finds what the pandas text
(`str.cat` + `str.casefold`, kept here as the reference as it was at 5b77da6) found, on every real fixture's frame and
for words taken from its own cells, and it case-folds as Python does: "strasse" finds "Straße"."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from core.explore import highlight_mask, highlight_text
from core.explore.maps.highlight import _casefold, _unlike_lower
from core.io import read_papers
from core.records import Paper
from core.store.frame_build import frame_of

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "real"


def _pandas_text(frame: pd.DataFrame) -> pd.Series:
    """The text as it was made before (5b77da6): each cell as pandas' `astype("string")` gives it, case-folded; the
    cells joined by NUL in Python (pandas 3's `str.cat` on Arrow-backed text drops a NUL separator: the bug
    `test_highlight.py` shows)."""
    parts = []
    for column in frame.columns:
        values = frame[column]
        if values.dtype == object:
            values = values.map(lambda v: v if isinstance(v, str) else ("" if _missing(v) else str(v)))
        parts.append(values.astype("string").fillna("").tolist())
    rows = ["\x00".join(cells) for cells in zip(*parts)] if parts else [""] * len(frame)
    return pd.Series([row.casefold() for row in rows], dtype=object)


def _missing(value: object) -> bool:
    """None, NaN, pd.NA and NaT: missing, never text (before: a missing author read "nan")."""
    return value is None or (not isinstance(value, (list, tuple, dict, np.ndarray)) and bool(pd.isna(value)))


def _pandas_mask(frame: pd.DataFrame, query: str, text: list[str] | None = None) -> np.ndarray:
    needle = (query or "").strip().replace("\x00", "")
    if not needle:
        return np.zeros(len(frame), dtype=bool)
    return np.array([needle.casefold() in row for row in (text or _pandas_text(frame))], dtype=bool)


def _runs(text: str) -> str:
    """A text with each run of NULs (empty cells between two others) as one: a sparse frame's text is kept so."""
    return re.sub("\x00+", "\x00", text)


def _frames() -> list[tuple[str, pd.DataFrame]]:
    found = []
    for path in sorted(REAL.rglob("*")):
        if not path.is_file() or path.suffix.lower() == ".md" or path.name.startswith("EXPECTED"):
            continue
        try:
            papers = [p for p in read_papers(path) if isinstance(p, Paper)]
        except Exception:  # noqa: BLE001 - a file no reader takes is no fixture here
            continue
        if papers:
            found.append((path.name, frame_of([p.id for p in papers], [p.title for p in papers],
                                              [p.abstract for p in papers], [p.fields for p in papers])))
    return found


def _words(text: list[str], rng: random.Random) -> list[str]:
    """Pieces of the frame's own cells (any column, any case), and words that test the edges."""
    cells = [cell for row in text for cell in row.split("\x00") if cell.strip()]
    picked = rng.sample(cells, min(6, len(cells)))
    words = [cell[start:start + rng.randint(3, 12)] for cell in picked if (start := rng.randrange(len(cell)))]
    return [*(w.upper() for w in words[:2]), *words, "strasse", "STRASSE", "é", "nan", "none", "2019", "['", "', '",
            ".0", "true", "  ", "\x00"]


def test_every_real_fixture_finds_what_the_pandas_text_found() -> None:
    rng = random.Random(42)
    frames = _frames()
    assert len(frames) > 150 and sum(len(f) for _, f in frames) > 2000
    non_ascii = 0
    for name, frame in frames:
        text, before = highlight_text(frame), _pandas_text(frame).tolist()
        assert [_runs(row) for row in text.to_pylist()] == [_runs(row) for row in before], name
        non_ascii += any(not row.isascii() for row in before)
        for word in _words(before, rng):
            assert highlight_mask(frame, word, text).tolist() == _pandas_mask(frame, word, before).tolist(), (name, word)
    assert non_ascii > 20  # the fixtures hold accented names, dashes, Greek letters


@pytest.mark.parametrize("query", ["strasse", "STRASSE", "Straße", "STRAẞE", "ﬁsh", "fish", "σοφος", "ΣΟΦΟΣ",
                                   "i̇stanbul", "ǰ", "µm", "μm"])
def test_case_folds_as_python_does(query: str) -> None:
    frame = pd.DataFrame({"title": ["Straße networks", "STRAẞE maps", "ﬁsh and FISH", "ΣΟΦΟΣ σοφός σοφος",
                                    "İstanbul", "J̌ ǰ", "5 µm", None, "plain ascii"],
                          "year": [2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026, 2027]})
    assert highlight_mask(frame, query).tolist() == _pandas_mask(frame, query).tolist()
    assert highlight_mask(frame, "strasse").tolist()[:2] == [True, True]


def test_the_fold_is_python_casefold_for_any_text() -> None:
    """Every character whose `utf8_lower` differs from `str.casefold`, among random Unicode and ASCII."""
    import pyarrow as pa

    rng = random.Random(7)
    odd = [chr(int(code, 16)) for code in re.findall(r"\\x\{([0-9A-F]+)\}", _unlike_lower())]
    assert {"ß", "ς", "İ", "ﬁ"} <= set(odd)
    pool = [chr(c) for c in range(0x20, 0x3000) if not 0xD800 <= c < 0xE000] + ["ß", "ẞ", "ς", "İ", "ﬁ", "ᏸ"]
    rows = ["".join(rng.choice(pool) for _ in range(rng.randint(0, 40))) for _ in range(3000)]
    rows += ["plain", "", "ASCII ONLY", *odd, "".join(odd), "Straße " + "".join(odd[::-1])]
    folded = _casefold(pa.array(rows, pa.large_string())).to_pylist()
    assert folded == [row.casefold() for row in rows]


def test_numbers_lists_and_missing_read_as_before() -> None:
    frame = pd.DataFrame({
        "year": pd.array([2019, None, 2021], dtype="Int64"), "score": [1.5, 2020.0, float("nan")],
        "flag": [True, False, True], "authors": [["Müller, K."], None, ["Ng, A.", 3]],
        "misc": [{"a": 1}, float("nan"), "x"], "id": ["a", "b", None],
    })
    for word in ["2019", "2020.0", ".0", "true", "false", "müller", "['ng", "3]", "{'a': 1}", "nan", "none", "<na>"]:
        assert highlight_mask(frame, word).tolist() == _pandas_mask(frame, word).tolist(), word
    assert highlight_mask(frame.iloc[:0], "x").tolist() == []
    assert highlight_mask(pd.DataFrame(index=range(2)), "x").tolist() == [False, False]


def test_a_missing_cell_in_a_list_column_is_never_text() -> None:
    """A paper without authors (NaN in the authors' list column) was found by a highlight of "nan" or "<NA>"."""
    frame = pd.DataFrame({
        "title": ["Nanoparticles in water", "Soil", "Air", "Ice"],
        "authors": [["Ng, A."], float("nan"), pd.NA, None],
        "keywords": [None, ["ice"], float("nan"), ["Nan, B."]],
    })
    assert highlight_mask(frame, "nan").tolist() == [True, False, False, True]
    assert highlight_mask(frame, "<na>").tolist() == [False, False, False, False]
    assert highlight_mask(frame, "none").tolist() == [False, False, False, False]


def test_a_wide_sparse_frame_keeps_one_nul_between_cells_and_finds_the_same() -> None:
    """Fields each only some papers have (a corpus of many formats: 875 columns for the real fixtures together): the
    text keeps one NUL where empty cells were, so a query reads the cells, not a NUL per empty cell."""
    columns = {f"field{c}": [f"value {c} Straße" if row % 40 == c else None for row in range(200)] for c in range(40)}
    frame = pd.DataFrame({"id": [str(i) for i in range(200)], **columns})
    text = highlight_text(frame).to_pylist()
    assert all("\x00\x00" not in row for row in text) and text[3].rstrip("\x00") == "3\x00value 3 strasse"
    before = _pandas_text(frame).tolist()
    for word in ["value 3 ", "strasse", "3\x00value", "e 3", "value", "9"]:
        assert highlight_mask(frame, word).tolist() == _pandas_mask(frame, word, before).tolist(), word
