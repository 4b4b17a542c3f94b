"""Column detection: which source columns hold the title, the abstract and the id."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.errors import CorpusError
from core.io.safety import _shown

_TITLE_NAMES = ("title", "paper_title", "article_title", "document_title", "primary_title", "ti", "t1")
_ABSTRACT_NAMES = (
    "abstract", "abstract_text", "abstracttext", "paper_abstract", "article_abstract", "abstract_note",
    "summary", "ab", "n2", "notes_abstract", "description",
)
_ID_NAMES = (
    "id", "paper_id", "paperid", "article_id", "doc_id", "document_id", "record_id", "uid", "uuid",
    "pmid", "pubmed_id", "pmcid", "arxiv_id", "corpus_id", "corpusid", "eid", "ut_unique_wos_id",
    "accession_number", "key", "citation_key", "internal_id", "source_id",
)
_NON_WORD = re.compile(r"[^a-z0-9]+")


@dataclass
class ColumnMap:
    """Which source columns hold the title, the abstract and (optionally) the id."""

    title: str
    abstract: str
    id: str | None = None


def _normal(name: str) -> str:
    return _NON_WORD.sub("_", str(name).strip().lower()).strip("_")


def _found(columns: Sequence[str]) -> str:
    shown = ", ".join(_shown(str(c), 60) for c in columns[:30])
    return shown + (", ..." if len(columns) > 30 else "")


def _pick(columns: Sequence[str], override: str | None, names: Sequence[str], role: str, source: str) -> str | None:
    if override:
        for matches in (lambda c: c == override, lambda c: c.strip().lower() == override.strip().lower()):
            hit = next((c for c in columns if matches(c)), None)
            if hit is not None:
                return hit
        raise CorpusError(f"{source} has no column '{_shown(override)}' for the {role} (found: {_found(columns)})")
    normal: dict[str, str] = {}
    for column in columns:  # the first spelling of a name wins, unless a later one is exactly that name
        name = _normal(column)
        if name not in normal or column == name:
            normal[name] = column
    return next((normal[name] for name in names if name in normal), None)


def id_like_columns(columns: Sequence[str]) -> list[str]:
    """Every column whose name is an id spelling, in the order detection prefers them (names only)."""
    by_name: dict[str, list[str]] = {}
    for column in (str(c) for c in columns):
        by_name.setdefault(_normal(column), []).append(column)
    return [column for name in _ID_NAMES for column in by_name.get(name, [])]


def detect_columns(
    columns: Sequence[str],
    *,
    title: str | None = None,
    abstract: str | None = None,
    id: str | None = None,
    source: str = "file",
) -> ColumnMap:
    """Find the title, abstract and id columns by common spellings, or check the given overrides."""
    columns = [str(c) for c in columns]
    found: dict[str, str | None] = {}
    for role, override, names in (("title", title, _TITLE_NAMES), ("abstract", abstract, _ABSTRACT_NAMES)):
        found[role] = _pick(columns, override, names, role, source)
        if found[role] is None:
            raise CorpusError(
                f"{source} has no {role} column (looked for {', '.join(names)}; found: {_found(columns)})"
            )
    if found["title"] == found["abstract"]:
        raise CorpusError(
            f"{source} uses column '{_shown(str(found['title']))}' for both title and abstract; pick two columns"
        )
    id_column = _pick(columns, id, _ID_NAMES, "id", source)
    if id_column in (found["title"], found["abstract"]):
        id_column = None
    return ColumnMap(title=str(found["title"]), abstract=str(found["abstract"]), id=id_column)
