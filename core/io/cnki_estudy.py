"""CNKI's E-Study text export (知网研学; CNKI's "自定义" export saved as text): each record starts ``DataType: 1`` (1 a
journal article, 2 a thesis, 3 a conference paper …) and holds one field a line as ``Name-名称: value``:
``Title-题名``, ``Author-作者`` (names each ended by ";"), ``Source-刊名`` (or ``Source-文献来源``), ``Year-年``,
``PubTime-出版时间`` (or ``发表时间``), ``Keyword-关键词`` (joined by ";"), ``Summary-摘要``, ``Period-期``,
``Roll-卷``, ``Page-页码``, ``SrcDatabase-来源库``, ``Organ-机构``, ``Link-链接``, ``DOI-DOI``.

A field is known by its English name (CNKI's Chinese names vary between versions); a line without a name continues
the field before it. A summary CNKI took from the article's body, having no abstract, starts with the marker
``<正>`` ("body text"): the marker is no text and is left out. The year is the publication date's where ``Year-年``
is missing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from core.io.rows import NumberedRow, Row
from core.io.safety import _open_text

__all__ = ["cnki_estudy_rows", "looks_like_cnki_estudy"]

_RECORD = re.compile(r"^DataType\s*[:：]\s*\d+\s*$")
_FIELD = re.compile(r"^([A-Za-z][A-Za-z_]*)-[^:：\s][^:：]{0,15}[:：] ?(.*)$")
_NAMES = {"title": "title", "summary": "abstract", "author": "authors", "source": "journal", "year": "year",
          "keyword": "keywords", "doi": "doi", "roll": "volume", "volume": "volume", "period": "issue",
          "page": "pages", "pagecount": "page_count", "pubtime": "date", "srcdatabase": "database",
          "organ": "institution", "link": "url", "url": "url", "issn": "issn", "fund": "funding",
          "firstduty": "first_author", "clc": "classification"}
_LISTS = ("authors", "keywords")
_BODY_MARK = "<正>"
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")


def looks_like_cnki_estudy(head: str) -> bool:
    """E-Study text: its first non-empty line ``DataType: n``, a ``Name-名称: value`` line next."""
    lines = [line.strip() for line in head.lstrip("\ufeff").splitlines()[:6] if line.strip()]
    return len(lines) >= 2 and bool(_RECORD.match(lines[0])) and bool(_FIELD.match(lines[1]))


def _row(fields: dict[str, list[str]]) -> Row:
    row: Row = {}
    for name, values in fields.items():
        key = _NAMES.get(name.lower(), name.lower())
        text = "\n".join(value.strip() for value in values).strip()
        if not text:
            continue
        if key in _LISTS:
            row[key] = [part.strip() for part in re.split(r"[;；]", text) if part.strip()]
        elif key == "abstract":
            row[key] = text.removeprefix(_BODY_MARK).strip()
        else:
            row[key] = text
    if not row.get("year") and (year := _YEAR.search(str(row.get("date") or ""))):
        row["year"] = year.group(1)
    return row


def cnki_estudy_rows(path: Path) -> Iterator[NumberedRow]:
    """The records of an E-Study text, numbered from 1."""
    number = 0
    fields: dict[str, list[str]] | None = None
    name = ""
    with _open_text(path) as handle:
        for raw in handle:
            line = raw.rstrip("\r\n").lstrip("\ufeff")
            if _RECORD.match(line.strip()):
                if fields:
                    number += 1
                    yield number, _row(fields)
                fields, name = {"DataType": [line.split(":", 1)[-1].split("：", 1)[-1]]}, ""
                continue
            if fields is None:
                continue
            match = _FIELD.match(line)
            if match:
                name = match.group(1)
                fields.setdefault(name, []).append(match.group(2))
            elif line.strip() and name:
                fields[name].append(line)
    if fields:
        yield number + 1, _row(fields)
