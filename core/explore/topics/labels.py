"""Nested names for a two-level topic map: coarse topics are lettered ("B: protein folding, molecular dynamics"),
their fine topics carry the letter and a number ("B2: force field, simulation"), so legend, hover card and map labels
show which coarse topic a fine one sits in. A name the user gave replaces the keywords, never the tag.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from core.explore.topics.hierarchy import LEVELS, Topics, topic_tags

if TYPE_CHECKING:
    from core.store import Store


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


def given_names(store: Store, corpus: str, model: str, clustering: str) -> dict[str, dict[int, str]]:
    """Per level, the names users gave to topics of this clustering (the Domain map's renames), by cluster."""
    return {level: store.topic_names(corpus, model, clustering, level) for level in LEVELS}
