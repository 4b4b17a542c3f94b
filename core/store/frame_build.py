"""A corpus's papers as one pandas DataFrame, built a column at a time from the catalog's rows (`Store.papers_frame`).

At 1M papers, a dict per paper handed to `DataFrame.from_records` and one `json.loads` call per paper cost 16–29 s
(BENCHMARKS §31m); here the fields are parsed in one call and each column is one list (§31p)."""

from __future__ import annotations

import gc
import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from itertools import chain, repeat
from typing import Any

_FIXED = ("id", "title", "abstract")  # columns of their own in the catalog; a field of that name is not read
_ABSENT = float("nan")  # a field a paper lacks, as `DataFrame.from_records` gave it
_UNNAMED = object()  # a paper the journal identities do not name
_GC_LOCK = threading.Lock()
_GC_HELD = [0, False]  # readers holding the collector off; whether it was on when the first of them came


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector held off while a corpus's papers are read: 1M papers allocate millions of
    rows, dicts and lists (none of them cyclic), and the full collections their count sets off cost as much as the
    read itself (BENCHMARKS §31q). Threads may overlap: the first in turns it off, the last out turns it back on if
    it was on."""
    with _GC_LOCK:
        if _GC_HELD[0] == 0:
            _GC_HELD[1] = gc.isenabled()
            gc.disable()
        _GC_HELD[0] += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _GC_HELD[0] -= 1
            if _GC_HELD[0] == 0 and _GC_HELD[1]:
                gc.enable()


def parse_fields(texts: Sequence[str | None]) -> list[dict[str, Any]]:
    """Each paper's stored fields (JSON objects; empty for none), parsed in one `json.loads` call."""
    if not texts:
        return []
    parsed = json.loads("[" + ",".join(text or "{}" for text in texts) + "]")
    if len(parsed) != len(texts) or not all(isinstance(p, dict) for p in parsed):  # a text that is no one object
        parsed = [json.loads(text or "{}") for text in texts]  # each alone: the malformed one raises as it did
    return parsed


def frame_of(pids: Sequence[str], titles: Sequence[Any], abstracts: Sequence[Any] | None,
             fields: Sequence[Mapping[str, Any]], journal: str | None = None,
             names: Mapping[str, str] | None = None) -> Any:
    """The papers' DataFrame: id, title, abstract (when given), then every field in the order the papers first
    show it; a field a paper lacks is NaN. `names`: the journal name to show for a paper id (its identity), in the
    `journal` column."""
    import pandas as pd

    if not len(pids):
        return pd.DataFrame(columns=["id", "title"])
    columns: dict[str, Any] = {"id": list(pids), "title": list(titles)}
    if abstracts is not None:
        columns["abstract"] = list(abstracts)
    keys = [k for k in dict.fromkeys(chain.from_iterable(fields)) if k not in _FIXED]
    names = names or {}
    if journal and names and journal not in keys:
        keys.append(journal)
    for key in keys:
        if key == journal and names:
            columns[key] = shown = list(map(names.get, pids, repeat(_UNNAMED)))  # one C loop: 1.4 -> 0.2 s at 1M
            for row in [row for row, name in enumerate(shown) if name is _UNNAMED]:  # no identity: as stored
                shown[row] = fields[row].get(key, _ABSENT)
        else:
            columns[key] = [f.get(key, _ABSENT) for f in fields]
    return pd.DataFrame({key: _column(values) for key, values in columns.items()})


def _column(values: list[Any]) -> Any:
    """One column as pandas would infer it from the list; a column of text (and missing values) is made through
    one Arrow array, 3-4× faster than pandas' inference at 1M titles (BENCHMARKS §31p)."""
    import pandas as pd
    import pyarrow as pa

    text = pd.Series(["a"]).dtype  # the dtype pandas gives text (Arrow-backed "str" by default)
    if isinstance(text, pd.StringDtype):
        try:
            array = pa.array(values, from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, OverflowError):
            array = None
        if array is not None and (pa.types.is_string(array.type) or pa.types.is_large_string(array.type)):
            return pd.Series(array, dtype=text)
    return pd.Series(values)
