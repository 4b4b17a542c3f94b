"""A corpus's papers frame kept in the workspace as one Arrow IPC file per corpus version (`Store.papers_frame`).

Building the frame from the catalog's rows costs a fresh process ~6 s at 1M papers on an idle machine (the rows, their
JSON fields, the journal identities; BENCHMARKS §31q, §31z); reading the file it was saved to costs a fraction of a
second: text columns come zero-copy from the memory map. The file is named by the corpus version and a digest of
everything else the frame depends on (`frame_key`), so it is never stale: a new version is a new file. Columns Arrow
cannot hold as pandas had them (lists, mixed types) are kept as JSON text and parsed back in one call.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from core.store.files import atomic_file, atomic_write_text

FORMAT = 1  # bump when the frame's columns are built differently: older files are then never read
_JSON_COLUMNS = b"miread_json_columns"  # schema metadata: the columns stored as JSON text


def frame_key(*parts: Any) -> str:
    """A 16-hex digest of what a frame depends on besides the corpus version (journal field, aliases, options)."""
    import pandas as pd

    text = json.dumps([FORMAT, pd.__version__.split(".")[0], *parts], sort_keys=True, default=str)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def _plain(series: Any) -> bool:
    """Whether Arrow holds this column and gives it back with the same dtype (text, numbers, booleans)."""
    import pandas as pd

    dtype = series.dtype
    return isinstance(dtype, pd.StringDtype) or dtype.kind in "biuf"


def save_frame(frame: Any, path: Path) -> None:
    """Write `frame` to `path` atomically (a temporary file in the same folder, then rename)."""
    import pyarrow as pa

    columns, json_columns = {}, []
    for name in frame.columns:
        series = frame[name]
        if _plain(series):
            columns[name] = pa.array(series, from_pandas=True)
        else:  # lists, dicts, mixed values: JSON text (NaN for a missing field, as pandas had it)
            columns[name] = pa.array([json.dumps(v, allow_nan=True) for v in series.tolist()], type=pa.large_string())
            json_columns.append(name)
    table = pa.table(columns, metadata={_JSON_COLUMNS: json.dumps(json_columns)})
    with atomic_file(path) as handle, pa.ipc.new_file(handle, table.schema) as writer:
        writer.write_table(table)


def load_frame(path: Path, rows: int) -> Any | None:
    """The frame saved at `path`, or None when there is none or it is not a whole frame of `rows` papers."""
    import pandas as pd
    import pyarrow as pa

    try:
        with pa.memory_map(str(path)) as source:
            table = pa.ipc.open_file(source).read_all()
    except (OSError, pa.ArrowInvalid):
        return None
    if table.num_rows != rows:
        return None
    json_columns = set(json.loads((table.schema.metadata or {}).get(_JSON_COLUMNS, b"[]")))
    text = pd.Series(["a"]).dtype  # the dtype pandas gives text (Arrow-backed "str" by default)
    out: dict[str, Any] = {}
    for name, column in zip(table.column_names, table.columns):
        if name in json_columns:
            values = json.loads("[" + ",".join(column.to_pylist()) + "]")
            out[name] = pd.Series(values, dtype=object if values else None)
        elif pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
            out[name] = pd.Series(column, dtype=text)
        else:
            out[name] = pd.Series(column.to_numpy())
    if not out:
        return pd.DataFrame(columns=["id", "title"])
    return pd.DataFrame(out)


def save_journals(identities: Any, path: Path) -> None:
    """Write a corpus's journal identities without the per-paper names (the spellings, ISSNs, counts, keys: one
    entry a journal) as JSON, atomically: a caption or the Journals page of a fresh process reads them, not the
    catalog (10 s at 1M papers under load, BENCHMARKS §31z)."""
    from dataclasses import asdict

    data = {k: v for k, v in asdict(identities).items() if k != "names"}
    atomic_write_text(path, json.dumps(data, ensure_ascii=False))


def load_journals(path: Path) -> Any | None:
    """`save_journals`'s identities (their `names` empty), or None when there is no readable file."""
    from core.journal_identity import JournalIdentities

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return JournalIdentities(**data)
    except (OSError, ValueError, TypeError):
        return None
