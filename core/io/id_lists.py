"""Lists of ids saved as text: PubMed's Save with Format "PMID" (one PubMed id a line), not records to import.

Such a file holds no title and no abstract, so it is refused with the export of the same search that has them.
"""

from __future__ import annotations

import re

from core.errors import CorpusError

_PMID_LINE = re.compile(r"^\s*\d{1,9}\s*$")
_LINES = 200  # lines looked at
_FEWEST = 3  # one or two numbers on their own are no list


def looks_like_pmid_list(head: str) -> bool:
    """Whether a text's non-blank lines (its first `_LINES`, at least `_FEWEST`) are each one PubMed id."""
    lines = [line for line in head.lstrip("\ufeff").splitlines() if line.strip()][:_LINES]
    return len(lines) >= _FEWEST and all(_PMID_LINE.match(line) for line in lines)


def pmid_list_error(name: str) -> CorpusError:
    """The refusal of a PMID list, naming the PubMed export that has records."""
    return CorpusError(f"file '{name}' is a list of PubMed ids (PMIDs, one a line: PubMed's Save with Format: PMID), "
                       "not records: it has no titles or abstracts; in PubMed choose Save > Format: PubMed (or Send "
                       "to > Citation manager) for the same results and import that file")
