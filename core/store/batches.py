"""Adding one batch of imported papers to the papers table, with duplicates merged and id conflicts kept apart.

Fast path: a batch whose ids, normalised texts and match keys (`core.store.identity`: DOI, PMID, PMCID, arXiv id,
WoS UT, Scopus EID, title key) repeat nothing (the common case) is inserted as it is, inside a savepoint; the table's
unique indexes on (corpus, pid) and (corpus, dkey) say whether anything collided with a paper already stored, and one
probe of ``paper_keys`` whether a key did (in a corpus that was empty when the import began, the hashes of the keys
it stored answer that in memory: `StoredKeys`). Only then (or when a text holds lone surrogates) is the savepoint rolled
back and the batch redone row by row: a duplicate (same normalised title and abstract, or one paper by the rules of
`core.store.identity`) is merged into the paper it duplicates (`core.store.merging`: the first record stays, the later
one fills what it lacked, and the later record itself is kept in ``merged_records`` so the merge can be undone); an
id taken by different text becomes ``<id>~<row>`` and is reported; records that share a strong id but are different
papers are both kept and reported. Both paths give the same table. Every paper keeps the import and row it came from
(``papers.import_id``, ``papers.srow``).
"""

from __future__ import annotations

import json
import sqlite3
from array import array
from collections.abc import Callable, Iterable
from typing import Any

import orjson

from core.records import Paper, duplicate_key, scrub, text_hash
from core.store.field_stats import FieldTally
from core.store.generic_titles import apart_key, generic_title, strong_ids_differ, text_key
from core.store.identity import match_keys, same_paper
from core.store.links import take_references
from core.store.merging import TEXT_RULE, apply_merges, doi_key

_INSERT = ("INSERT INTO papers(corpus, pid, seq, title, abstract, fields, hash, dkey, doi, import_id, srow) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
_INSERT_KEY = "INSERT INTO paper_keys(corpus, key, seq) VALUES (?, ?, ?)"


_KEYS_HELD = 250_000  # match-key hashes `StoredKeys` holds at most (~15 MB); past that SQLite answers


class StoredKeys:
    """The hashes of the match keys an import stored in a corpus that held no paper when it began: while every key
    of the corpus is among them, the fast path knows a batch's keys are new without probing ``paper_keys`` (a hash
    found here may be a collision: then SQLite is asked). Past `_KEYS_HELD` hashes it stops holding them."""

    def __init__(self) -> None:
        self.hashes: set[int] | None = set()

    def add(self, keys: list[str]) -> None:
        """Hold the hashes of keys just stored (as stored: scrubbed)."""
        if self.hashes is not None:
            self.hashes.update(map(hash, keys))
            if len(self.hashes) > _KEYS_HELD:
                self.hashes = None

    def new(self, keys: list[str]) -> bool:
        """True when none of `keys` (as stored: scrubbed) can be in ``paper_keys`` (False: ask SQLite)."""
        return self.hashes is not None and self.hashes.isdisjoint(map(hash, keys))


def _scrubbed(key: str) -> str:
    return key if key.isascii() else scrub(key)  # ASCII text holds no lone surrogate: the common case, no copy


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
    malformed references, id, title, abstract, fields as JSON, text hash, duplicate key, DOI key, match keys
    (`core.store.identity.match_keys`)). NaN/inf in the fields
    become null (SQLite's JSON has no NaN). A reading process may compute it for the importer (core.io.background).
    The fields are written by orjson (8x the standard library's speed; compact, the same values once parsed)."""
    had, refs, bad = take_references(record.fields)
    try:
        fields = orjson.dumps(record.fields, default=_json_default, option=orjson.OPT_PASSTHROUGH_DATETIME).decode()
    except orjson.JSONEncodeError:  # lone surrogates, ints past 64 bits, non-text keys: the standard library's way
        fields = _fields_json(record.fields)
    return (had, refs, bad, record.id, record.title, record.abstract, fields, record.hash,
            text_key(record.title, record.abstract, record.fields, record.id), doi_key(record.fields),
            match_keys(record.title, record.fields, record.id))


def _scrubbed_row(row: tuple) -> tuple:
    """A row whose text had lone surrogates (e.g. from JSON escapes), with them replaced by U+FFFD."""
    corpus, pid, seq, title, abstract, fields = row[:6]
    pid, title, abstract, fields, doi = (scrub(v) for v in (pid, title, abstract, fields, row[8]))
    key = duplicate_key(title, abstract) if abstract and abstract.strip() else row[7]
    return (corpus, pid, seq, title, abstract, fields, text_hash(title, abstract), key, doi,
            *row[9:])  # import id and source row


def _keys_of(prepared: list[tuple[int, tuple]]) -> list[str]:
    return [key for _, v in prepared for key in v[9]]


def _insert_keys(conn: sqlite3.Connection, table: list[tuple[str, str, int]], stored: StoredKeys | None,
                 keys: list[str] | None = None) -> None:
    """Store match-key rows (corpus, key as stored, seq); ``keys``: their keys in order, where the caller has them."""
    conn.executemany(_INSERT_KEY, table)
    if stored is not None:
        stored.add([key for _, key, _ in table] if keys is None else keys)


def _key_rows(corpus: str, pairs: Iterable[tuple[Iterable[str], int]]) -> list[tuple[str, str, int]]:
    """The ``paper_keys`` rows of (keys, seq) pairs, each key scrubbed as stored."""
    return [(corpus, _scrubbed(key), seq) for keys, seq in pairs for key in keys]


def _fast(conn: sqlite3.Connection, corpus: str, prepared: list[tuple[int, tuple]], first: int, rows: array,
          tally: FieldTally | None, import_id: int | None, stored: StoredKeys | None) -> bool:
    """Insert a batch that collides with nothing as it is; False (and nothing kept) if anything collides."""
    if len({v[1] for _, v in prepared}) < len(prepared) or len({v[7] for _, v in prepared}) < len(prepared):
        return False
    keys = _keys_of(prepared)
    if len(set(keys)) < len(keys):
        return False
    seq = first + len(rows)
    clean = "".join(keys).isascii()  # ASCII keys hold no lone surrogate: as stored already (one test a batch)
    if not clean:
        keys = [_scrubbed(k) for k in keys]  # as stored
    if keys and seq and not (stored is not None and stored.new(keys)) and conn.execute(  # seq 0: no paper yet
            "SELECT 1 FROM paper_keys WHERE corpus = ? AND key IN (SELECT value FROM json_each(?)) LIMIT 1",
            (corpus, json.dumps(keys))).fetchone():
        return False
    conn.execute("SAVEPOINT batch")
    try:
        conn.executemany(_INSERT, [(v[0], v[1], seq + i, v[3], v[4], v[5], v[6], v[7], v[8], import_id, row)
                                   for i, (row, v) in enumerate(prepared)])  # one tuple a row, no slices joined
    except (sqlite3.IntegrityError, UnicodeEncodeError):
        conn.execute("ROLLBACK TO batch")
        conn.execute("RELEASE batch")
        return False
    conn.execute("RELEASE batch")
    if clean:  # ASCII keys: the rows without a call a key (BENCHMARKS.md §25g)
        _insert_keys(conn, [(corpus, key, seq + i) for i, (_, v) in enumerate(prepared) for key in v[9]], stored, keys)
    else:
        _insert_keys(conn, _key_rows(corpus, ((v[9], seq + i) for i, (_, v) in enumerate(prepared))), stored, keys)
    rows.extend([row for row, _ in prepared])
    if tally is not None:
        tally.add([v[5] for _, v in prepared])
    return True


class _Known:
    """The papers a batch's records may be one of: title, fields and match keys by seq (stored or added here)."""

    def __init__(self, conn: sqlite3.Connection, corpus: str, by_key: dict[str, list[int]]):
        self.conn, self.corpus, self.by_key = conn, corpus, by_key
        self.papers: dict[int, list[Any]] = {}  # seq -> [title, fields dict, keys set, pid]

    def load(self, seqs: set[int]) -> None:
        """Fetch the stored papers among `seqs` not known yet; their keys are those they were found by and those
        their own title and fields give."""
        missing = sorted(s for s in seqs if s not in self.papers)
        found: dict[int, set[str]] = {}
        for key, held in self.by_key.items():
            for seq in held:
                found.setdefault(seq, set()).add(key)
        for start in range(0, len(missing), 500):
            part = missing[start:start + 500]
            marks = ",".join("?" * len(part))
            for seq, title, fields, pid in self.conn.execute(
                    f"SELECT seq, title, fields, pid FROM papers WHERE corpus = ? AND seq IN ({marks})",
                    (self.corpus, *part)):
                parsed = json.loads(fields or "{}")
                self.papers[seq] = [title, parsed, set(match_keys(title, parsed, pid)) | found.get(seq, set()), pid]

    def candidates(self, keys: Iterable[str]) -> list[int]:
        return sorted({seq for key in keys for seq in self.by_key.get(key, ())})

    def add(self, seq: int, keys: Iterable[str], title: str | None = None, fields: str | None = None,
            pid: str | None = None) -> None:
        """A paper answers to `keys` (new, or a record merged into it)."""
        for key in keys:
            held = self.by_key.setdefault(key, [])
            if seq not in held:
                held.append(seq)
        if title is not None:
            self.papers[seq] = [title, json.loads(fields or "{}"), set(keys), pid]
        elif seq in self.papers:
            self.papers[seq][2].update(keys)


def _careful(conn: sqlite3.Connection, corpus: str, prepared: list[tuple[int, tuple]], first: int, rows: array,
             conflicts: list[dict[str, Any]], merges: list[tuple[int, int, str, tuple]],
             shown: Callable[[int], int]) -> list[tuple]:
    """The rows of a batch that are new papers, checked against the stored ids, keys and match keys one by one;
    the duplicates go to ``merges`` as (row, seq of the paper they duplicate, the rule, row values); a conflict
    names rows as ``shown`` gives them (a spreadsheet's rows for CSV/TSV/xlsx)."""
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
    by_key: dict[str, list[int]] = {}
    for key, seq in conn.execute(
            "SELECT key, seq FROM paper_keys WHERE corpus = ? AND key IN (SELECT value FROM json_each(?))",
            (corpus, json.dumps(sorted({scrub(k) for k in _keys_of(prepared)})))):
        by_key.setdefault(key, []).append(seq)
    known = _Known(conn, corpus, by_key)
    known.load({seq for seqs in by_key.values() for seq in seqs})
    out: list[tuple] = []
    seq = first + len(rows)
    for row, values in prepared:
        held, how = taken_keys.get(values[7]), TEXT_RULE
        if held is not None and generic_title(values[3]):  # "Editorial", "Series Preface": the DOIs decide
            known.load({held})
            held_keys = set(known.papers[held][2]) if held in known.papers else set()
            held_keys.update(key for (key,) in conn.execute(  # a PMID or UT read from the id column is kept here
                "SELECT key FROM paper_keys WHERE corpus = ? AND seq = ?", (corpus, held)))
            if strong_ids_differ(values[9], held_keys):
                values = values[:7] + (apart_key(values[3], values[4], values[9]),) + values[8:]
                held = taken_keys.get(values[7])
                if held is None:
                    held = taken_keys[values[7]] = lookup("dkey", [values[7]]).get(values[7])
        if held is None:
            fields: dict[str, Any] | None = None
            for candidate in known.candidates(values[9]):
                title, cfields, ckeys, cpid = known.papers[candidate]
                fields = json.loads(values[5] or "{}") if fields is None else fields
                rule, why = same_paper(values[3], fields, values[9], title, cfields, ckeys)
                if rule:
                    held, how = candidate, rule
                    break
                if why:
                    conflicts.append({
                        "row": shown(row), "id": values[1], "kept_as": values[1], "other": cpid,
                        "kind": "shared id", "reason": f"row {shown(row)}: {why}: '{_short(values[3])}' and "
                                                       f"paper '{cpid}' ('{_short(title)}'): both kept"})
        if held is not None:
            merges.append((row, held, how, values))
            known.add(held, values[9])
            continue
        pid = scrub(values[1])
        holder = taken_ids.get(pid)
        if holder is not None:
            new_id, n = f"{pid}~{row}", 2
            while new_id in taken_ids or lookup("pid", [new_id]):
                new_id, n = f"{pid}~{row}~{n}", n + 1
            where = (f"is also the id of row {shown(rows[holder - first])}" if holder >= first
                     else f"is already the id of another paper in corpus '{corpus}'")
            conflicts.append({
                "row": shown(row), "id": pid, "kept_as": new_id,
                "reason": f"row {shown(row)}: id '{pid}' {where}, but the title and abstract differ: "
                          f"kept as a separate paper with id '{new_id}'",
            })
            values = values[:1] + (new_id,) + values[2:]
            pid = new_id
        values = values[:2] + (seq,) + values[3:]
        taken_keys[values[7]] = taken_ids[pid] = seq
        known.add(seq, values[9], values[3], values[5], pid)
        rows.append(row)
        out.append((row, values))
        seq += 1
    return out


def _short(text: str, n: int = 80) -> str:
    text = " ".join(str(text or "").split())
    return text if len(text) <= n else text[:n - 1] + "…"


def _insert(conn: sqlite3.Connection, corpus: str, batch: list[tuple[int, tuple]], import_id: int | None,
            stored: StoredKeys | None) -> int:
    """Insert the new papers of a careful batch and their match keys; how many papers went in."""
    sql = _INSERT.replace("INSERT", "INSERT OR IGNORE", 1)
    if not batch:
        return 0
    before = conn.total_changes
    table = [v[:9] + (import_id, row) for row, v in batch]
    try:
        conn.executemany(sql, table)
    except UnicodeEncodeError:  # rows before the bad one are in; re-inserting them is ignored
        conn.executemany(sql, [_scrubbed_row(v) for v in table])
    inserted = conn.total_changes - before
    _insert_keys(conn, _key_rows(corpus, ((v[9], v[2]) for _, v in batch)), stored)
    return inserted


def _itself(row: int) -> int:
    return row


def add_batch(conn: sqlite3.Connection, corpus: str, prepared: list[tuple[int, tuple]], first: int, rows: array,
              conflicts: list[dict[str, Any]], tally: FieldTally | None = None,
              merged: list[tuple[int, int, str, str, str]] | None = None, merging: dict[str, Any] | None = None,
              import_id: int | None = None, stored: StoredKeys | None = None,
              shown: Callable[[int], int] | None = None) -> int:
    """Add a batch of (source row, papers-table row) pairs and return how many papers were added: new papers get
    the next seq numbers, their source rows are appended to ``rows``; duplicates are merged into the papers they
    duplicate (`core.store.merging`) and listed in ``merged`` as (row, seq of that paper, the rule, the row's id,
    that paper's id); id conflicts and records sharing a strong id with another paper are appended to
    ``conflicts``; ``tally`` counts the added papers' fields. ``merging`` gathers what the merges did: "filled"
    (seqs of papers that took a field or an abstract) and "redirect" (duplicate keys of merged records -> the key
    of the paper they became, for the import's links). ``import_id`` is stored with each paper and merged record
    (its provenance). ``stored``: the keys this import stored, when the corpus held no paper before it (the
    transaction's one `StoredKeys`). ``shown``: the row a message names for a record number (default itself).
    (SQLite's change count also counts inserts a savepoint rolled back.)"""
    if not prepared:
        return 0
    if _fast(conn, corpus, prepared, first, rows, tally, import_id, stored):
        return len(prepared)
    merges: list[tuple[int, int, str, tuple]] = []
    added = _careful(conn, corpus, prepared, first, rows, conflicts, merges, shown or _itself)
    inserted = _insert(conn, corpus, added, import_id, stored)
    if tally is not None:
        tally.add(v[5] for _, v in added)
    done = apply_merges(conn, corpus, merges, import_id)
    if merged is not None:
        merged.extend((*m[:3], m[3][1], kept) for m, kept in zip(merges, done["kept"], strict=True))
    if merging is not None:
        merging.setdefault("filled", set()).update(done["filled"])
        merging.setdefault("redirect", {}).update(done["redirect"])
    return inserted
