"""Names a file writes turned round, the initial before the comma and the family name after, in capitals ("A,
TOUROVSKAIA", "M, FAUVER": Rayyan's BibTeX of Web of Science records): read as "Tourovskaia, A" where the whole file
shows the pattern, so that one name written so ("X, LI") in an ordinary file is left as it is."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from core.io.rows import RowWarning

_TURNED = re.compile(r"^[A-ZÀ-ÖØ-Þ], [^a-zß-öø-ÿ]+$")
_CAPITALS = re.compile(r"^[^\W\da-zß-öø-ÿ][^\sa-zß-öø-ÿ,]+$")  # one word in capitals: "LEHTONEN"


def turned_round(names: list[str]) -> bool:
    """Whether names are written turned round: every name is one capital, a comma and a name in capitals (most with
    a word of two letters or more), or one word in capitals (a name without initials); three or more turned."""
    turned = [name for name in names if _TURNED.match(name)]
    if len(turned) < 3 or any(not _TURNED.match(name) and not _CAPITALS.match(name) for name in names):
        return False
    return sum(bool(re.search(r"[A-ZÀ-ÖØ-Þ]{2}", name.partition(", ")[2])) for name in turned) * 2 > len(turned)


def turn_round(name: str) -> str:
    """"A, TOUROVSKAIA" as "Tourovskaia, A"; a name without a comma in title case."""
    given, comma, family = name.partition(", ")
    return f"{family.title()}, {given}" if comma else given.title()


def turned_rows(items: Iterable[tuple[Any, Any]]) -> Iterator[tuple[Any, Any]]:
    """A file's (number, row or note) items, its rows' authors turned back where the whole file writes them turned
    round, with one warning saying so after the first row."""
    items = list(items)
    rows = [row for _, row in items if isinstance(row, dict)]
    if not turned_round([name for row in rows for name in row.get("authors") or []]):
        yield from items
        return
    warned = False
    for number, item in items:
        if isinstance(item, dict) and item.get("authors"):
            item["authors"] = [turn_round(name) for name in item["authors"]]
        yield number, item
        if isinstance(item, dict) and not warned:
            warned = True
            yield number, RowWarning(number, "authors", "every author in the file is written initial first, in "
                                                        "capitals (\"A, TOUROVSKAIA\", as Rayyan writes them): "
                                                        "read as \"Tourovskaia, A\"", kind="names")
