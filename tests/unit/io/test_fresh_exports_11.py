"""Real exports from repositories the project had not read before (issue 40, eleventh round). Each file is a
byte-exact excerpt or a whole file (sources, licences and cuts in tests/fixtures/real/tools/SOURCES.md); each was
counted by a hand-written reader before the product read it."""

from __future__ import annotations

from core.store import Store, import_files
from tests.unit.io.support import TOOLS, second_merges_whole, tools_papers

# --- revtools' example search: one query run in PubMed, Scopus and Web of Science -----------------------------------


def test_a_title_pubmed_printed_without_its_number_is_the_scopus_paper_of_the_same_doi(tmp_path) -> None:
    """revtools' "restoration" example searched PubMed, Scopus and Web of Science (104, 286 and 247 records). PubMed
    titles 10.1109/TIP.2018.2866691 "… Three Ingredients for a Speed-Up." (NLM left "100×" out), Scopus "… Three
    ingredients for a 100× speed-up". One DOI, journal, year, pages and first author, but a number in one title only
    read as "Part I" against "Part II": "one DOI on different papers", and the paper was kept twice."""
    pubmed = tools_papers("revtools_pubmed_2.nbib")
    assert [p.id for p in pubmed] == ["30136941", "28098621"]
    assert pubmed[0].fields["authors"][:2] == ["Parameswaran, Shibin", "Deledalle, Charles-Alban"]
    second_merges_whole(tmp_path, "revtools_pubmed_2.nbib", "revtools_scopus_2.ris", 2)


def test_a_number_in_one_title_only_still_parts_titles_without_a_shared_id() -> None:
    """The number may be missing from one title only beside a shared strong id, and only where the rest of the title
    is the other's word for word: "Part II" against no part, or a different wording, stay two papers."""
    from core.store.identity import same_paper

    a = "Accelerating GMM-Based Patch Priors for Image Restoration: Three Ingredients for a Speed-Up."
    b = "Accelerating GMM-Based patch priors for image restoration: Three ingredients for a 100× speed-up"
    fields = {"year": 2019, "authors": ["Parameswaran, S."]}
    assert same_paper(a, fields, ["doi:10.1109/tip.2018.2866691"], b, fields, ["doi:10.1109/tip.2018.2866691"])[0]
    assert same_paper(a, fields, [], b, fields, [])[0] is None
    c, d = "Soil restoration after mining: a review", "Soil restoration after mining: a review, part 2"
    assert same_paper(c, fields, ["doi:10.1/x"], d, fields, ["doi:10.1/x"])[0] is None


# --- JSTOR's BibTeX "Citation List": the DOI is the citation key -----------------------------------------------------


def test_a_jstor_bibtex_entry_keeps_its_doi_from_the_citation_key() -> None:
    """JSTOR's BibTeX export ("JSTOR Citation List" line, an ``@comment``, then ``@article{10.2307/2083364, …}``)
    writes no ``doi`` field: the DOI is the entry's key. The paper had no DOI, so the same article from Web of
    Science or Scopus (DOI 10.2307/2083364) could not be matched by it."""
    from core.io import read_papers
    from core.records import Paper
    from core.store.identity import external_ids

    stream = read_papers(TOOLS / "jstor_bibtex_3.txt", title_only=True)
    papers = [item for item in stream if isinstance(item, Paper)]
    assert [p.title for p in papers] == ["Religion and Political Legitimation",
                                         "The Sociology of Secularization: Religious Groups",
                                         "A Critique of Critiques: Radical and Feminist Writings on Sport"]
    assert [p.fields["doi"] for p in papers] == ["10.2307/2083364", "10.2307/2771726", "10.2307/2578439"]
    assert external_ids(papers[0].fields, papers[0].id, stream.id_column)["doi"] == "10.2307/2083364"
    assert papers[0].fields["authors"] == ["Dwight B. Billings", "Shaunna L. Scott"]
    assert (papers[0].fields["journal"], papers[0].fields["year"]) == ("Annual Review of Sociology", 1994)


def test_a_citation_key_that_is_no_doi_gives_no_doi(tmp_path) -> None:
    """Only a key that is a whole DOI is taken for one; an author-year key, or a key beside a ``doi`` field, is not."""
    from core.io import read_papers
    from core.records import Paper

    path = tmp_path / "keys.bib"
    path.write_text("@article{Smith2020, title = {A first title long enough}, year = 2020}\n"
                    "@article{10.1000/abc, title = {A second title long enough}, doi = {10.1000/other}}\n"
                    "@article{10.1000, title = {A third title long enough}}\n", encoding="utf-8")
    papers = [p for p in read_papers(path, title_only=True) if isinstance(p, Paper)]
    assert [p.fields.get("doi") for p in papers] == [None, "10.1000/other", None]


# --- Scopus "Plain text" export (.txt) -------------------------------------------------------------------------------


def test_a_scopus_plain_text_export_of_2024_is_read_with_abstracts_ids_and_references() -> None:
    """Scopus' "Plain text" export (``Scopus`` / ``EXPORT DATE: 17 October 2024``, a record per block ending
    ``SOURCE: Scopus``) was refused as "an unknown format". Each record: authors, ``AUTHOR FULL NAMES``, author ids,
    title, ``(2024) Polish Journal of Management Studies, 29 (2), pp. 121 - 137, Cited 0 times.``, ``DOI:``, the
    link with its EID, then ``ABSTRACT:``, ``AUTHOR KEYWORDS:``, ``REFERENCES:`` (one a line) …"""
    from core.io import read_papers
    from core.store.identity import external_ids

    stream = read_papers(TOOLS / "scopus_text_2024_2.txt")
    papers = [item for item in stream if hasattr(item, "title")]
    assert len(papers) == 2
    first = papers[0]
    assert first.title.startswith("FAMILY OWNERSHIP AS A FACTOR INFLUENCING THE CHOICE OF GOALS OF FAMILY BUSINESSES")
    assert first.abstract.startswith("Family businesses are enterprises characterized by a specific, broad set")
    assert first.fields["authors"] == ["Biel M."]
    assert first.fields["author_full_names"] == ["Biel, Magdalena"]
    assert (first.fields["journal"], first.fields["year"]) == ("Polish Journal of Management Studies", 2024)
    assert (first.fields["volume"], first.fields["issue"], first.fields["pages"]) == ("29", "2", "121-137")
    assert first.fields["keywords"] == ["family business", "family business goals", "family ownership",
                                        "goal selection"]
    assert len(first.fields["references"]) == 85
    ids = external_ids(first.fields, first.id, stream.id_column)
    assert (ids["doi"], ids["eid"]) == ("10.17512/pjms.2024.29.2.06", "85201621883")
    second = papers[1]
    assert second.fields["authors"] == ["Abebe G.", "Gebreeyesus M."]
    assert "FUNDING TEXT 1" not in (second.fields.get("funding_details") or "")


def test_scopus_plain_text_without_abstracts_of_2022_and_2023_is_read_with_titles_only(tmp_path) -> None:
    """The layouts of 2022 (``# Scopus`` / ``# EXPORT DATE:04 Feb 2022``; authors "Ivanov, V.L., Fedotovich, G.V.";
    ``DOI:`` after the link) and 2023 (``AUTHOR FULL NAMES``, ``DOI:`` before the link); "Proceedings of Science, .
    Cited 1 time." names the source "Proceedings of Science". Every record is accounted for."""
    from core.io import read_papers

    old = [p for p in read_papers(TOOLS / "scopus_text_2022_3.txt", title_only=True) if hasattr(p, "title")]
    assert [p.fields["year"] for p in old] == [2021, 2021, 2017]
    assert old[0].fields["authors"][:2] == ["Ivanov, V.L.", "Fedotovich, G.V."]
    assert old[0].fields["journal"] == ("Nuclear Instruments and Methods in Physics Research, Section A: "
                                        "Accelerators, Spectrometers, Detectors and Associated Equipment")
    assert old[0].fields["doi"] == "10.1016/j.nima.2021.165761"
    assert old[1].fields["article_number"] == "033403"
    assert old[2].fields["journal"] == "Proceedings of Science"
    assert old[2].title == "Study of the e+e∑ ↑ hadrons reactions with cmd-3 detector at vepp-2000 collider"
    new = [p for p in read_papers(TOOLS / "scopus_text_2023_3.txt", title_only=True) if hasattr(p, "title")]
    assert [p.fields.get("doi") for p in new] == ["10.1002/pbc.24435", "10.1016/B978-0-12-821671-2.00032-5", None]
    assert new[2].fields["authors"][0] == "Bień E."
    assert new[1].fields["journal"] == "Lanzkowsky's Manual of Pediatric Hematology and Oncology"
    store = Store(tmp_path / "ws")
    report = import_files(store, [TOOLS / "scopus_text_2022_3.txt", TOOLS / "scopus_text_2023_3.txt"], "c",
                          title_only=True)
    assert report.imported == report.added + report.merged + report.skipped == 6


# --- One search of five databases (2026-03-21): PubMed, Scopus, Web of Science, Embase, SciELO Citation Index --------


def test_a_scielo_record_in_spanish_is_the_scopus_paper_of_the_same_doi(tmp_path) -> None:
    """A 2026 search of five databases (Bibliometrico_Hospitales). The SciELO Citation Index (Web of Science plain
    text, BOM, values ending in a TAB) titles a paper in its language (``TI Cirugía de emergencia por colecistitis
    aguda …``) and gives the English title in ``X1``; Scopus writes "Emergency surgery for acute cholecystitis …;
    [Cirugía de emergencia …]". One DOI, but the titles were compared only as given: 80 of the 214 SciELO records
    were "one DOI on different papers" and kept twice. Two more pairs of one DOI: PubMed left out a subtitle
    ("Ascariasis as a cause of recurrent abdominal pain." for Scopus' "…: Endoscopic images of interest"), and put a
    heading before one ("Letter to the Editor: Some Considerations on the Article …")."""
    names = ["hospitales_pubmed_2026_2.txt", "hospitales_scopus_2026_2.bib", "hospitales_wos_2026_1.bib",
             "scielo_wos_2026_3.txt"]
    scielo = tools_papers("scielo_wos_2026_3.txt", title_only=True)
    assert scielo[2].title == "Cirugía de emergencia por colecistitis aguda debido a fístula colecistocolónica"
    assert scielo[2].fields["x1"] == "Emergency surgery for acute cholecystitis caused by cholecystocolonic fistula"
    assert scielo[0].fields["journal"] == "Revista Cubana de Pediatría"  # the TAB after the value left out
    store = Store(tmp_path / "ws")
    report = import_files(store, [TOOLS / name for name in names], "c", title_only=True)
    counts = [(f.imported, f.added, f.merged, f.skipped) for f in report.files]
    assert counts == [(2, 2, 0, 0), (2, 1, 1, 0), (1, 0, 1, 0), (3, 2, 1, 0)]
    assert not [c for f in report.files for c in f.conflicts]
    assert report.imported == report.added + report.merged + report.skipped == 8


def test_an_abstract_of_a_meeting_supplement_keeps_apart_from_another_under_its_doi() -> None:
    """Other titles, parts before or after a colon: each is tried only beside a shared id, and only a part long
    enough to name a paper; two abstracts of one supplement DOI with different titles stay two papers."""
    from core.store.identity import same_paper

    k = ["doi:10.1097/hep.0000000000001077"]
    a = "PHENOTYPES, NATURAL COURSE, AND OUTCOMES OF ACUTE KIDNEY INJURY (AKI) IN PATIENTS WITH CIRRHOSIS"
    b = "GLOBAL SOCIOECONOMIC DISPARITIES AFFECT ACUTE KIDNEY INJURY OUTCOMES IN CIRRHOSIS"
    assert same_paper(a, {}, k, b, {}, k) == (None, "one DOI on different papers")
    assert same_paper("Reply: Asthma", {}, k, "Asthma", {}, k)[0] is None  # a part too short to decide
    assert same_paper("Cirugía de emergencia", {"x1": "Emergency surgery"}, [], "Emergency surgery", {}, [])[0] is None


# --- Embase.com's plain-text export (.txt) ---------------------------------------------------------------------------


def test_an_embase_plain_text_export_is_read_and_is_the_same_search_s_ris(tmp_path) -> None:
    """Embase.com's text export (``RECORD 1``, then headings in capitals, ``TITLE``, ``AUTHOR NAMES``, ``SOURCE
    TITLE``, ``ABSTRACT``, ``MEDLINE PMID 41712675 (http://…)``…, each value indented on its first line and wrapped
    without indent) was refused as "an unknown format". Its three records are the same as the same search's Embase
    RIS: imported after it, each one merges into its RIS twin."""
    from core.io import read_papers
    from core.records import Paper

    stream = read_papers(TOOLS / "embase_text_3.txt")
    papers = [item for item in stream if isinstance(item, Paper)]
    assert len(papers) == 3
    first = papers[0]
    assert first.title == ("Salivary and urinary microRNAs as non-invasive biomarkers of minimal residual disease in "
                           "pediatric acute lymphoblastic leukemia")
    assert first.abstract.startswith("The measurement of minimal residual disease (MRD) in bone marrow serves as a "
                                     "significant predictor")
    assert first.fields["authors"] == ["Pando-Caciano A.", "Godoy-Vila V.", "Murillo-Vizcarra S.", "Pajuelo M.J.",
                                       "Maita-Malpartida H."]
    assert (first.fields["journal"], first.fields["year"]) == ("Biomolecules & biomedicine", 2026)
    assert (first.fields["doi"], first.id) == ("10.17305/bb.2026.13119", "41712675")  # the PMID stands as the id
    assert first.fields["emtree_drug_index_terms"] == ["circulating microRNA", "microRNA 223"]
    store = Store(tmp_path / "ws")
    report = import_files(store, [TOOLS / "embase_ris_3.ris", TOOLS / "embase_text_3.txt"], "c")
    text = report.files[1]
    assert (text.imported, text.added, text.merged, text.skipped) == (3, 0, 3, 0)
    assert report.imported == report.added + report.merged + report.skipped == 6


def test_an_embase_text_value_that_wraps_onto_a_line_in_capitals_stays_in_its_field(tmp_path) -> None:
    """A heading is a known one, or capitals followed by an indented line: a wrapped title line in capitals
    ("COVID-19 PANDEMIC") followed by the next heading stays in the title."""
    from tests.unit.io.support import papers_and_errors, write

    path = write(tmp_path / "e.txt", "RECORD 1\nTITLE\n  Hospital care in Peru during the\nCOVID-19 PANDEMIC\n"
                                     "ABSTRACT\n  An abstract of the paper.\nPUBLICATION YEAR\n  2021\n")
    papers, errors = papers_and_errors(path)
    assert not errors
    assert papers[0].title == "Hospital care in Peru during the COVID-19 PANDEMIC"
    assert (papers[0].abstract, papers[0].fields["year"]) == ("An abstract of the paper.", 2021)


def test_a_scielo_abstract_loses_the_heading_glued_to_its_text() -> None:
    """SciELO's abstracts open with their heading glued to the text: "ABSTRACT Introduction: The clinical…" (64 of
    the 184 abstracts of the 2026 search), "SUMMARY …", "Abstract …"; the Spanish ``X4`` with "RESUMEN …". The heading
    is no part of the abstract."""
    papers = tools_papers("scielo_wos_2026_3.txt", title_only=True)
    assert papers[0].abstract.startswith("Introduction: The clinical manifestations of Guillain Barré syndrome")
    assert papers[2].abstract.startswith("Cholecystocolonic fistula (CCF) is a rare complication of cholelithiasis.")
    assert papers[0].fields["x4"].startswith("Introducción: Las manifestaciones clínicas del síndrome de Guillain")
