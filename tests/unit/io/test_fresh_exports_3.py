"""Real exports from repositories the project had not read before (issue 40, third round: "one clean library from
many databases"). Each file is a byte-exact excerpt (sources and licences in tests/fixtures/real/tools/SOURCES.md);
each test is a discrepancy found by comparing the importer with an independent count of the whole source file, or a
check that two exports of one search give the same papers."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.io import read_papers
from core.io.formats import detect_format
from core.records import Paper, RowError

TOOLS = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "tools"


def _papers(name: str, **kwargs) -> list[Paper]:
    return [item for item in read_papers(TOOLS / name, **kwargs) if isinstance(item, Paper)]


def test_cochrane_library_bibtex_with_its_record_lines_is_read_as_bibtex() -> None:
    """The Cochrane Library's BibTeX export heads every entry with "Record #1 of 6", as its plain-text and RIS
    exports do. The file was taken for Cochrane plain text and refused: "has no records"."""
    path = TOOLS / "cochrane_bibtex_6.bib"
    assert detect_format(path) == "bibtex"
    items = list(read_papers(path))
    assert not [item for item in items if isinstance(item, RowError)]
    papers = [item for item in items if isinstance(item, Paper)]
    assert [p.title for p in papers][:2] == [
        "Interventions for preventing injuries in the agricultural industry",
        "Surgical management of functional bladder outlet obstruction in adults with neurogenic bladder dysfunction"]
    assert len(papers) == 6 and all(p.abstract for p in papers)
    first = papers[0].fields
    assert first["journal"] == "Cochrane Database of Systematic Reviews" and first["year"] == 2008
    assert first["doi"] == "10.1002/14651858.CD006398.pub2"


def test_cochrane_bibtex_authors_joined_by_commas_are_one_name_each() -> None:
    """Cochrane writes every author in one BibTeX ``author`` value as "Family, Initials", joined with commas and a
    final ", and": "Utomo, E, Groen, J, and Blok, BFM". Split only at "and", it gave two names, the first holding
    all but the last author ("Utomo, E, Groen, J,")."""
    papers = _papers("cochrane_bibtex_6.bib")
    assert papers[0].fields["authors"] == ["Rautiainen, R", "Lehtola, MM", "Day, LM", "Schonstein, E",
                                           "Suutarinen, J", "Salminen, S", "Verbeek, JH"]
    assert papers[1].fields["authors"] == ["Utomo, E", "Groen, J", "Blok, BFM"]


@pytest.mark.parametrize("name, record, authors", [
    ("ebsco_psycinfo_5.bib", 1, ["Slater, Michael D.", "Rouner, Donna", "Murphy, Kevin", "Beauvais, Frederick",
                                 "Van Leuven, James", "Rodríguez, Melanie Domenech"]),
    ("scopus_exportdate_3.bib", 0, ["Bui, K.T.A.", "Abdaem, J.", "Muccilli, A.", "Gore, G.C.", "Keezer, M.R."]),
    ("papers_app_3.bib", 0, ["Banks, George C", "O’Boyle Jr., Ernest H", "Pollack, Jeffrey M", "White, Charles D",
                             "Batchelor, John H", "Whelpley, Christopher E", "Abston, Kristie A",
                             "Bennett, Andrew A", "Adkins, Cheryl L"]),
])
def test_bibtex_authors_joined_by_and_stay_as_written(name: str, record: int, authors: list[str]) -> None:
    """The usual BibTeX names ("Family, Given and Family, Given") are not touched by the Cochrane reading above."""
    assert _papers(name)[record].fields["authors"] == authors


def test_a_group_author_of_a_medline_record_in_web_of_science_is_its_author() -> None:
    """Web of Science serves MEDLINE records in its plain text; one by the CDC has no ``AU``, only ``CA Centers for
    Disease Control and Prevention (CDC)`` (the group author). It was imported with no authors at all, where the
    PubMed XML reader keeps a ``CollectiveName`` as an author."""
    papers = _papers("wos_medline_corporate_4.txt", title_only=True)
    cdc = next(p for p in papers if p.title.startswith("Paddle sports fatalities"))
    assert cdc.fields["authors"] == ["Centers for Disease Control and Prevention (CDC)"]
    assert papers[0].fields["authors"] == ["Dal Cin, Sonya", "Worth, Keilah A", "Dalton, Madeline A",
                                           "Sargent, James D"]


def test_a_medline_group_author_is_kept_as_in_pubmed_xml() -> None:
    """MEDLINE writes a group author as ``CN  - ISPOR Task Force`` after the people; PubMed XML has it as a
    ``CollectiveName`` in the author list. The MEDLINE reader dropped it."""
    paper = next(p for p in _papers("pybibx_pubmed_crlf_10.txt") if p.title.startswith("Multiple Criteria Decision "
                                                                                      "Analysis for Health Care"))
    assert paper.fields["authors"][-2:] == ["Devlin, Nancy", "ISPOR Task Force"]
    assert len(paper.fields["authors"]) == 12


def _same(paper: Paper) -> tuple:
    fields = paper.fields
    return paper.title, paper.abstract, fields.get("journal"), fields.get("year"), fields.get("doi")


@pytest.mark.parametrize("names", [
    ("scopus_pfas_3.bib", "scopus_pfas_3.ris", "scopus_pfas_3.csv"),  # one Scopus search, three formats
    ("wos_isi_3.bib", "wos_tab_utf16_3.txt"),  # one Web of Science search: BibTeX, and tab-delimited UTF-16 with CR
])
def test_one_search_exported_in_several_formats_gives_the_same_papers(names: tuple[str, ...]) -> None:
    """Regression: the same records give the same title, abstract, journal, year and DOI in every format, and the
    same number of authors."""
    sets = [_papers(name) for name in names]
    assert all(len(papers) == 3 for papers in sets)
    for papers in sets[1:]:
        assert [_same(p) for p in papers] == [_same(p) for p in sets[0]]
        assert [len(p.fields["authors"]) for p in papers] == [len(p.fields["authors"]) for p in sets[0]]


def test_web_of_science_tab_delimited_in_utf16_with_cr_lines() -> None:
    """Web of Science's "Tab-delimited (Mac, UTF-16)": UTF-16 LE with a byte order mark and bare CR line ends."""
    path = TOOLS / "wos_tab_utf16_3.txt"
    assert path.read_bytes()[:2] == b"\xff\xfe" and b"\n\x00" not in path.read_bytes()
    papers = _papers("wos_tab_utf16_3.txt")
    assert [p.fields["authors"][0] for p in papers] == ["Kraufvelin, Patrik", "Schmera, Denes", "Moudry, Vitezslav"]
    assert len(papers[0].fields["authors"]) == 30


def test_base_bibtex_keeps_its_abstract_in_note() -> None:
    """BASE (Bielefeld Academic Search Engine) writes a record's description, the abstract, in BibTeX's ``note``
    (its keys are 64 hexadecimal digits, ``author`` joined by upper-case "AND", titles in LaTeX: ``milj{\\"o}gifter``,
    ``omr{\\r a}des``). All 38 records of the four BASE files were refused as having no abstract."""
    papers = _papers("base_3.bib")
    assert len(papers) == 3
    assert all(p.abstract.startswith("This report gives a summary of the monitoring activities") for p in papers)
    assert papers[0].title.endswith("Metaller och organiska miljögifter i marin biota, trend- och områdesövervakning")
    assert papers[0].fields["authors"][:2] == ["Bignert, Anders", "Danielsson, Sara"]
    assert papers[0].fields["year"] == 2008 and "note" not in papers[0].fields


def test_a_note_is_no_abstract_elsewhere() -> None:
    """Scopus writes ``note={cited By 0}``: a record without an abstract stays without one."""
    items = list(read_papers(TOOLS / "scopus_exportdate_3.bib"))
    assert [item.row for item in items if isinstance(item, RowError)] == [2]
    assert [p.fields["note"] for p in items if isinstance(p, Paper)] == ["cited By 0", "cited By 3"]


def test_keywords_joined_by_commas_are_a_list() -> None:
    """Embase joins its keywords with commas ("Critically ill patients,Diarrhea,Probiotics" in a fresh 2025 export,
    ", " in its Emtree columns, where a term carries its own commas in parentheses), and so does Abstrackr. The cell
    stayed one keyword, where every other export gives a list; a blank RefWorks cell (" ") was a keyword too."""
    emtree = _papers("../embase_3.csv", title_only=True)[0].fields["keywords"]
    assert emtree[:3] == ["article", "bronchogenic duplication cyst (diagnosis, surgery)",
                          "colonic duplication cyst (diagnosis, surgery)"]
    abstrackr = _papers("abstrackr_3.csv", title_only=True)[0].fields["keywords"]
    assert abstrackr == ["phosphate", "Africa", "animal", "dinosaur", "fossil", "Morocco", "phylogeny", "skull"]
    assert [p.fields.get("keywords") for p in _papers("refworks_3.txt", title_only=True)] == [[], [], []]
