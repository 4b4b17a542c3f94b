"""The RIS reader: one numbered raw row per TY .. ER record.

Lines before a record's ``TY`` tag are passed over, so the preambles some databases write before each record are
ignored: the Cochrane Library's RIS (EndNote, ProCite and Reference Manager flavours) starts every record with
``Record #3 of 18`` / ``Provider: John Wiley & Sons, Ltd.`` / ``Content: text/plain; ...``, Silverchair's and
JSTOR's files with ``Provider:`` / ``Database:`` lines. Cochrane also writes two spaces after the dash
(``TY  -  JOUR``); values are stripped, so that reads as ``JOUR``. Some files write one space before the dash
(``TY - JOUR``): inside a record that starts so, such lines are its tags (elsewhere "US - China" stays text). A
record without ``DO`` takes its DOI from ``M3`` or ``UR`` when one holds a DOI: PLOS writes
``M3  - doi:10.1371/…`` and ``UR  - https://doi.org/10.1371/…``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.io.cut_short import no_end_line, record_cut_error, record_cut_warning
from core.io.names import tagged_names
from core.io.ris_paragraphs import join_paragraphs
from core.io.rows import NumberedRow, Row, RowWarning, _year
from core.io.safety import _open_text
from core.records import RowError, bare_doi

_DOI = re.compile(r"^10\.\d{4,9}/\S+$")
_NOT_WORD = re.compile(r"[\W_]+")
_WEB_ADDRESS = re.compile(r"^https?://\S+$", re.IGNORECASE)  # a journal that is a web page: not a journal
_PMC_ID = re.compile(r"^PMC\d{1,9}$", re.IGNORECASE)

_RIS_HEAD_LINES = 40  # a file is RIS when one of its first non-empty lines is a TY tag


_ONE_SPACE_TAG = re.compile(r"^([A-Z][A-Z0-9]) -(?= |$)")  # "TY - JOUR": one space before the dash


def looks_like_ris(head: str) -> bool:
    """RIS: a ``TY  -`` line among the first non-empty lines (a preamble such as Cochrane's may come first); or
    ``TY - `` with one space, followed by another tag so written."""
    lines = [line.lstrip("\ufeff") for line in head.splitlines() if line.strip()][:_RIS_HEAD_LINES]
    if any(line.startswith("TY  -") for line in lines):
        return True
    starts = [n for n, line in enumerate(lines) if line.startswith("TY - ")]
    return bool(starts) and any(_ONE_SPACE_TAG.match(line) for line in lines[starts[0] + 1:starts[0] + 4])


def _ris_parser() -> Any:
    """rispy's parser, except that a repeated tag keeps every value and "AB  -text" keeps its first letter."""
    import rispy

    class Parser(rispy.RisParser):
        """rispy's RisParser with the two changes above."""

        def parse_line(self, line: str) -> tuple[str | None, str]:
            if line[2:5] == "  -" and line[:2].isupper() and line[:1].isalpha():
                return line[:2], line[5:].strip()
            return None, line.strip()

        def _add_single_value(self, record: dict, name: str, value: Any, is_multi: bool = False) -> None:
            current = record.get(name)
            if is_multi and isinstance(current, list) and current and isinstance(value, str):
                current[-1] = f"{current[-1]} {value}"  # a wrapped line continues the tag's latest value
                return
            super()._add_single_value(record, name, value, is_multi)

    return Parser(enforce_list_tags=False)


def _doi_elsewhere(record: Row, urls: list[str]) -> str | None:
    """The DOI a record without ``DO`` writes in ``M3`` ("doi:10.1371/…"), in ``L3`` (EBSCOhost) or as a doi.org
    ``UR``; else None."""
    related = (record.get("unknown_tag") or {}).get("L3") or []
    for value in [record.get("type_of_work"), *related, *urls]:
        if isinstance(value, str) and ("doi" in value.lower() or value.startswith("10.")):
            doi = bare_doi(value.strip())
            if _DOI.match(doi):
                return doi
    return None


def _folded(text: object) -> str:
    return _NOT_WORD.sub("", str(text).casefold())


def _titles_in_t2(record: Row, row: Row) -> None:
    """Move a ``T2`` left beside a ``JF``/``JO`` journal to ``alternative_title`` when it is the paper's own title:
    it repeats the title (case and punctuation aside), or the record is EBSCOhost's (``DP  - EBSCOhost``), whose
    ``T2`` holds the paper's translated or alternative titles and ``JO``/``JF``/``J1`` the journal (as Zotero's
    EBSCOhost translator reads them). Stored as ``secondary_title`` it was read as another name of the journal."""
    values = record.get("secondary_title")
    if not values:
        return
    values = values if isinstance(values, list) else [values]
    ebsco = str(record.get("database_provider") or "").strip().lower() == "ebscohost"
    title = _folded(row.get("title") or "")
    moved = [v for v in values if ebsco or _folded(v) == title]
    if not moved:
        return
    kept = [v for v in values if v not in moved]
    row["alternative_title"] = moved if len(moved) > 1 else moved[0]
    if kept:
        record["secondary_title"] = kept if len(kept) > 1 else kept[0]
    else:
        del record["secondary_title"]


def _c2_ids(record: Row, row: Row, urls: list[str]) -> None:
    """C2 as the id it is: Scopus writes a record's PubMed ID there ("C2  - 42660280" with ``DB  - Scopus``),
    EndNote a PubMed record's PMC id ("C2  - PMC5887696", its form says so). Any other C2 stays "custom2"."""
    value = record.get("custom2")
    if not isinstance(value, str):
        return
    text = value.strip()
    if _PMC_ID.match(text):
        row["pmcid"] = record.pop("custom2").strip().upper()
    elif text.isdigit() and len(text) <= 9 and (
            str(record.get("name_of_database") or "").strip().lower() == "scopus"
            or any("scopus.com/" in str(url) for url in urls)):
        row["pmid"] = record.pop("custom2").strip()


def _c5_pmid(record: Row, row: Row, urls: list[str]) -> None:
    """Embase writes a MEDLINE record's PubMed ID as C5 ("C5  - 38701945" with ``DB  - Embase``)."""
    c5 = record.get("custom5")
    databases = record.get("name_of_database")
    names = [str(d).strip().lower() for d in (databases if isinstance(databases, list) else [databases])]
    if isinstance(c5, str) and c5.strip().isdigit() and len(c5.strip()) <= 9 and "pmid" not in row and (
            "embase" in names or any("embase.com/" in str(url) for url in urls)):
        row["pmid"] = record.pop("custom5").strip()


def _ris_row(record: Row, number: int) -> tuple[Row, list[RowWarning]]:
    """One record as a row; a value that differs from the one used (TI vs T1, AB vs N2) stays a field."""
    warnings: list[RowWarning] = []

    def take(role: str, *keys: str, join: bool = False) -> Any:
        chosen: Any = None
        for key in keys:
            value = record.get(key)
            if not value or value == chosen:
                record.pop(key, None)
            elif chosen is None:
                chosen = record.pop(key)
        if not isinstance(chosen, list):
            return chosen
        if join:  # a repeated title or abstract tag: every line is kept
            warnings.append(RowWarning(number, role, f"the record has {len(chosen)} {role} tags; they are joined "
                                                     "into one text, one per line", kind="joined"))
            return "\n".join(str(value) for value in chosen)
        record[f"{role}_all"] = chosen
        return chosen[0]

    tags = (record.pop("authors", None) or []) + (record.pop("first_authors", None) or [])
    authors = [name for value in tags for name in (tagged_names(value) if isinstance(value, str) else [value])]
    urls = record.pop("urls", None) or []
    row: Row = {
        "id": take("id", "id"),
        "type": take("type", "type_of_reference"),
        # the short title (ST) when a record has no other: Ovid-style records and rispy's own examples do
        "title": take("title", "title", "primary_title", "short_title", join=True),
        "abstract": take("abstract", "abstract", "notes_abstract", join=True),
        # JF (rispy's alternate_title3) is the full name by the RIS specification, JO (journal_name) its
        # abbreviation where a record has both: Embase writes "JF  - Medicine in Drug Discovery", "JO  - Med. Drug
        # Disc."; EBSCO writes the full name in both, IEEE and Mendeley in JO alone
        "journal": take("journal", "alternate_title3", "journal_name", "secondary_title", "alternate_title1",
                        "alternate_title2"),
        "year": _year(take("year", "year", "publication_year", "date")),
        "doi": take("doi", "doi") or _doi_elsewhere(record, urls),
        "authors": authors,
        "url": urls[0] if urls else None,
        "urls": urls,
        "keywords": record.pop("keywords", None) or [],
    }
    if isinstance(row["journal"], str) and _WEB_ADDRESS.match(row["journal"]):  # CENTRAL: a registry record's page
        urls.extend([] if row["journal"] in urls else [row["journal"]])
        row["journal"] = None
    if not row["journal"] and str(row["type"]).upper() in ("CONF", "CPAPER"):  # Zotero, Scopus: proceedings in C3
        row["journal"] = take("journal", "custom3")
    _titles_in_t2(record, row)
    _c2_ids(record, row, urls)
    _c5_pmid(record, row, urls)
    record.pop("end_of_reference", None)
    if "unknown_tag" in record:
        record["unknown_tag"] = dict(record["unknown_tag"])
        editors = record["unknown_tag"].pop("ED", None) or []  # ED: editors (Zotero reads it so; not in rispy)
        row["editors"] = [name for value in editors for name in tagged_names(value)] or None
        if row["editors"] and not authors:  # an edited book: its editors are its people
            row["authors"], row["author_role"] = list(row["editors"]), "editors"
        if not row["editors"]:
            del row["editors"]
        if not record["unknown_tag"]:
            del record["unknown_tag"]
    row.update(record)
    return row, warnings


def _ris_rows(path: Path) -> Iterator[NumberedRow]:
    parser = _ris_parser()
    number = 0
    chunk: list[str] = []

    def flush(cut: bool = False) -> Iterator[NumberedRow]:
        """The record in `chunk`; `cut`: the file ended inside it (no ER, where its other records have one)."""
        nonlocal number
        number += 1
        records = parser.parse_lines(iter([*join_paragraphs(chunk), "ER  - "]))
        if records:
            row, warnings = _ris_row(records[0], number)
            if cut and not row["title"]:
                yield number, record_cut_error(number, no_end_line())
                return
            yield number, row
            yield from ((number, warning) for warning in warnings)
            if cut:
                yield number, record_cut_warning(number, chunk[-1][:2], no_end_line())
        else:
            yield number, RowError(number, f"row {number}: RIS record could not be read")

    one_space = False  # the record started "TY - JOUR": its tags have one space before the dash
    ended = False  # a record ended with ER: a last one without is the file cut short
    whole = True  # the last line ended with a line break: a file that ends inside a line is cut short
    with _open_text(path) as handle:
        for raw in handle:
            whole = raw.endswith(("\n", "\r"))
            line = raw.rstrip("\r\n").lstrip("\ufeff")  # a byte order mark also starts files joined together
            if line.startswith("TY - ") or (chunk and one_space and _ONE_SPACE_TAG.match(line)):
                line = _ONE_SPACE_TAG.sub(r"\1  -", line, count=1)
            if line.startswith("TY  -"):
                if chunk:
                    yield from flush()
                chunk = [line]
                one_space = raw.lstrip("\ufeff").startswith("TY - ")
            elif chunk and line.startswith("ER  -"):
                yield from flush()
                chunk, one_space, ended = [], False, True
            elif chunk:
                chunk.append(line)
    if chunk:  # a one-record file has no ER to compare with: it ends inside a line when it was cut
        yield from flush(cut=ended or not whole)
