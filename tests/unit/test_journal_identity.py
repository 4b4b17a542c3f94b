"""Issue 40 §3, one journal one name: the spellings databases give one journal (PubMed's "PloS one", Web of Science's
"PLOS ONE", Scopus' "PLoS ONE" and "Sci. Rep.", Embase's "Sci Rep") are one journal for the map, its legend and the
journal vote, joined by ISSN, a normalised name and the name pairs the exports carry; journals that only look alike
stay apart. The strings are the shared exports' (asreview/citation-file-formatting) and the real fixtures'."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.embedding import embed_corpus
from core.explore import predict_journals
from core.io import read_papers
from core.journal_identity import issns_in, journal_identities, name_key, stem_of, valid_issn
from core.plots import map_figure
from core.records import Paper
from core.store import Store
from tests.helpers import make_papers, register_tiny

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"
EXPORTS = Path("/work/shared/data/exports")


def names(records: list[tuple[str, dict]], **kwargs) -> dict[str, str]:
    return journal_identities(records, **kwargs).names


# -- the parts -------------------------------------------------------------------------------
def test_issns_are_read_in_every_form_the_exports_write_them_and_checked():
    assert issns_in("20452322 (ISSN)") == ["2045-2322"]  # Scopus RIS
    assert issns_in("1932-8494 (electronic),1932-8486") == ["1932-8494", "1932-8486"]  # Embase
    assert issns_in('["1932-8494", "1932-8486"]') == ["1932-8494", "1932-8486"]  # Rayyan
    assert issns_in("15737373; 0167594x") == ["1573-7373", "0167-594X"]  # Lens
    assert issns_in("E2196-7822") == ["2196-7822"]  # ERIC (Ovid): E for electronic
    assert issns_in(["18602002", "15361632"]) == ["1860-2002", "1536-1632"]
    assert issns_in("1432086x; 01741551; 74155101") == ["1432-086X", "0174-1551"]  # Lens: 74155101 is no ISSN
    assert issns_in("0-86571-342-1") == []  # ERIC (Ovid): an ISBN in SN
    assert issns_in("9780123456786") == [] and issns_in(None) == []
    assert valid_issn("2334265X") and not valid_issn("23342651")


def test_names_compare_without_case_diacritics_punctuation_and_the():
    assert name_key("PLOS ONE") == name_key("PloS one") == name_key("PLoS ONE")
    assert name_key("Revista de Neuro-Psiquiatría") == name_key("REVISTA DE NEURO PSIQUIATRIA")
    assert name_key("Science & Education") == name_key("Science and Education")
    assert name_key("The Journal of infectious diseases") == name_key("Journal of Infectious Diseases")
    assert name_key("Anat.Rec.") == name_key("Anat. Rec.")
    assert name_key("Science and Children") != name_key("Science & Education")


def test_a_subtitle_parallel_title_or_qualifier_is_cut_to_the_bare_title():
    assert stem_of("Cladistics : the international journal of the Willi Hennig Society") == "Cladistics"
    assert stem_of("Sports medicine (Auckland, N.Z.)") == "Sports medicine"
    assert stem_of("Psychosocial intervention = intervencion psicosocial") == "Psychosocial intervention"
    assert stem_of("Pediatrics and Neonatal Nursing: Open Access ( ISSN 2470-0983)") == "Pediatrics and Neonatal Nursing"
    assert stem_of("Sports medicine - open") is None and stem_of("PLoS ONE") is None


# -- joining ---------------------------------------------------------------------------------
def test_one_journal_from_five_databases_is_one_name_with_every_spelling_kept():
    records = [  # the shared exports' PLoS ONE records, as the readers store them
        ("lens", {"journal": "PloS one", "issn": "19326203", "issns": "19326203"}),
        ("wos", {"journal": "PLOS ONE", "issn": "1932-6203"}),
        ("scopus", {"journal": "PLoS ONE", "issn": "19326203", "abbreviated source title": "PLoS ONE"}),
        ("pubmed", {"journal": "PloS one", "issn": "1932-6203", "journal_abbrev": "PLoS One"}),
        ("covidence", {"journal": "PLoS ONE"}),  # no ISSN: joined by its name
    ]
    found = journal_identities(records)
    assert set(found.names.values()) == {"PLoS ONE"}
    assert set(found.spellings["PLoS ONE"]) == {"PloS one", "PLOS ONE", "PLoS ONE", "PLoS One"}
    assert found.issns["PLoS ONE"] == ["1932-6203"] and found.papers["PLoS ONE"] == 5
    assert found.name_of("PLOS ONE") == "PLoS ONE" and found.name_of("Nature") is None


def test_abbreviations_join_through_the_pairs_the_records_carry_and_the_full_name_is_shown():
    records = [
        ("embase", {"journal": "Sci Rep", "issn": "2045-2322 (electronic)", "journal abbreviation": "Sci Rep",
                    "alternate_title1": "Sci Rep", "alternate_title3": "Scientific reports"}),  # Embase RIS JO/JF
        ("rayyan", {"journal": "Sci Rep"}),  # Rayyan: the abbreviation alone
        ("scopus", {"journal": "Scientific Reports", "abbreviated source title": "Sci. Rep."}),  # Scopus CSV
        ("medline", {"journal": "Nature communications", "journal_abbrev": "Nat Commun"}),  # MEDLINE JT/TA
        ("embase2", {"journal": "Nat. Commun.", "alternate_title2": "Nat.Commun.",
                     "alternate_title3": "Nature Communications"}),
        ("rayyan2", {"journal": "Nat Commun"}),
    ]
    found = names(records)
    assert {found[p] for p in ("embase", "rayyan", "scopus")} == {"Scientific Reports"}
    assert {found[p] for p in ("medline", "embase2", "rayyan2")} == {"Nature Communications"}


def test_the_issue_s_spellings_are_one_journal():
    records = [("a", {"journal": "Revista de Neuro-Psiquiatría"}),
               ("b", {"journal": "Rev. Neuro-Psiquiatr.", "abbreviated source title": "Rev. Neuro-Psiquiatr."}),
               ("c", {"journal": "Revista de Neuro-Psiquiatria", "abbreviated source title": "Rev. Neuro-Psiquiatr."}),
               ("d", {"journal": "AMERICAN JOURNAL OF SURGERY", "issn": "0002-9610"}),
               ("e", {"journal": "American journal of surgery", "periodical abbrev": "Am.J.Surg."})]
    found = names(records)
    assert found["a"] == found["b"] == found["c"] == "Revista de Neuro-Psiquiatría"
    assert found["d"] == found["e"] == "American journal of surgery"


def test_a_full_name_in_capitals_is_shown_before_any_abbreviation():
    # Web of Science tab-delimited (fixtures/real/tools/wos_tab_3.txt): SO, J9 and JI of one record
    found = journal_identities([("w", {"journal": "AMERICAN MIDLAND NATURALIST", "journal_abbrev": "AM MIDL NAT",
                                       "ji": "Am. Midl. Nat.", "issn": "0003-0031"})], alias_fields=["ji"])
    assert found.names == {"w": "AMERICAN MIDLAND NATURALIST"}
    assert set(found.spellings["AMERICAN MIDLAND NATURALIST"]) == {"AMERICAN MIDLAND NATURALIST", "AM MIDL NAT",
                                                                    "Am. Midl. Nat."}


def test_real_web_of_science_tab_export_shows_the_full_name_not_the_abbreviation():
    papers = [p for p in read_papers(REAL / "tools" / "wos_tab_3.txt") if isinstance(p, Paper)]
    found = journal_identities([(str(i), p.fields) for i, p in enumerate(papers)])
    assert "AMERICAN MIDLAND NATURALIST" in found.names.values()
    assert "Am. Midl. Nat." in found.spellings["AMERICAN MIDLAND NATURALIST"]


def test_a_subtitled_name_joins_its_bare_title_only_when_it_is_the_only_such_form():
    records = [("m", {"journal": "Cladistics : the international journal of the Willi Hennig Society"}),
               ("z", {"journal": "Cladistics"}),
               ("a", {"journal": "Addiction (Abingdon, England)", "issn": "13600443"}),
               ("b", {"journal": "Addiction"}),
               ("p1", {"journal": "Journal of Physics: Conference Series"}),
               ("p2", {"journal": "Journal of Physics: Condensed Matter"}),
               ("p3", {"journal": "Journal of Physics"})]
    found = names(records)
    assert found["m"] == found["z"] == "Cladistics" and found["a"] == found["b"] == "Addiction"
    assert len({found["p1"], found["p2"], found["p3"]}) == 3


def test_journals_that_only_look_alike_stay_apart():
    records = [  # distinct journals of the shared exports, and an abbreviation two journals' records share
        ("s1", {"journal": "Science and Children", "issn": "0036-8148"}),
        ("s2", {"journal": "Science & Education", "issn": "0926-7220"}),
        ("s3", {"journal": "SCIENCE", "issn": "0036-8075"}),
        ("f1", {"journal": "Frontiers in Psychology"}), ("f2", {"journal": "Frontiers in Behavioral Neuroscience"}),
        ("x1", {"journal": "Journal of anatomy", "issn": "0021-8782", "journal_abbrev": "J Anat"}),
        ("x2", {"journal": "Journal of neurology", "issn": "0340-5354", "journal_abbrev": "J Anat"}),  # a wrong pair
        ("sm1", {"journal": "Sports medicine - open"}), ("sm2", {"journal": "Sports medicine (Auckland, N.Z.)"}),
    ]
    found = names(records)
    assert len({found[p] for p in ("s1", "s2", "s3", "f1", "f2")}) == 5
    assert found["x1"] == "Journal of anatomy" and found["x2"] == "Journal of neurology"  # their ISSNs differ
    assert found["sm1"] != found["sm2"]


def test_a_paper_without_a_journal_keeps_none_and_an_isbn_joins_nothing():
    found = journal_identities([("isbn", {"issn": "0-86571-342-1"}), ("blank", {"journal": "  "}),
                                ("ok", {"journal": "NatureScope"})])
    assert found.names == {"ok": "NatureScope"}


def test_real_scopus_and_web_of_science_exports_of_one_journal_are_one_name():
    scopus = [p for p in read_papers(REAL / "scopus_3.ris") if isinstance(p, Paper)]
    wos = [p for p in read_papers(REAL / "wos_3.ciw") if isinstance(p, Paper)]
    records = [(f"s{i}", p.fields) for i, p in enumerate(scopus)] + [(f"w{i}", p.fields) for i, p in enumerate(wos)]
    before = {fields["journal"] for _, fields in records}
    found = journal_identities(records)
    assert "ECOSYSTEM HEALTH AND SUSTAINABILITY" in before and "Ecosystem Health and Sustainability" in before
    assert len(set(found.names.values())) == len({name_key(j) for j in before}) < len(before)
    assert "Ecosystem Health and Sustainability" in found.names.values()
    assert "ECOSYSTEM HEALTH AND SUSTAINABILITY" not in found.names.values()
    assert {"Ecosyst. Health Sustain.", "ECOSYSTEM HEALTH AND SUSTAINABILITY"} <= set(
        found.spellings["Ecosystem Health and Sustainability"])


# -- where labels are read: the map's legend and the journal vote ----------------------------
def _two_spellings() -> list[Paper]:
    """36 papers; the astro journal spelled as PubMed ('PloS one', 12 papers) and as Web of Science ('PLOS ONE')."""
    papers = make_papers()
    for i, paper in enumerate(papers):
        if paper.id.startswith("astro"):
            paper.fields["journal"] = "PloS one" if i % 2 else "PLOS ONE"
            paper.fields["issn"] = "1932-6203"
    return papers


def test_the_map_legend_shows_one_entry_for_two_spellings_and_the_stored_fields_keep_theirs(store: Store):
    store.import_papers("c", _two_spellings(), source="test")
    frame = store.papers_frame("c")
    fig = map_figure(np.zeros((len(frame), 2), np.float32), color=frame["journal"].tolist(), color_name="journal")
    entries = {t.name for t in fig.data if t.showlegend is not False and t.x is not None and len(t.x)}
    assert entries == {"PloS one", "J. Bio", "J. Econ"}
    stored = {p.fields["journal"] for p in store.papers("c")}
    assert {"PloS one", "PLOS ONE"} <= stored  # the round trip keeps what was exported
    assert set(store.papers_frame("c", stored_journals=True)["journal"]) == stored
    assert store.journal_identities("c").spellings["PloS one"] == ["PLOS ONE", "PloS one"]


def test_the_journal_vote_sees_one_journal_for_two_spellings(store: Store, tiny_model_dir):
    store.import_papers("c", _two_spellings(), source="test")
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, "c", "tiny")
    paper = make_papers()[0]
    pred = predict_journals(store, "tiny", title=paper.title, abstract=paper.abstract, corpus="c",
                            label_column="journal", k=5)
    labels = [p["label"] for p in pred.predictions]
    assert "PLOS ONE" not in labels and labels.count("PloS one") == 1
    assert set(labels) <= {"PloS one", "J. Bio", "J. Econ"}


@pytest.mark.skipif(not (EXPORTS / "RIS").exists(), reason="the shared exports are not present")
def test_five_databases_exports_in_one_corpus_show_each_journal_once(store: Store):
    from core.store.multi_import import import_files

    files = [EXPORTS / "RIS" / name for name in ("_baseline_pubmed.ris", "_baseline_webofscience.ris",
                                                 "_baseline_embase.ris", "_baseline_rayyan.ris")]
    import_files(store, [*files, EXPORTS / "CSV" / "_baseline_scopus.csv"], "five")
    journals = store.papers_frame("five")["journal"].dropna()
    keys = {name_key(j) for j in journals}
    assert len(set(journals)) == len(set(store.journal_identities("five").papers))
    assert "plos one" in keys and "peerj" in keys
    assert not {"sci rep", "nat commun", "anat rec", "bmc ecol evol"} & keys  # shown by their full names
    assert sum(1 for j in set(journals) if name_key(j) == "scientific reports") <= 1


def test_a_search_filter_may_name_a_journal_by_any_of_its_spellings(store: Store):
    from core.explore.documents import search_filters  # MCP's and the CLI's filters (qa14 moved them here)

    store.import_papers("c", _two_spellings(), source="test")
    wanted = search_filters(store, "c", {"journal": ["PLOS ONE", "J. Bio"], "year": ["2001"]})
    assert wanted == {"journal": ["PloS one", "J. Bio"], "year": ["2001"]}  # the names the frame holds


def test_a_journal_is_said_to_be_exported_under_several_spellings_only_when_its_journal_fields_differ():
    """PubMed's records carry the journal's name and, in another field, its MEDLINE abbreviation: the demo corpus's
    761 journals, each with one name in every record, were said to be '683 journals exported under several
    spellings'. The abbreviation still joins the journal (and is listed among its spellings)."""
    records = [("p1", {"journal": "Chemical science", "journal_abbrev": "Chem Sci"}),
               ("p2", {"journal": "Chemical science", "journal_abbrev": "Chem Sci"}),
               ("p3", {"journal": "PloS one", "journal_abbrev": "PLoS One"}),
               ("p4", {"journal": "PLOS ONE"}),
               ("p5", {"journal": "Sci Rep"}),
               ("p6", {"journal": "Scientific reports", "journal_abbrev": "Sci Rep"})]
    identities = journal_identities(records)
    assert identities.names["p5"] == identities.names["p6"] == "Scientific reports"
    assert identities.spellings["Chemical science"] == ["Chemical science", "Chem Sci"]
    joined = identities.joined()
    plos = identities.names["p3"]
    assert set(joined) == {plos, "Scientific reports"}, joined
    assert "PLOS ONE" in joined[plos] and "Sci Rep" in joined["Scientific reports"]


def test_a_bilingual_name_written_with_a_slash_is_its_title():
    """CINAHL names the Canadian Journal of Anesthesia "Canadian Journal of Anaesthesia / Journal Canadien
    d'Anesthésie"; MEDLINE, PubMed and Scopus "Canadian Journal of Anaesthesia" (wilddamon/cs-scoping-review's
    four exports of one search, round 18): the corpus showed two journals. A parallel title after " / " is cut as
    one after " = " is; a slash inside a name ("Cell/Tissue") is no parallel title."""
    assert stem_of("Canadian Journal of Anaesthesia / Journal Canadien d'Anesthésie") == \
        "Canadian Journal of Anaesthesia"
    assert stem_of("Tissue Engineering Part A/B") is None
    found = journal_identities([("1", {"journal": "Canadian Journal of Anaesthesia"}),
                                ("2", {"journal": "Canadian Journal of Anaesthesia / Journal Canadien d'Anesthésie"})])
    assert len(found.spellings) == 1
