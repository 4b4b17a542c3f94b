"""NoteExpress' tagged text (``.net``), which CNKI (China National Knowledge Infrastructure) exports and NoteExpress
reads: each field a line ``{Name}: value``, a record starting ``{Reference Type}: Journal Article``, records
separated by empty lines.

As CNKI writes it: authors in one ``{Author}`` line joined by ";" (Chinese names, often with a trailing ";"), by ";;"
(foreign articles), or by "," (older Chinese records: "谢昕,王小娟"); keywords joined the same ways, or by the
full-width "；" after a full-width colon (``{Abstract}：``, a record of the Chinese Medical Association); line breaks in
an abstract written ``(#br)``, an Elsevier abstract opening with the heading "Abstract(#br)" (dropped, as a lone
heading is elsewhere), and an article's opening given for a missing abstract marked ``<正>`` (the mark dropped, as in
CNKI's RefWorks export). A value may run over a following line that starts without ``{`` (an address broken by bare
carriage returns). A newspaper's title is its ``{Secondary Title}``, a conference paper's proceedings its
``{Tertiary Title}``; a record without ``{Year}`` takes the year of its ``{Date}``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from core.io.rows import NumberedRow, Row, _year
from core.io.safety import _open_text

__all__ = ["looks_like_noteexpress", "noteexpress_rows"]

_FIELD = re.compile(r"^\{([^{}\n]{1,40})\}[:：][ \t]?(.*)$")  # a full-width colon in some records
_FIRST = "Reference Type"
_NAMES = {"Reference Type": "type", "Title": "title", "Abstract": "abstract", "Author": "authors",
          "Journal": "journal", "Year": "year", "Keywords": "keywords", "ISBN/ISSN": "issn", "Volume": "volume",
          "Issue": "issue", "Pages": "pages", "Author Address": "address", "Notes": "notes",
          "Database Provider": "database", "Publisher": "publisher", "Date": "date", "DOI": "doi", "URL": "url",
          "Language": "language", "Translated Title": "translated_title", "Translated Author": "translated_authors",
          "Translated Journal": "translated_journal", "Secondary Title": "secondary_title",
          "Tertiary Title": "tertiary_title", "Tertiary Author": "tertiary_authors", "Type of Work": "type_of_work",
          "Place Published": "place_published"}
_LISTS = frozenset(("authors", "translated_authors", "tertiary_authors", "keywords"))
_CJK = re.compile(r"^[\u2e80-\u9fff\uf900-\ufaff·•]+$")  # a Chinese name: no Latin letters, no spaces
_BREAK = "(#br)"
_BODY_TEXT = "<正>"  # CNKI's mark before an article's opening given where it has no abstract


def looks_like_noteexpress(head: str) -> bool:
    """NoteExpress text: the first non-empty line is ``{Reference Type}: …`` and the next two are fields too."""
    lines = [line.strip() for line in head.lstrip("\ufeff").splitlines() if line.strip()][:3]
    found = [_FIELD.match(line) for line in lines]
    return len(lines) >= 2 and all(found) and found[0].group(1) == _FIRST


def _parts(value: str) -> list[str]:
    """A list field's items: split at ";" (";;" too) where it has one; else at "," when every part is a Chinese name
    or the field is keywords (see the module); the value whole otherwise."""
    parts = [part.strip() for part in re.split(r"[;；]", value)]
    if len(parts) == 1 and ("," in value or "，" in value):
        split = [part.strip() for part in re.split(r"[,，]", value)]
        if all(not part or _CJK.match(part) for part in split):
            parts = split
    return [part for part in parts if part]


def _abstract(value: str) -> str:
    text = "\n".join(line.strip() for line in value.split(_BREAK))
    first, _, rest = text.partition("\n")
    if first.strip().lower() == "abstract" and rest.strip():
        text = rest  # the heading "Abstract" (Elsevier) before the text
    if text.startswith(_BODY_TEXT):
        text = text[len(_BODY_TEXT):].lstrip()
    return text.strip()


def _row(fields: list[tuple[str, str]]) -> Row:
    row: Row = {}
    for name, value in fields:
        key = _NAMES.get(name) or name.strip(" ,").lower().replace(" ", "_").replace("/", "_")
        value = " ".join(value.split()) if key != "abstract" else value.strip()
        if not value:
            continue
        if key in _LISTS:
            keywords_by_comma = key == "keywords" and not re.search(r"[;；]", value)  # "巴拿马,习近平,…"
            items = re.split(r"[,，]", value) if keywords_by_comma else [value]
            row.setdefault(key, []).extend(part for item in items for part in _parts(item))
        elif key in row:
            row[key] = f"{row[key]}; {value}"
        else:
            row[key] = value
    if isinstance(row.get("abstract"), str):
        row["abstract"] = _abstract(row["abstract"])
    row["year"] = _year(row.get("year")) or _year(row.get("date"))
    if not row.get("journal"):
        kind = str(row.get("type") or "").lower()
        row["journal"] = (row.get("secondary_title") if kind == "newspaper article" else
                          row.get("tertiary_title") or row.get("secondary_title") if "conference" in kind else None)
    return row


def noteexpress_rows(path: Path) -> Iterator[NumberedRow]:
    """The records of a NoteExpress text, numbered from 1."""
    number = 0
    fields: list[tuple[str, str]] = []
    with _open_text(path, newline="") as handle:  # lines end at CR, LF or CRLF: a bare CR breaks a value's line
        for raw in handle:
            line = raw.rstrip("\r\n").lstrip("\ufeff")
            found = _FIELD.match(line)
            if found and found.group(1) == _FIRST and fields:
                number += 1
                yield number, _row(fields)
                fields = []
            if found:
                fields.append((found.group(1), found.group(2)))
            elif line.strip() and fields:  # a value continued on the next line (",湖北武汉430074" joins as it is)
                name, value = fields[-1]
                fields[-1] = (name, f"{value} {line.strip()}" if not line.startswith(",") else value + line.strip())
    if fields:
        yield number + 1, _row(fields)
