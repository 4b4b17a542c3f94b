"""Europe PMC records (its REST API's ``resultType=core`` results), as the API answers and as getpapers and
pygetpapers save them, normalised into the product's field names.

The API answers ``{"version", "hitCount", "resultList": {"result": [...]}}``; pygetpapers saves
``{"nextCursorMark", "papers": {"PMC…": record}}``; ContentMine's getpapers saves a list of records whose every value
is a one-item list (``"title": ["…"]``, read from the XML answer). A record is recognised by Europe PMC's own keys
(``authorString``, ``abstractText``, ``journalInfo``, ``pubYear``) with a ``source`` or ``pmid``. Its abstract is
``abstractText``, the journal ``journalInfo.journal.title``, authors ``authorList.author`` as "Family, Given" (the
initials' form ``fullName`` where no given name), keywords ``keywordList.keyword``; the ISSNs ``journal.ISSN`` and
``ESSN`` (a ``lite`` record: ``journalTitle``, ``journalIssn`` "2045-2322; 2045-2322").

pygetpapers also writes the records as a table (``europe_pmc.csv``: nested values as Python reprs) whose ``source``
column is Europe PMC's database code ("MED", "PMC", "PPR"), never the journal: `europe_pmc_table` reads each row's
journal, abbreviation and ISSNs from its ``journalInfo`` (or ``journalTitle``/``journalIssn``) instead. The
website's own CSV export (``SOURCE,EXTERNAL_ID,PMCID,DOI,AUTHORS,…``) gives a record's PMID as ``EXTERNAL_ID`` where
its ``SOURCE`` is MED: `europe_pmc_table` names it so.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import Any

from core.io.rows import NumberedRow, Row, _year

__all__ = ["europe_pmc_records", "europe_pmc_row", "europe_pmc_table", "looks_like_europe_pmc"]

_OWN_KEYS = ("authorString", "abstractText", "journalInfo", "pubYear")


def _one(value: Any) -> Any:
    """A getpapers value without its one-item lists, at every depth."""
    while isinstance(value, list) and len(value) == 1:
        value = value[0]
    if isinstance(value, dict):
        return {key: _one(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_one(item) for item in value]
    return value


def _list(value: Any) -> list:
    return value if isinstance(value, list) else [] if value is None else [value]


def looks_like_europe_pmc(row: Row) -> bool:
    """Whether a JSON object is a Europe PMC record."""
    return sum(key in row for key in _OWN_KEYS) >= 2 and ("source" in row or "pmid" in row or "id" in row)


def europe_pmc_records(value: Any) -> list | None:
    """The records of a Europe PMC answer (``resultList.result``) or a pygetpapers file (``papers``); None else."""
    if not isinstance(value, dict):
        return None
    results = value.get("resultList")
    if isinstance(results, dict) and isinstance(results.get("result"), list):
        return results["result"]
    papers = value.get("papers")
    if "nextCursorMark" in value and isinstance(papers, dict):
        return list(papers.values())
    return None


def _author(person: Any) -> str | None:
    if not isinstance(person, dict):
        return str(person) if person else None
    family, given = person.get("lastName"), person.get("firstName")
    if family and given:
        return f"{family}, {given}"
    return person.get("fullName") or person.get("collectiveName") or family


def _issns(*values: Any) -> list[str]:
    """The ISSNs given (``ISSN``, ``ESSN``, or ``journalIssn`` "2045-2322; 2045-2322"), each once, in order."""
    found = [part.strip() for value in values if isinstance(value, str) for part in re.split(r"[;,]", value)]
    return list(dict.fromkeys(part for part in found if part))


def _journal_fields(info: Any, row: Row) -> Row:
    """The journal, its abbreviation and ISSNs from a ``journalInfo`` object, else a lite record's fields."""
    info = info if isinstance(info, dict) else {}
    journal = info.get("journal") if isinstance(info.get("journal"), dict) else {}
    return {
        "journal": journal.get("title") or row.get("journalTitle") or None,
        "journal_abbreviation": journal.get("ISOAbbreviation") or journal.get("medlineAbbreviation") or None,
        "issn": _issns(journal.get("ISSN"), journal.get("ESSN")) or _issns(row.get("journalIssn")),
    }


def europe_pmc_row(record: Row) -> Row:
    """A Europe PMC record under the product's names; the rest of its scalar values kept as they are."""
    row = _one(record)
    info = row.get("journalInfo") if isinstance(row.get("journalInfo"), dict) else {}
    people = (row.get("authorList") or {}).get("author") if isinstance(row.get("authorList"), dict) else None
    authors = [name for person in _list(people) if (name := _author(person))]
    words = (row.get("keywordList") or {}).get("keyword") if isinstance(row.get("keywordList"), dict) else None
    out: Row = {key: value for key, value in row.items() if isinstance(value, (str, int, float, bool))}
    out.update({
        "title": row.get("title"),
        "abstract": row.get("abstractText"),
        **_journal_fields(info, row),
        "volume": info.get("volume") or row.get("journalVolume"), "issue": info.get("issue") or row.get("issue"),
        "year": _year(row.get("pubYear")) or _year(info.get("yearOfPublication")),
        "doi": row.get("doi"),
        "authors": authors or [name.strip() for name in str(row.get("authorString") or "").rstrip(".").split(",")
                               if name.strip()],
        "keywords": [str(word) for word in _list(words)],
    })
    out.pop("abstractText", None)
    out.pop("authorString", None)
    return out


def _parsed(value: Any) -> Any:
    """A nested value as pygetpapers' table writes it (a Python repr: "{'journal': {'title': ...}}"); None else."""
    if not isinstance(value, str) or not value.startswith("{") or len(value) > 100_000:
        return None
    try:
        return ast.literal_eval(value)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None


_WEBSITE_ID_KINDS = {"MED": "pmid", "PMC": "PMCID"}  # the website CSV's SOURCE -> what its EXTERNAL_ID is


def _website_ids(row: Row) -> Row:
    """A row of Europe PMC's website CSV with its ``EXTERNAL_ID`` named for what it is: a PMID where ``SOURCE`` is
    MED, a PMCID (in the empty ``PMCID`` column) where it is PMC; other sources' ids (PPR, AGR, …) as they are."""
    kind = _WEBSITE_ID_KINDS.get(str(row.get("SOURCE") or "").strip().upper())
    value = str(row.get("EXTERNAL_ID") or "").strip()
    if kind is None or not value or row.get(kind):
        return row
    return {**row, kind: value}


def europe_pmc_table(rows: Iterator[NumberedRow]) -> Iterator[NumberedRow]:
    """A table's rows, each Europe PMC row (``source`` beside ``journalInfo`` or ``journalTitle``) with its journal,
    abbreviation and ISSNs as fields of their own, so the ``source`` code is never read as the journal; the rows of
    Europe PMC's website CSV (``SOURCE,EXTERNAL_ID,PMCID,…``) with their PMID or PMCID; other rows as they are."""
    for number, row in rows:
        if isinstance(row, dict) and "source" in row and ("journalInfo" in row or "journalTitle" in row):
            row = {**row, **_journal_fields(_parsed(row.get("journalInfo")), row)}
        elif isinstance(row, dict) and "SOURCE" in row and "EXTERNAL_ID" in row:
            yield number, _website_ids(row)
            yield from ((n, _website_ids(r) if isinstance(r, dict) else r) for n, r in rows)
            return
        elif isinstance(row, dict):  # every row of a table has its header's columns: none of these is Europe PMC's
            yield number, row
            yield from rows  # the rows as they are, with no test a row (BENCHMARKS.md §25g)
            return
        yield number, row
