"""Citavi's XML (``<CitaviExchangeData>``), as a ``.ctv6bak`` backup (a zip holding it) or the XML itself: Citavi's
demo project "Food Quality - A Global Challenge" (sources in tests/fixtures/real/tools/SOURCES.md). Before
core/io/citavi.py the backup was refused as "an unknown format", its XML as "XML whose root element is
<CitaviExchangeData>, which no reader here knows"."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io.formats import detect_format
from tests.unit.io.support import TOOLS, papers_and_errors, write

BACKUP = TOOLS / "citavi_demo_60.ctv6bak"


def _by_title(papers: list, start: str):
    return next(p for p in papers if p.title.startswith(start))


def test_a_citavi_backup_reads_its_references_with_their_linked_authors_journals_and_keywords():
    papers, skipped = papers_and_errors(BACKUP)
    assert len(papers) == 28 and len(skipped) == 32 and all("abstract" in s.reason for s in skipped)  # 60 references
    barlow = _by_title(papers, "The role of hazard- and risk-based approaches in ensuring food safety")
    assert barlow.abstract.startswith("Background: Food legislation in the European Union and elsewhere includes")
    fields = barlow.fields
    assert fields["authors"][0] == "Barlow, Susan M." and len(fields["authors"]) == 11  # <ReferenceAuthors>, in order
    assert fields["journal"] == "Trends in Food Science & Technology"  # its PeriodicalID's <Periodical>
    assert fields["journal_abbrev"] == "Trends Food Sci. Tech."
    assert (fields["volume"], fields["issue"], fields["pages"], fields["year"]) == ("46", "2", "176-188", 2015)
    assert fields["doi"] == "10.1016/j.tifs.2015.10.007"
    manning = _by_title(papers, "Food safety, food fraud, and food defense: A fast evolving literature")
    assert manning.id == "26934423"  # its PubMedID, the file's id column
    assert manning.fields["keywords"] == [
        "Crime", "Food safety", "Fraud", "Humans", "Risk Assessment"]  # <ReferenceKeywords> to <Keywords>
    scares = _by_title(papers, "Food scares: A comprehensive categorisation").fields
    assert scares["type"] == "Contribution" and scares["journal"] == "British Food Journal"  # its special issue's
    assert scares["year"] == 2016
    papers, skipped = papers_and_errors(BACKUP, title_only=True)
    assert len(papers) == 60 and skipped == []


def test_citavi_xml_is_found_by_its_root_whatever_it_is_called_and_a_citavi_database_is_refused(tmp_path: Path):
    with zipfile.ZipFile(BACKUP) as archive:
        xml = archive.read(archive.infolist()[0])
    for name in ("project.xml", "project.ctv6", "project.txt"):
        saved = write(tmp_path / name, xml)
        assert detect_format(saved) == "citavi"
        assert len(papers_and_errors(saved)[0]) == 28
    assert detect_format(write(tmp_path / "backup.zip", BACKUP.read_bytes())) == "citavi"
    database = write(tmp_path / "project.ctv6", b"SQLite format 3\x00" + b"\x00" * 200)
    with pytest.raises(CorpusError, match="Citavi project database, not an export"):
        papers_and_errors(database)
