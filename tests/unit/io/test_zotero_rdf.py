"""Zotero RDF exports (``Exported Items.rdf``) read as papers: real files (sources in tests/fixtures/real/tools/
SOURCES.md). Before core/io/zotero_rdf.py they were refused ("unknown format", then "not read")."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import read_papers
from core.io.formats import detect_format
from core.records import RowError

TOOLS = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "tools"


def _read(name: str, **options: object) -> tuple[list, list]:
    items = list(read_papers(TOOLS / name, **options))
    return [i for i in items if not isinstance(i, RowError)], [i for i in items if isinstance(i, RowError)]


def test_a_zotero_library_of_articles_reads_title_abstract_journal_doi_and_authors():
    papers, skipped = _read("zotero_rdf_pmcid_5.rdf")
    assert [p.title for p in papers] == [
        "TNF-α Blocker Therapy and Solid Malignancy Risk in ANCA-Associated Vasculitis",
        "The Safety and Efficacy of Infliximab in Moderate to Severe Chronic Obstructive Pulmonary Disease",
        "The safety of biological pharmacotherapy for the treatment of ulcerative colitis",
        "Treatment of Sarcoidosis: A Multidisciplinary Approach"]
    first = papers[0]
    assert first.abstract.startswith("ANCA-associated vasculitides (AAV) are small vessel systemic vasculitis")
    assert first.fields["journal"] == "Current Rheumatology Reports"  # the bib:Journal named by rdf:resource
    assert first.fields["doi"] == "10.1007/s11926-012-0290-2"  # from the journal's "DOI 10.…" identifier
    assert str(first.fields["year"]) == "2012"  # dc:date "12/2012"
    assert first.fields["authors"] == ["Silva, Francisco", "Cisternas, Marcela", "Specks, Ulrich"]
    assert len(papers[1].fields["authors"]) == 22 and papers[1].fields["volume"] == "175"
    # the fifth item has no abstract: skipped with its reason; the attachments are not papers
    assert len(skipped) == 1 and "abstract" in skipped[0].reason


def test_a_zotero_library_without_abstracts_is_skipped_row_by_row_and_reads_with_titles_only():
    papers, skipped = _read("zotero_rdf_books_3.rdf")
    assert papers == [] and len(skipped) == 3 and all("abstract" in s.reason for s in skipped)
    papers, skipped = _read("zotero_rdf_books_3.rdf", title_only=True)
    assert [p.title for p in papers] == ["R: A Language and Environment for Statistical Computing",
                                         "papaja: Prepare reproducible APA journal articles with R Markdown",
                                         "tinylabels: Lightweight Variable Labels"]  # the notes (bib:Memo) are not
    assert papers[0].fields["authors"] == ["R Core Team"] and papers[1].fields["authors"] == [
        "Aust, Frederik", "Barth, Marius"]
    assert skipped == []


def test_zotero_rdf_is_found_by_its_content_whatever_the_extension(tmp_path: Path):
    saved = tmp_path / "library.xml"
    saved.write_bytes((TOOLS / "zotero_rdf_1.rdf").read_bytes())
    assert detect_format(saved) == "zotero"
    papers, _ = _read("zotero_rdf_1.rdf")
    assert papers[0].title == "Decisions under Risk Are Decisions under Complexity"
    assert papers[0].fields["journal"] == "American Economic Review"


def test_zotero_rdf_with_an_entity_declaration_is_refused(tmp_path: Path):
    text = (TOOLS / "zotero_rdf_1.rdf").read_text(encoding="utf-8")
    hostile = tmp_path / "x.rdf"
    hostile.write_text('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e SYSTEM "file:///etc/passwd">]>' + text,
                       encoding="utf-8")
    with pytest.raises(CorpusError, match="entities"):
        list(read_papers(hostile))
