"""The EndNote XML reader: ``<xml><records><record>`` exports of EndNote (and tools that write its format).

Read with lxml's iterparse, entities and network refused as for PubMed XML; each field's text is the text of its
``<style>`` runs joined. Authors and keywords stay lists.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.io.rows import NumberedRow, Row, _year
from core.io.safety import _open_binary, xml_head, xml_refusal
from core.records import RowError

_FIELDS = {  # row key -> path under <record>
    "title": "titles/title",
    "journal": "periodical/full-title",
    "secondary_title": "titles/secondary-title",
    "abstract": "abstract",
    "year": "dates/year",
    "pubdate": "dates/pub-dates/date",
    "doi": "electronic-resource-num",
    "volume": "volume",
    "issue": "number",
    "pages": "pages",
    "issn": "isbn",
    "accession_number": "accession-num",
    "language": "language",
    "notes": "notes",
    "id": "rec-number",  # as EndNote's RIS export of the same library numbers its records
}


def looks_like_endnote(head: bytes) -> bool:
    """EndNote XML: a ``<records>`` element holding ``<record>`` with EndNote's ``<ref-type>`` or ``<rec-number>``."""
    text = head[:4096].lower()
    return b"<records>" in text and (b"<ref-type" in text or b"<rec-number>" in text or b"<database" in text)


def _text(node: Any) -> str | None:
    if node is None:
        return None
    text = " ".join("".join(node.itertext()).split())
    return text or None


def _endnote_row(record: Any) -> Row:
    row: Row = {key: _text(record.find(path)) for key, path in _FIELDS.items()}
    row["journal"] = row["journal"] or row.pop("secondary_title")
    row.pop("secondary_title", None)
    ref_type = record.find("ref-type")
    row["type"] = ref_type.get("name") if ref_type is not None else None
    row["year"] = _year(row["year"]) or row["year"]
    row["authors"] = [t for t in (_text(a) for a in record.iterfind("contributors/authors/author")) if t]
    row["keywords"] = [t for t in (_text(k) for k in record.iterfind("keywords/keyword")) if t]
    row["urls"] = [t for t in (_text(u) for u in record.iterfind("urls//url")) if t]
    return row


def _endnote_rows(path: Path) -> Iterator[NumberedRow]:
    from lxml import etree

    xml_head(path)
    number = 0
    with _open_binary(path) as stream:
        events = etree.iterparse(stream, events=("end",), tag="record", resolve_entities=False, no_network=True,
                                 load_dtd=False, huge_tree=False, remove_comments=True)
        try:
            for _, element in events:
                number += 1
                try:
                    row: Row | RowError = _endnote_row(element)
                except (AttributeError, TypeError, ValueError):
                    row = RowError(number, f"row {number}: EndNote record could not be read")
                element.clear()
                yield number, row
        except etree.XMLSyntaxError as error:
            raise xml_refusal(path, error) from None
