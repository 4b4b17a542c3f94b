"""Nested names for a two-level topic map: coarse topics are lettered ("B: protein folding, molecular dynamics"),
their fine topics carry the letter and a number ("B2: force field, simulation"), so legend, hover card and map labels
show which coarse topic a fine one sits in. A name the user gave replaces the keywords, never the tag.
"""

from __future__ import annotations

import string
from collections.abc import Mapping

import numpy as np

from core.explore.topics import LEVELS, Topics


def letter_tag(index: int) -> str:
    """A, B, …, Z, AA, AB, … for the 0-based index of a coarse topic."""
    letters = string.ascii_uppercase
    index, tag = int(index), ""
    while True:
        tag = letters[index % 26] + tag
        index = index // 26 - 1
        if index < 0:
            return tag


def tag_order(tag: str) -> tuple[int, str, int]:
    """Sort key of a tag: A < B < … < Z < AA, and A1 < A2 < … < A10."""
    letters = tag.rstrip("0123456789")
    return len(letters), letters, int(tag[len(letters):] or 0)


def topic_tags(topics: Topics) -> dict[str, dict[int, str]]:
    """Per level, each cluster's tag: the coarse topic's letter; for a fine cluster that letter and its rank by size
    inside the coarse topic (1 = largest)."""
    sizes = np.bincount(topics.fine, minlength=len(topics.parent)) if len(topics.fine) else np.zeros(0, int)
    coarse = {int(c): letter_tag(c) for c in np.unique(topics.parent)}
    fine: dict[int, str] = {}
    for c, tag in coarse.items():
        members = np.flatnonzero(topics.parent == c)
        for rank, f in enumerate(sorted(members, key=lambda m: (-sizes[m], m)), start=1):
            fine[int(f)] = f"{tag}{rank}"
    return {"coarse": coarse, "fine": fine}


def nested_names(topics: Topics, renamed: Mapping[str, Mapping[int, str]] | None = None,
                 terms: int = 3) -> dict[str, dict[int, str]]:
    """Per level, each cluster's label: its tag and the user's name, or its tag and its first keywords."""
    renamed = renamed or {}
    tags = topic_tags(topics)
    out: dict[str, dict[int, str]] = {}
    for level in LEVELS:
        words, given = topics.keywords.get(level, {}), renamed.get(level, {})
        out[level] = {c: f"{tag}: " + (given.get(c) or ", ".join(words.get(c, [])[:terms]) or "(no keywords)")
                      for c, tag in tags[level].items()}
    return out


def paper_labels(topics: Topics, level: str, names: Mapping[str, Mapping[int, str]]) -> list[str]:
    """Each paper's label at a level (what the map colours by and the hover card shows)."""
    lookup = names[level]
    return [lookup[int(c)] for c in topics.labels(level)]
