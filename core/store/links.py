"""Citation links of a corpus: the links table, reading reference lists into it, and looking links up.

A paper's references come from a ``references`` field (a JSON list of ids, or ids joined by ``;`` or ``|``; also
read under the names S2 and OpenAlex use: ``outbound_citations``, ``referenced_works``, ...) or, for JATS / PMC full
text, from its ``<ref-list>`` (each reference a dict of its DOI, PMID and PMCID). Only id-like references become
links: a field whose references are mostly free text (Scopus "References", Web of Science "CR": "Smith J., 2001,
Nature, 12, p. 345") is no list of ids, so it is kept in the paper's fields as exported and counted once in the
import report as free-text references (not links), never as malformed ids. An import keeps the cleaned list in
the paper's fields and stores one row ``links(corpus, src, dst)`` per reference whose target is a paper of the same
corpus, matched by id, DOI, PMID or PMCID. Links to papers not (yet) in the corpus are dropped and reported; every
import re-resolves the stored lists, so a later import that brings the cited papers in adds those links.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS links (corpus TEXT, src TEXT, dst TEXT, PRIMARY KEY (corpus, src, dst));
CREATE INDEX IF NOT EXISTS links_dst ON links(corpus, dst);
"""

REFERENCES = "references"
# field names (lower-cased, as papers keep them) read as a paper's reference list, the first found wins
REFERENCE_FIELDS = (REFERENCES, "refs", "reference_ids", "cited_ids", "outbound_citations", "referenced_works",
                    "cites", "cited_references", "cited references", "cr")  # the last three: Web of Science
MAX_ID_CHARS = 300
_PLACEHOLDERS = frozenset(("", "0", "na", "n/a", "nan", "null", "none", "-"))
_BAD_ID = re.compile(r"[\s\x00-\x1f\x7f]")
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)
_ID_KINDS = ("doi", "pmid", "pmcid")
DROP_REASONS = ("not in corpus", "malformed id", "self-link", "duplicate")
CITE_HELD_OUT = 0.2  # share of citing papers held out as query papers (evaluation) and kept out of training triplets


_SPACE = re.compile(r"\S\s+\S")  # white space inside a reference: a citation written out, not an id


@dataclass(frozen=True)
class FreeText:
    """A paper's reference field that is free text, not ids: the field's name (travels with the malformed items
    from `take_references` to `link_import`)."""

    field: str


def _clean_id(value: Any) -> str | None:
    """One reference id as text, or None when it is malformed (not text or a number, empty, spaced, too long)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            return None
    text = str(value).strip()
    if text.lower() in _PLACEHOLDERS or len(text) > MAX_ID_CHARS or _BAD_ID.search(text):
        return None
    return text


def _clean_item(item: Any) -> str | dict[str, str] | None:
    """A reference: an id, or a dict of alternative ids (doi, pmid, pmcid, id); None when malformed."""
    if isinstance(item, dict):
        ids = {k: v for k, v in ((str(k).lower(), _clean_id(v)) for k, v in item.items()) if v is not None
               and k in (*_ID_KINDS, "id")}
        return ids or None
    return _clean_id(item)


def _items(value: Any) -> list[Any]:
    """A reference field's items as `parse_references` splits them (JSON text decoded, other text split at ; or |)."""
    if value is None or (isinstance(value, float) and value != value):
        return []
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                decoded = json.loads(text)
            except (ValueError, RecursionError):
                return [text]
            return decoded if isinstance(decoded, list) else [decoded]
        return [part for part in re.split(r"[;|]", text) if part.strip()]
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def is_free_text(value: Any) -> bool:
    """Whether a reference field's items are mostly free text (white space inside each), not ids."""
    items = _items(value)
    texts = sum(1 for item in items if isinstance(item, str) and _SPACE.search(item.strip()))
    return bool(items) and 2 * texts > len(items)


def _is_count(value: Any) -> bool:
    """Whether a field holds one bare number (a count such as Publish or Perish's ``Cites``), not references."""
    if isinstance(value, float):
        return value.is_integer()
    if isinstance(value, str):
        return value.strip().isdigit()
    return isinstance(value, int) and not isinstance(value, bool)


def parse_references(value: Any) -> tuple[list[str | dict[str, str]], list[str]]:
    """A reference field's ids (in order) and the malformed items as shown text.

    Lists (or JSON lists written as text) are taken item by item; other text is split at ``;`` or ``|``.
    """
    if value is None or (isinstance(value, float) and value != value):
        return [], []
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                value = json.loads(text)
            except (ValueError, RecursionError):
                return [], [text[:60]]
        else:
            value = [part for part in re.split(r"[;|]", text) if part.strip()]
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, (list, tuple)):
        value = [value]
    good: list[str | dict[str, str]] = []
    bad: list[str] = []
    for item in value:
        cleaned = _clean_item(item)
        if cleaned is None:
            bad.append(str(item.get("text") or item if isinstance(item, dict) else item)[:60])
        else:
            good.append(cleaned)
    return good, bad


def take_references(fields: dict[str, Any]) -> tuple[bool, list[str | dict[str, str]], list[str]]:
    """Take a paper's reference field out of ``fields`` and put the cleaned list back under ``references``.

    Returns (whether the paper had one, its references, its malformed items). A field of free-text references
    stays in ``fields`` as it is and comes back as no references and one `FreeText` item.
    """
    if fields.keys().isdisjoint(REFERENCE_FIELDS):  # most papers: one set test, no loop
        return False, [], []
    name = next((n for n in REFERENCE_FIELDS if n in fields), None)
    if name is None or (name not in REFERENCE_FIELDS[:7] and not _items(fields[name])):
        return False, [], []  # an empty Web of Science column is no reference field
    if name == "cites" and _is_count(fields[name]):
        return False, [], []  # Publish or Perish's "Cites": how often the paper was cited, kept as a field
    if is_free_text(fields[name]):  # kept in the fields as exported; reported once, as free text, by link_import
        return True, [], [FreeText(name)]
    refs, bad = parse_references(fields.pop(name))
    fields[REFERENCES] = refs
    return True, refs, bad


def _norm_doi(text: str) -> str:
    return _DOI_PREFIX.sub("", text.strip()).lower()


def _norm_pmcid(text: str) -> str:
    text = text.strip().upper()
    return text if text.startswith("PMC") else f"PMC{text}"


def _keys(kind: str, value: str) -> list[str]:
    """Lookup keys of one id of a paper or of a reference."""
    value = str(value).strip()
    if kind == "doi":
        return [f"doi:{_norm_doi(value)}"]
    if kind == "pmid":
        return [f"pmid:{value}"] if value.isdigit() else []
    if kind == "pmcid":
        return [f"pmcid:{_norm_pmcid(value)}"]
    keys = [f"id:{value}"]
    lowered = value.lower()
    if lowered.startswith(("10.", "doi:", "https://doi.org/", "http://doi.org/", "http://dx.doi.org/",
                           "https://dx.doi.org/")):
        keys.append(f"doi:{_norm_doi(value)}")
    elif lowered.startswith("pmc") and value[3:].isdigit():
        keys.append(f"pmcid:{_norm_pmcid(value)}")
    elif lowered.startswith("pmid:") and value[5:].strip().isdigit():
        keys.append(f"pmid:{value[5:].strip()}")
    return keys


def _reference_keys(ref: str | dict[str, str]) -> list[str]:
    if isinstance(ref, dict):
        return [key for kind, value in ref.items() for key in _keys(kind, value)]
    return _keys("id", ref)


def shown(ref: str | dict[str, str]) -> str:
    """A reference as one short text for reports."""
    if isinstance(ref, dict):
        return ", ".join(f"{k} {v}" for k, v in ref.items())
    return ref


@dataclass
class LinkReport:
    """What an import did with reference lists: links read, kept and dropped (by reason), and the rows to warn."""

    read: int = 0
    kept: int = 0
    dropped: Counter = field(default_factory=Counter)
    papers: int = 0  # papers of this import with a reference field
    added_earlier: int = 0  # links of papers imported before whose cited papers this import brought in
    rows: list[tuple[int, str]] = field(default_factory=list)  # (row, reason) for the import's warnings
    free_text_papers: int = 0  # papers with free-text references (Scopus "References", Web of Science "CR")
    free_text_fields: list[str] = field(default_factory=list)

    def free_text_sentence(self) -> str:
        """One sentence on the free-text references of an import ("" when there were none)."""
        if not self.free_text_papers:
            return ""
        papers = "paper" if self.free_text_papers == 1 else "papers"
        names = " and ".join(f"'{name}'" for name in self.free_text_fields)
        where = "field" if len(self.free_text_fields) == 1 else "fields"
        return (f"free-text references (not links) in {self.free_text_papers:,} {papers}, "
                f"kept as written in the {where} {names}; only id-like references (DOI, PMID, PMCID, ids of this "
                "corpus) become citation links")

    def to_dict(self) -> dict[str, Any]:
        return {"read": self.read, "kept": self.kept, "dropped": sum(self.dropped.values()),
                "reasons": {r: self.dropped.get(r, 0) for r in DROP_REASONS}, "papers": self.papers,
                "added_from_earlier_imports": self.added_earlier,
                "free_text": {"papers": self.free_text_papers,
                              "fields": list(self.free_text_fields), "sentence": self.free_text_sentence()}}


def _alias_map(conn: sqlite3.Connection, corpus: str) -> dict[str, str]:
    """Lookup key -> paper id for every paper of the corpus (its id, and its DOI, PMID, PMCID fields)."""
    aliases: dict[str, str] = {}
    rows = conn.execute(
        "SELECT pid, json_extract(fields, '$.doi') AS doi, json_extract(fields, '$.pmid') AS pmid, "
        "json_extract(fields, '$.pmcid') AS pmcid FROM papers WHERE corpus = ?", (corpus,)).fetchall()
    for row in rows:  # ids first: an id never gives way to another paper's DOI
        aliases[f"id:{row['pid']}"] = row["pid"]
    for row in rows:
        for kind in _ID_KINDS:
            value = row[kind]
            if value is not None and not isinstance(value, (bytes,)) and str(value).strip():
                for key in _keys(kind, str(value)):
                    aliases.setdefault(key, row["pid"])
        for key in _keys("id", row["pid"])[1:]:
            aliases.setdefault(key, row["pid"])
    return aliases


def _resolve(aliases: dict[str, str], ref: str | dict[str, str]) -> str | None:
    return next((aliases[k] for k in _reference_keys(ref) if k in aliases), None)


def link_import(conn: sqlite3.Connection, corpus: str, pending: list[tuple[int, str, list, list[Any]]],
                fresh: bool = False) -> LinkReport:
    """Store the links of this import's papers and re-resolve the stored lists of the others.

    ``pending``: (source row, duplicate key of the paper, its references, its malformed items) per row with a
    reference field; the duplicate key finds the paper the row became (added, renamed or merged into).
    ``fresh``: the corpus had no papers before this import, so no stored list waits for its papers.
    """
    report = LinkReport()
    if not pending and (fresh or not conn.execute(
            "SELECT 1 FROM papers WHERE corpus = ? AND json_type(fields, '$.references') = 'array' LIMIT 1",
            (corpus,)).fetchone()):
        return report
    aliases = _alias_map(conn, corpus)
    by_key: dict[str, str] = {}
    keys = sorted({p[1] for p in pending})
    for start in range(0, len(keys), 500):
        part = keys[start:start + 500]
        by_key.update(conn.execute(
            f"SELECT dkey, pid FROM papers WHERE corpus = ? AND dkey IN ({','.join('?' * len(part))})",
            (corpus, *part)).fetchall())
    seen: set[tuple[str, str]] = set()
    new: list[tuple[str, str, str]] = []
    for row, dkey, refs, bad in pending:
        free = [item for item in bad if isinstance(item, FreeText)]
        if free:  # free text is no list of ids: counted once for the whole import, no row warning
            report.free_text_papers += 1
            report.free_text_fields.extend(f.field for f in free if f.field not in report.free_text_fields)
            bad = [item for item in bad if not isinstance(item, FreeText)]
            if not refs and not bad:
                continue
        report.papers += 1
        src = by_key.get(dkey)
        reasons: Counter = Counter()
        missing: list[str] = []
        report.read += len(refs) + len(bad)
        if bad:
            reasons["malformed id"] += len(bad)
        for ref in refs:
            dst = _resolve(aliases, ref)
            if dst is None or src is None:
                reasons["not in corpus"] += 1
                missing.append(shown(ref))
            elif dst == src:
                reasons["self-link"] += 1
            elif (src, dst) in seen:
                reasons["duplicate"] += 1
            else:
                seen.add((src, dst))
                new.append((corpus, src, dst))
                report.kept += 1
        report.dropped.update(reasons)
        if sum(reasons.values()):
            parts = [f"{n} {reason}" for reason, n in reasons.items() if n]
            detail = []
            if missing:
                detail.append("not in the corpus: " + ", ".join(missing[:3]) + (", ..." if len(missing) > 3 else ""))
            if bad:
                detail.append("malformed: " + ", ".join(repr(b) for b in bad[:3]) + (", ..." if len(bad) > 3 else ""))
            report.rows.append((row, f"{sum(reasons.values())} of {len(refs) + len(bad)} references dropped "
                                     f"({'; '.join(parts)})" + (f" — {'; '.join(detail)}" if detail else "")))
    conn.executemany("INSERT OR IGNORE INTO links(corpus, src, dst) VALUES (?, ?, ?)", new)
    before = conn.total_changes
    earlier = []
    for pid, refs in conn.execute(
            "SELECT pid, json_extract(fields, '$.references') FROM papers WHERE corpus = ? "
            "AND json_type(fields, '$.references') = 'array'", (corpus,)):
        for ref in json.loads(refs):
            dst = _resolve(aliases, ref)
            if dst is not None and dst != pid and (pid, dst) not in seen:
                earlier.append((corpus, pid, dst))
    conn.executemany("INSERT OR IGNORE INTO links(corpus, src, dst) VALUES (?, ?, ?)", earlier)
    report.added_earlier = conn.total_changes - before
    return report


def citation_graph(ids: list[str], pairs: Iterable[tuple[str, str]]) -> dict[int, list[int]]:
    """Citing paper -> cited papers, as positions into ``ids`` (pairs naming other ids are left out)."""
    position = {pid: i for i, pid in enumerate(ids)}
    graph: dict[int, list[int]] = {}
    for src, dst in pairs:
        a, b = position.get(src), position.get(dst)
        if a is not None and b is not None and a != b:
            graph.setdefault(a, []).append(b)
    return {k: sorted(set(v)) for k, v in graph.items()}


def is_cite_query(pid: str, seed: int = 0, fraction: float = CITE_HELD_OUT) -> bool:
    """Whether a paper is a held-out citation query paper under the seeded split by paper (stable everywhere)."""
    digest = hashlib.blake2b(f"cite:{seed}:{pid}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64 < fraction


def citation_split(ids: list[str], cites: dict[int, list[int]], seed: int = 0,
                   fraction: float = CITE_HELD_OUT) -> tuple[list[int], list[int]]:
    """(training, held-out) citing papers as sorted positions: the split evaluation and training share.

    A held-out paper's outgoing links are query material only: training never draws triplets from them.
    """
    train, held = [], []
    for q in sorted(cites):
        (held if is_cite_query(ids[q], seed, fraction) else train).append(q)
    return train, held


class LinksMixin:
    """The `Store` methods for citation links."""

    def link_count(self, corpus: str) -> int:
        with self.connect() as conn:
            return int(conn.execute("SELECT COUNT(*) FROM links WHERE corpus = ?", (corpus,)).fetchone()[0])

    def link_counts(self) -> dict[str, int]:
        """Links per corpus (corpora without links are absent)."""
        with self.connect() as conn:
            return dict(conn.execute("SELECT corpus, COUNT(*) FROM links GROUP BY corpus").fetchall())

    def links(self, corpus: str) -> list[tuple[str, str]]:
        """All (citing id, cited id) pairs of a corpus, sorted."""
        with self.connect() as conn:
            return [(r[0], r[1]) for r in conn.execute(
                "SELECT src, dst FROM links WHERE corpus = ? ORDER BY src, dst", (corpus,)).fetchall()]

    def references_of(self, corpus: str, pid: str) -> list[str]:
        """Ids of the corpus papers that a paper cites."""
        with self.connect() as conn:
            return [r[0] for r in conn.execute(
                "SELECT dst FROM links WHERE corpus = ? AND src = ? ORDER BY dst", (corpus, pid)).fetchall()]

    def cited_by(self, corpus: str, pid: str) -> list[str]:
        """Ids of the corpus papers that cite a paper."""
        with self.connect() as conn:
            return [r[0] for r in conn.execute(
                "SELECT src FROM links WHERE corpus = ? AND dst = ? ORDER BY src", (corpus, pid)).fetchall()]

    def add_links(self, corpus: str, pairs: Iterable[tuple[str, str]]) -> int:
        """Store (citing, cited) pairs between papers of the corpus as they are; how many were new."""
        with self.transaction() as conn:
            before = conn.total_changes
            conn.executemany("INSERT OR IGNORE INTO links(corpus, src, dst) VALUES (?, ?, ?)",
                             [(corpus, s, d) for s, d in pairs if s != d])
            return conn.total_changes - before
