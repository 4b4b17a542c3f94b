"""Which fields of a corpus look like labels: per field its distinct values, the rows that fill it and whether any
value is nested. Counted by SQL over the stored rows, or — for a new corpus — tallied while its rows are inserted,
which gives the same counts without a scan of the whole table at the end of a large import (1M rows: ~3 s)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

import orjson

from core.records import scrub

LABEL_MAX_DISTINCT = 5000
NOT_LABELS = frozenset({"issue", "pages", "issn", "pubdate", "pmc", "volume", "number", "month", "journal_abbrev",
                        "doi", "url", "pmid", "language", "key", "entrytype"})
PREFERRED = ["journal", "venue", "category", "field", "disease", "label", "year"]


@dataclass(frozen=True)
class FieldCounts:
    """One field: distinct non-null values (exact up to LABEL_MAX_DISTINCT + 1), rows with a value, any nested."""

    distinct: int
    filled: int
    nested: bool


def label_columns(counts: dict[str, FieldCounts], n: int) -> tuple[list[str], list[str]]:
    """All field names, and those that look like labels (2+ repeated scalar values, not an identifier)."""
    labels = [
        key for key, c in counts.items()
        if not c.nested and key.lower() not in NOT_LABELS
        and 2 <= c.distinct <= min(LABEL_MAX_DISTINCT, max(2, int(0.5 * n))) and c.filled >= 0.2 * n
    ]
    labels.sort(key=lambda k: (PREFERRED.index(k) if k in PREFERRED else len(PREFERRED), k))
    return sorted(counts), labels


def counted_by_sql(conn: sqlite3.Connection, corpus: str) -> dict[str, FieldCounts]:
    """The counts of a corpus's stored rows (JSON values compared as SQLite compares them: true = 1, 1 = 1.0)."""
    rows = conn.execute(
        "SELECT j.key, COUNT(DISTINCT j.value), COUNT(j.value), SUM(j.type IN ('array', 'object')) "
        "FROM papers p, json_each(p.fields) j WHERE p.corpus = ? GROUP BY j.key",
        (corpus,),
    ).fetchall()
    return {key: FieldCounts(int(distinct), int(filled), bool(nested)) for key, distinct, filled, nested in rows}


class FieldTally:
    """The counts of rows as they are inserted, from their fields as stored (JSON text); Python compares the
    values as SQLite does (True == 1 == 1.0, '1' apart)."""

    def __init__(self) -> None:
        self._values: dict[str, set] = {}
        self._filled: dict[str, int] = {}
        self._nested: set[str] = set()

    def add(self, texts: Iterable[str]) -> None:
        values, filled = self._values, self._filled
        for text in texts:
            try:
                fields = orjson.loads(text)
            except orjson.JSONDecodeError:  # lone surrogates: stored with U+FFFD instead
                fields = json.loads(scrub(text))
            for key, value in fields.items():
                seen = values.get(key)
                if seen is None:
                    seen = values[key] = set()
                    filled[key] = 0
                if value is None:
                    continue
                filled[key] += 1
                if isinstance(value, (list, dict)):
                    self._nested.add(key)
                    value = ("nested", orjson.dumps(value))  # apart from every scalar, as SQL's JSON text is
                if len(seen) <= LABEL_MAX_DISTINCT:
                    seen.add(value)

    def counts(self) -> dict[str, FieldCounts]:
        return {key: FieldCounts(len(seen), self._filled[key], key in self._nested)
                for key, seen in self._values.items()}
