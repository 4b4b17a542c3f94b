"""Issue 40 §3, the splits BENCHMARKS §24b/§24c left: NLM's qualified title beside the publisher's subtitled one
("G3 (Bethesda, Md.)" and "G3: Genes|Genomes|Genetics"), and the journal field of a page saved from nature.com or
Springer Link ("Nature Communications 2019 10:1": the page's ``dc.source`` meta, journal + year + volume:issue, as
Zotero and EndNote store it) — each one journal read under two names. Near misses, different journals whose names
look alike, stay apart.

The spellings are real: NLM catalogue titles (JT) and abbreviations (TA), the publishers' and Scopus' titles, and the
EndNote library `tests/fixtures/real/tools/endnote_bibtex_whales_168.txt` (record RN288, ``journal = {Nature
Communications 2019 10:1}``, volume 10, number 1, ISSN 2041-1723)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.io import read_papers
from core.journal_forms import issue_tail, spelled_acronym
from core.journal_identity import journal_identities
from core.records import Paper

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"


def one(*spellings: str | dict) -> bool:
    """Whether records of these journal fields (or whole field dicts) get one name."""
    records = [(str(i), s if isinstance(s, dict) else {"journal": s}) for i, s in enumerate(spellings)]
    return len(set(journal_identities(records).names.values())) == 1


# -- 1. NLM's qualified title beside the publisher's acronym and subtitle -------------------------------------------
def test_an_acronym_title_whose_subtitle_spells_it_out_is_read_as_that_acronym():
    assert spelled_acronym("G3: Genes|Genomes|Genetics") == "G3"
    assert spelled_acronym("G3: Genes, Genomes, Genetics") == "G3"
    assert spelled_acronym("BMJ: British Medical Journal") == "BMJ"
    assert spelled_acronym("JAMA - Journal of the American Medical Association") == "JAMA"
    assert spelled_acronym("G3 Genes|Genomes|Genetics") == "G3"
    for name in ("Chemistry: A European Journal", "CA - A Cancer Journal for Clinicians", "G3 (Bethesda, Md.)",
                 "Journal of Physics: Conference Series", "BMJ Open", "G3", "AIDS: Research and Treatment",
                 "JAMA Network Open", "AIDS Research and Treatment", "EMBO Journal", "PLOS ONE", "BMC Bioinformatics"):
        assert spelled_acronym(name) is None, name


def test_nlm_s_qualified_title_joins_the_publisher_s_spelled_out_acronym():
    """NLM (MEDLINE JT/TA) names G3 "G3 (Bethesda, Md.)" / "G3 (Bethesda)"; GSA and Crossref "G3:
    Genes|Genomes|Genetics"; Scopus and Web of Science "G3: Genes, Genomes, Genetics". No bare "G3" between them,
    and no ISSN on the publisher's side (a Google Scholar or Crossref-less export): one journal all the same."""
    assert one({"journal": "G3 (Bethesda, Md.)", "journal_abbrev": "G3 (Bethesda)"}, "G3: Genes|Genomes|Genetics",
               "G3: Genes, Genomes, Genetics")
    assert one({"journal": "G3 (Bethesda, Md.)", "issn": "2160-1836"}, "G3: Genes, Genomes, Genetics")
    assert one("BMJ (Clinical research ed.)", "BMJ - British Medical Journal", "BMJ")
    assert one("BMJ (Clinical research ed.)", "BMJ: British Medical Journal")
    # the Rxivist study's Crossref variants of G3 (Abdill & Blekhman 2019): no colon, an HTML entity for it
    assert one("G3 (Bethesda, Md.)", "G3 Genes|Genomes|Genetics")
    assert one("G3&#58; Genes|Genomes|Genetics", "G3: Genes|Genomes|Genetics", "G3 (Bethesda, Md.)", "G3")


def test_an_acronym_journal_is_shown_by_the_name_that_spells_it_out():
    """The fullest name is shown: the publisher's "G3: Genes|Genomes|Genetics", not NLM's "G3 (Bethesda, Md.)"."""
    found = journal_identities([("a", {"journal": "G3 (Bethesda, Md.)", "journal_abbrev": "G3 (Bethesda)"}),
                                ("b", {"journal": "G3: Genes|Genomes|Genetics"}), ("c", {"journal": "G3"})])
    assert set(found.names.values()) == {"G3: Genes|Genomes|Genetics"}
    found = journal_identities([("a", {"journal": "BMJ (Clinical research ed.)"}), ("c", {"journal": "BMJ"}),
                                ("b", {"journal": "BMJ - British Medical Journal"})])
    assert set(found.names.values()) == {"BMJ - British Medical Journal"}


def test_near_misses_stay_apart():
    """Different journals whose names share a stem, an acronym or a first word."""
    pairs = [
        ("Nature", "Nature Communications"), ("Nature", "Nature communications"),
        ("Journal of physics. A, Mathematical and theoretical", "Journal of Physics B: Atomic, Molecular and Optical Physics"),
        ("Journal of Physics A: Mathematical and Theoretical", "Journal of Physics B: Atomic, Molecular and Optical Physics"),
        ("Journal of Physics: Conference Series", "Journal of Physics: Condensed Matter"),
        ("Cell", "Cell Reports"), ("Cell", "Cell reports"), ("Science (New York, N.Y.)", "Science Advances"),
        ("Science (New York, N.Y.)", "Science advances"), ("PLoS One", "PLoS Biology"), ("PloS one", "PLoS biology"),
        ("BMJ (Clinical research ed.)", "BMJ Open"), ("BMJ", "BMJ open"), ("BMJ - British Medical Journal", "BMJ Open"),
        ("Lancet (London, England)", "The Lancet Oncology"), ("Lancet (London, England)", "The Lancet. Oncology"),
        ("Lancet", "Lancet Oncology"), ("JAMA", "JAMA Network Open"), ("JAMA", "JAMA Pediatrics"),
        ("G3 (Bethesda, Md.)", "Genes"), ("G3: Genes|Genomes|Genetics", "Genetics"),
        ("Medicine (Baltimore)", "Medicine (Abingdon, England : UK ed.)"),
        # NLM's European Chemistry and the publisher's Asian one: two journals whose names no rule can tell apart
        ("Chemistry (Weinheim an der Bergstrasse, Germany)", "Chemistry: An Asian Journal"),
        ("Chemistry (Weinheim an der Bergstrasse, Germany)", "Chemistry, an Asian journal"),
        ("AIDS (London, England)", "AIDS: Research and Treatment"), ("AIDS (London, England)", "AIDS care"),
        ("Nature", "Nature: New biology"), ("Nature", "Nature: Physical science"),
    ]
    for a, b in pairs:
        assert not one(a, b), (a, b)
    # two qualified forms, or a qualified form and two spelled-out forms: which one is it?
    assert not one("G3 (Bethesda, Md.)", "G3 (Something else)", "G3: Genes|Genomes|Genetics")
    # ISSNs that differ keep apart what the names would join
    assert not one({"journal": "BMJ (Clinical research ed.)", "issn": "0959-8138"},
                   {"journal": "BMJ: British Medical Journal", "issn": "0007-1447"})


# -- 2. Springer's "Journal YEAR VOLUME:ISSUE" ------------------------------------------------------------------------
def test_the_year_volume_issue_tail_of_a_saved_page_is_found():
    assert issue_tail("Nature Communications 2019 10:1") == ("Nature Communications", "2019", "10")
    assert issue_tail("Scientific Reports 2017 7:1") == ("Scientific Reports", "2017", "7")
    assert issue_tail("Nature 2020 580:7805") == ("Nature", "2020", "580")
    for name in ("Nature Communications", "Interspeech 2019", "Proceedings of SPIE 10:1", "2019 10:1",
                 "Journal of Physics: Conference Series", "Nature Communications 2019", "Acta 1999 2:3 extra"):
        assert issue_tail(name) is None, name


def test_a_journal_field_with_springer_s_year_and_volume_tail_is_the_journal():
    saved = {"journal": "Nature Communications 2019 10:1", "year": 2019, "volume": "10", "number": "1"}
    assert one(saved, "Nature Communications", {"journal": "Nat Commun", "alternate_title3": "Nature communications"})
    found = journal_identities([("s", saved), ("n", {"journal": "Nature Communications", "issn": "2041-1723"})])
    assert found.names == {"s": "Nature Communications", "n": "Nature Communications"}
    assert "Nature Communications 2019 10:1" in found.spellings["Nature Communications"]  # every spelling kept
    assert found.name_of("Nature Communications 2019 10:1") == "Nature Communications"
    # alone, too, the journal is shown without the tail; and two volumes of one journal are one journal
    found = journal_identities([("a", saved), ("b", {"journal": "Nature Communications 2022 13:1", "year": "2022"}),
                                ("c", {"journal": "Scientific Reports 2017 7:1", "volume": 7})])
    assert found.names == {"a": "Nature Communications", "b": "Nature Communications", "c": "Scientific Reports"}


def test_the_tail_is_kept_when_the_record_says_another_year_or_volume():
    found = journal_identities([("x", {"journal": "Nature Communications 2019 10:1", "year": "2015"}),
                                ("y", {"journal": "Nature Communications 2019 10:1", "volume": "6", "year": 2019}),
                                ("n", {"journal": "Nature Communications"})])
    assert found.names["x"] == found.names["y"] == "Nature Communications 2019 10:1" != found.names["n"]
    # the volume agrees, the year is the print year, one after the page's online year: one journal
    assert one({"journal": "Sustainability Science 2017 13:2", "volume": "13", "year": "2018"},
               {"journal": "Sustainability Science 2018 13:2", "date": "2017–06–24"}, "Sustainability Science")


def test_real_endnote_library_shows_nature_communications_once():
    """The EndNote library's RN288 carries ISSN 2041-1723, so an ISSN joins it to any other Nature Communications
    record; it was shown as "Nature Communications 2019 10:1" (the longest spelling wins) and, alone, named so."""
    papers = [p for p in read_papers(REAL / "tools" / "endnote_bibtex_whales_168.txt") if isinstance(p, Paper)]
    records = [(p.id, p.fields) for p in papers]
    krill = [pid for pid, fields in records if fields.get("journal") == "Nature Communications 2019 10:1"]
    assert len(krill) == 1
    found = journal_identities(records + [("scopus", {"journal": "Nature Communications", "issn": "20411723"})])
    assert found.names[krill[0]] == found.names["scopus"] == "Nature Communications"


@pytest.mark.parametrize("name", ["Nature Communications 2019 10:1", "Scientific Reports 2020 10:1"])
def test_the_tail_form_never_becomes_the_shown_name_through_an_alias(name: str):
    found = journal_identities([("a", {"journal": "Nat Commun" if "Nature" in name else "Sci Rep",
                                       "alternate_title3": name, "year": 2019 if "2019" in name else 2020})])
    assert "20" not in found.names["a"]


# -- a subtitle that names a section is no subtitle of the bare title -----------------------------------------------
def test_a_section_named_after_a_colon_is_a_journal_of_its_own():
    """'Title: subtitle' joined a bare 'Title' whenever it was the only subtitled form: "Nature: New biology" (NLM,
    1971-73, ISSN 0090-0028) became Nature, "Journal of Neurosurgery: Spine" the Journal of Neurosurgery, "Veterinary
    Parasitology: Regional Studies and Reports" (2405-9390) Veterinary Parasitology when no ISSN told them apart."""
    for bare, section in [("Nature", "Nature: New biology"), ("Journal of Neurosurgery", "Journal of Neurosurgery: Spine"),
                          ("Journal of neurosurgery", "Journal of neurosurgery. Spine"),
                          ("Veterinary Parasitology", "Veterinary Parasitology: Regional Studies and Reports"),
                          ("Journal of Experimental Psychology", "Journal of Experimental Psychology: General"),
                          ("Child", "Child: care, health and development")]:
        assert not one(bare, section), (bare, section)
    assert one("Journal of neurosurgery. Spine", "Journal of Neurosurgery: Spine")  # NLM's section form still joins
    # a subtitle that describes the title, NLM's acronym after ':', a parallel title: the bare title's own
    for full, bare in [("Implementation science : IS", "Implementation Science"),
                       ("Journal of the American Medical Informatics Association : JAMIA",
                        "Journal of the American Medical Informatics Association"),
                       ("Journal of the Medical Library Association : JMLA", "Journal of the Medical Library Association"),
                       ("Clinical infectious diseases : an official publication of the Infectious Diseases Society of "
                        "America", "Clinical Infectious Diseases"), ("Brain : a journal of neurology", "Brain"),
                       ("Headache: The Journal of Head and Face Pain", "Headache"),
                       ("Measurement: Journal of the International Measurement Confederation", "Measurement"),
                       ("Canadian journal of public health = Revue canadienne de sante publique",
                        "Canadian Journal of Public Health"), ("G3: Genes|Genomes|Genetics", "G3"),
                       # the Rxivist study's Crossref variants (Abdill & Blekhman 2019), NLM's ' : ', a section letter
                       ("SLAS DISCOVERY: Advancing Life Sciences R&D", "SLAS Discovery"),
                       ("SLAS TECHNOLOGY: Translating Life Sciences Innovation", "SLAS Technology"),
                       ("Integrative Biology : Quantitative Biosciences From Nano To Macro", "Integrative Biology"),
                       ("Molecular & Cellular Proteomics : MCP", "Molecular & Cellular Proteomics"),
                       ("Journal of Physics B: Atomic, Molecular and Optical Physics", "Journal of Physics B"),
                       ("Proceedings of the Royal Society B: Biological Sciences", "Proceedings of the Royal Society B")]:
        assert one(full, bare), (full, bare)


def test_an_imported_endnote_library_names_its_saved_pages_journals_without_the_tail(store):
    """Through the store, as the map, its legend and the vote read it: the EndNote library imported, each of its
    three nature.com / Springer Link records is named by its journal; the stored field keeps what was exported."""
    from core.store.multi_import import import_files

    import_files(store, [REAL / "tools" / "endnote_bibtex_whales_168.txt"], "whales")
    shown = set(store.papers_frame("whales")["journal"].dropna())
    stored = {p.fields.get("journal") for p in store.papers("whales")}
    assert {"Nature Communications 2019 10:1", "Nature Ecology & Evolution 2023 7:4",
            "Sustainability Science 2017 13:2"} <= stored
    assert {"Nature Communications", "Nature Ecology & Evolution", "Sustainability Science"} <= shown
    assert not any(issue_tail(name) for name in shown)
