"""Titles with their venue in front. Lens.org writes a conference paper it took from the Microsoft Academic Graph
with dblp's venue, " - ", then the title ("ECCV Workshops (3) - 3D Glasses as Mobility Aid for Visually Impaired
People", "CHI Extended Abstracts - CyARM: …"); Scopus and Web of Science give the same paper, under the same DOI,
its title alone. `venue_prefixed` tells that case, so a shared strong id merges the two
(`core.store.identity.same_paper`); the title is never changed (nothing a user has is lost).

Only the first " - " is taken as the end of a venue; the venue is short (at most `MAX_VENUE_WORDS` words) and is no
note a database writes before a title ("Erratum - …", "Reply - …"), and the rest must agree with the other title
by the same rule as any two titles."""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["MAX_VENUE_WORDS", "venue_prefixed"]

MAX_VENUE_WORDS = 8
_VENUE_PREFIX = re.compile(r"^\s*(?P<venue>\S.{0,79}?)\s+[-\u2013\u2014]\s+(?P<title>\S.*)$", re.DOTALL)
_NOT_VENUES = frozenset({
    "erratum", "errata", "correction", "corrigendum", "retraction", "retracted", "withdrawn", "reply", "response",
    "comment", "comments", "commentary", "editorial", "addendum", "letter", "review", "obituary", "concern",
    "notice", "update", "author", "authors", "chapter", "part", "section",
})
_WORD = re.compile(r"[^\W\d_]+")


def _venue_and_title(title: str) -> str | None:
    """The title after a venue prefix ("ECCV Workshops (3) - Title" -> "Title"), or None when there is none."""
    match = _VENUE_PREFIX.match(title or "")
    if match is None:
        return None
    venue = match["venue"]
    if len(venue.split()) > MAX_VENUE_WORDS or not _NOT_VENUES.isdisjoint(w.lower() for w in _WORD.findall(venue)):
        return None
    return match["title"]


def venue_prefixed(a: str, b: str, agree: Callable[[str, str], bool]) -> bool:
    """Whether one title is the other with a venue in front ("ICCHP (1) - X" and "X"), the rest agreeing by
    ``agree`` (`core.store.identity.titles_agree`)."""
    if " - " not in a and " - " not in b and "\u2013" not in a + b and "\u2014" not in a + b:
        return False  # the common case: no dash, one test
    for prefixed, plain in ((a, b), (b, a)):
        rest = _venue_and_title(prefixed)
        if rest is not None and agree(rest, plain):
            return True
    return False
