"""Adding one batch of imported papers to the papers table, with duplicates merged and id conflicts kept apart.

Fast path: a batch whose ids and normalised texts repeat nothing (the common case) is inserted as it is, inside a
savepoint; the table's unique indexes on (corpus, pid) and (corpus, dkey) say whether anything collided with a
paper already stored. Only then (or when a text holds lone surrogates) is the savepoint rolled back and the batch
redone row by row against the stored ids, keys and DOIs: a duplicate (same duplicate key, or same DOI) is merged
into the paper it duplicates (`core.store.merging`: the first record stays, the later one fills what it lacked), an
id taken by different text becomes ``<id>~<row>`` and is reported. Both paths give the same table. The DOI index is
not unique (workspaces made before it may hold two papers with one DOI), so the fast path asks it directly.
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
from core.store.merging import apply_merges, doi_key

_INSERT = ("INSERT INTO papers(corpus, pid, seq, title, abstract, fields, hash, dkey, doi) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")


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
    malformed references, id, title, abstract, fields as JSON, text hash, duplicate key, DOI key). NaN/inf in the fields
    become null (SQLite's JSON has no NaN). A reading process may compute it for the importer (core.io.background).
    The fields are written by orjson (8x the standard library's speed; compact, the same values once parsed)."""
    had, refs, bad = take_references(record.fields)
    try:
        fields = orjson.dumps(record.fields, default=_json_default, option=orjson.OPT_PASSTHROUGH_DATETIME).decode()
    except orjson.JSONEncodeError:  # lone surrogates, ints past 64 bits, non-text keys: the standard library's way
        fields = _fields_json(record.fields)
    return (had, refs, bad, record.id, record.title, record.abstract, fields, record.hash,
            duplicate_key(record.title, record.abstract), doi_key(record.fields))


def _scrubbed_row(row: tuple) -> tuple:
    """A row whose text had lone surrogates (e.g. from JSON escapes), with them replaced by U+FFFD."""
    corpus, pid, seq, title, abstract, fields = row[:6]
    pid, title, abstract, fields, doi = (scrub(v) for v in (pid, title, abstract, fields, row[8]))
    return (corpus, pid, seq, title, abstract, fields, text_hash(title, abstract), duplicate_key(title, abstract), doi)


def _fast(conn: sqlite3.Connection, corpus: str, prepared: list[tuple[int, tuple]], first: int, rows: array,
          tally: FieldTally | None) -> bool:
    """Insert a batch that collides with nothing as it is; False (and nothing kept) if anything collides."""
    if len({v[1] for _, v in prepared}) < len(prepared) or len({v[7] for _, v in prepared}) < len(prepared):
        return False
    dois = [v[8] for _, v in prepared if v[8] is not None]
    if len(set(dois)) < len(dois):
        return False
    seq = first + len(rows)
    if dois and seq and conn.execute(  # seq 0: the corpus holds no paper yet
            "SELECT 1 FROM papers WHERE corpus = ? AND doi IN (SELECT value FROM json_each(?)) LIMIT 1",
            (corpus, json.dumps(dois))).fetchone():
        return False
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
             conflicts: list[dict[str, Any]], merges: list[tuple[int, int, str, tuple]]) -> list[tuple]:
    """The rows of a batch that are new papers, checked against the stored ids, keys and DOIs one by one; the
    duplicates go to ``merges`` as (row, seq of the paper they duplicate, "text" or "doi", row values)."""
    def lookup(column: str, values: Iterable[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        for value, seq in conn.execute(  # no ORDER BY: the planner would walk the seq index, not this column's
                f"SELECT {column}, seq FROM papers WHERE corpus = ? AND {column} IN (SELECT value FROM json_each(?))",
                (corpus, json.dumps(sorted({scrub(v) for v in values})))):
            if seq < found.get(value, seq + 1):  # the earliest paper when several share a value (an old corpus)
                found[value] = seq
        return found

    taken_keys = lookup("dkey", (values[7] for _, values in prepared))
    taken_ids = lookup("pid", (values[1] for _, values in prepared))
    taken_dois = lookup("doi", (values[8] for _, values in prepared if values[8] is not None))
    out: list[tuple] = []
    seq = first + len(rows)
    for row, values in prepared:
        doi = values[8]
        held, how = taken_keys.get(values[7]), "text"
        if held is None and doi is not None:
            held, how = taken_dois.get(doi), "doi"
        if held is not None:
            merges.append((row, held, how, values))
            if doi is not None:
                taken_dois.setdefault(doi, held)
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
        if doi is not None:
            taken_dois[doi] = seq
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
              conflicts: list[dict[str, Any]], tally: FieldTally | None = None,
              merged: list[tuple[int, int, str, str, str]] | None = None, merging: dict[str, Any] | None = None) -> int:
    """Add a batch of (source row, papers-table row) pairs and return how many papers were added: new papers get
    the next seq numbers, their source rows are appended to ``rows``; duplicates are merged into the papers they
    duplicate (`core.store.merging`) and listed in ``merged`` as (row, seq of that paper, "text" or "doi", the
    row's id, that paper's id); id
    conflicts are appended to ``conflicts``; ``tally`` counts the added papers' fields. ``merging`` gathers what
    the merges did: "filled" (seqs of papers that took a field or an abstract) and "redirect" (duplicate keys of
    merged records -> the key of the paper they became, for the import's links). (SQLite's change count also
    counts inserts a savepoint rolled back.)"""
    if not prepared:
        return 0
    if _fast(conn, corpus, prepared, first, rows, tally):
        return len(prepared)
    merges: list[tuple[int, int, str, tuple]] = []
    added = _careful(conn, corpus, prepared, first, rows, conflicts, merges)
    before = conn.total_changes
    _insert(conn, added)
    inserted = conn.total_changes - before
    if tally is not None:
        tally.add(v[5] for v in added)
    done = apply_merges(conn, corpus, merges)
    if merged is not None:
        merged.extend((*m[:3], m[3][1], kept) for m, kept in zip(merges, done["kept"], strict=True))
    if merging is not None:
        merging.setdefault("filled", set()).update(done["filled"])
        merging.setdefault("redirect", {}).update(done["redirect"])
    return inserted
