"""Bibliographies printed in a citation style: text for reading, not records to import.

A reference manager's File > Export with a citation style (EndNote's default name "My EndNote Library.txt") writes
each reference as one formatted line, 'Yang, H. B., et al. (2018). "Atomically dispersed …" Nature Energy 3(2)'
(Annotated, its abstract on the next line after a tab) or '[1]<tab>M. Amirul Islam, … "Gated feedback …" pp. 3751'
(IEEE) or '12.<tab>Zheng, S., et al., Air pollution lowers … Nat Hum Behav, 2019. 3(3): p. 237-243.' (Numbered).
Author, title and journal are told apart only by punctuation that differs per style, so such a file is
refused with the export that imports, never guessed at.
"""

from __future__ import annotations

import re

from core.errors import CorpusError

_QUOTED_TITLE = re.compile(r'"[^"]{10,}"|“[^”]{10,}”')
_YEAR = re.compile(r"\b(?:1[89]|20)\d\d\b")
# "[12]<tab>" (IEEE: a conference paper may print no year) or "12.<tab>" (Numbered: titles not quoted)
_NUMBERED = re.compile(r"^(?:\[\d{1,4}\]\s|\d{1,4}\.\t)")
_LINES = 40  # reference lines looked at
# one EndNote Annotated (author-date) reference: 'Yang, H. B., et al. (2018). "Atomically dispersed …" Nature Energy'
# - authors without quotes, the year in brackets, a full stop, then the quoted title: prose seldom reads so
_AUTHOR_DATE = re.compile(r'^[^"“\t]{2,400}?\((?:1[89]|20)\d\d[a-z]?\)\.\s+(?:"[^"]{10,}"|“[^”]{10,}”)')


def looks_like_printed_bibliography(head: str) -> bool:
    """Whether a text's reference lines (those not indented: an indented line is an abstract or a wrapped line) are
    formatted references: nearly all with a quoted title and most with a year, or all numbered and either; none a
    quoted table row. One or two reference lines must each have the Annotated style's whole shape (authors, "(2019).",
    a quoted title): a line of prose with a year and a quote is not a bibliography."""
    lines = [line for line in head.lstrip("\ufeff").splitlines() if line.strip() and not line[:1].isspace()]
    lines = lines[:_LINES]
    if any('","' in line or '"\t"' in line or line.count("\t") > 1 for line in lines):
        return False
    if len(lines) < 3:  # one or two references: each must have the Annotated style's whole shape
        return bool(lines) and all(_AUTHOR_DATE.match(line) for line in lines)
    titled = sum(1 for line in lines if _QUOTED_TITLE.search(line))
    dated = sum(1 for line in lines if _YEAR.search(line))
    numbered = sum(1 for line in lines if _NUMBERED.match(line))
    if numbered == len(lines):
        return titled >= 0.8 * len(lines) or dated >= 0.5 * len(lines)
    return titled >= 0.8 * len(lines) and dated >= 0.5 * len(lines)


def printed_bibliography_error(name: str) -> CorpusError:
    """The refusal of a printed bibliography, naming the exports that import."""
    return CorpusError(f"file '{name}' is a bibliography printed in a citation style (one formatted reference a "
                       "line), not exported records: its title, authors and journal cannot be told apart reliably; "
                       "export again as records: in EndNote choose File > Export with the output style 'RefMan (RIS) "
                       "Export' or 'BibTeX Export' (or save as XML), in other reference managers as RIS or BibTeX")
