"""Which field of a file gives the papers' ids, and the note that says so when the detected one is passed over.

A placeholder (``0``, empty, ``NA``, ``N/A``, ``null``, ``none``, ``-``) is never an id. The detected id field is
checked on the first records: one holding placeholders or mostly repeated values gives way to another id-like field
whose values are unique, else ids are generated (the DOI, else a hash of the title and abstract). The note names
the field as the file has it: a table's column, a RIS tag, an EndNote XML element; never a column a file has not.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from core.io.columns import ColumnMap, id_like_columns
from core.io.rows import NumberedRow
from core.io.safety import _shown
from core.labels import is_missing

PLACEHOLDER_IDS = frozenset(("", "0", "na", "n/a", "nan", "null", "none", "-"))  # compared lower-cased
TABLES = ("csv", "tsv", "excel", "parquet", "jsonl")  # formats whose fields are columns or keys the user has
GENERATED = "ids were generated instead (the DOI, else a hash of the title and abstract)"
# the fields a reader names after its own tags or elements: (reader, field) -> how the file names it
_NAMED = {("ris", "id"): "the ID tag", ("ris", "accession_number"): "the AN tag (accession number)",
          ("endnote", "id"): "the <rec-number> element", ("endnote", "accession_number"): "the <accession-num> element",
          ("bibtex", "key"): "the citation key", ("medline", "pmid"): "the PMID tag", ("wos", "ut"): "the UT tag"}


def id_text(value: Any) -> str | None:
    """An id cell as stripped text; None when missing or a placeholder (``0``, ``NA``, ``null``, ...)."""
    if not isinstance(value, str) and is_missing(value):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    return None if text.lower() in PLACEHOLDER_IDS else text


def field_name(fmt: str | None, column: str) -> str:
    """A field as the file names it: "column 'PMID'" in a table, "the ID tag" in RIS, "field 'pmid'" otherwise."""
    if fmt is None or fmt in TABLES:
        return f"column '{_shown(column)}'"
    return _NAMED.get((fmt, column), f"field '{_shown(column)}'")


@dataclasses.dataclass
class IdStats:
    """How a candidate id field looks on the first records of a file."""

    column: str
    rows: int = 0
    real: int = 0  # records with a value that is not a placeholder
    distinct: int = 0
    placeholder: str | None = None  # the first placeholder value seen, as written
    not_eid: str | None = None  # the first value of an "eid" column that is no Scopus EID (an ADS article number)
    absent: int = 0  # records without the field at all (a RIS record without an ID tag)

    @property
    def unique(self) -> bool:  # some ids and none repeated (rows without one get a generated id)
        return self.real > 0 and self.distinct == self.real

    @property
    def usable(self) -> bool:  # some ids, mostly not repeated
        return self.real > 0 and 2 * (self.real - self.distinct) <= self.real

    def problem(self) -> str:
        if self.real == 0 and self.not_eid is not None:
            return (f"its values are not Scopus EIDs ('2-s2.0-…') but article numbers "
                    f"('{_shown(self.not_eid, 20)}', as NASA ADS writes eid)")
        if self.real == 0:
            shown = "empty" if not (self.placeholder or "").strip() else f"'{_shown(str(self.placeholder), 20)}'"
            first = "the first row holds" if self.rows == 1 else f"the first {self.rows} rows hold"
            return f"{first} no id or a placeholder ({shown})"
        values = "value" if self.distinct == 1 else "values"
        return f"its {self.real} ids in the first {self.rows} rows have only {self.distinct} distinct {values}"

    def note(self, fmt: str | None) -> str:
        """Why this field was passed over, naming it as the file does; "…; " follows with what was used."""
        if fmt is not None and fmt not in TABLES and self.absent == self.rows and self.rows:
            name = field_name(fmt, self.column).removeprefix("the ")
            return f"the record has no {name}" if self.rows == 1 else \
                f"the records have no {name} (none of the first {self.rows})"
        problem = self.problem()
        if fmt is not None and fmt not in TABLES:
            problem = problem.replace("rows", "records").replace("first row", "first record")
        return f"{field_name(fmt, self.column)} was not used for the ids: {problem}"


def id_stats(column: str, head: Sequence[NumberedRow]) -> IdStats:
    """The stats of one candidate id field on the first records."""
    stats, seen = IdStats(column), set()
    for _, row in head:
        if not isinstance(row, dict):
            continue
        stats.rows += 1
        value = row.get(column)
        text = id_text(value)
        if text is not None and column.strip().lower() == "eid" and not text.lower().startswith("2-s2.0-"):
            stats.not_eid, text = stats.not_eid or text, None  # an article number ("010201"), no id of the paper
        if text is None:
            if stats.placeholder is None:
                stats.placeholder = "" if not isinstance(value, str) and is_missing(value) else str(value).strip()
            stats.absent += value is None
            continue
        stats.real += 1
        seen.add(text)
    stats.distinct = len(seen)
    return stats


def choose_id(columns: Sequence[str], mapping: ColumnMap, head: Sequence[NumberedRow], given: bool,
              fmt: str | None = None) -> tuple[str | None, str]:
    """The id field to use and a note when the detected one was passed over (or, when given, looks wrong).

    The detected field stays unless its ids repeat or are all placeholders; then the other id-like field with
    unique ids and the most of them wins; failing that it stays if its ids mostly differ, else another
    mostly-distinct id-like field or none (generated ids).
    """
    if mapping.id is None:
        return None, ""
    detected = id_stats(mapping.id, head)
    if detected.unique:
        return mapping.id, ""
    if given:  # the user's choice stands; placeholders still give generated ids, repeats are kept apart
        return mapping.id, (f"{field_name(fmt, mapping.id)} (chosen for the id): {detected.problem()}; rows "
                            "without an id get a generated one, a repeated id with other text a derived one")
    others = [id_stats(column, head) for column in id_like_columns(columns)
              if column not in (mapping.id, mapping.title, mapping.abstract)]
    pick = max((o for o in others if o.unique), key=lambda o: o.real, default=None)  # the first of the fullest
    if pick is None and detected.usable:
        return mapping.id, ""  # a few repeats: the import keeps repeated ids with different text apart
    if pick is None:
        pick = next((o for o in others if o.usable), None)
    instead = f"used {field_name(fmt, pick.column)} instead" if pick else GENERATED
    return (pick.column if pick else None), f"{detected.note(fmt)}; {instead}"
