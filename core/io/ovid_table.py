"""Ovid's CSV export (Embase, MEDLINE, PsycINFO … through Ovid): a table whose header is Ovid's field codes
(``ORN,VN,DB,UI,PM,TI,SO,AU,IN,PB,MH,DU,OD,AB,FTURL,AO``; more with "every field": ``TJ``, ``KW``, ``DO``, ``YR`` …),
one record a row, ``VN`` "Ovid Technologies".

A list field holds one value a line with an empty line between (``AU``: ``"Hall V.\\n\\nJohnson D."``; ``KW``,
``MH``): read as a list, as Ovid's tagged text gives one tag a value (`core.io.ovid`, whose reading of a record
this module shares: the journal from the head of ``SO`` when there is no ``TJ``/``JN``, the year from ``SO`` when
there is no ``YR``, keywords from ``KW``/``MH``/``DE``/``ST``). In Embase ``UI`` is Embase's accession number and
``PM`` the PMID ("29635641 [http://www.ncbi.nlm.nih.gov/pubmed/?term=29635641]"); in MEDLINE ``UI`` is the PMID.
Other tables' rows pass as they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from core.io.ovid import LIST_TAGS, tags_row
from core.io.rows import NumberedRow, Row

__all__ = ["ovid_table"]

_PMID = re.compile(r"^\s*(\d{1,9})\b")
_LINES = re.compile(r"\s*[\r\n]+\s*")


def _is_ovid(row: Row) -> bool:
    return "TI" in row and "DB" in row and str(row.get("VN") or "").strip().startswith("Ovid")


def _ovid_row(row: Row) -> Row:
    """One row of Ovid's CSV as the row its tagged text gives."""
    tags: dict[str, list[str]] = {}
    for key, value in row.items():
        if value is None or not str(value).strip():
            continue
        tag = str(key).strip()
        tags[tag] = [part for part in _LINES.split(str(value).strip()) if part] if tag in LIST_TAGS else [str(value)]
    if "TJ" in tags and "JN" not in tags:
        tags["JN"] = tags.pop("TJ")  # the journal's title
    pmid = _PMID.match(" ".join(tags.pop("PM", [])))
    if pmid and "UI" in tags:  # Embase: UI is its own accession number
        tags["AN"] = tags.pop("UI")
    out = tags_row(tags)
    if pmid:
        out["pmid"] = pmid.group(1)
    return out


def ovid_table(rows: Iterator[NumberedRow]) -> Iterator[NumberedRow]:
    """A table's rows, each row of Ovid's CSV read as its tagged text is (see the module); other rows as they are.
    The first row decides: every row of a table has its header's columns."""
    for number, row in rows:
        if not isinstance(row, dict):
            yield number, row
            continue
        if not _is_ovid(row):
            yield number, row
            yield from rows
            return
        yield number, _ovid_row(row)
        yield from ((n, _ovid_row(r) if isinstance(r, dict) else r) for n, r in rows)
        return
