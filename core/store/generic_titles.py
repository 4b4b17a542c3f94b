"""Titles that name a part of a book or an issue, not one paper ("Series Preface", "Editorial", "Contents", "Index").

The front matter of two books and the editorials of two issues share such a title word for word, often with a
boilerplate "abstract", so the text rule alone never joins two of them that carry different strong ids:
`core.store.batches` asks `generic_title` and `strong_ids_differ`, and keys the later record by `apart_key`. Without
an abstract, volume, issue or page, nothing but the title is left to compare ("Editorial Board" of each issue in a
title-only table): such a record's text key holds its id and fields too (`text_key`; BENCHMARKS §25t).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from core.records import duplicate_key
from core.store.bibliographic import first_page, first_text
from core.store.identity import STRONG_KINDS, kinds_of, record_key, title_key

# as `title_key` folds a title
_GENERIC_TITLES = frozenset((
    "editorial", "editorials", "guest editorial", "editors note", "editor s note", "editorial board", "front matter",
    "frontmatter", "back matter", "backmatter", "contents", "table of contents", "index", "author index",
    "subject index", "preface", "series preface", "series editor s preface", "series editors preface", "foreword",
    "series foreword", "introduction", "acknowledgments", "acknowledgements", "acknowledgment", "acknowledgement",
    "reviewers", "list of reviewers", "issue information", "masthead", "cover", "cover image", "title page",
    "half title page", "copyright", "copyright page", "in this issue", "erratum", "errata", "corrigendum",
    "correction", "letter to the editor", "reply", "response", "book review", "book reviews", "obituary", "news",
    "announcements", "calendar", "dedication", "about the authors", "about the editors", "list of contributors",
    "contributors", "notes on contributors", "bibliography", "references", "glossary", "abbreviations",
    "list of abbreviations", "appendix", "epilogue", "prologue", "conclusion", "conclusions", "summary",
    "abstracts", "meeting abstracts", "conference abstracts", "poster abstracts", "posters", "poster presentations",
    "oral presentations", "invited speakers",  # a journal supplement's parts (Annals of Behavioral Medicine)
))


def generic_title(title: str) -> bool:
    """Whether a title names front or back matter ("Series Preface", "Editorial", "Contents", "Index"), not one
    paper: case, punctuation and a trailing full stop aside."""
    return len(title) < 40 and title_key(title) in _GENERIC_TITLES


def strong_ids_differ(a_keys: Iterable[str], b_keys: Iterable[str]) -> bool:
    """Whether two records carry a strong id of one kind (DOI, PMID, …) with different values."""
    ka, kb = kinds_of(a_keys), kinds_of(b_keys)
    return any(k in ka and k in kb and ka[k] != kb[k] for k in STRONG_KINDS)


def apart_key(title: str, abstract: str, keys: Iterable[str]) -> str:
    """The text-rule key of a generic-titled record kept apart from another with the same text: its text with its
    strong ids, so two records of one DOI still share it."""
    ids = sorted(key for key in keys if key.partition(":")[0] in STRONG_KINDS)
    return duplicate_key(title, f"{abstract or ''}\x1d" + "\x1d".join(ids))


def text_key(title: str, abstract: str, fields: dict[str, Any], pid: str | None) -> str:
    """`record_key` of a record; for a generic title without an abstract, volume, issue or page, with its id and
    all its fields: the same record read again merges, another issue's "Editorial Board" does not."""
    if (pid and len(title) < 40 and not (abstract and not abstract.isspace()) and generic_title(title)
            and not (first_text(fields.get("volume")) or first_text(fields.get("issue") or fields.get("number"))
                     or first_page(fields))):
        own = "\x1d" + pid + "\x1d" + json.dumps(fields, sort_keys=True, ensure_ascii=False, default=str)
        return record_key(title, abstract, fields, own)
    return record_key(title, abstract, fields)
