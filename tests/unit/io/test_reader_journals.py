"""Three readers that split one journal (issue 40 §3, BENCHMARKS §24b/§24c): Europe PMC's CSV read with its
``source`` column ("MED", the database) as the journal; MEDLINE and PubMed XML keeping one ISSN of several; EBSCO's
RIS ``T2`` (the paper's translated or alternative title) stored as another name of the journal. Real file lines
(tests/fixtures/real, sources in SOURCES.md; the MEDLINE record from the shared exports' PubMed search)."""

from __future__ import annotations

from pathlib import Path

from core.io import read_papers
from core.journal_identity import journal_identities
from core.records import Paper

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "real"
TOOLS = REAL / "tools"


def _papers(path: Path) -> list[Paper]:
    return [item for item in read_papers(path, title_only=True) if isinstance(item, Paper)]


# --- 1. Europe PMC's CSV: the journal is in journalInfo, "source" is the database -----------------------------------

def test_a_pygetpapers_europe_pmc_csv_reads_the_journal_from_journal_info_not_source() -> None:
    """pygetpapers' europe_pmc.csv writes ``source`` ("MED": Europe PMC's database code) and ``journalInfo`` (a
    Python repr of Europe PMC's ``journalInfo`` object: ``journal.title``, ``ISOAbbreviation``, ``ISSN``, ``ESSN``).
    The journal was "MED" for every paper; it is the journal's title, as the same records' JSON gives it."""
    rows = _papers(TOOLS / "eupmc_pygetpapers_4.csv")
    assert [p.fields["journal"] for p in rows] == [
        "Animals : an open access journal from MDPI", "Plants (Basel, Switzerland)", "Scientific reports",
        "Animal frontiers : the review magazine of animal agriculture"]
    assert all(p.fields["journal"] != "MED" for p in rows)
    assert rows[2].fields["journal_abbreviation"] == "Sci Rep" and rows[2].fields["issn"] == ["2045-2322"]
    assert rows[3].fields["issn"] == ["2160-6056", "2160-6064"]  # print and electronic both kept
    assert rows[0].fields["source"] == "MED"  # the database code is kept, under its own name
    json_rows = _papers(TOOLS / "eupmc_pygetpapers_4.json")
    assert [p.fields["journal"] for p in json_rows] == [p.fields["journal"] for p in rows]
    assert json_rows[3].fields["issn"] == ["2160-6056", "2160-6064"]


def test_three_journals_read_from_a_europe_pmc_csv_stay_three() -> None:
    """§24b's one wrong group: "MED" held Animals, Plants and Scientific Reports; now each is its own journal."""
    rows = _papers(TOOLS / "eupmc_pygetpapers_4.csv")
    found = journal_identities((p.id, p.fields) for p in rows)
    assert len(set(found.names.values())) == 4


def test_a_europe_pmc_lite_record_gives_its_journal_title_and_issns(tmp_path: Path) -> None:
    """Europe PMC's ``resultType=lite`` records (and the R europepmc package's tables of them) carry the journal as
    ``journalTitle`` and its ISSNs as ``journalIssn`` ("2045-2322; 2045-2322"), beside ``source`` ("MED")."""
    path = tmp_path / "epmc_lite.csv"
    path.write_text(
        "id,source,pmid,pmcid,doi,title,authorString,journalTitle,pubYear,journalIssn,abstractText\n"
        "38355765,MED,38355765,PMC10866893,10.1038/s41598-024-54206-0,Title one,Smith J.,Scientific reports,2024,"
        "2045-2322; 2045-2322,An abstract.\n", encoding="utf-8")
    paper = _papers(path)[0]
    assert paper.fields["journal"] == "Scientific reports" and paper.fields["issn"] == ["2045-2322"]


# --- 2. MEDLINE and PubMed XML: every ISSN the record carries -------------------------------------------------------

_SAUROPODS = """PMID- 21251189
OWN - NLM
STAT- MEDLINE
DCOM- 20110502
LR  - 20240416
IS  - 1469-185X (Electronic)
IS  - 1464-7931 (Print)
IS  - 0006-3231 (Linking)
VI  - 86
IP  - 1
DP  - 2011 Feb
TI  - Biology of the sauropod dinosaurs: the evolution of gigantism.
PG  - 117-55
LID - 10.1111/j.1469-185X.2010.00137.x [doi]
AB  - The herbivorous sauropod dinosaurs of the Jurassic and Cretaceous periods were 
      the largest terrestrial animals ever, surpassing the largest herbivorous mammals 
      by an order of magnitude in body mass.
TA  - Biol Rev Camb Philos Soc
JT  - Biological reviews of the Cambridge Philosophical Society
"""


def test_a_medline_record_keeps_its_print_electronic_and_linking_issns(tmp_path: Path) -> None:
    """A MEDLINE record names three ISSNs (the shared exports' PubMed search, "Biology of the sauropod dinosaurs"):
    the Linking one is NLM's old title's (0006-3231), the print and electronic ones the publisher's current
    (1464-7931, 1469-185X), which Google Scholar and Scopus give. Only the Linking ISSN was kept, so NLM's and the
    publisher's spellings of Biological Reviews shared no ISSN."""
    path = tmp_path / "pubmed-biol-rev.nbib"
    path.write_text(_SAUROPODS, encoding="utf-8")
    paper = _papers(path)[0]
    assert paper.fields["issn"] == ["0006-3231", "1469-185X", "1464-7931"]  # the Linking ISSN first
    publisher = {"journal": "Biol. Rev.", "issn": "1464-7931"}  # Web of Science's JI, the print ISSN
    found = journal_identities([(paper.id, paper.fields), ("wos", publisher)])
    assert found.names[paper.id] == found.names["wos"]


def test_a_medline_file_keeps_every_issn_with_the_linking_one_first() -> None:
    """pubmed_3.txt: "IS - 1879-1026 (Electronic)" then "IS - 0048-9697 (Linking)"; one ISSN written three times
    (PeerJ: Print, Electronic, Linking) is one."""
    papers = _papers(REAL / "pubmed_3.txt")
    assert [p.fields["issn"] for p in papers] == [
        ["0048-9697", "1879-1026"], ["0364-152X", "1432-1009"], ["2167-8359"]]


def test_pubmed_xml_keeps_the_journal_issn_beside_the_linking_one() -> None:
    """PubMed XML: ``<ISSN IssnType="Electronic">1558-9439</ISSN>`` under ``Journal`` and ``<ISSNLinking>1536-5050``
    (the Journal of the Medical Library Association); only the Linking ISSN was kept."""
    papers = _papers(TOOLS / "pubmed_2019_4.xml")
    assert papers[0].fields["issn"] == ["1471-2288"]  # Electronic and Linking the same
    assert papers[1].fields["issn"] == ["1536-5050", "1558-9439"]


# --- 3. EBSCO RIS: a T2 that is the paper's title is no name of the journal ----------------------------------------

def test_ebsco_t2_translated_titles_are_not_names_of_the_journal() -> None:
    """EBSCOhost's RIS (``DP - EBSCOhost``) names the journal in ``JO``/``JF``/``J1`` and writes the paper's
    translated or alternative titles in ``T2`` ("Software Test Maturity Models: ..." beside the Portuguese T1). They
    were stored as ``secondary_title``, read as another name of the journal; they are kept as the paper's
    ``alternative_title``."""
    papers = _papers(TOOLS / "ebsco_fonte_academica_4.ris")
    first = papers[0]
    assert first.fields["journal"] == "Colloquium Exactarum" and "secondary_title" not in first.fields
    assert first.fields["alternative_title"] == "Software Test Maturity Models: A Systematic Review of the Literature."
    assert papers[1].fields["alternative_title"] == [
        "MARKET PERFORMANCE IN THE HIGH-TECH MARKET: A SYSTEMATIC REVIEW.",
        "RENDIMIENTO DE MARKETING EN EL MERCADO DE ALTA TECNOLOGÍA: UNA REVISIÓN SISTEMÁTICA."]
    found = journal_identities((p.id, p.fields) for p in papers)
    spelled = {spelling for spellings in found.spellings.values() for spelling in spellings}
    assert spelled == {"Colloquium Exactarum", "Internext: Revista Electrônica de Negócios Internacionais da ESPM",
                       "Poiésis"}
    asp = _papers(TOOLS / "ebsco_asp_4.ris")[3]
    assert asp.fields["journal"] == "Transactions of the Chinese Society of Agricultural Engineering"
    assert asp.fields["alternative_title"].startswith("Design and experiment of 2ZGK-6 type")


def test_a_t2_that_repeats_the_title_is_no_journal_alias(tmp_path: Path) -> None:
    """Any RIS: a ``T2`` equal to the title (case and punctuation aside) beside a ``JO``/``JF`` journal is the
    title again, not the journal's other name; a ``T2`` that names the journal (Zotero, Scopus) stays the journal."""
    path = tmp_path / "t2.ris"
    path.write_text(
        "TY  - JOUR\nTI  - Ruts and peaks\nT2  - RUTS AND PEAKS.\nJO  - Time\nAB  - An abstract.\nER  - \n\n"
        "TY  - JOUR\nTI  - Another paper\nT2  - Scientific Reports\nJ2  - Sci Rep\nAB  - An abstract.\nER  - \n",
        encoding="utf-8")
    repeated, zotero = _papers(path)
    assert repeated.fields["journal"] == "Time" and "secondary_title" not in repeated.fields
    assert repeated.fields["alternative_title"] == "RUTS AND PEAKS."
    assert zotero.fields["journal"] == "Scientific Reports"
