"""The databases' own plain-text exports that are no tagged format: Scopus' "Plain text" (`scopus_text`) and
Embase.com's text export (`embase_text`): which one a file's first lines show, and their readers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from core.io.embase_text import embase_text_rows, looks_like_embase_text
from core.io.rows import NumberedRow
from core.io.scopus_text import looks_like_scopus_text, scopus_text_rows

PLAIN_READERS: dict[str, Callable[[Path], Iterator[NumberedRow]]] = {"scopus": scopus_text_rows,
                                                                      "embase": embase_text_rows}


def plain_export_format(head: str) -> str | None:
    """'scopus' or 'embase' when a file's first lines are that database's plain-text export, else None. (Scopus'
    BibTeX opens with the same "Scopus", "EXPORT DATE:" lines: ask after BibTeX.)"""
    if looks_like_scopus_text(head):
        return "scopus"
    return "embase" if looks_like_embase_text(head) else None
