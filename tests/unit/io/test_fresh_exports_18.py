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
