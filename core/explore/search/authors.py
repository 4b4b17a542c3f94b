"""Papers by an author named in part: the corpus's author names holding every word a user typed ("rita roe",
"Roe R"), for the search filters (which keep the papers whose author list holds one of them)."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import numpy as np

from core.frames import derived
from core.records import author_names


def fold_name(text: str) -> list[str]:
    """A name's words: lower case, accents and punctuation dropped ("Müller-Roe, R." -> müller roe r -> muller…)."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return re.sub(r"[\W_]+", " ", plain.lower()).split()


def names_of(value: Any) -> list[str]:
    """The author names of one cell: a list, a NumPy array (Arrow) or a text split at ';'."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    return author_names(value)


def _all_names(frame: Any) -> list[tuple[str, tuple[str, ...]]]:
    """Every distinct author name of the frame with its folded words (once per frame object)."""
    names = {name for value in frame["authors"] for name in names_of(value)}
    return [(name, tuple(fold_name(name))) for name in sorted(names)]


def matching_authors(frame: Any, text: str) -> list[str]:
    """The corpus's author names in which each typed word begins a word of the name, in any order and case."""
    wanted = fold_name(text or "")
    if not wanted or "authors" not in getattr(frame, "columns", ()):
        return []
    return [name for name, words in derived(frame, "author_names", _all_names)
            if all(any(w.startswith(part) for w in words) for part in wanted)]
