"""Collections: named selections of a corpus's papers (a lasso, a topic, search results, ticked rows) that users
keep, add to, remove from, merge, rename, annotate and delete into the trash.

A collection belongs to a corpus by name and holds entries; each entry keeps the paper's id AND its duplicate key
(``papers.dkey``, the hash of its normalised title and abstract). An entry is found in the corpus by its text first
(the duplicate key: ids may be reassigned by a new export or a re-import that numbers rows), else by its id (a text
edited since). So a collection outlives its corpus: delete the corpus and import the same file again under the same
name, or import papers again under new ids, and the collection finds its papers again; an entry found nowhere is
kept and counted as missing. Collections are not part of a corpus's rows in the trash (core.store.trash) for that
reason. A deleted collection goes to the trash itself (kind ``collection``): its row moves under the trash key,
its entries stay, and `Store.restore` brings it back.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from core.display import plural
from core.errors import CorpusError, NotFoundError
from core.store.files import check_printable

SCHEMA = """
CREATE TABLE IF NOT EXISTS collections (
    id INTEGER PRIMARY KEY AUTOINCREMENT, corpus TEXT, name TEXT, key TEXT, note TEXT DEFAULT '',
    created REAL, updated REAL, UNIQUE (corpus, key)
);
CREATE TABLE IF NOT EXISTS collection_papers (
    collection INTEGER, seq INTEGER, pid TEXT, dkey TEXT, PRIMARY KEY (collection, pid)
);
"""
MAX_NAME = 120
MAX_NOTE = 5000
_SHOWN = 3  # unknown ids named in a refusal

# every entry of the collections asked for, with the paper it is found as now (NULL: missing)
_ENTRIES = """
SELECT e.collection, e.seq, e.pid AS stored, e.dkey, COALESCE(q.pid, p.pid) AS pid
FROM collection_papers e JOIN collections c ON c.id = e.collection
LEFT JOIN papers q ON e.dkey IS NOT NULL AND q.corpus = c.corpus AND q.dkey = e.dkey
LEFT JOIN papers p ON q.pid IS NULL AND p.corpus = c.corpus AND p.pid = e.pid
"""


def _listed(where: str) -> str:
    """The collections passing `where` (on ``c``) with their counts of papers found and missing; the filter is
    applied inside the count too, so one collection's counts never resolve every collection's entries."""
    return (f"SELECT c.*, COALESCE(n.papers, 0) AS papers, COALESCE(n.missing, 0) AS missing FROM collections c "
            f"LEFT JOIN (SELECT collection, COUNT(DISTINCT pid) AS papers, SUM(pid IS NULL) AS missing "
            f"FROM ({_ENTRIES} WHERE {where}) GROUP BY collection) n ON n.collection = c.id WHERE {where}")


@dataclass(frozen=True)
class Collection:
    """A named selection of a corpus's papers, as the Library lists it."""

    corpus: str
    name: str
    note: str
    created: float
    updated: float
    papers: int  # entries found in the corpus now
    missing: int  # entries whose paper is not in the corpus now (kept, found again on re-import)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def clean_name(name: str) -> str:
    """A collection name trimmed (inner white space collapsed), or CorpusError saying what is wrong with it."""
    cleaned = " ".join(str(name or "").split())
    if not cleaned:
        raise CorpusError("a collection needs a name")
    if len(cleaned) > MAX_NAME:
        raise CorpusError(f"a collection name may have at most {MAX_NAME} characters, {cleaned[:30]!r}... has "
                          f"{len(cleaned)}")
    return check_printable(cleaned, "a collection name")


def _unique(pids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(str(p) for p in pids))


class CollectionsMixin:
    """The `Store` methods for collections."""

    # -- read ---------------------------------------------------------------------------------
    @staticmethod
    def _collection(row: sqlite3.Row) -> Collection:
        return Collection(corpus=row["corpus"], name=row["name"], note=row["note"] or "", created=row["created"],
                          updated=row["updated"], papers=int(row["papers"]), missing=int(row["missing"]))

    def collections(self, corpus: str | None = None) -> list[Collection]:
        """The collections of one corpus (or of all, those of deleted corpora included), newest first."""
        where, args = ("c.corpus = ?", (corpus,)) if corpus is not None else ("c.corpus NOT LIKE '#trash:%'", ())
        with self.connect() as conn:
            rows = conn.execute(f"{_listed(where)} ORDER BY c.created DESC, c.id DESC", args * 2).fetchall()
        return [self._collection(r) for r in rows]

    def _row(self, conn: sqlite3.Connection, corpus: str, name: str) -> sqlite3.Row:
        row = conn.execute("SELECT * FROM collections WHERE corpus = ? AND key = ?",
                           (corpus, " ".join(str(name or "").split()).casefold())).fetchone()
        if row is None:
            known = ", ".join(repr(c.name) for c in self.collections(corpus)) or "none yet"
            raise NotFoundError(f"corpus {corpus!r} has no collection named {name!r} (its collections: {known})")
        return row

    def collection(self, corpus: str, name: str) -> Collection:
        """One collection, or NotFoundError naming it and the corpus's collections."""
        with self.connect() as conn:
            cid = self._row(conn, corpus, name)["id"]
            return self._collection(conn.execute(_listed("c.id = ?"), (cid, cid)).fetchone())

    @staticmethod
    def _entries(conn: sqlite3.Connection, cid: int) -> list[sqlite3.Row]:
        return conn.execute(f"{_ENTRIES} WHERE e.collection = ? ORDER BY e.seq", (cid,)).fetchall()

    def collection_ids(self, corpus: str, name: str) -> list[str]:
        """The ids its papers have in the corpus now, in the order they were added (missing ones left out)."""
        with self.connect() as conn:
            rows = self._entries(conn, self._row(conn, corpus, name)["id"])
        return _unique(r["pid"] for r in rows if r["pid"] is not None)

    def collection_membership(self, corpus: str) -> dict[str, list[str]]:
        """Paper id -> the names of the collections holding it (oldest collection first)."""
        with self.connect() as conn:
            rows = conn.execute(f"{_ENTRIES} WHERE c.corpus = ? AND COALESCE(q.pid, p.pid) IS NOT NULL "
                                "ORDER BY c.created, c.id", (corpus,)).fetchall()
            names = {r["id"]: r["name"] for r in conn.execute("SELECT id, name FROM collections WHERE corpus = ?",
                                                               (corpus,))}
        member: dict[str, list[str]] = {}
        for r in rows:
            held = member.setdefault(r["pid"], [])
            if names[r["collection"]] not in held:
                held.append(names[r["collection"]])
        return member

    # -- write --------------------------------------------------------------------------------
    def _add(self, conn: sqlite3.Connection, cid: int, entries: Iterable[tuple[str, str | None, str | None]]) -> int:
        """Append (stored id, duplicate key, current id) entries not already held; how many were added."""
        held = self._entries(conn, cid)
        seen = {r["pid"] for r in held if r["pid"] is not None} | {("stored", r["stored"]) for r in held}
        seq = max((r["seq"] for r in held), default=0)
        added = 0
        for stored, dkey, current in entries:
            if (current is not None and current in seen) or ("stored", stored) in seen:
                continue
            seq += 1
            conn.execute("INSERT INTO collection_papers VALUES (?, ?, ?, ?)", (cid, seq, stored, dkey))
            seen |= {current, ("stored", stored)}
            added += current is not None
        return added

    def _create(self, conn: sqlite3.Connection, corpus: str, name: str, note: str) -> int:
        now = time.time()
        return int(conn.execute("INSERT INTO collections(corpus, name, key, note, created, updated) "
                                "VALUES (?, ?, ?, ?, ?, ?)", (corpus, name, name.casefold(), note, now, now)).lastrowid)

    def save_collection(self, corpus: str, name: str, pids: Iterable[str], note: str | None = None) -> Collection:
        """Create a collection of these papers, or add them to the one of that name (its note replaced when given).
        Ids that are not papers of the corpus are refused in one sentence, and nothing is stored."""
        self.corpus(corpus)  # an unknown corpus says so
        name = clean_name(name)
        wanted = _unique(pids)
        with self.transaction() as conn:
            dkeys: dict[str, str] = {}
            for start in range(0, len(wanted), 500):
                part = wanted[start:start + 500]
                dkeys.update(conn.execute(f"SELECT pid, dkey FROM papers WHERE corpus = ? AND pid IN "
                                          f"({','.join('?' * len(part))})", (corpus, *part)).fetchall())
            unknown = [p for p in wanted if p not in dkeys]
            if unknown:
                shown = ", ".join(repr(p) for p in unknown[:_SHOWN]) + (", ..." if len(unknown) > _SHOWN else "")
                raise NotFoundError(f"{plural(len(unknown), 'id')} given for collection {name!r} "
                                    f"{'is' if len(unknown) == 1 else 'are'} not a paper of corpus {corpus!r}: "
                                    f"{shown}; nothing was saved")
            row = conn.execute("SELECT id FROM collections WHERE corpus = ? AND key = ?",
                               (corpus, name.casefold())).fetchone()
            cid = row["id"] if row else self._create(conn, corpus, name, "")
            self._add(conn, cid, ((p, dkeys[p], p) for p in wanted))
            self._touch(conn, cid, note=note)
        return self.collection(corpus, name)

    def _touch(self, conn: sqlite3.Connection, cid: int, note: str | None = None, name: str | None = None) -> None:
        """Mark a collection updated now; set its note or name when given."""
        sets, args = ["updated = ?"], [time.time()]
        if note is not None:
            if len(note) > MAX_NOTE:
                raise CorpusError(f"a collection note may have at most {MAX_NOTE:,} characters, this one has "
                                  f"{len(note):,}")
            sets.append("note = ?")
            args.append(note.strip())
        if name is not None:
            sets += ["name = ?", "key = ?"]
            args += [name, name.casefold()]
        conn.execute(f"UPDATE collections SET {', '.join(sets)} WHERE id = ?", (*args, cid))

    def remove_from_collection(self, corpus: str, name: str, pids: Iterable[str]) -> int:
        """Take these papers out of a collection (by their id now or as stored); how many papers went."""
        gone = set(map(str, pids))
        with self.transaction() as conn:
            cid = self._row(conn, corpus, name)["id"]
            rows = [r for r in self._entries(conn, cid) if r["pid"] in gone or r["stored"] in gone]
            for r in rows:
                conn.execute("DELETE FROM collection_papers WHERE collection = ? AND pid = ?", (cid, r["stored"]))
            if rows:
                self._touch(conn, cid)
        return len({r["pid"] or ("stored", r["stored"]) for r in rows})

    def merge_collections(self, corpus: str, sources: list[str], into: str,
                          keep_sources: bool = True) -> Collection:
        """Union of the sources' entries (missing ones included) into `into` (created if new, may be a source),
        in order: `into`'s own entries, then each source's. keep_sources=False moves the other sources to the trash."""
        into = clean_name(into)
        with self.transaction() as conn:
            ids = [self._row(conn, corpus, s)["id"] for s in sources]
            if not ids:
                raise CorpusError("merging needs at least one collection to merge")
            row = conn.execute("SELECT id FROM collections WHERE corpus = ? AND key = ?",
                               (corpus, into.casefold())).fetchone()
            target = row["id"] if row else self._create(conn, corpus, into, "")
            for cid in ids:
                if cid != target:
                    self._add(conn, target, ((r["stored"], r["dkey"], r["pid"]) for r in self._entries(conn, cid)))
            self._touch(conn, target)
        if not keep_sources:
            for source in {self.collection(corpus, s).name for s in sources} - {self.collection(corpus, into).name}:
                self.delete_collection(corpus, source)
        return self.collection(corpus, into)

    def rename_collection(self, corpus: str, name: str, new_name: str) -> Collection:
        """Give a collection another name (unique in its corpus, case aside)."""
        new_name = clean_name(new_name)
        with self.transaction() as conn:
            cid = self._row(conn, corpus, name)["id"]
            taken = conn.execute("SELECT name FROM collections WHERE corpus = ? AND key = ? AND id != ?",
                                 (corpus, new_name.casefold(), cid)).fetchone()
            if taken:
                raise CorpusError(f"corpus {corpus!r} has a collection named {taken['name']!r} already; "
                                  "choose another name or merge the two")
            self._touch(conn, cid, name=new_name)
        return self.collection(corpus, new_name)

    def set_collection_note(self, corpus: str, name: str, note: str) -> Collection:
        """Replace a collection's note (an empty note clears it)."""
        with self.transaction() as conn:
            self._touch(conn, self._row(conn, corpus, name)["id"], note=str(note or ""))
        return self.collection(corpus, name)

    # -- trash --------------------------------------------------------------------------------
    def delete_collection(self, corpus: str, name: str) -> Any:
        """Move a collection to the trash (its papers stay in the corpus); `restore` with the item's id undoes it.
        Returns the TrashItem."""
        from core.store.trash import trash_key

        found = self.collection(corpus, name)
        with self.transaction() as conn:
            cid = self._row(conn, corpus, name)["id"]
            entries = conn.execute("SELECT COUNT(*) FROM collection_papers WHERE collection = ?", (cid,)).fetchone()[0]
            cur = conn.execute("INSERT INTO trash(kind, name, deleted, papers, detail) "
                               "VALUES ('collection', ?, ?, ?, ?)",
                               (found.name, time.time(), entries, json.dumps({"corpus": corpus})))
            item_id = int(cur.lastrowid)
            conn.execute("UPDATE collections SET corpus = ? WHERE id = ?", (trash_key(item_id), cid))
        return self.trash_item(item_id)

    def _restore_collection(self, item: Any, as_name: str | None) -> Any:
        """Bring a trashed collection back to its corpus (under `as_name` if its name is taken there now)."""
        from core.store.trash import TrashItem, trash_key

        name = clean_name(as_name) if as_name else item.name
        with self.transaction() as conn:
            taken = conn.execute("SELECT name FROM collections WHERE corpus = ? AND key = ?",
                                 (item.corpus, name.casefold())).fetchone()
            if taken:
                raise CorpusError(f"corpus {item.corpus!r} has a collection named {taken['name']!r} now; restore "
                                  f"this one under another name (restore {item.id} --as NEW-NAME)")
            conn.execute("UPDATE collections SET corpus = ?, name = ?, key = ? WHERE corpus = ?",
                         (item.corpus, name, name.casefold(), trash_key(item.id)))
            conn.execute("DELETE FROM trash WHERE id = ?", (item.id,))
        return TrashItem(**{**item.to_dict(), "name": name})

    @staticmethod
    def _forget_collection(conn: sqlite3.Connection, key: str) -> None:
        """Delete for good the trashed collection under this trash key (inside the caller's transaction)."""
        conn.execute("DELETE FROM collection_papers WHERE collection IN (SELECT id FROM collections WHERE corpus = ?)",
                     (key,))
        conn.execute("DELETE FROM collections WHERE corpus = ?", (key,))
