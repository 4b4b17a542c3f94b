"""MARC XML (MARC 21 slim): the export of library catalogues, OPACs and discovery layers, and of Invenio (CERN's
Document Server, INSPIRE's old exports); binary MARC (ISO 2709, ``.mrc``) recognised and refused.

A file is a ``<collection>`` of ``<record>`` (or one ``<record>``) in the MARC 21 slim namespace, with or without a
prefix (``<marc:record>``). Each record is a leader, control fields and data fields of subfields. Read: 245 $a $b $n
$p as the title; 100/110/111 and 700/710 $a as the authors, a 700 with the relator ``edt`` (or $e "editor") an
editor; 520 $a $b the abstract; 773 $t (Invenio: $p) the journal, its volume, issue and pages from $v $n $c where
given, else from $g ("Vol. 3, no. 2 (2020), p. 1-10", "v. 10, n. 2 (2019), p. 33-50"), $x its ISSN; CERN's local
909C4 journal where there is no 773; 024 $a with $2 doi as the DOI (else a doi.org address in 856 $u); 020 ISBN,
022 ISSN; 260/264 $c the year (else the journal's, else 008); 650/651/653 the keywords, subdivisions joined by " -- ";
037 an arXiv id; 041 (else 008) the language; 856 $u the address; 001 the catalogue's control number. The ISBD
punctuation a cataloguer ends a subfield with (" /", " :", a final period) is taken off.

No MARC library is installed (pymarc is not), so binary MARC is refused with what to export instead: MARC XML, which
every catalogue that writes ``.mrc`` can write too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.errors import CorpusError
from core.io.rows import NumberedRow, Row, _year
from core.io.safety import _open_binary
from core.io.xml_records import kids, local, root_element, stream_records
from core.records import RowError, bare_doi

__all__ = ["binary_marc_error", "is_binary_marc", "looks_like_binary_marc", "looks_like_marcxml", "marcxml_rows"]

NS = "http://www.loc.gov/MARC21/slim"
_MARC_CHILD = re.compile(r"<(?:[\w.-]+:)?(?:leader|controlfield|datafield)\b")
_ISBD_END = re.compile(r"\s*[/:;,=]\s*$")
_ISBD_COLON = re.compile(r"\s+([:;=])\s+")
_INITIAL_END = re.compile(r"(?:\b\w{1,2}|\.\w+)\.$")  # "Doe, J." / "Buchal, Ch." / "N.H.": the period stays
_VOLUME = re.compile(r"\b(?:vol|v|bd|jg|t)\.?\s*(\d[\w/-]*)", re.IGNORECASE)
_ISSUE = re.compile(r"\b(?:no|n|nr|iss|issue|heft|h)\.?\s*(\d[\w/-]*)", re.IGNORECASE)
_PAGES = re.compile(r"\b(?:pp?|pages?|s|seite|seiten)[.:]?\s*(\d[\w]*(?:\s*[-\u2013]\s*\w+)?)", re.IGNORECASE)
_ARXIV = re.compile(r"^(?:arxiv:)?(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$", re.IGNORECASE)
_HOST_YEAR = re.compile(r"\((\d{4})\)")  # "(2020)" in 773 $g; its other numbers are volume, issue and pages
_ISBN = re.compile(r"[\dXx][\dXx-]{8,}")
_DOI = re.compile(r"\b(10\.\d{4,9}/\S+)")
_ALWAYS = frozenset(("title", "abstract", "authors"))  # kept when empty: a record without one is skipped saying so

Fields = list[tuple[str, str, list[tuple[str, str]]]]  # (tag, indicators, [(code, text), ...])


def looks_like_marcxml(head: str) -> bool:
    """MARC XML: a ``<collection>`` or ``<record>`` root in the MARC 21 slim namespace, or holding MARC's elements."""
    start = head[:8000]
    root = root_element(start)
    return root is not None and root[1] in ("collection", "record") and (NS in start or bool(_MARC_CHILD.search(start)))


def looks_like_binary_marc(head: bytes) -> bool:
    """Binary MARC (ISO 2709): a 24-byte leader (record length, "22" indicator and subfield code counts, "4500")."""
    return len(head) >= 24 and head[:5].isdigit() and head[10:12] == b"22" and head[20:24] == b"4500"


def is_binary_marc(path: Path) -> bool:
    """Whether a file starts as binary MARC does."""
    with _open_binary(path) as stream:
        return looks_like_binary_marc(stream.read(24))


def binary_marc_error(name: str) -> CorpusError:
    """The refusal of a binary MARC file, saying what to export instead."""
    return CorpusError(f"file '{name}' is binary MARC (ISO 2709, .mrc), which is not read here; export the records "
                       "from the catalogue as MARCXML (MARC 21 XML) or RIS and import that file")


def _tidy(text: str | None) -> str | None:
    """A subfield without the ISBD punctuation it ends with: " /", " :", ",", and a period that ends no
    abbreviation (a title with no other period)."""
    if not text:
        return None
    text = _ISBD_END.sub("", _ISBD_COLON.sub(r"\1 ", text.strip())).strip()
    if text.endswith(".") and not text.endswith("..") and "." not in text[:-1]:
        text = text[:-1]
    return text.rstrip(" -").strip() or None


def _person(text: str | None) -> str | None:
    """A heading's name without its closing comma or period (an initial's period stays)."""
    if not text:
        return None
    text = text.strip().rstrip(",").strip()
    if text.endswith(".") and not _INITIAL_END.search(text):
        text = text[:-1]
    return text or None


def _fields(record: Any) -> tuple[dict[str, str], Fields]:
    controls: dict[str, str] = {}
    fields: Fields = []
    for node in record:
        name = local(node)
        if name == "leader":
            controls["leader"] = "".join(node.itertext())
        elif name == "controlfield":
            controls[node.get("tag") or ""] = "".join(node.itertext())
        elif name == "datafield":  # a subfield holds text only: its .text, not itertext (a catalogue has millions)
            subs = [(sub.get("code") or "", text) for sub in node if isinstance(sub.tag, str)
                    and sub.tag.endswith("subfield") and (text := " ".join((sub.text or "").split()))]
            fields.append((node.get("tag") or "", (node.get("ind1") or " ") + (node.get("ind2") or " "), subs))
    return controls, fields


def _values(fields: Fields, tags: tuple[str, ...], code: str, inds: str | None = None) -> list[str]:
    return [text for tag, ind, subs in fields if tag in tags and (inds is None or ind == inds)
            for c, text in subs if c == code]


def _field_subs(fields: Fields, tag: str, inds: str | None = None) -> list[dict[str, str]]:
    """Each occurrence of a field as {code: first text}."""
    out = []
    for t, ind, subs in fields:
        if t == tag and (inds is None or ind == inds):
            found: dict[str, str] = {}
            for code, text in subs:
                found.setdefault(code, text)
            out.append(found)
    return out


def _title(fields: Fields) -> str | None:
    for tag, _, subs in fields:
        if tag == "245":
            return _tidy(" ".join(text for code, text in subs if code in "abnp"))
    return None


def _people(fields: Fields) -> tuple[list[str], list[str]]:
    authors: list[str] = []
    editors: list[str] = []
    for tag, _, subs in fields:
        if tag not in ("100", "110", "111", "700", "710", "711"):
            continue
        codes = {text.lower().strip(" .,") for code, text in subs if code in "4e"}
        name = _person(next((text for code, text in subs if code == "a"), None))
        if name:
            (editors if codes & {"edt", "editor", "ed", "hrsg", "herausgeber"} else authors).append(name)
    return authors, editors


def _host(fields: Fields) -> dict[str, str | None]:
    """The journal and where in it: 773 (else CERN's 909C4), its explicit subfields first, else its $g."""
    hosts = _field_subs(fields, "773") or _field_subs(fields, "909", "C4")
    host = next((h for h in hosts if h.get("t") or h.get("p")), hosts[0] if hosts else {})
    related = " ".join(h.get("g", "") for h in hosts)
    volume, issue, pages = (_VOLUME.search(related), _ISSUE.search(related), _PAGES.search(related))
    return {
        "journal": _tidy(host.get("t") or host.get("p")),
        "volume": host.get("v") or (volume.group(1) if volume else None),
        "issue": host.get("n") or (issue.group(1) if issue else None),
        "pages": host.get("c") or (pages.group(1) if pages else None),
        "year": host.get("y") or (year.group(1) if (year := _HOST_YEAR.search(related)) else None),
        "issn": host.get("x"),
    }


def _doi(fields: Fields) -> str | None:
    for tag, _, subs in fields:
        if tag == "024" and any(code == "2" and text.lower() == "doi" for code, text in subs):
            value = next((text for code, text in subs if code == "a"), None)
            if value and (found := _DOI.search(value)):
                return bare_doi(found.group(1))
    for url in _values(fields, ("856",), "u"):
        if "doi.org/10." in url and (found := _DOI.search(url)):
            return bare_doi(found.group(1))
    return None


def _keywords(fields: Fields) -> list[str]:
    terms = []
    for tag, _, subs in fields:
        if tag in ("650", "651", "653"):
            parts = [t for code, text in subs if code in "axyzv" and (t := _tidy(text))]
            if parts:
                terms.append(" -- ".join(parts))
    return list(dict.fromkeys(terms))


def _marc_row(record: Any) -> Row:
    controls, fields = _fields(record)
    fixed = controls.get("008", "")
    host = _host(fields)
    authors, editors = _people(fields)
    abstract = next((" ".join(text for code, text in subs if code in "ab") for tag, _, subs in fields
                     if tag == "520"), None)
    dates = [*_values(fields, ("260", "264"), "c"), host["year"], fixed[7:11] if fixed[7:11].isdigit() else None]
    isbn = next((m.group(0) for text in _values(fields, ("020",), "a") if (m := _ISBN.search(text))), None)
    issns = list(dict.fromkeys(i for i in [*_values(fields, ("022",), "a"), host["issn"],
                                           *(h.get("a") for h in _field_subs(fields, "024")
                                             if (h.get("2") or "").lower() == "issn")] if i))
    arxiv = next((m.group(1) for text in _values(fields, ("037",), "a") if (m := _ARXIV.match(text.strip()))), None)
    publisher = next(iter(_values(fields, ("260", "264"), "b")), None)
    urls = _values(fields, ("856",), "u")
    row: Row = {
        "title": _title(fields),
        "abstract": abstract or None,
        "authors": authors,
        "editors": editors,
        "journal": host["journal"],
        "year": next((year for date in dates if date and (year := _year(date))), None),
        "volume": host["volume"],
        "issue": host["issue"],
        "pages": host["pages"],
        "doi": _doi(fields),
        "arxiv": arxiv,
        "isbn": isbn,
        "issn": issns[0] if len(issns) == 1 else issns,
        "keywords": _keywords(fields),
        "language": next(iter(_values(fields, ("041",), "a")), None) or (fixed[35:38].strip() or None),
        "publisher": publisher.rstrip(" ,;:") if publisher else None,
        "url": urls[0] if urls else None,
        "control_number": controls.get("001"),
    }
    return {key: value for key, value in row.items() if key in _ALWAYS or value not in (None, [])}


def _not_bibliographic(record: Any) -> str | None:
    """What a record is when it describes no publication: a holdings or an authority record (leader/06)."""
    leader = next(("".join(node.itertext()) for node in kids(record, "leader")), "")
    kind = leader[6:7]
    if kind in ("u", "v", "x", "y"):
        return f"a MARC holdings record (leader type '{kind}'), which describes a copy, not a publication"
    if kind == "z":
        return "a MARC authority record (leader type 'z'), a name or subject heading, not a publication"
    return None


def marcxml_rows(path: Path) -> Iterator[NumberedRow]:
    """The records of a MARC XML file, numbered from 1 in its order (a holdings or an authority record skipped with
    its reason)."""
    for number, record in enumerate(stream_records(path, (f"{{{NS}}}record", "{}record")), 1):
        try:
            kind = _not_bibliographic(record)
            row: Row | RowError = RowError(number, f"row {number}: {kind}") if kind else _marc_row(record)
        except (AttributeError, TypeError, ValueError):
            row = RowError(number, f"row {number}: MARC record could not be read")
        yield number, row
