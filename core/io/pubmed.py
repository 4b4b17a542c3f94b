"""The PubMed XML reader: MEDLINE records as numbered raw rows, with XML entities refused.

A PubMed XML file (efetch, a saved search) mixes journal records (``PubmedArticle``) with Bookshelf records
(``PubmedBookArticle``: a GeneReviews or StatPearls chapter, or a whole book). Both are read: a book record's
title is its ``ArticleTitle`` (a chapter), else its ``BookTitle`` (a whole book), its journal the book's title; a
record that cannot be read is a row error with its reason, so every record in the file is accounted for.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.errors import CorpusError
from core.io.rows import NumberedRow, Row, _year
from core.io.safety import _name, _open_binary, xml_head, xml_refusal
from core.records import RowError

# NLM's heading for a section without one (PubMed shows none), a line of its own in pubmed_parser's abstract
_UNLABELLED = re.compile(r"(?m)^UNLABELLED\n")


def _coded_names(value: str) -> list[str]:
    """'D000003:Abattoirs; D000818:Animals' -> ['Abattoirs', 'Animals']."""
    return [part.partition(":")[2].strip() or part.strip() for part in value.split("; ") if part.strip()]


def _pubmed_row(article: dict[str, Any]) -> Row:
    authors = [_name_of(a.get("lastname", ""), a.get("forename", ""), a.get("initials", ""))
               for a in article.get("authors") or []]
    row: Row = {
        "pmid": article.get("pmid") or None,
        "title": article.get("title", ""),
        "abstract": re.sub(r"\n{3,}", "\n\n", _UNLABELLED.sub("", article.get("abstract", ""))).strip(),
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
        "issn": list(dict.fromkeys(i for i in (article.get("issn_linking"), *article.get("issns", ())) if i)),
        "pmc": article.get("pmc") or None,
        "grants": article.get("grant_ids") or [],
    }
    return row


def _journal_issns(element: Any) -> list[str]:
    """The journal's ISSNs under ``Article/Journal`` (``<ISSN IssnType="Electronic">``), beside the Linking one
    (``MedlineJournalInfo/ISSNLinking``, which pubmed_parser reads)."""
    return [text for issn in element.findall("MedlineCitation/Article/Journal/ISSN") if (text := _text_of(issn))]


def _text_of(element: Any) -> str:
    """An element's text with its children's (``<sup>``, ``<i>``), spaces collapsed; "" for None."""
    return " ".join("".join(element.itertext()).split()) if element is not None else ""


def _person(author: Any) -> str:
    collective = _text_of(author.find("CollectiveName"))
    if collective:
        return collective
    last, fore = _text_of(author.find("LastName")), _text_of(author.find("ForeName"))
    return _name_of(last, fore, _text_of(author.find("Initials")))


def _name_of(last: str, fore: str, initials: str) -> str:
    """The fullest form of a name, as MEDLINE's ``FAU`` writes it: "Bao, Ying" (else "Bao Y", else "Bao")."""
    last, fore, initials = last.strip(), fore.strip(), initials.strip()
    if last and fore:
        return f"{last}, {fore}"
    return " ".join(filter(None, (last, initials or fore)))


def _book_row(element: Any) -> Row:
    """A ``PubmedBookArticle`` as a row: the chapter's (else the book's) title, abstract, PMID, authors, year."""
    document = element.find("BookDocument")
    if document is None:
        raise ValueError("no BookDocument")
    book = document.find("Book")
    book_title = _text_of(book.find("BookTitle")) if book is not None else ""
    title = _text_of(document.find("ArticleTitle")) or book_title
    abstract = document.find("Abstract")
    paragraphs = []
    for part in abstract.findall("AbstractText") if abstract is not None else []:
        text, label = _text_of(part), part.get("Label")
        if text:
            paragraphs.append(f"{label}: {text}" if label and label.upper() != "UNLABELLED" else text)
    # the chapter's authors; a whole book has only its editors (under Book)
    lists = [a for a in document.findall("AuthorList") if a.get("Type", "authors") == "authors"]
    if not lists and book is not None:
        lists = book.findall("AuthorList")
    authors = [name for authors in lists for a in authors.findall("Author") if (name := _person(a))]
    year = _year(_text_of(book.find("PubDate/Year")) if book is not None else "") or _year(
        _text_of(document.find("ContributionDate/Year")))
    ids = {i.get("IdType"): _text_of(i) for i in document.findall("ArticleIdList/ArticleId")}
    ids.update({i.get("IdType"): _text_of(i) for i in element.findall("PubmedBookData/ArticleIdList/ArticleId")
                if i.get("IdType") not in ids})
    publisher = _text_of(book.find("Publisher/PublisherName")) if book is not None else ""
    return {
        "pmid": _text_of(document.find("PMID")) or None,
        "title": title,
        "abstract": "\n".join(paragraphs),
        "journal": book_title or None,
        "year": year,
        "doi": ids.get("doi") or None,
        "authors": authors,
        "publication_types": [_text_of(t) for t in document.findall("PublicationType") if _text_of(t)],
        "language": _text_of(document.find("Language")) or None,
        "publisher": publisher or None,
        "bookaccession": ids.get("bookaccession") or None,
        "pmc": ids.get("pmc") or None,
        "record_type": "book",
    }


def _entities_refused(path: Path) -> CorpusError:
    return CorpusError(
        f"file '{_name(path)}' declares XML entities, which are refused for safety; "
        "remove the entity declarations and import again"
    )


def _pubmed_rows(path: Path) -> Iterator[NumberedRow]:
    from lxml import etree
    from pubmed_parser.medline_parser import parse_article_info, parse_grant_id

    if not xml_head(path).strip():
        raise CorpusError(f"file '{_name(path)}' is empty")
    number = 0
    with _open_binary(path) as stream:
        events = etree.iterparse(
            stream, events=("end",), tag=("PubmedArticle", "PubmedBookArticle"), resolve_entities=False,
            no_network=True, load_dtd=False, huge_tree=False, remove_comments=True,
        )
        try:
            for _, element in events:
                number += 1
                row: Row | RowError
                book = element.tag == "PubmedBookArticle"
                try:
                    if book:
                        row = _book_row(element)
                    else:
                        article = parse_article_info(element, False, False, True, False)
                        article["grant_ids"] = parse_grant_id(element)
                        article["issns"] = _journal_issns(element)
                        row = _pubmed_row(article)
                except (AttributeError, IndexError, KeyError, TypeError, ValueError):
                    kind = "PubMed book record (PubmedBookArticle)" if book else "PubMed record"
                    row = RowError(number, f"row {number}: {kind} could not be read")
                element.clear()
                while element.getprevious() is not None:
                    del element.getparent()[0]
                yield number, row
        except etree.XMLSyntaxError as error:
            if "entit" in str(error).lower():
                raise _entities_refused(path) from None
            raise xml_refusal(path, error) from None
