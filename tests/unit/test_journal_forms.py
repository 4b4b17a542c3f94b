"""Issue 40 §3, the joins the first rules missed: NLM's catalogue titles beside the publishers' (and Scopus', Google
Scholar's) names of the same journals, when no record carries an ISSN or an abbreviation pair linking them.

The spellings are real: MEDLINE JT/TA/IS of the shared PubMed export (`_baseline_pubmed.ris`) and Google Scholar's JO
and SN of the shared Google Scholar export ("Biological Reviews", 1469-185X / 1464-7931 — while MEDLINE's record keeps
only the Linking ISSN 0006-3231 of the old title); NLM titles of the Royal Society journals ("Proceedings. Biological
sciences", "Philosophical transactions of the Royal Society of London. Series B, Biological sciences") beside the
publisher's, as the Rxivist study (Abdill & Blekhman 2019) had to join them by hand from Crossref."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.io import read_papers
from core.journal_identity import journal_identities, section_form, society_stem, stem_of
from core.records import Paper

EXPORTS = Path("/work/shared/data/exports")


def one(*spellings: str | dict) -> bool:
    """Whether records of these journal fields (or whole field dicts) get one name."""
    records = [(str(i), s if isinstance(s, dict) else {"journal": s}) for i, s in enumerate(spellings)]
    return len(set(journal_identities(records).names.values())) == 1


MEDLINE_BIOL_REV = {"journal": "Biological reviews of the Cambridge Philosophical Society",
                    "journal_abbrev": "Biol Rev Camb Philos Soc", "issn": "0006-3231"}


def test_a_title_nlm_keeps_with_its_society_joins_the_publisher_s_name():
    assert society_stem("Biological reviews of the Cambridge Philosophical Society") == "Biological reviews"
    assert society_stem("Mathematical proceedings of the Cambridge Philosophical Society") == "Mathematical proceedings"
    # a genre word alone, or "... journal of the X Society", is the journal's own full name: nothing to cut
    for name in ("Journal of the American Chemical Society", "Proceedings of the Royal Society of Medicine",
                 "Biological journal of the Linnean Society", "Quarterly journal of the Royal Meteorological Society",
                 "Bulletin of the World Health Organization", "Journal of the Royal Society Interface", "Biological Reviews"):
        assert society_stem(name) is None, name
    assert one(MEDLINE_BIOL_REV, {"journal": "Biological Reviews", "issn": "1469-185X"},  # Google Scholar
               {"journal": "Biological Reviews", "issn": "14647931", "abbreviated source title": "Biol. Rev."})  # Scopus
    assert one(MEDLINE_BIOL_REV, "Biological Reviews")  # no ISSN, no pair
    assert not one(MEDLINE_BIOL_REV, {"journal": "Biological Research", "issn": "07169760"})
    assert not one("Biological reviews of the Cambridge Philosophical Society", "Biological Research")


def test_the_society_form_joins_only_a_bare_title_no_other_journal_claims():
    records = [("m", MEDLINE_BIOL_REV), ("g", {"journal": "Biological Reviews"}),
               ("x", {"journal": "Biological reviews of the Tokyo Zoological Society"})]  # two societies: which one?
    found = journal_identities(records).names
    assert len({found["m"], found["g"], found["x"]}) == 3
    assert not one("Biological journal of the Linnean Society", "Biological Journal")
    assert not one("Journal of the American Chemical Society", "Journal")


@pytest.mark.parametrize(("nlm", "publisher"), [
    ("Proceedings. Biological sciences", "Proceedings of the Royal Society B: Biological Sciences"),
    ("Proceedings. Mathematical, physical, and engineering sciences",
     "Proceedings of the Royal Society A: Mathematical, Physical and Engineering Sciences"),
    ("Philosophical transactions of the Royal Society of London. Series B, Biological sciences",
     "Philosophical Transactions of the Royal Society B: Biological Sciences"),
    ("Philosophical transactions. Series A, Mathematical, physical, and engineering sciences",
     "Philosophical Transactions of the Royal Society A: Mathematical, Physical and Engineering Sciences"),
])
def test_nlm_s_title_and_section_form_joins_the_publisher_s_full_name(nlm: str, publisher: str):
    assert section_form(nlm) is not None
    assert one(nlm, publisher)
    assert one({"journal": nlm, "journal_abbrev": "Proc Biol Sci"}, {"journal": publisher, "issn": "0962-8452"})


def test_section_forms_of_different_journals_stay_apart():
    assert not one("Proceedings. Biological sciences",
                   "Proceedings of the Royal Society A: Mathematical, Physical and Engineering Sciences")
    assert not one("Proceedings. Biological sciences", "Philosophical Transactions of the Royal Society B: Biological Sciences")
    assert not one("Philosophical transactions of the Royal Society of London. Series B, Biological sciences",
                   "Proceedings of the Royal Society B: Biological Sciences")
    assert not one("Philosophical transactions of the Royal Society of London. Series B, Biological sciences",
                   "Philosophical Transactions of the Royal Society A: Mathematical, Physical and Engineering Sciences")
    assert not one("Journal of physics. A, Mathematical and theoretical",
                   "Journal of Physics B: Atomic, Molecular and Optical Physics")
    assert not one("Physical review. E", "Physical Review Letters") and not one("Physical Review A", "Physical Review B")
    assert not one("Journal of physiology, Paris", "Journal of Physiology")  # two journals
    assert not one("Nature", "Nature Communications") and not one("Journal of Physics", "Journal of Applied Physics")
    assert section_form("Proc. Biol. Sci.") is None  # an abbreviation, not a title and its section


def test_a_semicolon_subtitle_is_a_subtitle():
    assert stem_of("Evolution; international journal of organic evolution") == "Evolution"
    assert one("Evolution; international journal of organic evolution", "Evolution")


@pytest.mark.skipif(not (EXPORTS / "RIS").exists(), reason="the shared exports are not present")
def test_real_pubmed_and_google_scholar_exports_name_biological_reviews_once():
    pubmed = [p for p in read_papers(EXPORTS / "RIS" / "_baseline_pubmed.ris") if isinstance(p, Paper)]
    scholar = [p for p in read_papers(EXPORTS / "RIS" / "_baseline_googlescholar.ris", title_only=True)
               if isinstance(p, Paper)]
    records = [(f"p{i}", p.fields) for i, p in enumerate(pubmed)] + [(f"g{i}", p.fields) for i, p in enumerate(scholar)]
    found = journal_identities(records)
    wanted = {pid for pid, fields in records if "biological rev" in str(fields.get("journal", "")).lower()}
    assert len(wanted) == 3  # one MEDLINE record, two Google Scholar records
    assert len({found.names[pid] for pid in wanted}) == 1
    assert {"Biological reviews of the Cambridge Philosophical Society", "Biological Reviews",
            "Biol Rev Camb Philos Soc"} <= set(found.spellings[found.names[next(iter(wanted))]])


def test_one_name_on_records_of_journals_named_otherwise_does_not_join_them():
    """Europe PMC's source code "MED" stored as the journal (tools/eupmc_pygetpapers_4.csv, read in the fixmulti
    corpus of BENCHMARKS §24b) on three records of three journals, each with its ISSN and abbreviation: it joined
    Animals, Plants and Scientific Reports into one journal. A name whose ISSNs belong to journals that every other
    name tells apart is no journal's identity; each record keeps its ISSN's journal."""
    records = [("a1", {"journal": "Animals", "issn": "20762615 (ISSN)"}),  # Scopus
               ("a2", {"journal": "Animals : an open access journal from MDPI", "issns": 20762615}),  # Europe PMC JSON
               ("m1", {"journal": "MED", "journal_abbreviation": "Animals (Basel)", "issn": "2076-2615"}),
               ("m2", {"journal": "MED", "journal_abbreviation": "Plants (Basel)", "issn": "2223-7747"}),
               ("m3", {"journal": "MED", "journal_abbreviation": "Sci Rep", "issn": "2045-2322"}),
               ("s1", {"journal": "Scientific reports", "journal_abbrev": "Sci Rep", "issn": "2045-2322"})]
    found = journal_identities(records).names
    assert found["a1"] == found["a2"] == found["m1"] == "Animals"
    assert found["m3"] == found["s1"] == "Scientific reports"
    assert found["m2"] == "Plants (Basel)"
    # one journal's print and electronic ISSNs on different databases' records stay one journal
    split = [("p1", {"journal": "Anatomical Record", "issn": "1932-8486", "abbreviated source title": "Anat. Rec."}),
             ("p2", {"journal": "Anatomical Record", "issn": "1932-8494", "journal_abbrev": "Anat Rec"}),
             ("p3", {"journal": "Anatomical Record", "issn": "1932-8494"}),
             ("n1", {"journal": "Nature", "issn": "0028-0836"}), ("n2", {"journal": "Nature", "issn": "1476-4687"})]
    found = journal_identities(split)
    assert len(set(found.names.values())) == 2 and found.issns["Anatomical Record"] == ["1932-8486", "1932-8494"]


def test_a_journal_is_shown_by_a_name_its_papers_journal_fields_give_not_by_a_longer_alias():
    """fixmulti's groups (BENCHMARKS §24b) were shown under an abbreviation longer than the journal field's main title
    (Scopus' "Meas J Int Meas Confed"; Web of Science's J9 "SENSORS-BASEL") or under a paper's own translated title that
    EBSCO's RIS puts in T2. An alias is shown only when every journal field of the group abbreviates it ("Sci Rep"
    beside Embase's JF "Scientific reports")."""
    records = [
        ("m", {"journal": "Measurement: Journal of the International Measurement Confederation", "issn": "02632241",
               "abbrev_source_title": "Meas J Int Meas Confed", "eissn": "1873-412X"}),
        ("s1", {"journal": "Sensors (Basel, Switzerland)", "journal_abbrev": "Sensors (Basel)", "issn": "1424-8220"}),
        ("s2", {"journal": "SENSORS", "ei": "1424-8220", "j9": "SENSORS-BASEL", "ji": "Sensors"}),
        ("s3", {"journal": "Sensors", "issn": "1424-8220"}),
        ("i", {"journal": "Internext: Revista Electrônica de Negócios Internacionais da ESPM", "issn": "19804865",
               "secondary_title": ["MARKET PERFORMANCE IN THE HIGH-TECH MARKET: A SYSTEMATIC REVIEW.",
                                   "RENDIMIENTO DE MARKETING EN EL MERCADO DE ALTA TECNOLOGÍA: UNA REVISIÓN SISTEMÁTICA."]}),
        ("e", {"journal": "Sci Rep", "issn": "2045-2322 (electronic)", "alternate_title3": "Scientific reports"}),
        ("p", {"journal": "Proc Natl Acad Sci U S A", "alternate_title3":
               "Proceedings of the National Academy of Sciences of the United States of America"}),
    ]
    found = journal_identities(records, alias_fields=["j9", "ji"])
    assert found.names["m"] == "Measurement: Journal of the International Measurement Confederation"
    assert found.names["s1"] == found.names["s2"] == found.names["s3"] == "Sensors"
    assert found.names["i"] == "Internext: Revista Electrônica de Negócios Internacionais da ESPM"
    assert found.names["e"] == "Scientific reports"
    assert found.names["p"] == "Proceedings of the National Academy of Sciences of the United States of America"
    assert "SENSORS-BASEL" in found.spellings["Sensors"]  # every spelling is kept


def test_scopus_acronym_dash_titles_and_an_inverted_the_join_nlm_s_names():
    """Scopus (and SCImago, which lists Scopus titles) spells "JAMA - Journal of the American Medical Association" and
    "BMJ - British Medical Journal"; NLM's JT is "JAMA"; journal lists write "Lancet, The". A dash after an acronym
    its words spell out starts a subtitle; after anything else it is part of the title ("Sports medicine - open")."""
    assert stem_of("JAMA - Journal of the American Medical Association") == "JAMA"
    assert stem_of("BMJ - British Medical Journal") == "BMJ"
    assert stem_of("Sports medicine - open") is None and stem_of("CA - A Cancer Journal for Clinicians") is None
    assert one("JAMA", "JAMA - Journal of the American Medical Association")
    assert not one("JAMA", "JAMA Network Open") and not one("JAMA", "JAMA - Journal of Something Else")
    assert one("Lancet, The", "The Lancet (London, England)", "Lancet")
    assert not one("Sports medicine (Auckland, N.Z.)", "Sports medicine - open")
