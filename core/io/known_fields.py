"""The values of the fields the product knows, as it keeps them whatever the export: years as numbers, DOIs bare,
authors and keywords as lists, a journal on one line, and Web of Science's full author names preferred."""

from __future__ import annotations

import re
from typing import Any

from core.io.markup import has_markup, plain_text
from core.io.names import _MORE, author_list, glued_names
from core.io.rows import _year
from core.records import bare_doi

_SPRINGER = ("book series title", "content type")  # SpringerLink's search-results CSV (its "Item DOI": the doi)
_FULL_NAMES = ("af", "author full names")  # Web of Science's full author names, by its tags or field names
_AUTHOR_ID = re.compile(r"\(\d{5,}\)")


_NO_JOURNAL = frozenset(("deleted journal",))  # placeholders for a venue, case aside
_R_MISSING = frozenset(("journal", "doi", "year"))  # "NA" is never a journal, DOI or year: R's missing value


def known_value(field: str, value: Any) -> Any:
    """A value of a known field as the product keeps it: years as numbers, authors and keywords as lists, a journal
    on one line."""
    if value is None or (value == "NA" and field in _R_MISSING):  # R's missing value (synthesisr, citationchaser)
        return None
    if field == "year" and not isinstance(value, int):
        return _year(value) or value
    if field == "doi" and isinstance(value, str):
        return bare_doi(value)
    if field == "authors" and isinstance(value, str):  # a list everywhere, even of one name (core.io.names)
        return author_list(value)
    if field == "authors" and isinstance(value, list) and len(value) > 1 and value[-1] in _MORE:
        return value[:-1]  # Google Scholar's cut list as a list (Publish or Perish's JSON): "..." is no author
    if field == "journal" and isinstance(value, str):  # one journal, one spelling: wrapped over lines (WoS BibTeX),
        # a trailing space (ScienceDirect BibTeX), an entity ("Networks &amp; Distributed Systems", ACM BibTeX)
        if not value.strip(" -\u2013\u2014.") or value.strip().casefold() in _NO_JOURNAL:  # Elicit's "-" for an
            return None  # unknown venue, OpenAlex's (and Lens') "Deleted Journal" for a lost one: no journal
        value = plain_text(value) if ("<" in value or "&" in value) and has_markup(value) else value
        return " ".join(value.split()) if "\n" in value else value.strip(" ")
    if field == "keywords" and isinstance(value, str):
        return keyword_list(value)
    return value


def keyword_list(value: str) -> list[str]:
    """Keywords in one cell as a list: joined by ";" (most exports) or "|" (OpenAlex), else by commas outside
    parentheses (Embase: "Probiotics,Diarrhea", "cyst (diagnosis, surgery), colonoscopy"; Abstrackr)."""
    if ";" in value or "|" in value:
        parts = value.split(";" if ";" in value else "|")
    else:
        parts = re.split(r",(?![^()]*\))", value)
    return [part.strip() for part in parts if part.strip()]


def fullest_authors(fields: dict[str, Any]) -> None:
    """Web of Science's tables carry the authors twice, "Sakamura, K" (AU, Authors) and "Sakamura, Ken" (AF, Author
    Full Names): the full names become the authors, the short forms stay as ``author_short_names`` (as the plain
    text reader does), also where the short forms run together in one text (Current Contents). Scopus' "Author full
    names" hold author ids ("Wilson, Lauren N. (58975547800)"): left."""
    short = fields.get("authors")
    if not isinstance(short, list):  # no short forms to replace (a table without authors)
        return
    for key in _FULL_NAMES:
        full = fields.get(key)
        if not isinstance(full, str) or _AUTHOR_ID.search(full):
            continue
        names = author_list(full)
        if (len(names) == len(short) and names != short) or _run_together(short, names):
            fields["authors"], fields["author_short_names"] = names, short
            del fields[key]
        return


def _run_together(short: list[Any], full: list[str]) -> bool:
    """True when the short forms are one text holding every full name's family name in order, without separators:
    Current Contents' tab export writes ``AU`` as "Roach, MCThompson, FRJones-Farrand, T"."""
    if len(short) != 1 or len(full) < 2 or not isinstance(short[0], str) or ";" in short[0]:
        return False
    text, at = short[0], 0
    for name in full:
        family = name.split(",")[0].strip()
        at = text.find(family, at) if family else -1
        if at < 0:
            return False
        at += len(family)
    return True


def springer_authors(fields: dict[str, Any]) -> None:
    """SpringerLink's CSV (``Item Title``, ``Item DOI``, ``Authors``, ``Content Type``) runs a paper's authors
    together in one cell ("Araz R. AlievNigar T. Ismayilova"): split into people (`core.io.names.glued_names`)."""
    authors = fields.get("authors")
    if isinstance(authors, list) and len(authors) == 1 and all(key in fields for key in _SPRINGER):
        fields["authors"] = glued_names(str(authors[0]))


_NULL_NAME = re.compile(r"^(?:null[\s,]*)+$", re.IGNORECASE)  # Lens.org's name for an author it has none for


_EMAIL_AFTER = re.compile(r"^(.*\S)\s*\(\s*([^\s()@]+@[^\s()@]+\.[^\s()@]+)\s*\)$")  # "Name (x@y.org)", BIOSIS


def author_emails(fields: dict[str, Any]) -> None:
    """BIOSIS writes a corresponding author's e-mail after the name ("Nordberg, Eric J. (ericjnordberg@gmail.com)"):
    the author is the name, and the e-mails are kept as ``author_emails`` ("Nordberg, Eric J.: ericjnordberg@…")."""
    authors = fields.get("authors")
    if not isinstance(authors, list) or not any(isinstance(a, str) and a.endswith(")") and "@" in a for a in authors):
        return
    names, emails = [], []
    for name in authors:
        m = _EMAIL_AFTER.match(name) if isinstance(name, str) else None
        names.append(m.group(1) if m else name)
        if m:
            emails.append(f"{m.group(1)}: {m.group(2)}")
    if emails and "author_emails" not in fields:
        fields["authors"], fields["author_emails"] = names, emails


def clean_authors(fields: dict[str, Any]) -> None:
    """A paper's list of authors as the product keeps it: Web of Science's full names (`fullest_authors`),
    SpringerLink's glued names split (`springer_authors`), BIOSIS's e-mails after a name kept apart
    (`author_emails`), and no name that is only "null" (Lens.org writes an author it has no name for "null null" in
    its CSV, "null, null" in its RIS)."""
    fullest_authors(fields)
    springer_authors(fields)
    author_emails(fields)
    authors = fields.get("authors")
    if isinstance(authors, list) and any(isinstance(name, str) and _NULL_NAME.match(name) for name in authors):
        fields["authors"] = [name for name in authors if not (isinstance(name, str) and _NULL_NAME.match(name))]
