"""Tests for core.io.formats: format detection by extension, explicit format and content."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import FORMATS, detect_format
from tests.unit.io.support import FIXTURES, write


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("a.csv", "csv"), ("a.CSV", "csv"), ("a.csv.gz", "csv"), ("a.tsv", "tsv"), ("a.tab", "tsv"),
        ("a.jsonl", "jsonl"), ("a.ndjson.gz", "jsonl"), ("a.json-lines", "jsonl"), ("a.parquet", "parquet"),
        ("a.xml", "pubmed"), ("pubmed21n1298.xml.gz", "pubmed"), ("a.bib", "bibtex"), ("a.bibtex", "bibtex"),
        ("a.ris", "ris"),
    ],
)
def test_detect_format_by_extension(name: str, expected: str) -> None:
    assert detect_format(name) == expected
    assert expected in FORMATS


def test_detect_format_prefers_explicit_format() -> None:
    assert detect_format("data.txt", "TSV") == "tsv"
    assert detect_format("data.csv", "xml") == "pubmed"


def test_unknown_extension_is_refused_with_the_formats_listed() -> None:
    with pytest.raises(CorpusError) as error:
        detect_format("x.docx")
    assert str(error.value) == (
        "file 'x.docx' has an unknown format; use CSV, TSV, Excel (.xlsx, .xls), JSONL/JSON (incl. CSL JSON, OpenAlex, "
        "Semantic Scholar, Europe PMC, Crossref, DataCite, ISTEX, ERIC, PLOS, bioRxiv, INSPIRE-HEP), Parquet, PubMed XML, JATS / PMC full text (.xml, .nxml, .tar.gz), MEDLINE / PubMed format (.nbib), BibTeX, RIS, "
        "EndNote XML, EndNote tagged / Refer text (.enw), Web of Science plain text, Cochrane CENTRAL text, "
        "Ovid tagged text (MEDLINE, Embase, PsycINFO… via Ovid), RefWorks tagged text (RefWorks, CNKI), Zotero RDF, "
        "NoteExpress text (.net; CNKI), DSpace Dublin Core XML (dublin_core.xml), "
        "arXiv API answer (Atom XML, .xml or .atom), MODS XML (Zotero, library catalogues), MARC XML (MARC 21 slim; "
        "catalogues), Citavi XML (.xml, .ctv6bak), Europe PMC API XML, EBSCOhost XML (PsycInfo, CINAHL, Academic "
        "Search…), Scopus plain text (.txt), Embase plain text "
        "(.txt; Embase.com), "
        "CNKI E-Study text (.txt; 知网研学), ScienceDirect text (.txt)"
    )


def test_unknown_explicit_format_is_refused() -> None:
    with pytest.raises(CorpusError, match="format 'docx' is unknown"):
        detect_format("a.csv", "docx")


def test_txt_file_is_ris_only_when_it_starts_with_a_type_tag(tmp_path: Path) -> None:
    ris = write(tmp_path / "export.txt", (FIXTURES / "refs.ris").read_text())
    assert detect_format(ris) == "ris"
    notes = write(tmp_path / "notes.txt", "just some notes\n")
    with pytest.raises(CorpusError, match="unknown format"):
        detect_format(notes)
