"""RefWorks' tagged text, which CNKI writes too.

Each record starts ``RT Journal Article`` and holds one tag a line, the tag followed by a space: ``A1 Allan,Steven``
(one author a line), ``T1`` the title, ``JF``/``JO`` the journal (full, abbreviated), ``YR``, ``AB``, ``K1`` (one
keyword a line), ``DO``, ``SN``; records are separated by an empty line. A file may start with RefWorks' tag legend
("Refworks Export Tagged Format", "RT=Reference Type", …), which is no record. Only RefWorks' own tags start a
field, so an abstract's wrapped line that happens to start with two capitals stays text. CNKI writes all authors in
one ``A1`` joined by ";", the volume as ``vo`` (lower case), and marks an article's opening given as its abstract
with "<正>" (dropped).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from core.io.rows import NumberedRow, Row
from core.io.safety import _open_text
from core.records import bare_doi

__all__ = ["looks_like_refworks", "refworks_rows"]

_TAGS = frozenset((
    "RT", "SR", "ID", "A1", "A2", "A3", "A4", "A5", "A6", "T1", "T2", "T3", "JF", "JO", "YR", "FD", "VO", "IS", "SP",
    "OP", "K1", "AB", "NO", "ED", "PB", "PP", "SN", "AV", "AD", "AN", "LA", "CL", "SF", "OT", "LK", "DO", "CN", "DB",
    "DS", "IP", "RD", "ST", "UL", "SL", "LL", "CR", "WT", "WV", "WP", "OL", "PMID", "PMCID",
    *(f"U{n}" for n in range(1, 16)),
))
_LINE = re.compile(r"^([A-Z][A-Z0-9]{1,4}) (.*)$")
_CNKI_VOLUME = re.compile(r"^vo(?: (.*))?$")  # CNKI writes the volume in lower case: "vo 45", often "vo " empty
_NAMES = {"RT": "type", "T1": "title", "AB": "abstract", "A1": "authors", "A2": "editors", "JF": "journal",
          "JO": "journal_abbrev", "T2": "secondary_title", "YR": "year", "DO": "doi", "K1": "keywords", "SN": "issn",
          "LA": "language", "AN": "accession_number", "UL": "url", "PB": "publisher", "PMID": "pmid", "VO": "volume",
          "IS": "issue", "SP": "start_page", "OP": "other_pages", "NO": "notes", "AD": "address", "DB": "database"}
_LISTS = frozenset(("A1", "A2", "A3", "A4", "A5", "A6", "K1"))
_BODY_TEXT = "<正>"  # CNKI's mark before an article's opening given where it has no abstract ("正文", body text)


def _tagged(line: str) -> tuple[str, str] | None:
    match = _LINE.match(line)
    if match is None:
        volume = _CNKI_VOLUME.match(line)
        return ("VO", volume.group(1) or "") if volume else None
    return (match.group(1), match.group(2)) if match.group(1) in _TAGS else None


def looks_like_refworks(head: str) -> bool:
    """RefWorks tagged text: its first line is RefWorks' legend title, or ``RT <type>`` followed by tagged lines."""
    lines = [line for line in head.lstrip("\ufeff").splitlines()[:6] if line.strip()]
    if lines and lines[0].strip().lower() == "refworks export tagged format":
        return True
    return len(lines) >= 3 and lines[0].startswith("RT ") and all(_tagged(line) for line in lines[:3])


def _row(tags: dict[str, list[str]]) -> Row:
    row: Row = {}
    for tag, values in tags.items():
        values = [value.strip() for value in values if value.strip()]
        if values:
            name = _NAMES.get(tag, tag.lower())
            row[name] = values if tag in _LISTS else " ".join(values)
    for name in ("keywords", "authors", "editors"):  # one a line, or several joined by ";" (CNKI: "A1 谢进;王娜")
        if isinstance(row.get(name), list):
            row[name] = [part.strip() for value in row[name] for part in value.split(";") if part.strip()]
    if isinstance(row.get("abstract"), str) and row["abstract"].startswith(_BODY_TEXT):
        row["abstract"] = row["abstract"][len(_BODY_TEXT):].lstrip()  # CNKI: the article's opening, not an abstract
    if row.get("doi"):
        row["doi"] = bare_doi(str(row["doi"]))
    if not row.get("journal"):
        row["journal"] = row.get("journal_abbrev") or (row.get("secondary_title") if row.get("type") != "Book, Whole"
                                                       else None)
    return row


def refworks_rows(path: Path) -> Iterator[NumberedRow]:
    """The records of a RefWorks tagged text, numbered from 1 (its tag legend passed over)."""
    number = 0
    tags: dict[str, list[str]] = {}
    tag = ""
    with _open_text(path) as handle:
        for raw in handle:
            line = raw.rstrip("\r\n").lstrip("\ufeff")
            found = _tagged(line)
            if found and found[0] == "RT":
                if tags:
                    number += 1
                    yield number, _row(tags)
                tags, tag = {}, ""
            if found and (tags or found[0] == "RT"):
                tag = found[0]
                tags.setdefault(tag, []).append(found[1])
            elif line.strip() and tag:  # a wrapped value
                tags[tag][-1] = f"{tags[tag][-1]} {line.strip()}"
            elif not line.strip():
                tag = ""  # an empty line ends a field; the next record starts with RT
    if tags:
        yield number + 1, _row(tags)
