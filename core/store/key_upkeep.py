"""Keeping ``paper_keys`` current in workspaces made by older versions: filled once for a workspace made before match
keys existed, and the keys whose computation changed recomputed once (``PRAGMA user_version``)."""

from __future__ import annotations

import json
import sqlite3

from core.store.identity import match_keys


def backfill_keys(conn: sqlite3.Connection) -> None:
    """Fill ``paper_keys`` for the papers of a workspace made before it existed (run once, when it is created)."""
    rows = conn.execute("SELECT corpus, seq, pid, title, fields FROM papers").fetchall()
    conn.executemany("INSERT INTO paper_keys(corpus, key, seq) VALUES (?, ?, ?)",
                     [(corpus, key, seq) for corpus, seq, pid, title, fields in rows
                      for key in match_keys(title or "", json.loads(fields or "{}"), pid)])


KEYS_VERSION = 2  # 2: title keys fold ø, æ, ß, ł… (BENCHMARKS §25b)


def refresh_folded_keys(conn: sqlite3.Connection) -> None:
    """Once per workspace (``PRAGMA user_version`` < `KEYS_VERSION`): recompute the title and author-year keys of
    papers whose title or fields hold non-ASCII text, since how such text folds changed; ids keep their keys."""
    if conn.execute("PRAGMA user_version").fetchone()[0] >= KEYS_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")  # two processes opening one old workspace: the second finds it done
    try:
        if conn.execute("PRAGMA user_version").fetchone()[0] < KEYS_VERSION:
            _refresh(conn)
            conn.execute(f"PRAGMA user_version = {KEYS_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _refresh(conn: sqlite3.Connection) -> None:
    rows = conn.execute("SELECT corpus, seq, pid, title, fields FROM papers").fetchall()
    stale = [r for r in rows if not ((r[3] or "").isascii() and (r[4] or "").isascii())]
    if not stale:
        return
    seqs = {(corpus, seq) for corpus, seq, *_ in stale}
    old = [(corpus, key, seq) for corpus, key, seq in conn.execute(  # one pass over the keys, not one a paper
        "SELECT corpus, key, seq FROM paper_keys WHERE key >= 'ay:' AND key < 'ay;' OR key >= 'title:' "
        "AND key < 'title;'") if (corpus, seq) in seqs]
    conn.executemany("DELETE FROM paper_keys WHERE corpus = ? AND key = ? AND seq = ?", old)
    conn.executemany("INSERT INTO paper_keys(corpus, key, seq) VALUES (?, ?, ?)",
                     [(corpus, key, seq) for corpus, seq, pid, title, fields in stale
                      for key in match_keys(title or "", json.loads(fields or "{}"), pid)
                      if key.startswith(("title:", "ay:"))])
