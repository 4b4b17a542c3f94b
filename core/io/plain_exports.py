"""The databases' own plain-text exports that are no tagged format: Scopus' "Plain text" (`scopus_text`),
Embase.com's text export (`embase_text`), CNKI's E-Study text (`cnki_estudy`) and ScienceDirect's "Export citation
to text" (`sciencedirect_text`): which one a file's first lines show, their names and their readers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from core.io.cnki_estudy import cnki_estudy_rows, looks_like_cnki_estudy
from core.io.embase_text import embase_text_rows, looks_like_embase_text
from core.io.rows import NumberedRow
from core.io.sciencedirect_text import looks_like_sciencedirect_text, sciencedirect_text_rows
from core.io.scopus_text import looks_like_scopus_text, scopus_text_rows

PLAIN_READERS: dict[str, Callable[[Path], Iterator[NumberedRow]]] = {"scopus": scopus_text_rows,
                                                                      "embase": embase_text_rows,
                                                                      "cnki": cnki_estudy_rows,
                                                                      "sciencedirect": sciencedirect_text_rows}
PLAIN_NAMES = {"scopus": "Scopus plain text (.txt)", "embase": "Embase plain text (.txt; Embase.com)",
               "cnki": "CNKI E-Study text (.txt; 知网研学)",
               "sciencedirect": "ScienceDirect text (.txt)"}


def plain_export_format(head: str) -> str | None:
    """'scopus', 'embase', 'cnki' or 'sciencedirect' when a file's first lines are that database's plain-text
    export, else None.
    (Scopus' BibTeX opens with the same "Scopus", "EXPORT DATE:" lines: ask after BibTeX.)"""
    if looks_like_scopus_text(head):
        return "scopus"
    if looks_like_cnki_estudy(head):
        return "cnki"
    if looks_like_sciencedirect_text(head):
        return "sciencedirect"
    return "embase" if looks_like_embase_text(head) else None
