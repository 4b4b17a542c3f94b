"""Adding one batch of imported papers to the papers table, with duplicates merged and id conflicts kept apart.

Fast path: a batch whose ids and normalised texts repeat nothing (the common case) is inserted as it is, inside a
savepoint; the table's unique indexes on (corpus, pid) and (corpus, dkey) say whether anything collided with a
paper already stored. Only then (or when a text holds lone surrogates) is the savepoint rolled back and the batch
redone row by row against the stored ids and keys: a duplicate is left out, an id taken by different text becomes
``<id>~<row>`` and is reported. Both paths give the same table.
"""

from __future__ import annotations

import json
import sqlite3
from array import array
from collections.abc import Iterable
from typing import Any

import orjson

from core.records import Paper, duplicate_key, scrub, text_hash
from core.store.field_stats import FieldTally
from core.store.links import take_references

_INSERT = ("INSERT INTO papers(corpus, pid, seq, title, abstract, fields, hash, dkey) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")


_FIELDS_JSON = json.JSONEncoder(ensure_ascii=False, default=str, allow_nan=False).encode  # built once, not per row


def _json_default(value: Any) -> Any:
    """What orjson cannot write, as the standard library's encoder (default=str) writes it: float subclasses
    (numpy's) as numbers, anything else (dates, numpy ints) as its text."""
    return float(value) if isinstance(value, float) else str(value)


def _fields_json(fields: dict[str, Any]) -> str:
    """A paper's fields as JSON with the standard library (NaN/inf -> null)."""
    try:
        return _FIELDS_JSON(fields)
    except ValueError:
        return json.dumps(scrub(fields), ensure_ascii=False, default=str)


def stored_form(record: Paper) -> tuple:
    """What the importer keeps of a paper, computed from the paper alone: (had a reference field, references,
    malformed references, id, title, abstract, fields as JSON, text hash, duplicate key). NaN/inf in the fields
    become null (SQLite's JSON has no NaN). A reading process may compute it for the importer (core.io.background).
    The fields are written by orjson (8x the standard library's speed; compact, the same values once parsed)."""
    had, refs, bad = take_references(record.fields)
    try:
        fields = orjson.dumps(record.fields, default=_json_default, option=orjson.OPT_PASSTHROUGH_DATETIME).decode()
    except orjson.JSONEncodeError:  # lone surrogates, ints past 64 bits, non-text keys: the standard library's way
        fields = _fields_json(record.fields)
    return (had, refs, bad, record.id, record.title, record.abstract, fields, record.hash,
            duplicate_key(record.title, record.abstract))


def _scrubbed_row(row: tuple) -> tuple:
    """A row whose text had lone surrogates (e.g. from JSON escapes), with them replaced by U+FFFD."""
    corpus, pid, seq, title, abstract, fields = row[:6]
    pid, title, abstract, fields = (scrub(v) for v in (pid, title, abstract, fields))
    return (corpus, pid, seq, title, abstract, fields, text_hash(title, abstract), duplicate_key(title, abstract))


def _fast(conn: sqlite3.Connection, prepared: list[tuple[int, tuple]], first: int, rows: array,
          tally: FieldTally | None) -> bool:
    """Insert a batch that collides with nothing as it is; False (and nothing kept) if anything collides."""
    if len({v[1] for _, v in prepared}) < len(prepared) or len({v[7] for _, v in prepared}) < len(prepared):
        return False
    seq = first + len(rows)
    conn.execute("SAVEPOINT batch")
    try:
        conn.executemany(_INSERT, [v[:2] + (seq + i,) + v[3:] for i, (_, v) in enumerate(prepared)])
    except (sqlite3.IntegrityError, UnicodeEncodeError):
        conn.execute("ROLLBACK TO batch")
        conn.execute("RELEASE batch")
        return False
    conn.execute("RELEASE batch")
    rows.extend(row for row, _ in prepared)
    if tally is not None:
        tally.add(v[5] for _, v in prepared)
    return True


def _careful(conn: sqlite3.Connection, corpus: str, prepared: list[tuple[int, tuple]], first: int, rows: array,
             conflicts: list[dict[str, Any]]) -> list[tuple]:
    """The rows of a batch that are new papers, checked against the stored ids and keys one by one."""
    def lookup(column: str, values: Iterable[str]) -> dict[str, int]:
        return dict(conn.execute(
            f"SELECT {column}, seq FROM papers WHERE corpus = ? AND {column} IN (SELECT value FROM json_each(?))",
            (corpus, json.dumps(sorted({scrub(v) for v in values}))),
        ).fetchall())

    taken_keys = lookup("dkey", (values[7] for _, values in prepared))
    taken_ids = lookup("pid", (values[1] for _, values in prepared))
    out: list[tuple] = []
    seq = first + len(rows)
    for row, values in prepared:
        if values[7] in taken_keys:
            continue
        pid = scrub(values[1])
        holder = taken_ids.get(pid)
        if holder is not None:
            new_id, n = f"{pid}~{row}", 2
            while new_id in taken_ids or lookup("pid", [new_id]):
                new_id, n = f"{pid}~{row}~{n}", n + 1
            where = (f"is also the id of row {rows[holder - first]}" if holder >= first
                     else f"is already the id of another paper in corpus '{corpus}'")
            conflicts.append({
                "row": row, "id": pid, "kept_as": new_id,
                "reason": f"row {row}: id '{pid}' {where}, but the title and abstract differ: "
                          f"kept as a separate paper with id '{new_id}'",
            })
            values = values[:1] + (new_id,) + values[2:]
            pid = new_id
        values = values[:2] + (seq,) + values[3:]
        taken_keys[values[7]] = taken_ids[pid] = seq
        rows.append(row)
        out.append(values)
        seq += 1
    return out


def _insert(conn: sqlite3.Connection, batch: list[tuple]) -> None:
    sql = _INSERT.replace("INSERT", "INSERT OR IGNORE", 1)
    if batch:
        try:
            conn.executemany(sql, batch)
        except UnicodeEncodeError:  # rows before the bad one are in; re-inserting them is ignored
            conn.executemany(sql, [_scrubbed_row(row) for row in batch])


def add_batch(conn: sqlite3.Connection, corpus: str, prepared: list[tuple[int, tuple]], first: int, rows: array,
              conflicts: list[dict[str, Any]], tally: FieldTally | None = None) -> int:
    """Add a batch of (source row, papers-table row) pairs and return how many papers were added: new papers get
    the next seq numbers, their source rows are appended to ``rows``; duplicates are left out; id conflicts are
    appended to ``conflicts``; ``tally`` counts the added papers' fields. (SQLite's change count also counts
    inserts a savepoint rolled back.)"""
    if not prepared:
        return 0
    if _fast(conn, prepared, first, rows, tally):
        return len(prepared)
    before = conn.total_changes
    added = _careful(conn, corpus, prepared, first, rows, conflicts)
    _insert(conn, added)
    if tally is not None:
        tally.add(v[5] for v in added)
    return conn.total_changes - before
