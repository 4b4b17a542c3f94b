"""Highlight on a corpus map: each paper's cells as one case-folded text, made once per corpus version, and the rows
whose text holds a query. Built and searched by pyarrow: 4.6 s for the text of 1M synthetic papers through pandas
(`str.cat` + `str.casefold`), a fraction of that here (BENCHMARKS §31q)."""

from __future__ import annotations

import functools
import os
import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np

from core.frames import derived

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

_SEP = "\x00"  # joins a row's cells: no query holds it, so no match spans two cells


def highlight_text(frame: pd.DataFrame) -> pa.Array:
    """Each row's cells as one case-folded text (Python's `str.casefold`: "Straße" reads "strasse"), joined by NUL.
    A cell reads as pandas' `astype("string")` writes it (2020.0 as "2020.0", True as "True"); a list or any other
    object as `str` gives it; missing as nothing."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not len(frame.columns):
        return pa.array([""] * len(frame), pa.large_string())
    parts = [_cells(frame[column]) for column in frame.columns]
    empty = sum(part.null_count for part in parts)
    parts = [pc.fill_null(part, "") if part.null_count else part for part in parts]
    joined = pc.binary_join_element_wise(*parts, pa.scalar(_SEP, pa.large_string())) if len(parts) > 1 else parts[0]
    del parts
    if empty * 8 > joined.nbytes:  # a wide, sparse frame (fields each only some papers have): a NUL per empty cell
        joined = pc.replace_substring_regex(joined, r"\x00{2,}", _SEP)  # made most of the text every query read
    return _casefold(joined)


def highlight_mask(frame: pd.DataFrame, query: str, text: pa.Array | None = None) -> np.ndarray:
    """Rows whose title, abstract or any other column contains `query` (case-folded, so "strasse" finds "Straße";
    missing never matches). `text`: the frame's `highlight_text`, when the caller keeps it."""
    needle = (query or "").strip().replace(_SEP, "")
    if not needle:
        return np.zeros(len(frame), dtype=bool)
    text = highlight_text(frame) if text is None else text
    return _match(text, needle.casefold())


MATCH_PART = 125_000  # rows per part of a match run on the pool: 8 parts at 1M papers, none below 250,000
MATCH_THREADS = max(1, min(4, os.cpu_count() or 1))
_MATCHERS = ThreadPoolExecutor(max_workers=MATCH_THREADS, thread_name_prefix="highlight-match")


def _match(text: pa.Array, needle: str) -> np.ndarray:
    """`pc.match_substring` of every row, in parts on the machine's cores when the text is long: pyarrow's kernel
    runs without the GIL, so two cores halve a match of 1M papers' text (0.45 s on one, BENCHMARKS §31y)."""
    import pyarrow.compute as pc

    def part(start: int, length: int) -> np.ndarray:
        rows = pc.match_substring(text.slice(start, length), needle)
        return rows.to_numpy(zero_copy_only=False).astype(bool, copy=False)

    if MATCH_THREADS < 2 or len(text) < 2 * MATCH_PART:
        return part(0, len(text))
    parts = [_MATCHERS.submit(part, start, MATCH_PART) for start in range(0, len(text), MATCH_PART)]
    return np.concatenate([p.result() for p in parts])


KEPT_QUERIES = 8  # the last queries' rows kept per frame (a bool a paper: 1 MB each at 1M papers)
_KEPT_LOCK = threading.Lock()
_BUILDER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="highlight-text")


def warm_highlight(frame: pd.DataFrame) -> None:
    """Start building the highlight text of a frame that is never changed in place (the app's `papers_frame`) in a
    background thread, once per frame object: the first word typed then waits for the rest of a build already under
    way, or for nothing, instead of building it in its own run (0.6–3.6 s at 1M papers, BENCHMARKS §31y)."""
    _text_job(frame)


def _text_job(frame: pd.DataFrame) -> Future:
    """The frame's one build of its highlight text: started when first asked, again only if it failed."""
    with _KEPT_LOCK:  # two runs asking at once share one build
        job: dict[str, Future] = derived(frame, "highlight_text_job", lambda _f: {})
        built = job.get("text")
        if built is None or (built.done() and built.exception() is not None):
            built = job["text"] = _BUILDER.submit(highlight_text, frame)
        return built


def kept_highlight(frame: pd.DataFrame, query: str) -> np.ndarray:
    """`highlight_mask` of a frame that is never changed in place (the app's `papers_frame`), its text and the rows of
    its last `KEPT_QUERIES` queries kept with the frame object (`core.frames.derived`): a year step or a page run with
    a highlight on, or a query typed again, reads the rows instead of matching every paper's text again (0.5 s at 1M
    papers, BENCHMARKS §31v). The array is read-only (shared by every run that asks). The text is built once, by
    `warm_highlight`'s thread (started here if the page did not)."""
    needle = (query or "").strip().replace(_SEP, "").casefold()
    if not needle:
        return np.zeros(len(frame), dtype=bool)
    kept: OrderedDict[str, np.ndarray] = derived(frame, "highlight_rows", lambda _f: OrderedDict())
    with _KEPT_LOCK:
        rows = kept.get(needle)
        if rows is not None:
            kept.move_to_end(needle)
            return rows
    rows = highlight_mask(frame, needle, _text_job(frame).result())
    rows.flags.writeable = False
    with _KEPT_LOCK:
        kept[needle] = rows
        while len(kept) > KEPT_QUERIES:
            kept.popitem(last=False)
    return rows


def _cells(values: pd.Series) -> pa.Array:
    """One column's cells as text, missing as null."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.compute as pc

    if values.dtype == object:  # lists (authors, MeSH) and mixed cells: one text per cell; NaN/NA/None missing
        array = pa.array([v if isinstance(v, str) else None if _missing(v) else str(v) for v in values],
                         pa.large_string())
    elif isinstance(values.dtype, pd.StringDtype) or pd.api.types.is_integer_dtype(values.dtype):
        array = pc.cast(pa.array(values, from_pandas=True), pa.large_string())  # an integer reads as str() gives it
    else:  # floats ("2020.0"), booleans ("True"), dates: as pandas writes them
        array = pa.array(values.astype("string"), from_pandas=True).cast(pa.large_string())
    return array.combine_chunks() if isinstance(array, pa.ChunkedArray) else array


def _missing(value: object) -> bool:
    """None, NaN, pd.NA, NaT: a missing cell, never the text "nan" (a paper without authors found by "nan")."""
    import pandas as pd

    return value is None or (isinstance(value, (float, type(pd.NA), type(pd.NaT))) and bool(pd.isna(value)))


def _casefold(text: pa.Array) -> pa.Array:
    """`str.casefold` of every row: pyarrow's `utf8_lower` gives the same text but for a few hundred characters
    (ß, ſ, ς, ligatures, Cherokee, İ, characters newer than Python's Unicode; `_unlike_lower`), and the rows that
    hold one are case-folded by Python."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pc.all(pc.string_is_ascii(text)).as_py() is not False:
        return pc.ascii_lower(text)
    lowered = pc.utf8_lower(text)
    odd = pc.match_substring_regex(text, _unlike_lower())
    if not pc.any(odd).as_py():
        return lowered
    folded = [row.casefold() for row in pc.filter(text, odd).to_pylist()]
    return pc.replace_with_mask(lowered, odd, pa.array(folded, pa.large_string()))


@functools.lru_cache(maxsize=1)
def _unlike_lower() -> str:
    """A regular expression (RE2) of the characters whose `str.casefold` is not pyarrow's `utf8_lower` (both map each
    character alone, so a text holding none of them folds the same either way): computed once per process."""
    import pyarrow as pa
    import pyarrow.compute as pc

    chars = "".join(chr(c) for c in range(0x80, 0x110000) if not 0xD800 <= c < 0xE000)
    lowered = pc.utf8_lower(pa.array([chars]))[0].as_py()
    if len(lowered) == len(chars):
        unlike = [c for c, low in zip(chars, lowered) if c.casefold() != low]
    else:  # one character lowered to several: compare each alone
        lows = pc.utf8_lower(pa.array(list(chars))).to_pylist()
        unlike = [c for c, low in zip(chars, lows) if c.casefold() != low]
    return "[" + "".join(f"\\x{{{ord(c):X}}}" for c in unlike) + "]" if unlike else r"[^\s\S]"
