"""What a corpus's fields hold: per field its distinct values, the rows that fill it, whether any value is nested,
and the kinds of its values on the first rows (numbers, dates, URLs, long text); `field_roles` reads them. Counted by
SQL over the stored rows, or — for a new corpus — tallied while its rows are inserted, which gives the same
counts without a scan of the whole table at the end of a large import (1M rows: ~3 s)."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

import orjson

from core.records import scrub

LABEL_MAX_DISTINCT = 5000
SAMPLE_ROWS = 500  # a field's kinds of value are judged on the corpus's first rows
_DATE = re.compile(r"^(\d{4}[-/.]\d{1,2}([-/.]\d{1,2})?([ T].*)?|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|"
                   r"\d{4} [A-Za-z]{3}( \d{1,2})?|[A-Za-z]{3,9}\.? \d{1,2},? \d{4}|\d{1,2} [A-Za-z]{3,9}\.? \d{4})$")
_NUMBER = re.compile(r"^[-+]?\d+([.,]\d+)?$")
LONG_TEXT = 80  # characters: a value this long is free text, not a class


def value_kind(value: object) -> str:
    """A stored value's kind: 'number', 'date', 'url', 'long' (free text) or 'short'."""
    if isinstance(value, bool):
        return "short"
    if isinstance(value, (int, float)):
        return "number"
    text = str(value).strip()
    if text.startswith(("http://", "https://", "www.", "doi:")):
        return "url"
    if _NUMBER.match(text):
        return "number"
    if _DATE.match(text):
        return "date"
    return "long" if len(text) >= LONG_TEXT else "short"


@dataclass(frozen=True)
class FieldCounts:
    """One field: distinct non-null values (exact up to LABEL_MAX_DISTINCT + 1), rows with a value, any nested;
    and among its values on the first SAMPLE_ROWS rows, how many are numbers, dates, URLs and long text."""

    distinct: int
    filled: int
    nested: bool
    sample: int = 0
    numbers: int = 0
    dates: int = 0
    urls: int = 0
    long: int = 0
    integral: bool = True  # every sampled number is a whole number



def _whole(value: object) -> bool:
    """Whether a value `value_kind` calls a number is a whole one, read as it reads it (stripped of white space and
    control characters, a decimal comma); one float cannot read counts as whole (it says nothing against)."""
    try:
        return float(str(value).strip().replace(",", ".")).is_integer()
    except (ValueError, OverflowError):
        return True


def field_counts(distinct: int, filled: int, nested: bool, sample: Iterable[object]) -> FieldCounts:
    """A field's counts, with the kinds of its sampled values (numbers, dates, URLs, long text) tallied."""
    kinds = {"number": 0, "date": 0, "url": 0, "long": 0}
    size, integral = 0, True
    for value in sample:
        size += 1
        kind = value_kind(value)
        if kind in kinds:
            kinds[kind] += 1
        if kind == "number" and not _whole(value):
            integral = False
    return FieldCounts(int(distinct), int(filled), bool(nested), size, kinds["number"], kinds["date"], kinds["url"],
                       kinds["long"], integral)


def counted_by_sql(conn: sqlite3.Connection, corpus: str) -> dict[str, FieldCounts]:
    """The counts of a corpus's stored rows (JSON values compared as SQLite compares them: true = 1, 1 = 1.0)."""
    rows = conn.execute(
        "SELECT j.key, COUNT(DISTINCT j.value), COUNT(j.value), SUM(j.type IN ('array', 'object')) "
        "FROM papers p, json_each(p.fields) j WHERE p.corpus = ? GROUP BY j.key",
        (corpus,),
    ).fetchall()
    sampled: dict[str, list] = {}
    for key, value, kind in conn.execute(
        "SELECT j.key, j.value, j.type FROM (SELECT fields FROM papers WHERE corpus = ? ORDER BY seq LIMIT ?) p, "
        "json_each(p.fields) j WHERE j.type NOT IN ('null', 'array', 'object')", (corpus, SAMPLE_ROWS),
    ):
        sampled.setdefault(key, []).append(bool(value) if kind in ("true", "false") else value)
    return {key: field_counts(distinct, filled, nested, sampled.get(key, ()))
            for key, distinct, filled, nested in rows}


class FieldTally:
    """The counts of rows as they are inserted, from their fields as stored (JSON text); Python compares the
    values as SQLite does (True == 1 == 1.0, '1' apart)."""

    def __init__(self) -> None:
        self._values: dict[str, set] = {}
        self._filled: dict[str, int] = {}
        self._nested: set[str] = set()
        self._rows = 0
        self._sample: dict[str, list] = {}

    def add(self, texts: Iterable[str]) -> None:
        values, filled = self._values, self._filled
        for text in texts:
            try:
                fields = orjson.loads(text)
            except orjson.JSONDecodeError:  # lone surrogates: stored with U+FFFD instead
                fields = json.loads(scrub(text))
            self._rows += 1
            sampling = self._rows <= SAMPLE_ROWS
            for key, value in fields.items():
                if sampling and value is not None and not isinstance(value, (list, dict)):
                    self._sample.setdefault(key, []).append(value)
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
        return {key: field_counts(len(seen), self._filled[key], key in self._nested, self._sample.get(key, ()))
                for key, seen in self._values.items()}
