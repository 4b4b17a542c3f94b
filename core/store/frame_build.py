"""A corpus's papers as one pandas DataFrame, built a column at a time from the catalog's rows (`Store.papers_frame`).

At 1M papers, a dict per paper handed to `DataFrame.from_records` and one `json.loads` call per paper cost 16–29 s
(BENCHMARKS §31m); here the fields are parsed in one call and each column is one list (§31p)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any

_FIXED = ("id", "title", "abstract")  # columns of their own in the catalog; a field of that name is not read
_ABSENT = float("nan")  # a field a paper lacks, as `DataFrame.from_records` gave it


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
            columns[key] = [names[p] if p in names else f.get(key, _ABSENT) for p, f in zip(pids, fields)]
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
