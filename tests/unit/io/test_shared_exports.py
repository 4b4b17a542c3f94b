"""The 43 real exports of ../shared/data/exports (asreview/citation-file-formatting: the same search exported by 20+
tools) each import as the number of papers EXPECTED.tsv gives (title and abstract, duplicates in the file folded);
"-" marks exports without abstracts, refused with one sentence or giving no paper with an abstract."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import read_papers
from core.records import Paper, duplicate_key

EXPORTS = Path("/work/shared/data/exports")
ROWS = ([line.split("\t") for line in (EXPORTS / "EXPECTED.tsv").read_text(encoding="utf-8").splitlines() if line]
        if (EXPORTS / "EXPECTED.tsv").exists() else [])


@pytest.mark.skipif(not ROWS, reason="the shared exports are not present")
@pytest.mark.parametrize(("name", "expected"), ROWS, ids=[row[0] for row in ROWS])
def test_every_shared_export_imports_its_count(name: str, expected: str) -> None:
    try:
        papers = [p for p in read_papers(EXPORTS / name) if isinstance(p, Paper) and p.abstract]
    except CorpusError as error:
        assert expected == "-" and "no abstract column" in str(error)
        return
    count = len({duplicate_key(p.title, p.abstract) for p in papers})
    assert str(count) == expected or (expected == "-" and count == 0)
