"""Column detection: which source columns hold the title, the abstract, the id and the other known fields.

Names come from the vocabulary table (``vocabulary.csv``); a user's choice for any field overrides it. When no
abstract column exists the error names the fix for the tool that wrote the file (``exports.py``), and a title-only
import is the explicit way past it.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.errors import CorpusError
from core.io.exports import missing_abstract_fix
from core.io.safety import _shown
from core.io.vocabulary import FIELDS, normal, spellings

_normal = normal  # kept for callers of the old name


@dataclass
class ColumnMap:
    """Which source columns hold each product field; None where the file has none (or generated ids)."""

    title: str
    abstract: str | None
    id: str | None = None
    journal: str | None = None
    year: str | None = None
    doi: str | None = None
    authors: str | None = None
    keywords: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        """Field -> source column, in the vocabulary's field order."""
        return {field: getattr(self, field) for field in FIELDS}

    @functools.cached_property
    def passed_over(self) -> frozenset[str]:
        """Source columns not copied into a paper's other fields: title, abstract, id and the renamed ones, except
        a date read as the year, which also keeps its own text ("2019 Mar 5")."""
        return frozenset({self.title, self.abstract, self.id, *self.renames} - self.dates)

    @functools.cached_property
    def dates(self) -> frozenset[str]:
        """A column read as the year under another name ("Date", "DP"): its text is kept unless it is the year."""
        return frozenset(c for c, field in self.renames.items() if field == "year" and normal(c) != "year")

    @functools.cached_property
    def renames(self) -> dict[str, str]:
        """Source column -> product field for the fields stored under their product name (not title/abstract/id)."""
        return {column: field for field, column in self.as_dict().items()
                if column and field not in ("title", "abstract", "id")}


def _found(columns: Sequence[str]) -> str:
    """The columns a header row offers, for an error sentence; none of them when the "header" does not read as a
    table's (one column, or a name with '=' or over 100 characters): the first line of a file that is not a table
    (a forced format=csv of /etc/passwd or a .env) is never quoted (issue 41)."""
    if len(columns) < 2 or any("=" in str(c) or len(str(c)) > 100 for c in columns):
        count = f"{len(columns)} column{'s' * (len(columns) != 1)}"
        return f"{count} in a first line that does not read as a table's header"
    shown = ", ".join(_shown(str(c), 60) for c in columns[:30])
    return shown + (", ..." if len(columns) > 30 else "")


def _given(columns: Sequence[str], override: str, role: str, source: str) -> str:
    for matches in (lambda c: c == override, lambda c: c.strip().lower() == override.strip().lower()):
        hit = next((c for c in columns if matches(c)), None)
        if hit is not None:
            return hit
    raise CorpusError(f"{source} has no column '{_shown(override)}' for the {role} (found: {_found(columns)})")


def _detected(columns: Sequence[str], names: Sequence[str], taken: set[str]) -> str | None:
    normal_names: dict[str, str] = {}
    for column in columns:  # the first spelling of a name wins, unless a later one is exactly that name
        if column in taken:
            continue
        name = normal(column)
        if name not in normal_names or column == name:
            normal_names[name] = column
    return next((normal_names[name] for name in names if name in normal_names), None)


def id_like_columns(columns: Sequence[str]) -> list[str]:
    """Every column whose name is an id spelling, in the order detection prefers them (names only)."""
    by_name: dict[str, list[str]] = {}
    for column in (str(c) for c in columns):
        by_name.setdefault(normal(column), []).append(column)
    return [column for name in spellings("id", columns) for column in by_name.get(name, [])]


def detect_columns(
    columns: Sequence[str],
    *,
    title: str | None = None,
    abstract: str | None = None,
    id: str | None = None,
    source: str = "file",
    title_only: bool = False,
    fields: Mapping[str, str | None] | None = None,
) -> ColumnMap:
    """Find each field's column by the vocabulary, or check the given overrides (``fields``: field -> column).

    Title and abstract are required, except that ``title_only`` lets a file without an abstract column through.
    An override of ``""`` means "none" for the optional fields.
    """
    columns = [str(c) for c in columns]
    given = {k: v for k, v in dict(fields or {}).items() if v is not None}
    given.update({k: v for k, v in (("title", title), ("abstract", abstract), ("id", id)) if v})
    unknown = sorted(set(given) - set(FIELDS))
    if unknown:
        raise CorpusError(f"unknown field {unknown[0]!r}; the fields are {', '.join(FIELDS)}")
    found: dict[str, str | None] = {}
    for role in FIELDS:  # the given columns first, so detection never takes them for another field
        if given.get(role):
            found[role] = _given(columns, given[role], role, source)
    taken = {c for c in found.values() if c}
    for role in FIELDS:
        if role in found or role in given:
            continue
        found[role] = _detected(columns, spellings(role, columns), taken)
        if found[role]:
            taken.add(str(found[role]))
    if found["title"] is None:
        raise CorpusError(f"{source} has no title column (looked for {', '.join(spellings('title', columns))}; "
                          f"found: {_found(columns)})")
    if found["abstract"] is None and not title_only:
        raise CorpusError(f"{source} has no abstract column (found: {_found(columns)}); "
                          f"{missing_abstract_fix(columns)}")
    if found["title"] == found["abstract"]:
        raise CorpusError(
            f"{source} uses column '{_shown(str(found['title']))}' for both title and abstract; pick two columns"
        )
    chosen = [c for c in found.values() if c]
    twice = next((c for c in chosen if chosen.count(c) > 1), None)
    if twice:
        raise CorpusError(f"{source}: column '{_shown(twice)}' is chosen for two fields; pick one field per column")
    return ColumnMap(**{role: found.get(role) for role in FIELDS})  # type: ignore[arg-type]


def replace(mapping: ColumnMap, **changes: str | None) -> ColumnMap:
    """A copy of a column map with some fields changed."""
    return dataclasses.replace(mapping, **changes)
