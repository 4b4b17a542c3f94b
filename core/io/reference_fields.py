"""What a reference manager knows of a paper, found in its stored fields: authors, journal, year, DOI, keywords,
notes, volume, issue, pages, ISSN, URL, publisher, language.

The importer stores the mapped fields under the product's names (journal, year, doi, authors, keywords), and every
other column as exported; a corpus's roles (core.store.field_roles) say which field is the journal and the year
when they came under another name. Authors come as a list or one text ("Wilson, Lauren N.", Scopus's "Wilson L.N.",
"L.N. Wilson"); `split_name` turns each into (family, given) where the shape tells, and leaves it whole where it does
not (a name is never guessed into the wrong parts).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core.records import Paper, author_names, bare_doi

# an initials token: "L.N.", "LN", "J.-P.", "A"
_INITIALS = re.compile(r"^(?:[A-Z][a-z]?\.?-?){1,4}$")
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")
# the other columns a reference manager has a place for, by the names exports give them (lower case, "_" as " ")
_EXTRA_NAMES = {
    "volume": ("volume", "vl", "vol"),
    "issue": ("issue", "number", "is"),
    "pages": ("pages", "page", "pg"),
    "start_page": ("start page", "page start", "sp", "bp", "first page"),
    "end_page": ("end page", "page end", "ep", "last page"),
    "issn": ("issn", "sn", "eissn"),
    "url": ("url", "link", "urls"),
    "publisher": ("publisher", "pb"),
    "language": ("language", "la", "language of original document"),
    "abbreviation": ("journal abbreviation", "abbreviated source title", "abbrev source title", "container title short",
                     "alternate title1", "j2", "ja", "iso abbreviation"),
    "notes": ("notes", "note", "n1"),
}
_EXTRA_BY_NAME = {name: key for key, names in _EXTRA_NAMES.items() for name in names}
_TYPE_WORDS = (("conference", "conference"), ("proceeding", "conference"), ("chapter", "chapter"),
               ("book", "book"), ("thesis", "thesis"), ("dissertation", "thesis"), ("report", "report"),
               ("preprint", "preprint"))
_RIS_TYPES = {"CONF": "conference", "CPAPER": "conference", "CHAP": "chapter", "BOOK": "book", "THES": "thesis",
              "RPRT": "report", "INPROCEEDINGS": "conference", "INCOLLECTION": "chapter", "PHDTHESIS": "thesis",
              "MASTERSTHESIS": "thesis", "TECHREPORT": "report"}


@dataclass(frozen=True)
class FieldRoles:
    """Which stored field holds what: the journal and year fields, and the role of every field (field -> role)."""

    journal: str | None = "journal"
    year: str | None = "year"
    roles: Mapping[str, str] = field(default_factory=dict)

    @functools.cached_property
    def mapped(self) -> frozenset[str | None]:
        """The fields read by role, never again as extras."""
        return frozenset((self.journal, self.year, "keywords", "authors", "doi"))

    @functools.cached_property
    def keyword_fields(self) -> tuple[str, ...]:
        """The fields whose words are keywords: `keywords` first, then any other field with that role."""
        return ("keywords", *(name for name, role in self.roles.items() if role == "keywords" and name != "keywords"))


@dataclass
class Reference:
    """One paper as a reference manager sees it; `kind` is article, conference, chapter, book, thesis, report or
    preprint; `authors` are (family, given) pairs, given "" where the name could not be split; `editors_only`: they
    are the editors of an edited book that names no author (written as editors)."""

    id: str
    title: str
    abstract: str
    kind: str = "article"
    authors: list[tuple[str, str]] = field(default_factory=list)
    journal: str = ""
    year: int | str | None = None
    doi: str = ""
    keywords: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    extra: dict[str, str] = field(default_factory=dict)  # the keys of _EXTRA_NAMES, but notes
    editors_only: bool = False


def text_list(value: Any) -> list[str]:
    """A field's value as a list of non-empty texts: a list as it is, a text split at ";" (one item if none)."""
    if value is None or value == "":
        return []
    if isinstance(value, (list, tuple)):
        items = [v if isinstance(v, str) else str(v) for v in value if v is not None]
    elif isinstance(value, str):
        items = value.split(";")
    else:
        items = [str(value)]
    return [text for item in items if (text := item.strip())]


def split_name(name: str) -> tuple[str, str]:
    """(family, given) of one author: "Family, Given"; "Family I.J." (Scopus, PubMed); "I.J. Family"; anything
    else stays whole as the family name, given ""."""
    name = name.strip()
    if "  " in name or "\n" in name or "\t" in name:
        name = " ".join(name.split())
    if "," in name:
        family, given = name.split(",", 1)
        return family.strip(), given.strip()
    parts = name.split(" ")
    if len(parts) > 1 and _INITIALS.match(parts[-1]) and not _INITIALS.match(parts[0]):
        return " ".join(parts[:-1]), parts[-1]
    if len(parts) > 1 and _INITIALS.match(parts[0]) and not _INITIALS.match(parts[-1]):
        return " ".join(parts[1:]), parts[0]
    return name, ""


def ascii_word(text: str) -> str:
    """Lower-case ASCII letters and digits of a text (accents dropped): the stuff of a citation key."""
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _NOT_ALNUM.sub("", text.lower())


def _kind(fields: Mapping[str, Any]) -> str:
    for name in ("entrytype", "type", "type_of_reference", "document type", "publication type", "item type",
                 "type of work"):
        value = fields.get(name)
        if isinstance(value, list):
            value = value[0] if value else None
        if not isinstance(value, str) or not value.strip():
            continue
        text = value.strip()
        if text.upper() in _RIS_TYPES:
            return _RIS_TYPES[text.upper()]
        lowered = text.lower()
        for word, kind in _TYPE_WORDS:
            if word in lowered:
                return kind
        return "article"
    return "article"


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    items = text_list(value) if isinstance(value, (list, tuple)) else [str(value).strip()]
    return items[0] if items else ""


_KEYS: dict[str, str | None] = {}  # a field's name -> its key in _EXTRA_NAMES (None: none), as names are met


def _extra_key(name: str) -> str | None:
    key = _KEYS.get(name, "")
    if key == "":
        key = _KEYS[name] = _EXTRA_BY_NAME.get(name.replace("_", " ").strip().lower())
    return key


def reference(paper: Paper, roles: FieldRoles, tags: Mapping[str, list[str]] | None = None) -> Reference:
    """The reference of one paper; `tags` adds keywords and notes ({"keywords": [...], "notes": [...]})."""
    fields = paper.fields
    journal = fields.get(roles.journal) if roles.journal else None
    year = fields.get(roles.year) if roles.year else None
    if isinstance(year, float) and year.is_integer():
        year = int(year)
    doi = _scalar(fields.get("doi")) if fields.get("doi") else ""
    if not doi and bare_doi(paper.id).startswith("10."):
        doi = bare_doi(paper.id)
    keywords: list[str] = []
    for name in roles.keyword_fields:  # a keyword wrapped over lines in the export (Web of Science) is one line
        keywords.extend(" ".join(k.split()) if "\n" in k else k for k in text_list(fields.get(name)))
    ref = Reference(
        id=paper.id, title=paper.title or "", abstract=paper.abstract or "", kind=_kind(fields),
        authors=[split_name(name) for name in author_names(fields.get("authors"))],
        journal=_scalar(journal) if journal is not None else "",
        year=year if isinstance(year, int) or year is None else _scalar(year) or None,
        doi=bare_doi(doi) if doi else "", editors_only=fields.get("author_role") == "editors",
    )
    skip, keys = roles.mapped, _KEYS
    for name, value in fields.items():
        key = keys.get(name, "")
        if key == "":
            key = _extra_key(name)
        if key is None or value is None or name in skip:
            continue
        if key == "notes":
            ref.notes.extend(text_list(value) if isinstance(value, list) else [str(value).strip()])
        elif key not in ref.extra and (text := _scalar(value)):
            ref.extra[key] = text
    if "pages" not in ref.extra and ref.extra.get("start_page"):
        end = ref.extra.get("end_page")
        ref.extra["pages"] = f"{ref.extra['start_page']}-{end}" if end else ref.extra["start_page"]
    tags = tags or {}
    ref.keywords = list(dict.fromkeys([*keywords, *text_list(tags.get("keywords"))]))
    notes = [*ref.notes, *(str(note).strip() for note in tags.get("notes") or [])]
    ref.notes = list(dict.fromkeys(note for note in notes if note))
    return ref
