"""When two titles that carry one strong id (a DOI, a PMID…) are one paper's title: they agree, one has a venue in
front (`venue_titles`), or one is the other with a number left out (PubMed's "Three Ingredients for a Speed-Up." for
the publisher's "Three ingredients for a 100× speed-up": NLM leaves out what it cannot print)."""

from __future__ import annotations

from collections.abc import Callable

from core.store.title_numbers import title_numbers
from core.store.venue_titles import venue_prefixed


def number_left_out(a_key: str, b_key: str) -> bool:
    """Whether one title key is the other with its digit words taken out, the other holding no number at all
    ("… for a 100 speed up" and "… for a speed up"; not "… part 2" and "…", which leaves "part")."""
    for numbered, plain in ((a_key, b_key), (b_key, a_key)):
        if title_numbers(numbered) and not title_numbers(plain):
            return " ".join(w for w in numbered.split() if not w.isdigit()) == plain
    return False


def agree_under_one_id(a: str, b: str, agree: Callable[[str, str], bool], key: Callable[[str], str]) -> bool:
    """Whether titles a and b, which share a strong id, are one paper's (``agree``: `identity.titles_agree`,
    ``key``: `identity.title_key`)."""
    return agree(a, b) or venue_prefixed(a, b, agree) or number_left_out(key(a), key(b))
