"""Corpora and their papers: importing (one transaction, duplicates merged), listing, reading and deleting."""

from __future__ import annotations

import copy
import glob
import hashlib
import json
import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import CorpusError, NotFoundError
from core.io import RowWarning
from core.journal_identity import JournalIdentities, journal_identities
from core.records import Paper, RowError
from core.store.field_roles import can_be_label, journal_field, label_columns, year_field
from core.store.field_stats import counted_by_sql
from core.store.files import pid_alive
from core.store.frame_build import frame_of, gc_paused, parse_fields
from core.store.frame_file import frame_key, load_frame, load_journals, save_frame, save_journals
from core.store.import_run import Stream, import_streams
from core.store.importing import ImportReport

# journal identities per (catalog, corpus, version, papers): computed once per corpus version, in this process
_JOURNALS: OrderedDict[tuple[tuple[str, str, int, int], bool], JournalIdentities] = OrderedDict()  # bool: with names
_JOURNALS_KEPT = 8
_JOURNALS_LOCK = threading.Lock()


@dataclass
class CorpusInfo:
    """A corpus as listed: name, size, columns, label columns, version."""

    name: str
    papers: int
    columns: list[str]
    labels: list[str]
    version: int
    source: str
    created: float
    links: int = 0
    roles: dict[str, str] = field(default_factory=dict)  # field -> role (core.store.field_roles)
    labels_chosen: bool = False  # the label columns are the user's choice, not the guess

    @property
    def journal(self) -> str | None:
        """The journal field, whatever its count; None when the corpus has none."""
        return journal_field(self.roles) if self.roles else ("journal" if "journal" in self.columns else None)

    @property
    def year(self) -> str | None:
        """The year field (a time axis, never a label); None when the corpus has none."""
        return year_field(self.roles) if self.roles else ("year" if "year" in self.columns else None)

    def markable(self) -> list[str]:
        """The columns a user may mark as labels."""
        return [c for c in self.columns if can_be_label(c, self.roles)]


class CorporaMixin:
    """The `Store` methods for corpora and papers; they use its `connect()`, `transaction()` and `arrays`."""

    # -- corpora -----------------------------------------------------------------------------
    def corpora(self) -> list[CorpusInfo]:
        """All corpora with their sizes, newest first; kept, as `corpus()` is, until the database changes."""
        with self.connect() as conn:
            stamp = None if conn.in_transaction else self.change_stamp()
            kept = self._kept_info
            if stamp is not None and kept[0] == stamp and "" in kept[1]:
                return copy.deepcopy(kept[1][""])
            rows = conn.execute(
                "SELECT c.*, (SELECT COUNT(*) FROM papers p WHERE p.corpus = c.name) AS n, "
                "(SELECT COUNT(*) FROM links l WHERE l.corpus = c.name) AS n_links "
                "FROM corpora c WHERE c.name NOT LIKE '#trash:%' ORDER BY created DESC"
            ).fetchall()
        infos = [self._info(r) for r in rows]
        self._keep_info(stamp, "", infos)
        return copy.deepcopy(infos)

    @staticmethod
    def _info(row: sqlite3.Row) -> CorpusInfo:
        return CorpusInfo(
            name=row["name"],
            papers=row["n"],
            columns=json.loads(row["columns"] or "[]"),
            labels=json.loads(row["labels"] or "[]"),
            version=row["version"],
            source=row["source"] or "",
            created=row["created"],
            links=row["n_links"] if "n_links" in row.keys() else 0,
            roles=json.loads(row["roles"] or "{}") if "roles" in row.keys() else {},
            labels_chosen=bool(row["labels_chosen"]) if "labels_chosen" in row.keys() else False,
        )

    def corpus(self, name: str) -> CorpusInfo:
        """One corpus, or NotFoundError naming it (a corpus in the trash is not found). Kept for every thread until
        any connection commits (`change_stamp`): counting a corpus's papers costs 4 ms at 50k papers (about 80 at
        1M), a page run of the app asks about 15 times (BENCHMARKS §30h), and each run is a new thread (§31y). A
        connection inside its own transaction reads its uncommitted rows: it is answered by SQL, never kept."""
        with self.connect() as conn:
            stamp = None if conn.in_transaction else self.change_stamp()
            kept = self._kept_info
            if stamp is not None and kept[0] == stamp and name in kept[1]:
                return copy.deepcopy(kept[1][name])
            row = conn.execute(
                "SELECT c.*, (SELECT COUNT(*) FROM papers p WHERE p.corpus = c.name) AS n, "
                "(SELECT COUNT(*) FROM links l WHERE l.corpus = c.name) AS n_links "
                "FROM corpora c WHERE name = ? AND name NOT LIKE '#trash:%'",
                (name,),
            ).fetchone()
        if row is None:
            known = ", ".join(c.name for c in self.corpora()) or "none yet"
            raise NotFoundError(f"there is no corpus named {name!r} (corpora: {known})")
        info = self._info(row)
        self._keep_info(stamp, name, info)
        return copy.deepcopy(info)

    def _keep_info(self, stamp: int | None, name: str, info: Any) -> None:
        """Keep `info` under `name` ("" for the list of corpora) for the change stamp it was read at."""
        if stamp is None:
            return
        kept = self._kept_info
        if kept[0] != stamp:
            kept = self._kept_info = (stamp, {})
        kept[1][name] = info

    def corpus_version(self, name: str) -> int:
        """A corpus's version alone: one indexed lookup, without counting its papers like `corpus()` does."""
        with self.connect() as conn:
            row = conn.execute("SELECT version FROM corpora WHERE name = ?", (name,)).fetchone()
        if row is None:
            return self.corpus(name).version  # raises the NotFoundError naming the known corpora
        return int(row[0])

    def has_corpus(self, name: str) -> bool:
        with self.connect() as conn:
            return conn.execute("SELECT 1 FROM corpora WHERE name = ? AND name NOT LIKE '#trash:%'",
                                (name,)).fetchone() is not None

    def import_papers(
        self, corpus: str, records: Iterable[Paper | RowError | RowWarning], source: str = "",
        before_commit: Callable[[sqlite3.Connection, ImportReport], None] | None = None,
    ) -> ImportReport:
        """Add papers to a corpus in one transaction; duplicates (same normalised title+abstract, or same DOI) are
        merged: the first record stays and the later one fills what it lacked (`core.store.merging`).

        A row whose id is already another paper's (in the corpus or earlier in this import) but whose text
        differs is not a duplicate: it is added under the id ``<id>~<row>`` and listed in ``conflicts``.
        Rows are numbered from 1 as the reader numbers them (its errors and warnings carry the numbers).
        If reading fails part-way (a CorpusError from the reader), nothing is stored. ``before_commit(conn, report)``
        writes more in the same transaction (an import's figures, `core.store.importing`); if it fails, nothing is.
        Several files in one transaction: `core.store.multi_import.import_files`.
        """
        return import_streams(self, corpus, [Stream(records, source, before_commit)])[0]  # type: ignore[arg-type]

    def set_labels(self, corpus: str, labels: list[str] | None) -> CorpusInfo:
        """Mark a corpus's label columns (None: back to the guess from the fields' roles and counts)."""
        info = self.corpus(corpus)
        if labels is None:
            with self.connect() as conn:
                columns, guessed, roles = label_columns(counted_by_sql(conn, corpus), info.papers)
                conn.execute("UPDATE corpora SET labels = ?, roles = ?, labels_chosen = 0 WHERE name = ?",
                             (json.dumps(guessed), json.dumps(roles), corpus))
            return self.corpus(corpus)
        refused = [c for c in labels if c not in info.markable()]
        if refused:
            role = info.roles.get(refused[0], "unknown")
            what = f"its {role} field" if role != "unknown" else "a column it does not have"
            raise CorpusError(f"{refused[0]!r} cannot be a label column of corpus {corpus!r}: it is {what}")
        ordered = sorted(dict.fromkeys(labels), key=lambda c: (c != info.journal, c))
        with self.connect() as conn:
            conn.execute("UPDATE corpora SET labels = ?, labels_chosen = 1 WHERE name = ?",
                         (json.dumps(ordered), corpus))
        return self.corpus(corpus)

    def running_imports(self) -> list[dict[str, Any]]:
        """Imports under way now, their process alive: another tab's, or this tab's before it was reloaded."""
        with self.connect() as conn:
            rows = conn.execute("SELECT id, corpus, file, started, pid FROM imports WHERE status = 'running' "
                                "ORDER BY id").fetchall()
        return [dict(r) for r in rows if pid_alive(r["pid"])]

    def unfinished_imports(self) -> list[dict[str, Any]]:
        """Imports whose process died before finishing (killed) and that no later import of the file redid.

        None of their rows were kept: importing the file again finishes the work.
        """
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT id, corpus, file, started, pid FROM imports i WHERE status = 'running' AND NOT EXISTS "
                "(SELECT 1 FROM imports j WHERE j.corpus = i.corpus AND j.file = i.file AND j.id > i.id "
                "AND j.status = 'completed') ORDER BY id"
            ).fetchall()
        return [dict(r) for r in rows if not pid_alive(r["pid"])]

    @staticmethod
    def _count(conn: sqlite3.Connection, corpus: str) -> int:
        return conn.execute("SELECT COUNT(*) FROM papers WHERE corpus = ?", (corpus,)).fetchone()[0]

    @staticmethod
    def corpus_slug(name: str) -> str:
        """A file-name-safe slug for a corpus name, distinct for distinct names ('a b' and 'a_b' differ)."""
        slug = re.sub(r"[^A-Za-z0-9._-]", "_", name)
        if slug != name:
            slug += "~" + hashlib.blake2b(name.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()
        return slug

    # -- papers ------------------------------------------------------------------------------
    def papers_frame(self, corpus: str, with_abstract: bool = True, stored_journals: bool = False) -> Any:
        """All papers of a corpus as a pandas DataFrame in corpus order (id, title, abstract, fields...).

        The journal field reads one name per journal (`journal_identities`): "PloS one", "PLOS ONE" and "PLoS ONE"
        are one label for the map, the vote and training. ``stored_journals=True`` gives the spellings as stored."""
        with gc_paused():  # millions of objects made, none cyclic: the collector's passes cost seconds (§31q)
            return self._papers_frame(corpus, with_abstract, stored_journals)

    def _papers_frame(self, corpus: str, with_abstract: bool, stored_journals: bool) -> Any:
        info = self.corpus(corpus)
        aliases = sorted(name for name, role in info.roles.items() if role == "alias")
        key = frame_key(info.journal, aliases, with_abstract, stored_journals)
        path = self.kept_path(corpus, f"{key}-v{info.version}", "-frame.arrow")
        kept = load_frame(path, info.papers) if info.papers and path else None
        if kept is not None:  # built by an earlier read of this version: a fresh process reads it (§31z)
            return kept
        frame = self._built_frame(corpus, info, with_abstract, stored_journals)
        if path and info.papers and len(frame) == info.papers:
            try:
                save_frame(frame, path)
            except (OSError, ValueError, TypeError):  # a full disk, a value Arrow refuses: built again next time
                pass
            else:
                self._drop_older_frames(corpus, info.version)
        return frame

    def kept_path(self, corpus: str, key: str, suffix: str) -> Path | None:
        """Where a file made from the corpus's catalog is kept (arrays/frames, core/store/frame_file.py); None in a
        workspace where the folder cannot be made (read-only): the value is made again each time instead."""
        try:
            return self.array_path("frames", corpus, key, suffix)
        except OSError:
            return None

    def _drop_older_frames(self, corpus: str, version: int) -> None:
        """Remove the corpus's saved frames of versions before `version` (never read again: versions only grow)."""
        slug = self.corpus_slug(corpus)
        own = re.compile(re.escape(slug) + r"-[0-9a-f]{16}-v(\d+)-(frame\.arrow|journals\.json|embedded|points\.bin)$")
        for old in (self.arrays / "frames").glob(f"{glob.escape(slug)}-*"):
            hit = own.match(old.name)
            if hit and int(hit.group(1)) < version:
                try:
                    old.unlink(missing_ok=True)
                except OSError:  # still open elsewhere (Windows), or a read-only folder: a later save retries
                    pass

    def _built_frame(self, corpus: str, info: CorpusInfo, with_abstract: bool, stored_journals: bool) -> Any:
        """The frame built from the catalog's rows (the fields parsed, the journal names joined)."""
        cols = "pid, title, abstract, fields" if with_abstract else "pid, title, fields"
        with self.connect() as conn:
            cursor = conn.cursor()
            cursor.row_factory = None  # plain tuples: 1M `sqlite3.Row`s cost seconds (BENCHMARKS §31p)
            rows = cursor.execute(f"SELECT {cols} FROM papers WHERE corpus = ? ORDER BY seq", (corpus,)).fetchall()
        columns = list(zip(*rows)) or [(), (), (), ()]
        pids, titles, texts = columns[0], columns[1], columns[-1]
        abstracts = columns[2] if with_abstract else None
        del rows, columns
        fields = parse_fields(texts)
        journal = info.journal
        names = (self.journal_identities(corpus, list(zip(pids, fields)), info).names
                 if journal and not stored_journals and pids else {})
        return frame_of(pids, titles, abstracts, fields, journal, names)

    def journal_identities(self, corpus: str, parsed: list[tuple[str, Mapping[str, Any]]] | None = None,
                           info: CorpusInfo | None = None, names: bool = True) -> JournalIdentities:
        """Each paper's journal as one name, and every spelling of each (`core.journal_identity`), computed once per
        corpus version; stored fields are never rewritten. `parsed` and `info`: the corpus's (id, fields) and its
        `corpus()` when the caller has already read them. `names=False`: the journals alone (spellings, ISSNs,
        counts; `names` may be empty), read from the workspace when an earlier process computed them."""
        info = info if info is not None else self.corpus(corpus)
        key = (str(self.db_path), corpus, info.version, info.papers)
        with _JOURNALS_LOCK:
            for kept in ((key, True),) if names else ((key, True), (key, False)):
                if kept in _JOURNALS:
                    _JOURNALS.move_to_end(kept)
                    return _JOURNALS[kept]
        aliases = [name for name, role in info.roles.items() if role == "alias"]
        path = self.kept_path(corpus, f"{frame_key(info.journal, sorted(aliases))}-v{info.version}", "-journals.json")
        found = None if names or not info.journal or not path else load_journals(path)
        full = found is None
        if found is None and not info.journal:
            found = JournalIdentities()
        elif found is None:
            if parsed is None or len(parsed) != info.papers:
                with self.connect() as conn:
                    parsed = [(r[0], json.loads(r[1] or "{}")) for r in conn.execute(
                        "SELECT pid, fields FROM papers WHERE corpus = ? ORDER BY seq", (corpus,))]
            found = journal_identities(parsed, info.journal, aliases)
            if path and len(parsed) == info.papers:
                try:
                    save_journals(found, path)
                except (OSError, ValueError, TypeError):  # a full disk: computed again by the next process
                    pass
        with _JOURNALS_LOCK:
            _JOURNALS[(key, full)] = found
            while len(_JOURNALS) > _JOURNALS_KEPT:
                _JOURNALS.popitem(last=False)
        return found

    def papers(self, corpus: str) -> list[Paper]:
        """All papers of a corpus as Paper records, in corpus order."""
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT pid, title, abstract, fields FROM papers WHERE corpus = ? ORDER BY seq", (corpus,)
            ).fetchall()
        return [Paper(r["pid"], r["title"], r["abstract"], json.loads(r["fields"] or "{}")) for r in rows]

    def paper(self, corpus: str, pid: str) -> Paper:
        """One paper by id, or NotFoundError."""
        with self.connect() as conn:
            r = conn.execute(
                "SELECT pid, title, abstract, fields FROM papers WHERE corpus = ? AND pid = ?", (corpus, pid)
            ).fetchone()
        if r is None:
            raise NotFoundError(f"corpus {corpus!r} has no paper with id {pid!r}")
        return Paper(r["pid"], r["title"], r["abstract"], json.loads(r["fields"] or "{}"))

    def paper_ids(self, corpus: str) -> list[str]:
        """Ids of a corpus's papers, in corpus order (a stable map's papers are found by id)."""
        with self.connect() as conn:
            return [r[0] for r in conn.execute("SELECT pid FROM papers WHERE corpus = ? ORDER BY seq", (corpus,))]

    def paper_hashes(self, corpus: str) -> list[str]:
        """Text hashes of a corpus's papers, in corpus order."""
        with self.connect() as conn:
            return [
                r[0]
                for r in conn.execute(
                    "SELECT hash FROM papers WHERE corpus = ? ORDER BY seq", (corpus,)
                ).fetchall()
            ]
