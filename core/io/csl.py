"""CSL JSON (Zotero's and citation.js's "CSL JSON" export): items normalised into the product's field names.

An item is recognised by CSL's own keys (``container-title``, ``issued`` with ``date-parts``, ``author`` as
name objects); its other keys are kept as they are.
"""

from __future__ import annotations

from typing import Any

from core.io.rows import Row, _year


def looks_like_csl(row: Row) -> bool:
    """Whether a JSON object is a CSL item."""
    issued = row.get("issued")
    authors = row.get("author")
    return ("container-title" in row or (isinstance(issued, dict) and ("date-parts" in issued or "raw" in issued))
            or (isinstance(authors, list) and bool(authors) and isinstance(authors[0], dict)
                and ("family" in authors[0] or "literal" in authors[0])))


def _name(person: Any) -> str:
    if not isinstance(person, dict):
        return str(person)
    if person.get("literal"):
        return str(person["literal"])
    return ", ".join(p for p in (person.get("family"), person.get("given")) if p)


def _issued_year(issued: Any) -> int | None:
    if isinstance(issued, dict):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            return _year(parts[0][0])
        return _year(issued.get("raw") or issued.get("literal"))
    return _year(issued)


def csl_row(item: Row) -> Row:
    """A CSL item with title, abstract, journal, year, doi, authors and keywords under the product's names."""
    row = dict(item)
    row["journal"] = row.pop("container-title", None) or row.get("journal")
    if isinstance(row["journal"], list):
        row["journal"] = row["journal"][0] if row["journal"] else None
    row["year"] = _issued_year(row.pop("issued", None))
    row["doi"] = row.pop("DOI", None) or row.get("doi")
    row["authors"] = [_name(p) for p in row.pop("author", None) or []]
    editors = row.pop("editor", None)
    if isinstance(editors, list) and editors:
        row["editors"] = [_name(p) for p in editors]
        if not row["authors"]:  # an edited book: its editors are its people
            row["authors"], row["author_role"] = list(row["editors"]), "editors"
    keywords = row.pop("keyword", None)
    if isinstance(keywords, str):  # ", " between keywords, or "; " when one holds a comma (our export)
        row["keywords"] = [k.strip() for k in keywords.split(";" if ";" in keywords else ",") if k.strip()]
    else:
        row["keywords"] = []
    return row
