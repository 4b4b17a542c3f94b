"""Where each paper came from: its source records (file, row, database, ids), the merges, the overlap between
databases, and undoing a merge.

Every paper keeps the import and row it was added from (``papers.import_id``, ``papers.srow``); every record merged
into it is kept whole in ``merged_records`` (`core.store.merging`). From those:

- `paper_sources`: a paper's source records, first the one it was added from, then each merged record with the
  rule that merged it;
- `merges`: every merge of a corpus (or of some imports) as rows for a table or a CSV;
- `overlap`: papers per database, found by 1, 2, … databases, unique to each, and the pairwise matrix (what
  CiteSource is used for);
- `split_record`: undo one merge — the merged record becomes a paper of its own again, and the paper gives back
  the fields (and the abstract) it took from it.

A file's database is read from the file's name and the reader's own marks (`database_of`).
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from core.errors import CorpusError, NotFoundError
from core.io.rows import ShownRows
from core.records import text_hash
from core.store.generic_titles import text_key
from core.store.identity import match_keys
from core.store.merging import DOI_AS_EXPORTED, TEXT_RULE, doi_key

# words in a file's name (or a record's database field) -> the database it came from, first match wins
_DATABASES = (
    ("pubmed", "PubMed"), ("medline", "PubMed"), ("pmc", "PubMed Central"), ("scopus", "Scopus"),
    ("webofscience", "Web of Science"), ("web of science", "Web of Science"), ("wos", "Web of Science"),
    ("savedrecs", "Web of Science"), ("embase", "Embase"), ("cinahl", "CINAHL"), ("cochrane", "Cochrane"),
    ("psycinfo", "PsycInfo"), ("psychinfo", "PsycInfo"), ("eric", "ERIC"), ("openalex", "OpenAlex"),
    ("lens", "Lens"), ("dimensions", "Dimensions"), ("googlescholar", "Google Scholar"),
    ("google scholar", "Google Scholar"), ("scholar", "Google Scholar"), ("ieee", "IEEE Xplore"),
    ("semanticscholar", "Semantic Scholar"), ("inspire", "INSPIRE-HEP"), ("arxiv", "arXiv"), ("scielo", "SciELO"),
    ("ebsco", "EBSCO"),
    ("proquest", "ProQuest"), ("jstor", "JSTOR"), ("mdpi", "MDPI"), ("acm", "ACM"), ("dblp", "DBLP"),
    ("crossref", "Crossref"), ("datacite", "DataCite"), ("istex", "ISTEX"),
)


# a field only one database's export has -> that database
_MARKER_FIELDS = (("lens id", "Lens"), ("eid", "Scopus"), ("ut unique wos id", "Web of Science"),
                  ("ut", "Web of Science"), ("dimensions url", "Dimensions"), ("publication id", "Dimensions"),
                  ("openalex id", "OpenAlex"), ("corpus id", "Semantic Scholar"), ("covidence", "Covidence"),
                  ("inspire", "INSPIRE-HEP"))


def _known(text: str) -> str | None:
    words = re.sub(r"[^a-z]+", " ", (text or "").lower())
    squashed = words.replace(" ", "")
    for needle, name in _DATABASES:
        if (" " in needle and needle in words) or re.search(rf"\b{needle}\b", words) or (
                len(needle) > 5 and needle in squashed):
            return name
    return None


def database_of(file: str, fields: dict[str, Any] | None = None) -> str:
    """The database a file came from: by the words of its name ('_baseline_scopus.ris' -> 'Scopus'), else by a
    record of it (a 'Lens ID' column, RIS 'DB'/'DP' naming the database); the file's name itself when neither says
    (each file is then its own source)."""
    known = _known(file)
    if known is None and fields:
        for key in ("name_of_database", "database_provider", "database", "longdbname", "data source", "source"):
            value = fields.get(key)
            if isinstance(value, str) and (known := _known(value)):
                break
        else:
            known = next((name for marker, name in _MARKER_FIELDS if marker in fields), None)
    return known or file or "(unknown file)"


def import_databases(conn: sqlite3.Connection, imports: set[int]) -> dict[int, str]:
    """The database of each of these imports (see `database_of`)."""
    return _databases(conn, _files(conn), imports)


def _databases(conn: sqlite3.Connection, files: dict[int, str], imports: set[int]) -> dict[int, str]:
    """The database of each import, by its file's name or one of its records."""
    out: dict[int, str] = {}
    for import_id in imports:
        file = files.get(import_id, "")
        if _known(file):
            out[import_id] = _known(file) or file
            continue
        row = conn.execute("SELECT fields FROM papers WHERE import_id = ? LIMIT 1", (import_id,)).fetchone() or \
            conn.execute("SELECT fields FROM merged_records WHERE import_id = ? LIMIT 1", (import_id,)).fetchone()
        out[import_id] = database_of(file, json.loads(row[0] or "{}") if row else None)
    return out


@dataclass(frozen=True)
class SourceRecord:
    """One record a paper came from."""

    file: str
    row: int | None
    database: str
    id: str
    rule: str  # "added" for the record the paper was added from, else the rule that merged it
    record: int | None = None  # the merged record's number (for `split_record`); None for the first record
    title: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "row": self.row, "database": self.database, "id": self.id, "rule": self.rule,
                "record": self.record, "title": self.title}


def _files(conn: sqlite3.Connection) -> dict[int, str]:
    return {r[0]: r[1] or "" for r in conn.execute("SELECT id, file FROM imports")}


def _shown_rows(conn: sqlite3.Connection, imports: set[int]) -> dict[int, ShownRows]:
    """How each import's stored rows (record numbers, which split ids are built from) are shown: a CSV/TSV/xlsx
    record by the row a spreadsheet shows it on (the offsets its report kept), any other by its number."""
    out: dict[int, ShownRows] = {}
    for import_id in imports:
        row = conn.execute("SELECT report FROM imports WHERE id = ?", (import_id,)).fetchone()
        try:
            report = json.loads(row[0]) if row and row[0] else {}
        except ValueError:
            report = {}
        out[import_id] = ShownRows.from_list(report.get("row_offsets") if isinstance(report, dict) else None)
    return out


def _shown(shown: dict[int, ShownRows], import_id: int | None, row: int | None) -> int | None:
    return shown[import_id](row) if row is not None and import_id in shown else row


def paper_sources(conn: sqlite3.Connection, corpus: str, pid: str) -> list[SourceRecord]:
    """Every source record of one paper: the one it was added from, then each record merged into it."""
    row = conn.execute("SELECT seq, pid, title, import_id, srow FROM papers WHERE corpus = ? AND pid = ?",
                       (corpus, pid)).fetchone()
    if row is None:
        raise NotFoundError(f"corpus {corpus!r} has no paper with id {pid!r}")
    files = _files(conn)
    seq, _, title, import_id, srow = tuple(row)
    merged = conn.execute("SELECT id, pid, import_id, srow, rule, title FROM merged_records WHERE corpus = ? AND "
                          "seq = ? ORDER BY id", (corpus, seq)).fetchall()
    dbs = _databases(conn, files, {import_id, *(m[2] for m in merged)} - {None})
    shown = _shown_rows(conn, {import_id, *(m[2] for m in merged)} - {None})
    out = [SourceRecord(files.get(import_id, ""), _shown(shown, import_id, srow),
                        dbs.get(import_id, "(earlier import)"), pid, "added", None, title)]
    for rid, mid, mimport, mrow, rule, mtitle in merged:
        out.append(SourceRecord(files.get(mimport, ""), _shown(shown, mimport, mrow), dbs.get(mimport, ""), mid, rule,
                                rid, mtitle))
    return out


def merges(conn: sqlite3.Connection, corpus: str, imports: list[int] | None = None) -> list[dict[str, Any]]:
    """Every merge of a corpus (or of the given imports): the merged record (file, row, id, title), the paper it
    went into (id, file, row, title), and the rule. The rows of a merges table or its CSV."""
    files = _files(conn)
    where, args = "", [corpus]
    if imports:
        where = f" AND m.import_id IN ({','.join('?' * len(imports))})"
        args += list(imports)
    found = conn.execute(
        "SELECT m.id, m.pid, m.import_id, m.srow, m.title, m.rule, p.pid, p.import_id, p.srow, p.title "
        "FROM merged_records m JOIN papers p ON p.corpus = m.corpus AND p.seq = m.seq "
        f"WHERE m.corpus = ?{where} ORDER BY m.id", args).fetchall()
    shown = _shown_rows(conn, {r[2] for r in found} | {r[7] for r in found} - {None})
    return [{"record": r[0], "file": files.get(r[2], ""), "row": _shown(shown, r[2], r[3]), "id": r[1],
             "title": r[4], "rule": r[5], "into": r[6], "into file": files.get(r[7], ""),
             "into row": _shown(shown, r[7], r[8]), "into title": r[9]} for r in found]


def overlap(conn: sqlite3.Connection, corpus: str) -> dict[str, Any]:
    """Which databases found which papers: ``papers`` (papers each database found), ``unique`` (found by it alone),
    ``by_count`` ({1: papers found by one database, 2: …}), ``pairs`` ({(a, b): papers both found}),
    ``combinations`` ({database set as a sorted tuple: papers}), and ``total``."""
    files = _files(conn)
    own = conn.execute("SELECT seq, import_id FROM papers WHERE corpus = ?", (corpus,)).fetchall()
    merged = conn.execute("SELECT seq, import_id FROM merged_records WHERE corpus = ?", (corpus,)).fetchall()
    dbs = _databases(conn, files, {i for _, i in [*own, *merged] if i is not None})
    found: dict[int, set[str]] = {}
    for seq, import_id in own:
        found[seq] = {dbs[import_id]} if import_id is not None else {"(earlier import)"}
    for seq, import_id in merged:
        if seq in found and import_id is not None:
            found[seq].add(dbs[import_id])
    papers: Counter[str] = Counter()
    unique: Counter[str] = Counter()
    combos: Counter[tuple[str, ...]] = Counter()
    pairs: Counter[tuple[str, str]] = Counter()
    for dbs in found.values():
        papers.update(dbs)
        if len(dbs) == 1:
            unique.update(dbs)
        combos[tuple(sorted(dbs))] += 1
        for a, b in combinations(sorted(dbs), 2):
            pairs[(a, b)] += 1
    by_count = Counter(len(d) for d in found.values())
    return {"total": len(found), "papers": dict(papers.most_common()),
            "unique": {d: unique.get(d, 0) for d in papers}, "by_count": dict(sorted(by_count.items())),
            "pairs": dict(pairs), "combinations": dict(combos.most_common())}


def overlap_rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The overlap as table rows: one per database (papers, unique, share found elsewhere) — the CSV export."""
    total = summary["total"] or 1
    return [{"database": db, "papers": n, "unique to it": summary["unique"].get(db, 0),
             "also in another database": n - summary["unique"].get(db, 0),
             "share of all papers (%)": round(100 * n / total, 1)}
            for db, n in summary["papers"].items()]


def split_record(conn: sqlite3.Connection, corpus: str, record: int) -> str:
    """Undo one merge inside the caller's transaction: the merged record becomes a paper of its own (its own id,
    or ``id~row`` when that is taken), the paper it went into gives back the fields it took from it (those still
    equal to the record's) and, if it took the record's abstract, the abstract. Returns the new paper's id. A
    record merged because its title and abstract were identical cannot be split (nothing tells the two apart)."""
    r = conn.execute("SELECT seq, import_id, srow, pid, title, abstract, fields, rule, filled, took_abstract "
                     "FROM merged_records WHERE corpus = ? AND id = ?", (corpus, record)).fetchone()
    if r is None:
        raise NotFoundError(f"corpus {corpus!r} has no merged record number {record}")
    seq, import_id, srow, pid, title, abstract, fields_json, rule, filled, took_abstract = tuple(r)
    if rule == TEXT_RULE:
        raise CorpusError(f"record {record} (id {pid!r}) has the same title and abstract as the paper it was "
                          "merged into; as two papers they could not be told apart, so it stays merged")
    fields = json.loads(fields_json or "{}")
    paper = conn.execute("SELECT pid, title, abstract, fields FROM papers WHERE corpus = ? AND seq = ?",
                         (corpus, seq)).fetchone()
    target_fields = json.loads(paper[3] or "{}")
    for key in json.loads(filled or "[]"):
        if key in target_fields and target_fields[key] == fields.get(key):
            del target_fields[key]
            if key == "doi" and DOI_AS_EXPORTED in target_fields:  # the paper's own broken DOI text, given back
                target_fields["doi"] = target_fields.pop(DOI_AS_EXPORTED)
    target_abstract = paper[2]
    if took_abstract:
        target_abstract = ""
        target_fields["title_only"] = True
    new_key = text_key(title, abstract, fields, pid)
    clash = conn.execute("SELECT pid FROM papers WHERE corpus = ? AND dkey = ?", (corpus, new_key)).fetchone()
    if clash is not None:
        raise CorpusError(f"record {record} (id {pid!r}) has the same text as paper {clash[0]!r}; it stays merged")
    target_key = text_key(paper[1], target_abstract, target_fields, paper[0])
    conn.execute("UPDATE papers SET abstract = ?, fields = ?, hash = ?, dkey = ?, doi = ? WHERE corpus = ? AND seq = ?",
                 (target_abstract, json.dumps(target_fields, ensure_ascii=False), text_hash(paper[1], target_abstract),
                  target_key, doi_key(target_fields), corpus, seq))
    new_id, n = pid, 2
    while conn.execute("SELECT 1 FROM papers WHERE corpus = ? AND pid = ?", (corpus, new_id)).fetchone():
        new_id, n = (f"{pid}~{srow}" if n == 2 else f"{pid}~{srow}~{n}"), n + 1
    new_seq = conn.execute("SELECT COALESCE(MAX(seq), -1) + 1 FROM papers WHERE corpus = ?", (corpus,)).fetchone()[0]
    conn.execute("INSERT INTO papers(corpus, pid, seq, title, abstract, fields, hash, dkey, doi, import_id, srow) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (corpus, new_id, new_seq, title, abstract, fields_json, text_hash(title, abstract), new_key,
                  doi_key(fields), import_id, srow))
    own = set(match_keys(title, fields, pid))
    others = {k for (keys,) in conn.execute("SELECT keys FROM merged_records WHERE corpus = ? AND seq = ? AND id != ?",
                                            (corpus, seq, record)) for k in json.loads(keys or "[]")}
    kept = set(match_keys(paper[1], target_fields, paper[0])) | others
    conn.executemany("DELETE FROM paper_keys WHERE corpus = ? AND seq = ? AND key = ?",
                     [(corpus, seq, k) for k in own - kept])
    conn.executemany("INSERT INTO paper_keys(corpus, key, seq) VALUES (?, ?, ?)",
                     [(corpus, k, new_seq) for k in own])
    conn.execute("DELETE FROM merged_records WHERE corpus = ? AND id = ?", (corpus, record))
    version = conn.execute("INSERT INTO imports(corpus, file, status, started, finished, report) VALUES "
                           "(?, ?, 'completed', ?, ?, ?)",
                           (corpus, f"split: {new_id}", time.time(), time.time(),
                            json.dumps({"split": record, "paper": new_id, "from": paper[0]}))).lastrowid
    conn.execute("UPDATE corpora SET version = ? WHERE name = ?", (version, corpus))
    return new_id
