"""Keeping ``paper_keys`` current in workspaces made by older versions: filled once for a workspace made before match
keys existed, and the keys whose computation changed recomputed once (``PRAGMA user_version``)."""

from __future__ import annotations

import json
import re
import sqlite3

from core.store.identity import match_keys


def backfill_keys(conn: sqlite3.Connection) -> None:
    """Fill ``paper_keys`` for the papers of a workspace made before it existed (run once, when it is created)."""
    rows = conn.execute("SELECT corpus, seq, pid, title, fields FROM papers").fetchall()
    conn.executemany("INSERT INTO paper_keys(corpus, key, seq) VALUES (?, ?, ?)",
                     [(corpus, key, seq) for corpus, seq, pid, title, fields in rows
                      for key in match_keys(title or "", json.loads(fields or "{}"), pid)])


KEYS_VERSION = 3  # 2: title keys fold ø, æ, ß, ł… (BENCHMARKS §25b); 3: Ovid's note tails, "Jr", place keys (§25t)
_SUFFIX = re.compile(r"\b(?:Jr|JR|Sr|SR|II|III|IV)\b")  # as exports write them after a family name
_RECOMPUTED = ("title:", "ay:", "place:")


def refresh_folded_keys(conn: sqlite3.Connection) -> None:
    """Once per workspace (``PRAGMA user_version`` < `KEYS_VERSION`): recompute the title, author-year and place keys
    of papers whose keys a later rule computes otherwise; ids keep their keys."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version >= KEYS_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")  # two processes opening one old workspace: the second finds it done
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version < KEYS_VERSION:
            _refresh(conn, version)
            conn.execute(f"PRAGMA user_version = {KEYS_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _stale(title: str, fields: str, version: int) -> bool:
    """Whether a paper stored under keys `version` may hold keys today's rules compute otherwise: non-ASCII text
    (version 2's folding); a bracket (Ovid's note tail), a correction notice's form, a short title (its place key)
    or a "Jr"/"III" (version 3)."""
    if version < 2 and not (title.isascii() and fields.isascii()):
        return True
    return version < 3 and ("[" in title or len(title) < 40 or ", pg " in title or title.count("(") > 1
                            or _SUFFIX.search(fields) is not None)


def _refresh(conn: sqlite3.Connection, version: int = 0) -> None:
    rows = conn.execute("SELECT corpus, seq, pid, title, fields FROM papers").fetchall()
    stale = [r for r in rows if _stale(r[3] or "", r[4] or "", version)]
    if not stale:
        return
    seqs = {(corpus, seq) for corpus, seq, *_ in stale}
    old = [(corpus, key, seq) for corpus, key, seq in conn.execute(  # one pass over the keys, not one a paper
        "SELECT corpus, key, seq FROM paper_keys WHERE key >= 'ay:' AND key < 'ay;' OR key >= 'title:' "
        "AND key < 'title;' OR key >= 'place:' AND key < 'place;'") if (corpus, seq) in seqs]
    conn.executemany("DELETE FROM paper_keys WHERE corpus = ? AND key = ? AND seq = ?", old)
    conn.executemany("INSERT OR IGNORE INTO paper_keys(corpus, key, seq) VALUES (?, ?, ?)",
                     [(corpus, key, seq) for corpus, seq, pid, title, fields in stale
                      for key in match_keys(title or "", json.loads(fields or "{}"), pid)
                      if key.startswith(_RECOMPUTED)])
