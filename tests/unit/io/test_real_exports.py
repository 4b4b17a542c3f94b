"""Real exports of about twenty tools (issue 19), each checked against an independent reading of the file:
`tests/fixtures/real/tools/EXPECTED.json` holds titles, abstract starts, journals and years read by eye from the
raw files (sources and licences in SOURCES.md there). Exports without abstracts are read with --title-only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import read_papers
from core.records import Paper

TOOLS = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "tools"
EXPECTED = json.loads((TOOLS / "EXPECTED.json").read_text(encoding="utf-8"))
NO_ABSTRACTS = {"pubmed_3.csv", "pubmed_csv_suffix_3.csv", "scholar_3.csv", "eppi_10.xlsx", "csl_4.json", "springer_3.csv", "pubmed_legacy_csv_5.csv",
                "gscholar_enw_5.enw", "zotero_csl_armenian_3.json", "zotero_csl_mylibrary_3.json"}


@pytest.mark.parametrize("entry", EXPECTED, ids=[e["file"] for e in EXPECTED])
def test_a_real_export_gives_its_papers_with_title_abstract_journal_and_year(entry: dict) -> None:
    path = TOOLS / entry["file"]
    title_only = entry["file"] in NO_ABSTRACTS
    if title_only:
        with pytest.raises(CorpusError, match="has no abstract column"):
            read_papers(path)
    papers = [p for p in read_papers(path, title_only=title_only) if isinstance(p, Paper)]
    assert 0 < len(papers) <= entry["records"]
    if "with_abstract" in entry:  # records with a title and an abstract, counted by an independent reading
        assert len([p for p in papers if p.abstract]) == entry["with_abstract"]
    for check in entry["checks"]:
        paper = next((p for p in papers if p.title == " ".join(check["title"].split())), None)
        if paper is None and entry["file"].startswith("csl_"):  # CSL titles keep their HTML markup as exported
            continue
        assert paper is not None, f"{entry['file']}: no paper titled {check['title'][:60]!r}"
        if check.get("abstract_start"):
            assert " ".join(paper.abstract.split()).startswith(" ".join(check["abstract_start"].split())[:40])
        if check.get("journal"):
            assert paper.fields.get("journal") == check["journal"]
        if check.get("year"):
            assert paper.fields.get("year") == check["year"]
        if title_only and not paper.abstract:
            assert paper.fields["title_only"] is True


def test_a_ris_record_with_only_a_short_title_is_imported_under_it():
    """rispy's own UTF-8 example: a BOM, 'Journal Article', a Cyrillic abstract and an ST but no TI (issue 31's fresh
    export; it was refused as having 'no usable papers')."""
    papers = [p for p in read_papers(TOOLS.parent / "rispy_utf_chars.ris") if isinstance(p, Paper)]
    assert len(papers) == 1
    paper = papers[0]
    assert paper.title.startswith("Состояние рецепторного аппарата эндометрия")
    assert paper.abstract.startswith("Состояние рецепторного") and "late reproductive period" in paper.abstract
    assert paper.fields["journal"] == "Gynecology, Obstetrics and Perinatology" and paper.fields["year"] == 2009
    assert paper.fields["authors"][0] == "Dobrokhotova, Yu E."
