"""When two titles that carry one strong id (a DOI, a PMID…) are one paper's title: they agree, one has a venue in
front (`venue_titles`), one is the other with a number left out (PubMed's "Three Ingredients for a Speed-Up." for
the publisher's "Three ingredients for a 100× speed-up": NLM leaves out what it cannot print), or a title one record
gives in another language agrees with the other's: Scopus' ``English title; [Título original]`` tail (its CSV of 2025:
``English title; Original title``, no brackets: the part before "; "), ProQuest's ``English title?/Título original``,
and the other titles of Web of Science's regional indexes (SciELO Citation Index: ``TI`` in Spanish or Portuguese,
``X1`` in English; ``Y1``/``Z1`` in the tab-delimited layout), or one title is the other's part before or after its
colon (a subtitle one database left out; PubMed's "Letter to the Editor: …" heading), that part long enough to name
a paper.

A title that is the other's with only a notice's words added ("'Title': Correction.", "Correction to: Title",
"Retraction Note: Title") is a notice about that paper, not the paper, though a database gives it the paper's DOI
(APA PsycInfo gives an erratum its article's DOI): `notice_of` tells it, and the two stay apart."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from core.store.title_numbers import title_numbers
from core.store.venue_titles import venue_prefixed

_OTHER_TITLES = ("x1", "y1", "z1")  # the fields (as the Web of Science reader names them) that hold other titles
_BRACKETED = re.compile(r"\[([^\[\]]{10,})\]\s*\.?\s*$")  # Scopus' "Title; [Original title]"
_LONG_PART = 25  # the shortest title key a part before or after a colon may have (as `identity.MIN_TITLE_KEY`)
_NOTICE = frozenset(("correction", "corrections", "erratum", "errata", "corrigendum", "corrigenda", "retraction",
                     "retracted", "withdrawal", "withdrawn", "reply", "response", "expression", "concern", "addendum"))
_NOTICE_FILLER = frozenset(("to", "of", "on", "for", "note", "notice", "the", "a", "an", "re", "author", "authors",
                            "s", "in"))


def notice_of(a_key: str, b_key: str) -> bool:
    """Whether one title key is the other's with only a notice's words added, at its start or end ("correction to
    X", "X correction", "retraction note X"), one of them a notice word."""
    for longer, shorter in ((a_key, b_key), (b_key, a_key)):
        if shorter and longer != shorter and shorter in longer:
            head, _, tail = longer.partition(shorter)
            extra = (head + " " + tail).split()
            if extra and not _NOTICE.isdisjoint(extra) and all(w in _NOTICE or w in _NOTICE_FILLER for w in extra):
                return True
    return False


def number_left_out(a_key: str, b_key: str) -> bool:
    """Whether one title key is the other with its digit words taken out, the other holding no number at all
    ("… for a 100 speed up" and "… for a speed up"; not "… part 2" and "…", which leaves "part")."""
    for numbered, plain in ((a_key, b_key), (b_key, a_key)):
        if title_numbers(numbered) and not title_numbers(plain):
            return " ".join(w for w in numbered.split() if not w.isdigit()) == plain
    return False


def other_titles(title: str, fields: dict[str, Any] | None) -> list[str]:
    """The titles a record gives besides its title: a bracketed original title at its end, its other-language
    title fields."""
    found = [m.group(1)] if (m := _BRACKETED.search(title)) and m.start() > 0 else []
    return found + [v for k in _OTHER_TITLES if isinstance(v := (fields or {}).get(k), str) and v.strip()]


def agree_under_one_id(a: str, b: str, agree: Callable[[str, str], bool], key: Callable[[str], str],
                       a_fields: dict[str, Any] | None = None, b_fields: dict[str, Any] | None = None) -> bool:
    """Whether titles a and b, which share a strong id, are one paper's (``agree``: `identity.titles_agree`,
    ``key``: `identity.title_key`; the fields give each record's other titles)."""
    if notice_of(key(a), key(b)):
        return False
    if agree(a, b) or venue_prefixed(a, b, agree) or number_left_out(key(a), key(b)):
        return True
    a_forms, b_forms = [a, *other_titles(a, a_fields)], [b, *other_titles(b, b_fields)]
    if any(agree(x, y) for x in a_forms for y in b_forms if (x, y) != (a, b)):
        return True
    return any(agree(part, y) for x, others in ((a, b_forms), (b, a_forms)) for part in _colon_parts(x, key)
               for y in others)


def _colon_parts(title: str, key: Callable[[str], str]) -> list[str]:
    """A title's parts before and after its first colon, its first "; " (Scopus' CSV of 2025: "English title;
    Original title", no brackets) and its first "/" (ProQuest: "English title?/Título original"), each when long
    enough (see `_LONG_PART`)."""
    parts = []
    for mark in (":", "; ", "/"):
        head, found, tail = title.partition(mark)
        parts += [part for part in (head, tail) if found and len(key(part)) >= _LONG_PART]
    return parts
