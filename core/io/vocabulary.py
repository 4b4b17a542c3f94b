"""The column vocabulary of reference managers and databases: which column names mean which product field.

The table itself is data (``vocabulary.csv`` beside this module: field, column spelling, tools that write it), so
a new tool's export is supported by adding rows, not code. Spellings are compared normalised: lower case, every run
of other characters than letters and digits as one ``_`` (``Authors, Primary`` -> ``authors_primary``).
"""

from __future__ import annotations

import csv
import functools
import re
from collections.abc import Sequence
from pathlib import Path

FIELDS: tuple[str, ...] = ("title", "abstract", "id", "journal", "year", "doi", "authors", "keywords")
REQUIRED: tuple[str, ...] = ("title", "abstract")
_NON_WORD = re.compile(r"[^a-z0-9]+")
_TABLE = Path(__file__).with_name("vocabulary.csv")


def normal(name: object) -> str:
    """A column name as compared with the vocabulary: lower case, other characters folded into ``_``."""
    return _NON_WORD.sub("_", str(name).strip().lower()).strip("_")


@functools.cache
def vocabulary() -> dict[str, tuple[str, ...]]:
    """Field -> normalised column spellings, most preferred first (the table's order)."""
    table: dict[str, list[str]] = {field: [] for field in FIELDS}
    with open(_TABLE, encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            spelling = normal(row["column"])
            if spelling not in table[row["field"]]:
                table[row["field"]].append(spelling)
    return {field: tuple(names) for field, names in table.items()}


@functools.cache
def tools_table() -> list[dict[str, str]]:
    """The table's rows as written (field, column, tools): for the README and the import preview."""
    with open(_TABLE, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


WOS_FULL_ID = normal("UT (Unique WOS ID)")  # "ut_unique_wos_id"


def is_web_of_science(columns: Sequence[str]) -> bool:
    """A Web of Science tab-delimited export: its two-letter tags, where ``ID`` is Keywords Plus, not an id."""
    names = {normal(c) for c in columns}
    return {"pt", "ut", "ti"} <= names


def is_pubmed_legacy_csv(columns: Sequence[str]) -> bool:
    """PubMed's CSV of 2019 and before (``Title,URL,Description,Details,ShortDetails,…,EntrezUID``): its
    ``Description`` is the author list, not an abstract, and ``ShortDetails`` is "Journal.  Year"."""
    return {"description", "shortdetails", "entrezuid"} <= {normal(c) for c in columns}


_PUBMED_LEGACY = {"authors": ("description",), "year": ("shortdetails",)}  # before the vocabulary's spellings


def spellings(field: str, columns: Sequence[str]) -> tuple[str, ...]:
    """The spellings of a field to look for among ``columns`` (Web of Science's ``ID`` is not an id, nor its ``TA``
    a journal; PubMed's legacy CSV's ``Description`` is its authors)."""
    names = vocabulary()[field]
    if field == "id" and is_web_of_science(columns):
        names = tuple(name for name in names if name != "id")
    if field == "journal" and is_web_of_science(columns):
        # BIOSIS Previews' ``TA`` is its taxa ("Plantae; Plants, …"), not MEDLINE's journal abbreviation
        names = tuple(name for name in names if name != "ta")
    wos_ids = [name for name in (WOS_FULL_ID, "ut") if name in {normal(c) for c in columns}] if field == "id" else []
    if wos_ids:
        # Web of Science's record id (UT), on every record, before its sparse PubMed id, whichever button exported
        # it: the full-name Excel export, the tab-delimited one (its "UT" tag) and the plain-text one (read as "ut")
        names = (*wos_ids, *(name for name in names if name not in wos_ids))
    if is_pubmed_legacy_csv(columns):
        names = _PUBMED_LEGACY.get(field, ()) + tuple(name for name in names if name != "description")
    return names


def field_of(column: str) -> str | None:
    """The product field a column name means, if the vocabulary knows it (first field wins)."""
    name = normal(column)
    return next((field for field, names in vocabulary().items() if name in names), None)
