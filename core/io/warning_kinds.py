"""What an import warning is about, and the heading the command line and the Import page give each kind: a field
not read whole, text repaired from a wrong encoding, author names read turned round, repeated tags joined. Every
`RowWarning` carries its kind (`RowWarning.kind`, "unread" unless its reader says otherwise)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

UNREAD, REPAIRED, NAMES, JOINED = "unread", "repaired", "names", "joined"

# kind: (heading, what it means for the papers); the command line prints "N warnings: heading (meaning)", the Import
# page the same sentence over an expander named by the heading
_KINDS: dict[str, tuple[str, str]] = {
    UNREAD: ("fields not read whole", "their papers were imported"),
    REPAIRED: ("text garbled by a wrong encoding, repaired", "the papers were imported with the repaired text"),
    NAMES: ("author names written turned round, read family name first",
            "the papers were imported with the names turned back"),
    JOINED: ("repeated tags joined into one field", "the papers were imported with every value, one per line"),
}


def heading(kind: str) -> str:
    """The heading of a kind of warning (an unknown kind is a field not read whole)."""
    return _KINDS.get(kind, _KINDS[UNREAD])[0]


def sentence(kind: str, count: int) -> str:
    """The one line over `count` warnings of `kind`: "2 warnings: fields not read whole (their papers were
    imported)"."""
    title, meaning = _KINDS.get(kind, _KINDS[UNREAD])
    return f"{count} warning{'' if count == 1 else 's'}: {title} ({meaning})"


def by_kind(warnings: Iterable[Any]) -> list[tuple[str, list[Any]]]:
    """The warnings (`RowWarning`s or their report dicts) grouped by kind, the kinds in the order above, each
    group in the warnings' order."""
    groups: dict[str, list[Any]] = {}
    for warning in warnings:
        kind = warning.get("kind") if isinstance(warning, Mapping) else getattr(warning, "kind", None)
        groups.setdefault(kind if kind in _KINDS else UNREAD, []).append(warning)
    return [(kind, groups[kind]) for kind in _KINDS if kind in groups]
