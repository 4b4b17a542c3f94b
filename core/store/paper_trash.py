"""Single papers into the trash: a wrong record, a paper outside the search, deleted and restorable like a corpus.

The papers' rows (their text and fields, identity keys, the records merged into them, their figures and the
citation links that touch them) move under the trash key ``#trash:<id>`` and come back on restore, with the same
ids and order; the corpus gets a new version each way, so its maps and indexes follow. Collections keep the papers
by id and text: a deleted paper counts as missing in them and is found again when restored. Cached embeddings stay
(keyed by text)."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable
from typing import Any

from core.display import plural
from core.errors import CorpusError, NotFoundError

KIND = "papers"
_BY_SEQ = ("paper_keys", "merged_records")  # rows tied to a paper by its seq
_BY_PID = ("figures",)  # rows tied to a paper by its id


def _in(values: list[Any]) -> str:
    return f"({','.join('?' * len(values))})"


def _bump(conn: sqlite3.Connection, corpus: str, what: str, detail: dict[str, Any]) -> None:
    """A new corpus version (an import-history row saying what changed), as a split does."""
    now = time.time()
    version = conn.execute("INSERT INTO imports(corpus, file, status, started, finished, report) VALUES "
                           "(?, ?, 'completed', ?, ?, ?)", (corpus, what, now, now, json.dumps(detail))).lastrowid
    conn.execute("UPDATE corpora SET version = ? WHERE name = ?", (version, corpus))


def _move(conn: sqlite3.Connection, source: str, target: str, pids: list[str], seqs: list[int],
          new_seqs: dict[int, int] | None = None) -> None:
    """Move the rows of these papers from corpus key `source` to `target` (`new_seqs`: a paper whose place in
    the corpus was taken since goes to the end)."""
    for old, new in (new_seqs or {}).items():
        for table in ("papers", *_BY_SEQ):
            conn.execute(f"UPDATE {table} SET seq = ? WHERE corpus = ? AND seq = ?", (new, source, old))
    seqs = [(new_seqs or {}).get(s, s) for s in seqs]
    conn.execute(f"UPDATE papers SET corpus = ? WHERE corpus = ? AND pid IN {_in(pids)}", (target, source, *pids))
    for table in _BY_SEQ:
        conn.execute(f"UPDATE {table} SET corpus = ? WHERE corpus = ? AND seq IN {_in(seqs)}",
                     (target, source, *seqs))
    for table in _BY_PID:
        conn.execute(f"UPDATE {table} SET corpus = ? WHERE corpus = ? AND pid IN {_in(pids)}", (target, source, *pids))
    conn.execute(f"UPDATE OR IGNORE links SET corpus = ? WHERE corpus = ? AND (src IN {_in(pids)} OR dst IN "
                 f"{_in(pids)})", (target, source, *pids, *pids))


class PaperTrashMixin:
    """The `Store` methods deleting single papers of a corpus into the trash and bringing them back."""

    def delete_papers(self, corpus: str, pids: Iterable[str]) -> Any:
        """Move these papers of `corpus` to the trash (one item); `restore(item.id)` brings them back."""
        from core.store.trash import trash_key

        wanted = list(dict.fromkeys(str(p) for p in pids))
        if not wanted:
            raise CorpusError("no paper chosen to delete")
        self.corpus(corpus)  # an unknown corpus says so
        with self.transaction() as conn:
            rows = []
            for start in range(0, len(wanted), 500):
                part = wanted[start:start + 500]
                rows += conn.execute(f"SELECT pid, seq, title FROM papers WHERE corpus = ? AND pid IN {_in(part)}",
                                     (corpus, *part)).fetchall()
            found = {r["pid"] for r in rows}
            missing = [p for p in wanted if p not in found]
            if missing:
                raise NotFoundError(f"corpus {corpus!r} has no paper with id {missing[0]!r}; nothing was deleted")
            first = next(r["title"] for r in rows if r["pid"] == wanted[0])
            name = " ".join(str(first or wanted[0]).split())[:80]
            cur = conn.execute("INSERT INTO trash(kind, name, deleted, papers, detail) VALUES (?, ?, ?, ?, ?)",
                               (KIND, name, time.time(), len(rows), json.dumps({"corpus": corpus})))
            item_id = int(cur.lastrowid)
            for start in range(0, len(rows), 400):
                part = rows[start:start + 400]
                _move(conn, corpus, trash_key(item_id), [r["pid"] for r in part], [r["seq"] for r in part])
            _bump(conn, corpus, f"deleted: {plural(len(rows), 'paper')}", {"deleted": wanted[:1000]})
        return self.trash_item(item_id)

    def _restore_papers(self, item: Any) -> Any:
        """Bring trashed papers back to their corpus, unless the corpus is gone or holds their ids or text again."""
        from core.store.trash import trash_key

        key = trash_key(item.id)
        with self.transaction() as conn:
            if not conn.execute("SELECT 1 FROM corpora WHERE name = ?", (item.corpus,)).fetchone():
                raise CorpusError(f"corpus {item.corpus!r} is not in the workspace now; restore or import it first, "
                                  "then restore these papers")
            rows = conn.execute("SELECT pid, seq, dkey FROM papers WHERE corpus = ?", (key,)).fetchall()
            for row in rows:
                clash = conn.execute("SELECT pid FROM papers WHERE corpus = ? AND (pid = ? OR dkey = ?)",
                                     (item.corpus, row["pid"], row["dkey"])).fetchone()
                if clash:
                    raise CorpusError(f"corpus {item.corpus!r} holds paper {clash['pid']!r} again (the same id or "
                                      f"text as deleted paper {row['pid']!r}); nothing was restored")
            end = conn.execute("SELECT COALESCE(MAX(seq), -1) + 1 FROM papers WHERE corpus = ?",
                               (item.corpus,)).fetchone()[0]
            taken = {r["seq"] for r in rows if conn.execute("SELECT 1 FROM papers WHERE corpus = ? AND seq = ?",
                                                            (item.corpus, r["seq"])).fetchone()}
            ends = iter(range(max(end, 1 + max((r["seq"] for r in rows), default=-1)), 2**62))
            moved = {seq: next(ends) for seq in sorted(taken)}
            for start in range(0, len(rows), 400):
                part = rows[start:start + 400]
                _move(conn, key, item.corpus, [r["pid"] for r in part], [r["seq"] for r in part], moved)
            _bump(conn, item.corpus, f"restored: {plural(len(rows), 'paper')}", {"restored": item.id})
            self._forget_papers(conn, key)  # a link added again since stays once
            conn.execute("DELETE FROM trash WHERE id = ?", (item.id,))
        return item

    @staticmethod
    def _forget_papers(conn: sqlite3.Connection, key: str) -> None:
        """Delete for good the trashed papers under this trash key (inside the caller's transaction)."""
        for table in ("papers", "links", *_BY_SEQ, *_BY_PID):
            conn.execute(f"DELETE FROM {table} WHERE corpus = ?", (key,))
