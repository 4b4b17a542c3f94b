"""Round 18 of fresh real exports (BENCHMARKS §25q): files no earlier round had read, each a failing test first.

Fixtures under tests/fixtures/real/tools (SOURCES.md, "Round 18")."""

from __future__ import annotations

from core.io import read_papers
from core.io.formats import detect_format
from core.records import Paper
from tests.unit.io.support import TOOLS


def _papers(name: str) -> list[Paper]:
    return [item for item in read_papers(TOOLS / name) if isinstance(item, Paper)]


def test_an_ebscohost_xml_export_is_read() -> None:
    """EBSCOhost's XML export (APA PsycInfo here; CINAHL, MEDLINE, Academic Search write the same layout):
    ``<records><rec resultID>`` each with a ``<header shortDbName longDbName uiTerm>`` and its ``controlInfo``
    (``jinfo/jtl`` the journal, ``pubinfo/dt`` the date, ``artinfo`` the title, authors, DOI, PMID, abstract).
    It was refused as XML "whose root element is <records>"."""
    path = TOOLS / "ebsco_psycinfo_xml_4.xml"
    assert detect_format(path) == "ebsco"
    papers = _papers("ebsco_psycinfo_xml_4.xml")
    assert len(papers) == 4
    first = papers[0].fields
    assert papers[0].title.startswith("The impact of fear of childbirth on mode of delivery")
    assert papers[0].id == "38007102"  # the PMID
    assert first["authors"][:4] == ["Yin, Anxin", "Shi, Yunmei", "Heinonen, Seppo", "Räisänen, Sari"]
    assert first["journal"] == "Journal of Affective Disorders"
    assert (first["year"], first["volume"], first["pages"]) == (2024, "347", "183-191")
    assert first["doi"] == "10.1016/j.jad.2023.11.054"
    assert first["issn"] == ["01650327", "15732517"]  # as exported; the journal identities read both
    assert first["accession_number"] == "2024-43543-026" and first["database"] == "APA PsycInfo"
    assert "Breast Feeding" in first["keywords"]
    assert "W-DEQ ≥ 66" in papers[0].abstract and "1.00–2.41" in papers[0].abstract
    assert papers[1].fields["journal"] == "Maternal and Child Health Journal"
    assert "volume" not in papers[1].fields and papers[1].fields["year"] == 2022


def test_an_ebscohost_record_keeps_every_abstract_it_has() -> None:
    """A PsycInfo record may hold several ``<ab>``: the English abstract, a Spanish or Chinese one, an "Impact
    Statement". The first is the abstract; the others are kept, none dropped."""
    papers = _papers("ebsco_psycinfo_xml_4.xml")
    spanish, three = papers[2], papers[3]
    assert spanish.abstract.startswith("Background: Fear of childbirth (FOC)")
    assert spanish.fields["abstract_alt"].startswith("Antecedentes: El miedo al parto")
    assert three.abstract.startswith("Objective: We compared pain")
    assert "SHORT CONDENSATION" in three.fields["abstract_alt"]
    assert "摘要" in three.fields["abstract_alt"]


def test_an_ebsco_research_csv_export_gives_authors_year_and_subjects() -> None:
    """EBSCO's new interface (research.ebsco.com, 2025) exports CSV with camel-case columns: ``contributors``
    ("Özer Aslan, İlke ; Aslan, Mustafa Törehan ; …"), ``publicationDate`` (20250801), ``subjects`` (" ; "),
    ``source`` the journal, ``longDBName`` the database. Authors, year and keywords were left unread (stored only
    as the columns), so the papers had none."""
    papers = _papers("ebsco_cinahl_csv_2.csv")
    assert len(papers) == 2
    first = papers[0].fields
    assert first["authors"] == ["Özer Aslan, İlke", "Aslan, Mustafa Törehan", "Can, Nebibe", "Sevinç Ergül, Özlem",
                                "Çallıoğlu, Nihal"]
    assert first["year"] == 2025
    assert first["keywords"] == ["Delivery, Obstetric Methods", "Breast Feeding", "Kangaroo Care"]
    assert first["journal"] == "Children" and first["doi"] == "10.3390/children12080966"
    assert papers[1].fields["authors"] == ["Ghazaei, Maryam", "Chaman Sabz, Masoomeh Gharooni"]


def test_an_ebsco_csv_names_its_database() -> None:
    """The import's overlap between databases names an EBSCO CSV by its ``longDBName`` ("CINAHL Ultimate")."""
    from core.store.provenance import database_of

    assert database_of("export.csv", {"longdbname": "CINAHL Ultimate", "shortdbname": "cul"}) == "CINAHL"


def test_a_cinahl_record_in_ebscohost_xml_gives_its_first_page_and_pmcid(tmp_path) -> None:
    """CINAHL's records in EBSCOhost XML write the first page as ``<ppf>`` (and the page count as ``<ppct>``)
    instead of ``<pages>``, an untyped ``<ui>`` (the accession number) and the PMC id as ``<ui type="other">``.
    The values are those of an EBSCO answer for CINAHL record 109631477 (Kaasbøll et al., BMC Public Health 2015)."""
    path = tmp_path / "cinahl.xml"
    path.write_text(
        '<records>\n<rec resultID="1">\n  <header shortDbName="c8h" uiTerm="109631477" '
        'longDbName="CINAHL with Full Text" uiTag="AN">\n    <controlInfo>\n'
        '      <bkinfo><btl>Associations between parental chronic pain and self-esteem</btl></bkinfo>\n'
        '      <jinfo><jid type="issn">14712458</jid><jtl>BMC Public Health</jtl><issn>14712458</issn></jinfo>\n'
        '      <pubinfo><dt year="2015" month="12" day="01">2015</dt><vid>15</vid><pub>BioMed Central</pub>'
        '</pubinfo>\n      <artinfo>\n        <ui>109631477</ui>\n        <ui type="cinahl">26296339</ui>\n'
        '        <ui type="doi">10.1186/s12889-015-2164-9</ui>\n        <ui type="pmid">26296339</ui>\n'
        '        <ui type="other">PMC4546097</ui>\n        <ppf>817</ppf>\n        <ppct>1</ppct>\n'
        '        <tig><atl>Associations between parental chronic pain and self-esteem</atl></tig>\n'
        '        <aug><au>Kaasbøll, Jannike</au><au>Ranøyen, Ingunn</au></aug>\n'
        '        <ab>Background: Parental chronic pain has been associated with adverse outcomes.</ab>\n'
        '        <pubtype>Academic Journal</pubtype><doctype>journal article</doctype>\n      </artinfo>\n'
        '      <language>English</language>\n    </controlInfo>\n  </header>\n</rec>\n</records>\n',
        encoding="utf-8")
    [paper] = [item for item in read_papers(path) if isinstance(item, Paper)]
    assert paper.fields["pages"] == "817" and paper.fields["page_count"] == "1"
    assert paper.fields["pmcid"] == "PMC4546097" and paper.fields["doi"] == "10.1186/s12889-015-2164-9"
    assert paper.fields["authors"] == ["Kaasbøll, Jannike", "Ranøyen, Ingunn"]
    assert paper.fields["publisher"] == "BioMed Central" and paper.fields["year"] == 2015


_SAGE = """@article{10.1177/23794607251347020,
doi:10.1177/23794607251347020,
author = {Christoph M. Abels and Ezequiel Lopez-Lopez and Jason W. Burton},
title = {The governance & behavioral challenges of generative artificial intelligence’s hypercustomization capabilities},
journal = {Behavioral Science & Policy},
volume = {11},
number = {1},
pages = {22–32},
year = {2025},
doi = {10.1177/23794607251347020},
URL = {https://doi.org/https://doi.org/10.1177/23794607251347020},
abstract = {Generative artificial intelligence (GenAI) is changing human–machine interactions and the broader ...}
}

@article{10.1089/genbio.2023.0025,
doi:10.1089/genbio.2023.0025,
author = {Sean Ekins and Maximilian Brackmann and Cédric Invernizzi and Filippa Lentzos},
title = {Generative Artificial Intelligence-Assisted Protein Design Must Consider Repurposing Potential},
journal = {GEN Biotechnology},
volume = {2},
number = {4},
pages = {296–300},
year = {2023},
doi = {10.1089/genbio.2023.0025},
abstract = {Generative artificial intelligence software used for chemical and protein design has repurposing ...}
}
"""


def test_a_sage_journals_bibtex_export_with_its_key_written_twice_is_read(tmp_path) -> None:
    """SAGE Journals' "Export selected citations" > BibTeX (the Atypon platform) writes each entry's key twice:
    ``@article{10.1177/…,`` and then a line ``doi:10.1177/…,`` with no ``=``. bibtexparser could read no entry, so
    the file was refused: "no usable records: row 1: BibTeX entry at line 1 could not be parsed". The values are
    those of nestorcastelblanco/Bibliometria_AA's data/raw/sage/SAGE_Generative_Artificial_Intelligence_page1.bib
    (entries 1 and 9, authors cut; a repository without a licence, so typed here, not kept as a fixture)."""
    path = tmp_path / "sage.bib"
    path.write_text(_SAGE, encoding="utf-8")
    items = list(read_papers(path))
    papers = [item for item in items if isinstance(item, Paper)]
    assert len(papers) == 2, items
    assert papers[0].fields["doi"] == "10.1177/23794607251347020"
    assert papers[0].fields["journal"] == "Behavioral Science & Policy"
    assert papers[1].fields["authors"][2] == "Cédric Invernizzi"
    assert papers[1].fields["year"] == 2023
