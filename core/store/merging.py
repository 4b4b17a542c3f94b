"""Merging a duplicate into the paper it duplicates: what the merge keeps, and how it is undone.

Two records are one paper when their normalised title and abstract are equal (`core.records.duplicate_key`) or,
failing that, by the rules of `core.store.identity` (a strong id and agreeing titles; or the same title, year and
first author). Those catch what the text key misses: one paper exported by two databases (PubMed, Scopus, Web of
Science) often differs in its abstract (a copyright line, structured-abstract labels) or in its title's case and
punctuation.

The one rule of a merge: **the first record stays; the later one only fills what the first lacked.** The stored
title, abstract, id and every field with a value are never overwritten. A field the stored paper lacks (absent,
empty text, empty list) is taken from the later record. A title-only paper (no abstract) takes the later record's
abstract, since that is what it lacked; its title stays. The markers of the later record's own text
(``title_only``, ``title_markup``, ``abstract_markup``) are not copied, since its text is not kept.

Nothing of the later record is lost: it is kept whole in ``merged_records`` (its import and row, id, title, abstract,
fields, the rule that merged it, and which fields of the paper it filled), so the paper lists every source record it
came from and `core.store.provenance.split_record` can undo the merge.

The DOI sits in the papers table's ``doi`` column (indexed with the corpus), so a merge by DOI is one index lookup;
`add_doi_column` adds and fills it in a workspace made before it existed.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import orjson

from core.records import duplicate_key, scrub, text_hash
from core.store.identity import id_value

_OWN_TEXT = ("title_only", "title_markup", "abstract_markup")  # about a record's own title/abstract: never copied
TEXT_RULE = "same title and abstract"

SCHEMA = """
CREATE TABLE IF NOT EXISTS merged_records (
    id INTEGER PRIMARY KEY AUTOINCREMENT, corpus TEXT, seq INTEGER, import_id INTEGER, srow INTEGER, pid TEXT,
    title TEXT, abstract TEXT, fields TEXT, rule TEXT, filled TEXT DEFAULT '[]', took_abstract INTEGER DEFAULT 0,
    keys TEXT DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS merged_records_seq ON merged_records(corpus, seq);
"""


def add_provenance_columns(conn: sqlite3.Connection) -> None:
    """Give the papers table the import and source row of each paper (``import_id``, ``srow``); a workspace made
    before them keeps NULL there (its papers' provenance is the corpus's import list)."""
    have = {r[1] for r in conn.execute("PRAGMA table_info(papers)")}
    for column in ("import_id", "srow"):
        if column not in have:
            try:
                conn.execute(f"ALTER TABLE papers ADD COLUMN {column} INTEGER")
            except sqlite3.OperationalError as exc:  # another process added it first
                if "duplicate column" not in str(exc):
                    raise


def doi_key(fields: dict[str, Any]) -> str | None:
    """The DOI two records are matched by: bare ('10.x/y') and lower-cased (the first of a list); None without one.
    The same form as the DOI match key (`core.store.identity.id_value`)."""
    return id_value("doi", fields.get("doi"))


def add_doi_column(conn: sqlite3.Connection) -> None:
    """Give the papers table its ``doi`` column; a workspace made before it gets it filled. DOIs are looked up in
    ``paper_keys`` (``doi:`` keys), so the column's old index is dropped: one index fewer to keep at import."""
    if "doi" not in {r[1] for r in conn.execute("PRAGMA table_info(papers)")}:
        try:
            conn.execute("ALTER TABLE papers ADD COLUMN doi TEXT")
        except sqlite3.OperationalError as exc:  # another process added it first
            if "duplicate column" not in str(exc):
                raise
        else:
            rows = conn.execute("SELECT rowid, fields FROM papers WHERE fields LIKE '%\"doi\"%'").fetchall()
            filled = [(key, rowid) for rowid, fields in rows
                      if (key := doi_key(json.loads(fields or "{}"))) is not None]
            conn.executemany("UPDATE papers SET doi = ? WHERE rowid = ?", filled)
    conn.execute("DROP INDEX IF EXISTS papers_doi")


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, (str, list, dict)) and not value)


def _dumps(fields: dict[str, Any]) -> str:
    try:
        return orjson.dumps(fields, default=str, option=orjson.OPT_PASSTHROUGH_DATETIME).decode()
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(scrub(fields), ensure_ascii=False, default=str)


DOI_AS_EXPORTED = "doi_as_exported"  # a paper's own DOI text, not a DOI, kept when a merged record gave a valid one


def _broken_doi(fields: dict[str, Any]) -> bool:
    """True when the fields give a DOI text that is not a DOI (no "10.x/" after any resolver prefix)."""
    value = fields.get("doi")
    return not _empty(value) and id_value("doi", value) is None


def _fill(held: dict[str, Any], values: tuple) -> tuple[list[str], bool]:
    """Fill the held paper (a dict of its row) from a later record's row: the fields it took, and whether it took
    the record's abstract."""
    fields, later = held["fields"], json.loads(values[5] or "{}")
    taken: list[str] = []
    for key, value in later.items():
        if key not in _OWN_TEXT and not _empty(value) and _empty(fields.get(key)):
            fields[key] = value
            taken.append(key)
    if _broken_doi(fields) and not _broken_doi(later) and id_value("doi", later.get("doi")):
        # a DOI an export wrote broken ("http://dx.doi.org/101521aeap2012243193", ProQuest) gives way to the
        # record's valid one; the broken text stays beside it (`split_record` puts it back)
        fields[DOI_AS_EXPORTED], fields["doi"] = fields["doi"], later["doi"]
        held["doi"] = None
        taken.append("doi")
    if not held["abstract"] and values[4]:  # a title-only paper takes the abstract it lacked
        held["abstract"] = values[4]
        fields.pop("title_only", None)
        if later.get("abstract_markup"):
            fields["abstract_markup"] = later["abstract_markup"]
            taken.append("abstract_markup")
        return taken, True
    return taken, False


def apply_merges(conn: sqlite3.Connection, corpus: str, merges: list[tuple[int, int, str, tuple]],
                 import_id: int | None = None) -> dict[str, Any]:
    """Fill the papers that later records merged into, by the rule above, and keep each merged record.

    ``merges``: (source row, seq of the paper it merged into, the rule, the record's papers-table row), in
    the order the rows came. Returns ``{"filled": seqs of papers that took something, "redirect": {duplicate key
    of a merged record or of a paper before it took an abstract: the duplicate key of the paper it is now},
    "kept": the id of the paper each merge went into, in the order of ``merges``}``.
    """
    redirect: dict[str, str] = {}
    filled: set[int] = set()
    if not merges:
        return {"filled": filled, "redirect": redirect, "kept": []}
    seqs = sorted({target for _, target, _, _ in merges})
    held: dict[int, dict[str, Any]] = {}
    for start in range(0, len(seqs), 500):
        part = seqs[start:start + 500]
        for r in conn.execute(f"SELECT seq, title, abstract, fields, dkey, doi, pid FROM papers WHERE corpus = ? "
                              f"AND seq IN ({','.join('?' * len(part))})", (corpus, *part)):
            held[r[0]] = {"title": r[1], "abstract": r[2], "fields": None, "dkey": r[4], "doi": r[5],
                          "stored": r[3], "pid": r[6]}
    kept_records: list[tuple] = []
    for row, target, rule, values in merges:
        paper = held[target]
        taken, took_abstract = [], False
        if values[5] != paper["stored"] or not paper["abstract"]:  # the same fields as stored: nothing to take
            if paper["fields"] is None:
                paper["fields"] = json.loads(paper["stored"] or "{}")
            taken, took_abstract = _fill(paper, values)
            if taken or took_abstract:
                filled.add(target)
        if values[7] != paper["dkey"]:
            redirect[values[7]] = paper["dkey"]
        kept_records.append((corpus, target, import_id, row, values[1], values[3], values[4], values[5], rule,
                             json.dumps(taken), int(took_abstract), json.dumps(list(values[9]) if len(values) > 9
                                                                               else [])))
    conn.executemany("INSERT INTO merged_records(corpus, seq, import_id, srow, pid, title, abstract, fields, rule, "
                     "filled, took_abstract, keys) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     [tuple(scrub(v) if isinstance(v, str) else v for v in r) for r in kept_records])
    updates, keys = [], set()
    for seq in sorted(filled):
        paper = held[seq]
        # a paper with an abstract is keyed by its text; one still without keeps its title-only key (title, year,
        # first author, volume, issue, page: `record_key`): its title alone is no key, and later records of it
        # are looked up by that one
        key = duplicate_key(paper["title"], paper["abstract"]) if paper["abstract"] else paper["dkey"]
        if key != paper["dkey"]:
            if key in keys or conn.execute("SELECT 1 FROM papers WHERE corpus = ? AND dkey = ?",
                                           (corpus, key)).fetchone():
                key, paper["abstract"] = paper["dkey"], ""  # its new text is another paper's: it stays title-only
                paper["fields"]["title_only"] = True
            else:
                redirect[paper["dkey"]] = key
        keys.add(key)
        updates.append((paper["abstract"], _dumps(paper["fields"]), text_hash(paper["title"], paper["abstract"]),
                        key, paper["doi"] or doi_key(paper["fields"]), corpus, seq))
    conn.executemany("UPDATE papers SET abstract = ?, fields = ?, hash = ?, dkey = ?, doi = ? "
                     "WHERE corpus = ? AND seq = ?", updates)
    return {"filled": filled, "redirect": redirect, "kept": [held[target]["pid"] for _, target, _, _ in merges]}


def resolved(redirect: dict[str, str], key: str) -> str:
    """The duplicate key a record's key leads to through the merges' redirects."""
    seen = {key}
    while key in redirect and redirect[key] not in seen:
        key = redirect[key]
        seen.add(key)
    return key
