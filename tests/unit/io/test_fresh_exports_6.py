"""Real exports from repositories the project had not read before (issue 40, sixth round). Each file is a byte-exact
excerpt (sources, licences and cuts in tests/fixtures/real/tools/SOURCES.md); each test is a discrepancy found by
comparing the importer with an independent reading of the whole source file, or a check that a family of export
already read right stays so."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import read_papers
from core.io.formats import detect_format
from core.records import Paper

TOOLS = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "tools"


def _papers(name: str, title_only: bool = False) -> list[Paper]:
    return [item for item in read_papers(TOOLS / name, title_only=title_only) if isinstance(item, Paper)]


def test_an_acm_bibtex_booktitle_with_an_html_entity_is_one_venue_name() -> None:
    """The ACM Digital Library writes "&" in a proceedings' name as the HTML entity "&amp;"
    (``booktitle = {The 5th International Conference on Future Networks &amp; Distributed Systems}``). The title and
    abstract were unescaped, the venue was not: the map's journal colours and the journal vote showed "&amp;" and
    split the venue from the same proceedings written with "&" by another database."""
    papers = _papers("acm_bibtex_amp_21.bib")
    assert len(papers) == 21
    venues = {paper.fields["journal"] for paper in papers}
    assert "The 5th International Conference on Future Networks & Distributed Systems" in venues
    assert not any("&amp;" in venue or "&#" in venue for venue in venues)


def test_a_reference_manager_csv_conference_paper_has_its_proceedings_as_venue() -> None:
    """A CSV with the columns "Item type", "Authors", "Title", "Journal", …, "Proceedings title" (an ACM Digital
    Library result list): a conference paper's "Journal" is empty and its venue is in "Proceedings title". The venue
    was empty for every conference paper (24 of 50 rows of the source), as ACM's own CSV was before its
    ``booktitle`` fallback."""
    papers = _papers("refman_csv_proceedings_5.csv")
    assert len(papers) == 5 and all(p.fields["item type"] == "Conference Paper" for p in papers)
    assert papers[0].fields["journal"] == "Proceedings of the 11th ACM Workshop on Artificial Intelligence and Security"
    assert all(p.fields["journal"] == p.fields["proceedings title"] for p in papers)
    assert papers[0].fields["authors"] == ["Torroledo I", "Camacho LD", "Bahnsen AC"]


def test_one_search_from_scopus_and_web_of_science_ris_merges_by_doi_and_title(store) -> None:
    """The same search exported by Scopus (RIS, ``N1`` references, no ``N2``) and Web of Science (RIS with a BOM,
    bare CRs inside ``N1``, "contracts *" title footnote marks): the paper both list merges by DOI and title."""
    from core.store.multi_import import import_files

    report = import_files(store, [TOOLS / "scopus_ris_2022_5.ris", TOOLS / "wos_ris_bare_cr_26.ris"], "search")
    scopus, wos = report.files
    assert (scopus.added, scopus.merged, scopus.skipped) == (5, 0, 0)
    assert wos.imported == 26 and wos.skipped == 0
    assert [m["rule"] for m in wos.merges].count("same DOI and title") >= 1
    merged = next(m for m in wos.merges if m["id"] == "WOS:000779383300004")
    assert merged["into"] == "10.1016/j.ijindorg.2022.102830"
    assert report.imported == report.added + report.merged


def test_a_web_of_science_early_access_record_and_its_issue_record_merge_and_keep_the_year(store) -> None:
    """Web of Science lists a paper twice: as early access (no ``PY``) and in its issue (``PY 2020``, and a ``DO``
    with "journals.sagepub.com/home/jpl" glued to the DOI). Both rows carry the same title and abstract: one paper,
    and it takes the year the first row lacked."""
    from core.store import import_file

    report = import_file(store, TOOLS / "wos_ris_bare_cr_26.ris", "wos")
    assert (report.imported, report.added, report.merged, report.skipped) == (26, 25, 1, 0)
    assert report.merges[0]["into"] == "WOS:000532319900001" and report.merges[0]["rule"] == "same title and abstract"
    paper = store.paper("wos", "WOS:000532319900001")
    assert paper.fields["year"] == 2020 and paper.fields["doi"] == "10.1177/0885412220921526"


def test_a_dimensions_csv_starts_after_its_about_the_data_line() -> None:
    """Dimensions' CSV (CRLF) starts with an "About the data: Exported on Jun 10, 2026 …" line before its header;
    a title holds a no-break space ("1\u00a0Hz"), MeSH terms are the keywords."""
    papers = _papers("dimensions_about_5.csv")
    assert len(papers) == 5
    first = papers[0]
    assert first.title == "N100 as a response prediction biomarker for accelerated 1 Hz right DLPFC-rTMS in major depression"
    assert first.fields["doi"] == "10.1016/j.jad.2024.07.131" and first.fields["year"] == 2024
    assert first.fields["authors"][:2] == ["Sheen, Jack Z", "Mazza, Frank"] and len(first.fields["authors"]) == 15
    assert "Transcranial Magnetic Stimulation" in first.fields["keywords"]


def test_a_zotero_bibtex_of_eric_records_decodes_its_latex_and_drops_case_braces() -> None:
    """Zotero's BibTeX of ERIC records: ``{Immigrant}`` case braces, ``p={\\textless}0.01``, a ``file`` field."""
    papers = _papers("zotero_eric_bib_8.bib")
    assert len(papers) == 8
    assert papers[0].title == "Adult Immigrant Learners' Perspectives of Language Learning Experiences"
    assert "p=<0.01" in papers[5].abstract and "\\textless" not in papers[5].abstract
    assert papers[3].fields["authors"] == ["Gürbüz, Cem", "Cabaroglu, Nese"]
    assert all("{" not in paper.title for paper in papers)


def test_a_google_scholar_endnote_file_without_abstracts_names_titles_only() -> None:
    """Google Scholar's EndNote (.enw) export has no ``%X``: refused naming titles only; titles only reads all five,
    a Cyrillic record among them."""
    with pytest.raises(CorpusError, match="import titles only"):
        read_papers(TOOLS / "gscholar_enw_5.enw")
    papers = _papers("gscholar_enw_5.enw", title_only=True)
    assert len(papers) == 5 and papers[2].fields["authors"] == ["Agarwal, Ritu", "Sambamurthy, Vallabh",
                                                                 "Stair, Ralph M"]
    assert papers[4].title == "РЕСУРСЫ ИНФОРМАТИЗАЦИИ"


def test_an_armenian_zotero_csl_json_without_abstracts_reads_titles_only() -> None:
    """Zotero's CSL JSON of an Armenian bibliography (titles and names in Armenian script with bracketed
    transliterations, years as strings in ``date-parts``): refused naming titles only; titles only keeps the script."""
    with pytest.raises(CorpusError, match="import titles only"):
        read_papers(TOOLS / "zotero_csl_armenian_3.json")
    papers = _papers("zotero_csl_armenian_3.json", title_only=True)
    assert [p.fields["year"] for p in papers] == [2006, 1956, 1978]
    assert papers[0].title == "Քննություն Մովսես Կաղանկատվացու [Study of Movses Kałankatvac‘i]"
    assert papers[0].fields["authors"] == ["Ադոնց [Adonc῾], Նիկողայոս [Nikołayos]"]


def test_a_publish_or_perish_bibtex_with_a_bom_keeps_its_first_entry_and_snippets() -> None:
    """Publish or Perish's BibTeX (UTF-8 BOM before the first ``@article``, two ``note`` fields an entry, Google
    Scholar snippets as abstracts, "Taylor \\&Francis")."""
    items = list(read_papers(TOOLS / "pop_bibtex_bom_5.bib"))
    papers = [item for item in items if isinstance(item, Paper)]
    assert len(papers) == 5 and papers[0].title == "Tackling climate change with blockchain"
    assert papers[0].abstract.startswith("… Concern about the carbon footprint of Bitcoin")
    assert papers[1].fields["authors"] == ["M Kouhizadeh", "Q Zhu", "J Sarkis"]
    assert papers[1].fields["publisher"] == "Taylor &Francis"
    assert papers[0].fields["note_2"] == "Query date: 2022-12-01 16:06:41"


def test_pubmeds_legacy_csv_does_not_take_its_author_list_for_an_abstract() -> None:
    """PubMed's CSV of 2019 and before (``Title,URL,Description,Details,ShortDetails,…,EntrezUID,Properties``) has
    no abstracts: its "Description" is the author list. The generic "description" spelling (ACM's CSV abstract)
    took it as the abstract, so every row was imported as a paper whose abstract read "Nilsson C, Berthold M, …".
    It is refused naming the export that has abstracts; titles only reads the authors, PMID and year."""
    with pytest.raises(CorpusError, match="no abstract column.*PubMed format"):
        read_papers(TOOLS / "pubmed_legacy_csv_5.csv")
    papers = _papers("pubmed_legacy_csv_5.csv", title_only=True)
    assert len(papers) == 5 and not any(paper.abstract for paper in papers)
    first = papers[0]
    assert first.id == "31301691" and first.fields["year"] == 2019
    assert first.fields["authors"] == ["Nilsson C", "Berthold M", "Mascialino B", "Orme M", "Sjölander S",
                                       "Hamilton R"]
    assert first.fields["details"].startswith("Pediatr Allergy Immunol. 2019 Jul 13.")


def test_a_zotero_ris_conference_paper_takes_its_proceedings_from_c3() -> None:
    """Zotero's RIS writes a conference paper's proceedings title in ``C3`` (``TY  - CONF``, no ``T2``), as Scopus
    does: 190 of 467 records of the source had no venue, though the same library's BibTeX gives their booktitle."""
    papers = _papers("zotero_conf_c3_52.ris")
    assert len(papers) == 52 and all(p.fields.get("journal") for p in papers)
    assert papers[50].fields["type"] == "CONF"
    assert papers[50].fields["journal"] == ("2025 International Conference on Intelligent Computing and Knowledge "
                                            "Extraction (ICICKE)")
    assert papers[51].fields["journal"] == "2025 8th International Conference on Computing Methodologies and " \
                                           "Communication (ICCMC)"
    assert papers[0].fields["journal"] == "Plasmonics"  # a journal article keeps its T2


def test_a_biblatex_export_takes_the_year_from_date() -> None:
    """Zotero's Better BibLaTeX writes ``date = {2018}`` or ``date = {1995-01-01}`` and no ``year``: none of the 100
    theses of the source had a year (the same library's RIS has them all)."""
    papers = _papers("biblatex_theses_22.bib")
    assert len(papers) == 20
    by_key = {p.id: p for p in papers}
    assert by_key["adams2018"].fields["year"] == 2018
    assert by_key["adams2018"].title.startswith("“Under My Own Care”: Motherhood and Poverty in New South Wales")
    assert all(isinstance(p.fields.get("year"), int) for p in papers)
    assert next(p for p in papers if p.title.startswith("American Influence on Protestantism")).fields["year"] == 1995


def test_one_search_from_pubmed_scopus_and_web_of_science_merges_by_doi(store) -> None:
    """One search saved from PubMed ("PubMed format", CRLF, named medline.txt), Scopus (BibTeX with its "Scopus /
    EXPORT DATE" head, ``pubmed_id``) and Web of Science (BibTeX, BOM, ``@article{ WOS:…,``, wrapped values): each
    paper once. The expected numbers come from the DOIs of the three files (3 + 11 + 9 rows, 13 DOIs)."""
    from core.store.multi_import import import_files

    names = ["pubmed_crlf_2025_3.txt", "scopus_bibtex_2025_11.bib", "wos_bibtex_2025_9.bib"]
    report = import_files(store, [TOOLS / name for name in names], "search")
    counts = [(r.imported, r.added, r.merged, r.skipped) for r in report.files]
    assert counts == [(3, 3, 0, 0), (11, 8, 3, 0), (9, 2, 7, 0)]
    assert {m["rule"] for r in report.files for m in r.merges} == {"same DOI and title"}
    assert store.corpus("search").papers == 13
    kim = store.paper("search", "41023212")
    assert kim.title.startswith("Cognitive efficiency in VR simulated natural indoor environments")
    assert kim.fields["journal"] == "Scientific reports" and kim.fields["authors"] == ["Kim, Sieun"]


def test_an_endnote_bibtex_export_saved_as_txt_reads_its_chinese_records() -> None:
    """EndNote's "BibTeX Export" style saved as "My EndNote Library.txt" (BOM, CRLF, three-space indents, ``RN``
    keys, ``DOI``/``ISSN`` in capitals, Chinese titles and names joined by " and "): read as BibTeX; the one record
    with an abstract imports, the others are titles only."""
    items = list(read_papers(TOOLS / "endnote_bibtex_chinese_10.txt"))
    papers = [item for item in items if isinstance(item, Paper)]
    assert len(papers) == 1 and papers[0].id == "RN37" and papers[0].fields["doi"] == "10.1007/s11356-023-28875-1"
    titled = _papers("endnote_bibtex_chinese_10.txt", title_only=True)
    assert len(titled) == 10
    first = titled[0]
    assert first.title == "基于化学热泵储能技术的研究进展" and first.fields["journal"] == "现代化工"
    assert first.fields["authors"] == ["邓建平", "杨永平", "方俊飞", "林, 孙"] and first.fields["year"] == 2016
    assert titled[1].fields["doi"] == "10.16085/j.issn.1000-6613.2018-0473"


def test_an_endnote_bibtex_author_typed_as_whole_names_joined_by_commas_is_a_list(store) -> None:
    """An EndNote library's BibTeX export (saved as .txt) where one record holds all its authors in one name,
    "Given Family" joined by commas (``author = {Jacopo Di Clemente, Fredrik Christiansen, …}``): six authors, not
    one; "Smith, John"-style names and the Cochrane pairs are untouched. The library's duplicates (same title and
    abstract, or DOI and title; checked by hand) merge."""
    from core.store import import_file

    papers = _papers("endnote_bibtex_whales_168.txt")
    glued = next(p for p in papers if p.id == "RN279")
    assert glued.fields["authors"] == ["Jacopo Di Clemente", "Fredrik Christiansen", "Enrico Pirotta",
                                       "Dave Steckler", "Magnus Wahlberg", "Heidi Christine Pearson"]
    assert next(p for p in papers if p.id == "RN158").fields["authors"][0] == "Barlow, D. R."
    report = import_file(store, TOOLS / "endnote_bibtex_whales_168.txt", "whales")
    assert (report.imported, report.merged) == (42, 6) and report.imported + report.skipped == 168
    assert [m["id"] for m in report.merges] == ["RN159", "RN381", "RN291", "RN397", "RN398", "RN279"]


@pytest.mark.parametrize("name", ["endnote_printed_annotated_12.txt", "endnote_printed_ieee_10.txt",
                                  "endnote_printed_numbered_12.txt"])
def test_a_bibliography_printed_in_a_citation_style_is_refused_naming_the_export_that_works(name: str) -> None:
    """EndNote's File > Export with a citation style ("My EndNote Library.txt"): Annotated ('Yang, H. B., et al.
    (2018). "Title." Nature Energy 3(2): 140-147.' then the abstract after a tab) or IEEE ('[1]<tab>M. Amirul Islam,
    …, "Title." pp. 3751-3759.'). The first was refused as "unknown format; use CSV, TSV, …", the second read as a
    CSV and refused as having "no title column": neither says that the library exported as RIS imports."""
    with pytest.raises(CorpusError) as refused:
        detect_format(TOOLS / name)
    message = str(refused.value)
    assert "printed in a citation style" in message and "RefMan (RIS) Export" in message
    assert "unknown format" not in message and "title column" not in message


def test_an_ebsco_ris_record_keeps_the_doi_it_writes_in_l3() -> None:
    """EBSCOhost's RIS (here Fonte Acadêmica, Portuguese; CRLF) writes the DOI in ``L3``, not ``DO``: every paper had
    no DOI, so the same paper from another database could not merge by DOI. Its several ``AB`` (English,
    Portuguese, Spanish, EBSCO's copyright notice) and translated ``T2`` titles are kept as exported."""
    papers = _papers("ebsco_fonte_academica_4.ris")
    assert [p.fields["doi"] for p in papers] == ["10.5747/ce.2018.v10.n2.e236", "10.18568/internext.v15i1.535",
                                                 "10.19177/prppge.v13e232019122-141", "10.18568/1980-4865.13271-85"]
    first = papers[0]
    assert first.title == "MODELOS DE MATURIDADE DE TESTE DE SOFTWARE: UMA REVISÃO SISTEMÁTICA DA LITERATURA."
    assert first.fields["journal"] == "Colloquium Exactarum" and first.fields["year"] == 2018
    assert "(Portuguese) [ABSTRACT FROM AUTHOR]" in first.abstract


def test_one_ebsco_search_as_ris_and_as_bibtex_txt_merges(store) -> None:
    """The same EBSCOhost results saved as RIS and as BibTeX (.txt, CRLF, ``Abstract`` first, only the English
    abstract, no DOI): the papers both hold merge by title, year and first author."""
    from core.store.multi_import import import_files

    report = import_files(store, [TOOLS / "ebsco_fonte_academica_4.ris", TOOLS / "ebsco_bibtex_6.txt"], "ebsco")
    ris, bib = report.files
    assert (ris.added, bib.imported, bib.merged) == (4, 6, 3)
    assert {m["rule"] for m in bib.merges} == {"same title, year and first author"}


def test_a_scielo_ris_journal_with_an_html_entity_is_one_name() -> None:
    """SciELO's RIS writes "&" in a journal's name as "&amp;" (``JO  - Texto &amp; Contexto - Enfermagem``; 25 of
    148 records of the source, seven journals): the journal is "Texto & Contexto - Enfermagem", as other databases
    name it. Its translated titles (``TT``) and per-language abstracts stay as exported."""
    papers = _papers("scielo_ris_amp_3.ris")
    assert len(papers) == 3
    assert papers[2].fields["journal"] == "Texto & Contexto - Enfermagem"
    assert papers[2].fields["doi"] == "10.1590/1980-265x-tce-2023-0283en"
    assert papers[0].title == "FATORES ASSOCIADOS À ADOÇÃO DE TECNOLOGIA NO SETOR AGROPECUÁRIO"


def test_a_zotero_rdf_export_is_read_as_zotero_rdf() -> None:
    """Zotero's "Zotero RDF" export (``Exported Items.rdf``) was refused as "unknown format"; then refused naming
    Zotero's other exports; now it is read (core/io/zotero_rdf.py, tests/unit/io/test_zotero_rdf.py)."""
    assert detect_format(TOOLS / "zotero_rdf_1.rdf") == "zotero"
