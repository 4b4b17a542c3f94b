"""The PubMed XML reader: MEDLINE records as numbered raw rows, with XML entities refused."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.errors import CorpusError
from core.io.rows import NumberedRow, Row, _year
from core.io.safety import _name, _open_binary
from core.records import RowError

_ENTITY_SCAN_BYTES = 64 * 2**10


def _coded_names(value: str) -> list[str]:
    """'D000003:Abattoirs; D000818:Animals' -> ['Abattoirs', 'Animals']."""
    return [part.partition(":")[2].strip() or part.strip() for part in value.split("; ") if part.strip()]


def _pubmed_row(article: dict[str, Any]) -> Row:
    authors = [
        " ".join(filter(None, (a.get("lastname", ""), a.get("initials", "") or a.get("forename", ""))))
        for a in article.get("authors") or []
    ]
    row: Row = {
        "pmid": article.get("pmid") or None,
        "title": article.get("title", ""),
        "abstract": re.sub(r"\n{3,}", "\n\n", article.get("abstract", "")),
        "journal": article.get("journal") or None,
        "journal_abbrev": article.get("medline_ta") or None,
        "year": _year(article.get("pubdate")),
        "pubdate": article.get("pubdate") or None,
        "doi": article.get("doi") or None,
        "authors": [a for a in authors if a],
        "mesh": _coded_names(article.get("mesh_terms", "")),
        "keywords": [k.strip() for k in (article.get("keywords") or "").split(";") if k.strip()],
        "publication_types": _coded_names(article.get("publication_types", "")),
        "chemicals": _coded_names(article.get("chemical_list", "")),
        "country": article.get("country") or None,
        "language": article.get("languages") or None,
        "issue": article.get("issue") or None,
        "pages": article.get("pages") or None,
        "issn": article.get("issn_linking") or None,
        "pmc": article.get("pmc") or None,
        "grants": article.get("grant_ids") or [],
    }
    return row


def _entities_refused(path: Path) -> CorpusError:
    return CorpusError(
        f"file '{_name(path)}' declares XML entities, which are refused for safety; "
        "remove the entity declarations and import again"
    )


def _pubmed_rows(path: Path) -> Iterator[NumberedRow]:
    from lxml import etree
    from pubmed_parser.medline_parser import parse_article_info, parse_grant_id

    with _open_binary(path) as stream:
        head = stream.read(_ENTITY_SCAN_BYTES)
    if not head.strip():
        raise CorpusError(f"file '{_name(path)}' is empty")
    if b"<!ENTITY" in head:
        raise _entities_refused(path)
    number = 0
    with _open_binary(path) as stream:
        events = etree.iterparse(
            stream, events=("end",), tag="PubmedArticle", resolve_entities=False,
            no_network=True, load_dtd=False, huge_tree=False, remove_comments=True,
        )
        try:
            for _, element in events:
                number += 1
                row: Row | RowError
                try:
                    article = parse_article_info(element, False, False, True, False)
                    article["grant_ids"] = parse_grant_id(element)
                    row = _pubmed_row(article)
                except (AttributeError, IndexError, KeyError, TypeError, ValueError):
                    row = RowError(number, f"row {number}: PubMed record could not be read")
                element.clear()
                while element.getprevious() is not None:
                    del element.getparent()[0]
                yield number, row
        except etree.XMLSyntaxError as error:
            if "entit" in str(error).lower():
                raise _entities_refused(path) from None
            raise CorpusError(f"file '{_name(path)}' is not valid XML (line {error.lineno})") from None
