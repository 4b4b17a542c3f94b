"""The trash: a deleted corpus or model is moved aside whole, listed, restorable, and gone for good only when the
trash is emptied or after `Store.TRASH_KEEP_DAYS`.

A corpus in the trash keeps its rows (papers, figures, links, topic names) under the key ``#trash:<id>``, which no
corpus name can take (names start with a letter or digit), and its array files (maps, indexes) in
``trash/<id>/``; its cached embeddings stay where they are (they are keyed by text). A model in the trash keeps its
catalog entry in the trash row and its folder in ``trash/<id>/``. A collection in the trash keeps its row under the
trash key and its entries (core.store.collections). Restoring moves everything back.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from core.display import plural
from core.errors import CorpusError, NotFoundError

SCHEMA = """
CREATE TABLE IF NOT EXISTS trash (
    id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT, name TEXT, deleted REAL, papers INTEGER DEFAULT 0,
    detail TEXT DEFAULT '{}'
);
"""
TRASH_PREFIX = "#trash:"
# rows keyed by a `corpus` column
CORPUS_TABLES = ("papers", "figures", "links", "topic_names", "paper_keys", "merged_records")
_FINGERPRINT = r"[0-9a-f]{16}"  # models.fingerprint(): every derived array's key starts with it


def _array_pattern(slug: str) -> re.Pattern[str]:
    """The names of one corpus slug's array files: `<slug>-<fingerprint>-v<version>...`."""
    return re.compile(re.escape(slug) + "-(" + _FINGERPRINT + r"-v\d+\b.*)$")


@dataclass(frozen=True)
class TrashItem:
    """One deleted corpus or model: what it was, when it went, and how much it held."""

    id: int
    kind: str  # "corpus" | "model" | "collection" | "papers"
    name: str
    deleted: float
    papers: int
    links: int = 0
    figures: int = 0
    files: int = 0
    corpus: str = ""  # a collection's or deleted papers' corpus

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def describe(self) -> str:
        """One line a page or the CLI shows: what this item is and what it holds."""
        if self.kind == "model":
            return f"model {self.name!r}"
        if self.kind == "collection":
            return f"collection {self.name!r} of corpus {self.corpus!r} ({plural(self.papers, 'paper')})"
        if self.kind == "papers":
            more = f" and {plural(self.papers - 1, 'other paper')}" if self.papers > 1 else ""
            return f"paper {self.name!r}{more} of corpus {self.corpus!r}"
        parts = [plural(self.papers, "paper")]
        parts += [plural(n, what) for n, what in ((self.links, "link"), (self.figures, "figure")) if n]
        return f"corpus {self.name!r} ({', '.join(parts)})"


def trash_key(item_id: int) -> str:
    """The corpus key the rows of a trashed corpus carry."""
    return f"{TRASH_PREFIX}{item_id}"


def _refuse_if_in_use(conn: Any, needle: str, what: str) -> None:
    """One sentence naming the queued or running job whose arguments hold `needle`, if any."""
    running = conn.execute("SELECT id FROM jobs WHERE status IN ('queued', 'running') AND instr(args, ?) > 0",
                           (needle,)).fetchone()
    if running:
        raise CorpusError(f"{what} is in use by job {running['id']}; cancel it first")


class TrashMixin:
    """The `Store` methods for deleting corpora and models into the trash, listing, restoring, emptying it."""

    TRASH_KEEP_DAYS = 30.0  # an item older than this is emptied when something else is deleted (at least 7 days)

    @property
    def trash_dir(self) -> Path:
        return self.root / "trash"

    # -- delete ------------------------------------------------------------------------------
    def delete_corpus(self, name: str) -> TrashItem:
        """Move a corpus, its papers, links, figures, topic names and maps to the trash; restore_corpus undoes it."""
        self.corpus(name)  # an unknown corpus says so, naming the known ones
        self._purge_expired()
        with self.transaction() as conn:
            _refuse_if_in_use(conn, f'"corpus": {json.dumps(name)}', f"corpus {name!r}")
            count = {t: conn.execute(f"SELECT COUNT(*) FROM {t} WHERE corpus = ?", (name,)).fetchone()[0]
                     for t in ("papers", "links", "figures")}
            cur = conn.execute(
                "INSERT INTO trash(kind, name, deleted, papers, detail) VALUES ('corpus', ?, ?, ?, ?)",
                (name, time.time(), count["papers"], json.dumps({"links": count["links"],
                                                                   "figures": count["figures"]})),
            )
            item_id = int(cur.lastrowid)
            key = trash_key(item_id)
            for table in CORPUS_TABLES:
                conn.execute(f"UPDATE {table} SET corpus = ? WHERE corpus = ?", (key, name))
            conn.execute("UPDATE corpora SET name = ? WHERE name = ?", (key, name))
        others = [self.corpus_slug(c.name) for c in self.corpora()]
        moved = self._move_arrays(self.corpus_slug(name), self.arrays, self.trash_dir / str(item_id), others=others)
        self._set_detail(item_id, files=moved)
        return self.trash_item(item_id)

    def delete_model(self, name: str) -> TrashItem:
        """Move a saved (fine-tuned) model's entry and folder to the trash; restore_model undoes it."""
        with self.connect() as conn:
            row = conn.execute("SELECT spec, created FROM models WHERE name = ?", (name,)).fetchone()
        if row is None:
            known = ", ".join(m["name"] for m in self.saved_models()) or "none"
            raise NotFoundError(f"there is no saved model named {name!r} (saved models: {known})")
        self._purge_expired()
        spec = json.loads(row["spec"])
        with self.transaction() as conn:
            _refuse_if_in_use(conn, json.dumps(name), f"model {name!r}")
            cur = conn.execute(
                "INSERT INTO trash(kind, name, deleted, papers, detail) VALUES ('model', ?, ?, 0, ?)",
                (name, time.time(), json.dumps({"spec": spec, "created": row["created"]})),
            )
            item_id = int(cur.lastrowid)
            conn.execute("DELETE FROM models WHERE name = ?", (name,))
        folder = Path(spec.get("location") or "")
        if folder.is_dir() and folder.resolve().parent == self.models_dir.resolve():
            target = self.trash_dir / str(item_id) / folder.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(folder), str(target))
            self._set_detail(item_id, folder=folder.name)
        return self.trash_item(item_id)

    # -- list ---------------------------------------------------------------------------------
    def trash(self) -> list[TrashItem]:
        """What the trash holds, newest first."""
        with self.connect() as conn:
            rows = conn.execute("SELECT * FROM trash ORDER BY id DESC").fetchall()
        return [self._item(r) for r in rows]

    def trash_item(self, item_id: int) -> TrashItem:
        """One trashed item by id, or NotFoundError naming what the trash holds."""
        row = None
        if -2**63 <= int(item_id) < 2**63:  # past SQLite's integers no item can have the id (was an OverflowError)
            with self.connect() as conn:
                row = conn.execute("SELECT * FROM trash WHERE id = ?", (int(item_id),)).fetchone()
        if row is None:
            raise NotFoundError(f"the trash has no item {item_id} (trash: {self._held()})")
        return self._item(row)

    @staticmethod
    def _item(row: Any) -> TrashItem:
        detail = json.loads(row["detail"] or "{}")
        return TrashItem(id=int(row["id"]), kind=row["kind"], name=row["name"], deleted=float(row["deleted"]),
                         papers=int(row["papers"] or 0), links=int(detail.get("links", 0)),
                         figures=int(detail.get("figures", 0)), files=int(detail.get("files", 0)),
                         corpus=str(detail.get("corpus", "")))

    def find_in_trash(self, ref: str | int) -> TrashItem:
        """A trashed item by id (3 or "3") or by name (the newest of that name), or NotFoundError naming what the
        trash holds."""
        if isinstance(ref, int) or str(ref).isdigit():
            return self.trash_item(int(ref))
        hit = next((i for i in self.trash() if i.name == ref), None)
        if hit is None:
            raise NotFoundError(f"the trash holds nothing named {ref!r} (trash: {self._held()})")
        return hit

    def _held(self) -> str:
        return ", ".join(f"{i.id} ({i.kind} {i.name})" for i in self.trash()) or "it is empty"

    # -- restore ------------------------------------------------------------------------------
    def restore(self, item_id: int, as_name: str | None = None) -> TrashItem:
        """Bring a trashed corpus or model back whole (under `as_name` if its name is taken now)."""
        item = self.trash_item(item_id)
        if item.kind == "collection":  # core.store.collections
            return self._restore_collection(item, as_name)
        if item.kind == "papers":  # core.store.paper_trash
            return self._restore_papers(item)
        return self._restore_model(item, as_name) if item.kind == "model" else self._restore_corpus(item, as_name)

    def _restore_corpus(self, item: TrashItem, as_name: str | None) -> TrashItem:
        from core.store.files import check_name

        name = check_name(as_name, "corpus name") if as_name else item.name
        key = trash_key(item.id)
        with self.transaction() as conn:
            if conn.execute("SELECT 1 FROM corpora WHERE name = ?", (name,)).fetchone():
                raise CorpusError(f"a corpus named {name!r} exists now; restore this one under another name "
                                  f"(restore {item.id} --as NEW-NAME) or delete that one first")
            for table in CORPUS_TABLES:
                conn.execute(f"UPDATE {table} SET corpus = ? WHERE corpus = ?", (name, key))
            conn.execute("UPDATE corpora SET name = ? WHERE name = ?", (name, key))
            conn.execute("DELETE FROM trash WHERE id = ?", (item.id,))
        self._move_arrays(self.corpus_slug(item.name), self.trash_dir / str(item.id), self.arrays,
                          new_slug=self.corpus_slug(name))
        shutil.rmtree(self.trash_dir / str(item.id), ignore_errors=True)
        return TrashItem(**{**item.to_dict(), "name": name})

    def _restore_model(self, item: TrashItem, as_name: str | None) -> TrashItem:
        from core.store.files import check_name

        name = check_name(as_name, "model name") if as_name else item.name
        with self.connect() as conn:
            detail = json.loads(conn.execute("SELECT detail FROM trash WHERE id = ?", (item.id,)).fetchone()[0])
        spec = dict(detail["spec"])
        folder = detail.get("folder")
        if folder:
            source = self.trash_dir / str(item.id) / folder
            target = Path(spec["location"])
            if target.exists():
                raise CorpusError(f"the folder {target.name!r} of model {item.name!r} exists again; "
                                  "move it away before restoring")
            shutil.move(str(source), str(target))
        with self.transaction() as conn:
            if conn.execute("SELECT 1 FROM models WHERE name = ?", (name,)).fetchone():
                raise CorpusError(f"a model named {name!r} exists now; restore this one under another name")
            conn.execute("INSERT INTO models(name, spec, created) VALUES (?, ?, ?)",
                         (name, json.dumps({**spec, "name": name}), detail.get("created") or time.time()))
            conn.execute("DELETE FROM trash WHERE id = ?", (item.id,))
        shutil.rmtree(self.trash_dir / str(item.id), ignore_errors=True)
        return TrashItem(**{**item.to_dict(), "name": name})

    # -- empty --------------------------------------------------------------------------------
    def empty_trash(self, item_id: int | None = None) -> list[TrashItem]:
        """Delete for good one trashed item, or all of them; what was deleted."""
        items = [self.trash_item(item_id)] if item_id is not None else self.trash()
        for item in items:
            with self.transaction() as conn:
                if item.kind == "corpus":
                    key = trash_key(item.id)
                    for table in CORPUS_TABLES:
                        conn.execute(f"DELETE FROM {table} WHERE corpus = ?", (key,))
                    conn.execute("DELETE FROM corpora WHERE name = ?", (key,))
                elif item.kind == "collection":
                    self._forget_collection(conn, trash_key(item.id))
                elif item.kind == "papers":
                    self._forget_papers(conn, trash_key(item.id))
                conn.execute("DELETE FROM trash WHERE id = ?", (item.id,))
            shutil.rmtree(self.trash_dir / str(item.id), ignore_errors=True)
        return items

    def _purge_expired(self) -> None:
        cutoff = time.time() - self.TRASH_KEEP_DAYS * 86400
        for item in self.trash():
            if item.deleted < cutoff:
                self.empty_trash(item.id)

    # -- files --------------------------------------------------------------------------------
    def _set_detail(self, item_id: int, **values: Any) -> None:
        with self.connect() as conn:
            detail = json.loads(conn.execute("SELECT detail FROM trash WHERE id = ?", (item_id,)).fetchone()[0])
            conn.execute("UPDATE trash SET detail = ? WHERE id = ?", (json.dumps({**detail, **values}), item_id))

    @staticmethod
    def _move_arrays(slug: str, source: Path, target: Path, new_slug: str | None = None,
                     others: list[str] | tuple[str, ...] = ()) -> int:
        """Move a corpus's array files (`<slug>-<fingerprint>-v<version>...` in each sub-folder) between folders.

        A name can read as two corpora's: 'a-<fp>-v1-<fp>-v2.npy' is corpus 'a-<fp>-v1''s as well as 'a''s. It
        belongs to the longest slug it fits, so the slugs of the `others` (the corpora left in the workspace) that
        extend this one claim their files first (issue 41: deleting 'a' once moved another corpus's maps)."""
        own = _array_pattern(slug)
        longer = [_array_pattern(o) for o in others if o != slug and o.startswith(slug + "-")]
        moved = 0
        if not source.is_dir():
            return 0
        for path in source.glob("*/*"):
            hit = own.match(path.name)
            if not hit or not path.is_file() or any(p.match(path.name) for p in longer):
                continue
            if path.parent.name == "frames":  # what a read of the catalog saved (core/store/frame_file.py): made
                path.unlink(missing_ok=True)  # again from the restored catalog, never one of the corpus's files
                continue
            name = f"{new_slug}-{hit.group(1)}" if new_slug else path.name
            destination = target / path.parent.name / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            path.replace(destination)
            moved += 1
        return moved
