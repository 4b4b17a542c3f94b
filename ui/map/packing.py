"""The heavy map instance's data as one bytes object: a 4-byte little-endian length, that many bytes of JSON meta,
then the points as an Arrow IPC stream (read by `unpack` in frontend/map/src/index.js).

Given a dict holding an Arrow table, Streamlit serializes the table to IPC bytes and hashes them on every page run,
even when the browser already has them (54 ms at 50,000 papers, about 1 s at 1M; BENCHMARKS §31a). Bytes packed once
per map and meta are sent as they are."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pyarrow as pa

from core.store.files import atomic_file


def stream(table: pa.Table) -> bytes:
    """`table` as an Arrow IPC stream, without pandas' schema metadata (what `pack` puts after the meta)."""
    sink = pa.BufferOutputStream()
    table = table.replace_schema_metadata(None)
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


def pack(meta: dict[str, Any], table: pa.Table | bytes | None) -> bytes:
    """`meta` (JSON) and `table` (Arrow IPC, without pandas' schema metadata; bytes: a `stream` made before) in one
    buffer (None: the meta alone)."""
    head = json.dumps(meta, separators=(",", ":"), sort_keys=True).encode("utf-8")
    if table is None:
        return struct.pack("<I", len(head)) + head
    body = table if isinstance(table, bytes) else stream(table)
    return struct.pack("<I", len(head)) + head + body


def save_streams(path: Path, parts: tuple[bytes, ...]) -> None:
    """Write IPC streams to one file atomically: each part's 8-byte length, then the part (`load_streams`)."""
    with atomic_file(path) as handle:
        for part in parts:
            handle.write(struct.pack("<Q", len(part)))
            handle.write(part)


def load_streams(path: Path, count: int) -> tuple[bytes, ...] | None:
    """The `count` parts `save_streams` wrote to `path`, or None when the file is missing or not whole."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    parts, at = [], 0
    for _ in range(count):
        if at + 8 > len(data):
            return None
        (size,) = struct.unpack_from("<Q", data, at)
        if at + 8 + size > len(data):
            return None
        parts.append(data[at + 8:at + 8 + size])
        at += 8 + size
    return tuple(parts) if at == len(data) else None


def unpack(data: bytes) -> tuple[dict[str, Any], pa.Table | None]:
    """`pack`'s meta and table (None: the meta alone; the tests read what the browser was sent)."""
    (length,) = struct.unpack_from("<I", data)
    meta = json.loads(data[4:4 + length].decode("utf-8"))
    if len(data) == 4 + length:
        return meta, None
    return meta, pa.ipc.open_stream(pa.py_buffer(data[4 + length:])).read_all()
