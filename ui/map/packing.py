"""The heavy map instance's data as one bytes object: a 4-byte little-endian length, that many bytes of JSON meta,
then the points as an Arrow IPC stream (read by `unpack` in frontend/map/src/index.js).

Given a dict holding an Arrow table, Streamlit serializes the table to IPC bytes and hashes them on every page run,
even when the browser already has them (54 ms at 50,000 papers, about 1 s at 1M; BENCHMARKS §31a). Bytes packed once
per map and meta are sent as they are."""

from __future__ import annotations

import json
import struct
from typing import Any

import pyarrow as pa


def pack(meta: dict[str, Any], table: pa.Table | None) -> bytes:
    """`meta` (JSON) and `table` (Arrow IPC, without pandas' schema metadata) in one buffer (None: the meta alone)."""
    head = json.dumps(meta, separators=(",", ":"), sort_keys=True).encode("utf-8")
    if table is None:
        return struct.pack("<I", len(head)) + head
    sink = pa.BufferOutputStream()
    table = table.replace_schema_metadata(None)
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return struct.pack("<I", len(head)) + head + sink.getvalue().to_pybytes()


def unpack(data: bytes) -> tuple[dict[str, Any], pa.Table | None]:
    """`pack`'s meta and table (None: the meta alone; the tests read what the browser was sent)."""
    (length,) = struct.unpack_from("<I", data)
    meta = json.loads(data[4:4 + length].decode("utf-8"))
    if len(data) == 4 + length:
        return meta, None
    return meta, pa.ipc.open_stream(pa.py_buffer(data[4 + length:])).read_all()
