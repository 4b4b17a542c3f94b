"""When two records are one paper (core.store.identity), what a merge keeps (core.store.provenance), and the
four-number invariant of every import: records read = added + merged + skipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import read_papers
from core.records import Paper
from core.store import Store, import_file, import_files
from core.store.identity import external_ids, same_paper, title_form, title_key
from core.store.provenance import database_of, merges, overlap, paper_sources, split_record

EXPORTS = Path("/work/shared/data/exports") if Path("/work/shared/data/exports").is_dir() else \
    Path(__file__).resolve().parents[4] / "shared" / "data" / "exports"
needs_exports = pytest.mark.skipif(not EXPORTS.is_dir(), reason="the shared exports are not on this machine")


def _papers(path: Path) -> list[Paper]:
    return [p for p in read_papers(path) if isinstance(p, Paper)]


# -- the title forms databases write ------------------------------------------------------------------------
@pytest.mark.parametrize(("given", "plain"), [
    ("Cognitive disorders in stroke; [Kognitive Störungen nach Schlaganfall]", "Cognitive disorders in stroke"),
    ("[Cognitive disorders and its correction in the acute period of ischemic stroke]. [Russian]",
     "Cognitive disorders and its correction in the acute period of ischemic stroke"),
    ("[Clinical aspects of the complement system]. [Japanese]", "Clinical aspects of the complement system"),
    ("Update on the diagnosis and treatment of human papillomavirus infection. [Review] [33 refs]",
     "Update on the diagnosis and treatment of human papillomavirus infection"),
    ("An [18F]-NaF PET/CT Study", "An [18F]-NaF PET/CT Study"),  # brackets inside a title stay
])
def test_known_title_forms_compare_as_the_title(given: str, plain: str) -> None:
    assert title_key(given) == title_key(plain)
    assert "[" not in title_form(given) or "[18F]" in given


def test_ids_come_from_fields_and_from_an_id_column_that_names_them() -> None:
    ids = external_ids({"doi": "https://doi.org/10.1038/X1", "eid": "2-s2.0-85189760133", "pmc": "PMC123"},
                       "WOS:000282053100002")
    assert ids == {"doi": "10.1038/x1", "eid": "85189760133", "pmcid": "PMC123", "wos": "000282053100002"}
    assert external_ids({}, "30922926", "PMID") == {"pmid": "30922926"}
    assert external_ids({}, "176404503") == {}  # a bare number is nobody's PMID unless its column says so
    assert external_ids({"doi": "10.48550/arXiv.2101.00001"})["arxiv"] == "2101.00001"


# -- the rules -----------------------------------------------------------------------------------------------
def test_one_doi_on_two_different_papers_keeps_both_and_says_so(tmp_path: Path) -> None:
    """Web of Science gave different papers one DOI: both stay, and the report lists them (real titles)."""
    first, second = _papers(Path(__file__).resolve().parents[2] / "fixtures" / "real" / "wos_3.ris")[:2]
    second.fields["doi"] = first.fields["doi"]
    store = Store(tmp_path / "ws")
    report = store.import_papers("w", [first, second])
    assert (report.added, report.merged) == (2, 0)
    shared = [c for c in report.conflicts if c.get("kind") == "shared id"]
    assert len(shared) == 1 and "one DOI on different papers" in shared[0]["reason"]
    assert shared[0]["other"] == first.id


def test_same_pmid_with_scopus_original_title_is_one_paper(tmp_path: Path) -> None:
    """PubMed's record (a real MEDLINE file) and Scopus' (its title with '; [original-language title]', the
    abstract with a copyright line): one paper, merged by PMID and title, not kept as 'another paper'."""
    medline = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "pubmed_3.txt"
    first = _papers(medline)[0]
    scopus = Paper("2-s2.0-85018", first.title.rstrip(".") + "; [Unterschiede im Nitrat- und Phosphorexport]",
                   first.abstract + " © 2017 Elsevier Ltd. All rights reserved.",
                   {"pubmed id": first.id, "year": "2017", "authors": ["Neilen, A.D.", "Chen, C.R."]})
    store = Store(tmp_path / "ws")
    import_file(store, medline, "c")
    report = import_file(store, [scopus], "c", source="scopus.csv")
    assert (report.added, report.merged, report.conflicts) == (0, 1, [])
    assert report.merges == [{"row": 1, "id": "2-s2.0-85018", "into": first.id, "rule": "same PMID and title"}]
    assert store.paper("c", first.id).abstract == first.abstract  # the first record's text stays


def test_same_title_is_not_the_same_paper_when_year_author_or_pages_differ() -> None:
    title = "Atypical hemolytic uremic syndrome in children and adults"
    keys = ("title:" + title_key(title),)
    a = {"year": "2009", "authors": ["Noris, M."], "start_page": "1676"}
    assert same_paper(title, a, keys, title, {"year": "2011", "authors": ["Loirat, C."]}, keys) == (None, None)
    assert same_paper(title, a, keys, title, {"year": "2009", "authors": ["Noris, M"], "start_page": "12"},
                      keys) == (None, None)
    assert same_paper(title, a, keys, title + ".", {"year": "2009", "authors": ["Noris M"]}, keys)[0] == \
        "same title, year and first author"


def _rule(a_title: str, a: dict, b_title: str, b: dict) -> str | None:
    from core.store.identity import match_keys

    return same_paper(a_title, a, match_keys(a_title, a), b_title, b, match_keys(b_title, b))[0]


def test_export_spellings_of_one_record_are_one_paper() -> None:
    """Misses of the ASySD sets (BENCHMARKS §25): letters NFKD keeps ('Sørensen'), encodings that lost them
    ('Ta?a?aj'), swapped name parts, a single page inside a range, an article number beside printed pages."""
    title = "Treatment of malignant pleural exudates with talcum instillation and pleural drainage"
    base = {"year": "1984", "volume": "146", "pages": "1485-1487"}
    assert _rule(title, {**base, "authors": ["Sørensen, P. G."]}, title, {**base, "authors": ["Sorensen, P. G."]})
    assert _rule(title, {**base, "authors": ["Talalaj, J."]}, title, {**base, "authors": ["Ta?a?aj, J."]})
    assert _rule(title, {**base, "authors": ["Wu, Ching-yi"]}, title, {**base, "authors": ["Ching-yi, Wu"]})
    assert _rule(title, {**base, "authors": ["Xi, L F"]}, title, {**base, "authors": ["Long, F X"]}) == \
        "same title, volume and pages"
    one = {"year": "2011", "authors": ["Benoy, I H"], "volume": "205"}
    assert _rule(title, {**one, "pages": "569"}, title, {**one, "pages": "567-569"})
    assert _rule(title, {**one, "pages": "1-6"}, title, {**one, "pages": "e12724"})
    assert _rule(title, {**one, "pages": "64-68"}, title, {**one, "pages": "108-113"}) is None  # two places


def test_a_translated_title_at_one_place_is_one_paper_but_not_across_issues() -> None:
    english = "Antibiotic prophylaxis in pulmonary surgery. A controlled double-blind study"
    french = "[Comparison of amoxicillin and cefamandole in the prevention of bronchopulmonary infections]"
    a = {"year": "1994", "authors": ["Train, M."], "volume": "13", "pages": "280-284"}
    assert _rule(english, a, french, dict(a)) == "same first author, year, volume and pages"
    assert _rule(english, {**a, "issue": "1"}, french, {**a, "issue": "2"}) is None  # pages restart each issue
    assert _rule(english, a, french, {**a, "pages": "280"}) is None  # one page is not a place


def test_titles_only_records_with_one_generic_title_stay_apart(tmp_path: Path) -> None:
    """'Editorial' in two issues: without abstracts the text rule needs the year, author and issue too."""
    store = Store(tmp_path / "ws")
    report = store.import_papers("e", [
        Paper("a", "Editorial", "", {"year": "2001", "authors": ["Avison, D."], "volume": "16", "issue": "1"}),
        Paper("b", "Editorial", "", {"year": "2001", "authors": ["Avison, D."], "volume": "16", "issue": "2"}),
        Paper("c", "Editorial", "", {"year": "2001", "authors": ["Avison, D."], "volume": "16", "issue": "2"}),
    ])
    assert (report.added, report.merged) == (2, 1)


# -- provenance, undo, overlap -------------------------------------------------------------------------------
def _two_databases(tmp_path: Path) -> tuple[Store, str]:
    store = Store(tmp_path / "ws")
    title = "Anti-Factor H autoantibodies in a fifth renal transplant recipient with atypical HUS"
    pubmed = Paper("19", title, "PubMed's abstract of it.", {"doi": "10.1/ahus", "year": "2009",
                                                             "authors": ["Le Quintrec M"]})
    scopus = Paper("2-s2.0-1", title.upper(), "Scopus' abstract of it. © 2009 Elsevier.",
                   {"doi": "10.1/AHUS", "year": "2009", "authors": ["Le Quintrec, M."], "volume": "9",
                    "keywords": ["aHUS"]})
    other = Paper("20", "A different paper on eculizumab dosing in children", "Its abstract.", {"year": "2010"})
    import_file(store, [pubmed, other], "lib", source="pubmed_export.txt")
    import_file(store, [scopus], "lib", source="scopus_export.csv")
    return store, title


def test_a_paper_lists_every_record_it_came_from_and_a_merge_can_be_undone(tmp_path: Path) -> None:
    store, _ = _two_databases(tmp_path)
    with store.connect() as conn:
        sources = paper_sources(conn, "lib", "19")
        assert [(s.file, s.row, s.database, s.id, s.rule) for s in sources] == [
            ("pubmed_export.txt", 1, "PubMed", "19", "added"),
            ("scopus_export.csv", 1, "Scopus", "2-s2.0-1", "same DOI and title")]
        assert [m["into"] for m in merges(conn, "lib")] == ["19"]
    paper = store.paper("lib", "19")
    assert paper.fields["volume"] == "9" and paper.fields["keywords"] == ["aHUS"]  # filled from Scopus
    version = store.corpus("lib").version
    with store.transaction() as conn:
        new_id = split_record(conn, "lib", sources[1].record)
    assert new_id == "2-s2.0-1"
    back = store.paper("lib", "2-s2.0-1")
    assert back.abstract == "Scopus' abstract of it. © 2009 Elsevier."  # the merged-away text was kept whole
    paper = store.paper("lib", "19")
    assert "volume" not in paper.fields and "keywords" not in paper.fields  # what it took, given back
    assert store.corpus("lib").version != version  # maps and embeddings see a new corpus version
    with store.connect() as conn:
        assert merges(conn, "lib") == []
        assert [s.rule for s in paper_sources(conn, "lib", "19")] == ["added"]


def test_identical_records_cannot_be_split(tmp_path: Path) -> None:
    store = Store(tmp_path / "ws")
    store.import_papers("t", [Paper("a", "Same title here", "Same abstract."),
                              Paper("b", "Same Title here", "Same  abstract.")])
    with store.connect() as conn:
        record = merges(conn, "t")[0]["record"]
    with pytest.raises(CorpusError, match="could not be told apart"), store.transaction() as conn:
        split_record(conn, "t", record)


def test_overlap_counts_papers_per_database(tmp_path: Path) -> None:
    store, _ = _two_databases(tmp_path)
    with store.connect() as conn:
        summary = overlap(conn, "lib")
    assert summary["total"] == 2
    assert summary["papers"] == {"PubMed": 2, "Scopus": 1}
    assert summary["unique"] == {"PubMed": 1, "Scopus": 0}
    assert summary["by_count"] == {1: 1, 2: 1}
    assert summary["pairs"] == {("PubMed", "Scopus"): 1}


@pytest.mark.parametrize(("file", "database"), [
    ("_baseline_scopus.ris", "Scopus"), ("savedrecs.txt", "Web of Science"), ("pubmed-dinosaur-set.txt", "PubMed"),
    ("_baseline_psychInfo_ovid.ris", "PsycInfo"), ("my_library.bib", "my_library.bib"),
    ("_baseline_googlescholar.csv", "Google Scholar"), ("_baseline_eric_ovid.ris", "ERIC"),
])
def test_a_files_database_is_read_from_its_name(file: str, database: str) -> None:
    assert database_of(file) == database


def test_an_inspire_record_names_inspire_even_when_the_file_does_not() -> None:
    """INSPIRE-HEP's records (core/io/inspire.py) say their database; the overlap view named the file instead."""
    assert database_of("literature.json", {"database": "INSPIRE-HEP", "inspire": "788797"}) == "INSPIRE-HEP"
    assert database_of("literature.json", {"inspire": "788797"}) == "INSPIRE-HEP"
    assert database_of("inspire_arxiv_search.json") == "INSPIRE-HEP"


# -- every record accounted for ------------------------------------------------------------------------------
@needs_exports
def test_every_shared_export_adds_up_alone_and_together(tmp_path: Path) -> None:
    """records read = added + merged + skipped, for each file and for all 43 imported as one search."""
    files = sorted(p for p in EXPORTS.glob("*/*") if p.suffix in {".csv", ".ris", ".tsv", ".xlsx"})
    assert len(files) == 43
    store = Store(tmp_path / "ws")
    report = import_files(store, files, "all", title_only=True)
    doc = report.to_dict()
    for one in doc["files"]:
        assert one["read"] == one["added"] + one["merged"] + one["skipped"], one["file"]
        assert len(one["merges"]) == one["merged"]
    assert doc["imported"] + doc["skipped"] == sum(f["read"] for f in doc["files"])
    with store.connect() as conn:
        papers = conn.execute("SELECT COUNT(*) FROM papers WHERE corpus = 'all'").fetchone()[0]
        kept = conn.execute("SELECT COUNT(*) FROM merged_records WHERE corpus = 'all'").fetchone()[0]
    assert papers == doc["added"] and kept == doc["merged"]  # every merged record is kept, none lost
    rules = json.dumps([f["merge_rules"] for f in doc["files"]])
    assert "same DOI and title" in rules and "same title and abstract" in rules


def test_an_older_workspace_gets_its_folded_title_keys_once(tmp_path: Path) -> None:
    """Title keys of non-ASCII titles changed (ø folds to o): a workspace made before finds such papers again."""
    import sqlite3

    from core.store.identity import match_keys

    title = "Randomized trial of doxorubicin versus cyclophosphamide in diffuse malignant pleural mesothelioma"
    store = Store(tmp_path / "ws")
    store.import_papers("c", [Paper("a", title.replace("pleural", "pleurål"), "One abstract.",
                                    {"authors": ["Sørensen, P. G."], "year": "1985"})])
    with sqlite3.connect(store.db_path) as conn:  # as an older version stored it: another title key, version 0
        conn.execute("UPDATE paper_keys SET key = 'title:old' WHERE key LIKE 'title:%'")
        conn.execute("PRAGMA user_version = 0")
    store = Store(tmp_path / "ws")
    with store.connect() as conn:
        keys = {r[0] for r in conn.execute("SELECT key FROM paper_keys WHERE corpus = 'c'")}
    expected = match_keys(title.replace("pleural", "pleurål"), {"authors": ["Sørensen, P. G."], "year": "1985"}, "a")
    assert "title:old" not in keys and set(expected) <= keys


@pytest.mark.parametrize("title", ["Series Preface", "Editorial", "Front matter", "Contents", "Index"])
def test_generic_front_matter_with_different_dois_stays_two_papers(tmp_path, title: str) -> None:
    """Two books' "Series Preface" (or two issues' "Editorial", "Front matter", "Contents", "Index"): the same text,
    no abstract (title-only records) and no author, but two DOIs. The text rule (same title and abstract, or for a
    record without one: title, year, first author, volume, issue, first page) merged them into one paper."""
    from core.records import Paper
    from core.store import Store

    store = Store(tmp_path / "ws")
    records = [Paper(f"r{i}", title, "", {"doi": doi, "year": 2016, "journal": "Wiley Series", "title_only": True})
               for i, doi in enumerate(["10.1002/9781118900000.fmatter", "10.1002/9781119000001.fmatter"])]
    report = store.import_papers("c", records)
    assert (report.added, report.merged) == (2, 0)
    again = store.import_papers("c", records)  # each is still the duplicate of itself
    assert (again.added, again.merged, store.corpus("c").papers) == (0, 2, 2)


def test_generic_front_matter_with_one_doi_still_merges(tmp_path) -> None:
    """The same "Editorial" from two databases, one with its DOI and one without: one paper, as before."""
    from core.records import Paper
    from core.store import Store

    store = Store(tmp_path / "ws")
    fields = {"year": 2016, "journal": "Lancet", "volume": "3", "title_only": True}
    report = store.import_papers("c", [Paper("a", "Editorial", "", {**fields, "doi": "10.1016/x.1"}),
                                       Paper("b", "Editorial", "", dict(fields))])
    assert (report.added, report.merged) == (1, 1)


def test_a_generic_title_with_one_abstract_and_different_dois_stays_two_papers(tmp_path) -> None:
    """Front matter whose boilerplate "abstract" is the same in two books, under two DOIs: two papers."""
    from core.records import Paper
    from core.store import Store

    store = Store(tmp_path / "ws")
    text = "This chapter contains sections titled: Series Preface"
    report = store.import_papers("c", [Paper("a", "Series Preface", text, {"doi": "10.1002/a.fmatter"}),
                                       Paper("b", "Series Preface", text, {"doi": "10.1002/b.fmatter"})])
    assert (report.added, report.merged) == (2, 0)


def test_generic_front_matter_with_different_pmids_from_the_id_column_stays_two_papers(tmp_path) -> None:
    """The same when the strong ids are PMIDs read from a PMID id column (kept as match keys, not as fields), the
    second in a later import: the stored paper's PMID is in its keys only."""
    from core.store import Store

    store = Store(tmp_path / "ws")
    for name, pmid in (("a.csv", "11111111"), ("b.csv", "22222222")):
        (tmp_path / name).write_text(f"PMID,Title,Abstract,Year\n{pmid},Editorial,,2016\n", encoding="utf-8")
    assert import_file(store, tmp_path / "a.csv", "c", title_only=True).added == 1
    second = import_file(store, tmp_path / "b.csv", "c", title_only=True)
    assert (second.added, second.merged, store.corpus("c").papers) == (1, 0, 2)
    again = import_file(store, tmp_path / "b.csv", "c", title_only=True)  # still the duplicate of itself
    assert (again.added, again.merged, store.corpus("c").papers) == (0, 1, 2)


def test_one_title_in_different_issues_of_a_volume_is_several_papers() -> None:
    """A column printed in every issue ('Editor's Comments', MIS Quarterly 24(1)–24(4), no pages) is one paper an
    issue (the digital_work set's false merges, BENCHMARKS §25k); issues that differ where the pages agree are an
    export's wrong issue (PNAS 104(1) and 104(25), pages 240-245 and 240), still one paper."""
    title = "Remarks from MIS Quarterly Editor - Editor's Comments"
    issue = {"year": "2000", "authors": ["Lee, Allen S."], "journal": "MIS Quarterly", "volume": "24"}
    assert _rule(title, {**issue, "issue": "1"}, title, {**issue, "issue": "2"}) is None
    assert _rule(title, {**issue, "issue": "1"}, title, {**issue, "issue": "1"}) == \
        "same title, year and first author"
    assert _rule(title, {**issue, "issue": "1"}, title, issue) == "same title, year and first author"
    pnas = "Gain-of-function mutations in complement factor B are associated with atypical hemolytic uremic syndrome"
    a = {"year": "2007", "authors": ["de Jorge, E. G."], "volume": "104", "issue": "1", "pages": "240-245"}
    assert _rule(pnas, a, pnas, {**a, "issue": "25", "pages": "240-240"}) == "same title, year and first author"


def test_a_volume_with_its_supplement_is_that_volume() -> None:
    """Ovid MEDLINE RIS writes a supplement into the volume ('VL  - 129 Suppl 1', as PubMed's VI), Scopus RIS into
    the issue ('VL  - 129', 'IS  - SUPPL. 1'): one paper (MaxenceOuafik/MSM-Syndemic-Scoping-Review's medline.ris and
    scopus.ris, round 17: it stayed two, volume '1' against '129'). A volume that is another number still differs."""
    title = "Epidemiology of the viral hepatitis-HIV syndemic in San Francisco: a collaborative surveillance approach."
    ovid = {"year": "2014", "authors": ["Sanchez, Melissa A"], "volume": "129 Suppl 1", "start_page": "95",
            "end_page": "101"}
    scopus = {"year": "2014", "authors": ["Sanchez, M.A."], "volume": "129", "number": "SUPPL. 1",
              "start_page": "95", "end_page": "101"}
    assert _rule(title, ovid, title.rstrip("."), scopus) == "same title, year and first author"
    for volume in ("12 Pt 2", "12 Suppl", "12 Supplement 3", "12 Spec No", "12(Suppl 2)"):
        assert _rule(title, {**ovid, "volume": volume}, title, {**scopus, "volume": "12"}), volume
    assert _rule(title, {**ovid, "volume": "130 Suppl 1"}, title, scopus) is None
    assert _rule(title, {**ovid, "volume": "Drug Discovery. 9"}, title, {**scopus, "volume": "9"})


def test_a_number_run_into_its_unit_is_the_same_number() -> None:
    """Scopus writes Elsevier's thin space as nothing ("over 12years", litsearchr's scopus_final.bib, round 17),
    Web of Science as a space: under one DOI the two titles were "one DOI on different papers" (12 against no
    number). A number run into a unit is that number; another number is still another paper."""
    wos = ("Trends in bird diversity over 12 years in response to large-scale eucalypt plantation establishment: "
           "Implications for extensive carbon plantings")
    scopus = wos.replace("12 years", "12years")
    a = {"year": "2014", "authors": ["Law, Bradley S."], "doi": "10.1016/j.foreco.2014.02.032"}
    b = {"year": "2014", "authors": ["Law, B.S."], "doi": "10.1016/j.foreco.2014.02.032", "volume": "322"}
    assert _rule(wos, a, scopus, b) == "same DOI and title"
    assert _rule(wos, {**a, "doi": None}, scopus, {**b, "doi": None}) == "similar title, same year and first author"
    assert _rule(wos, {**a, "doi": None}, wos.replace("12 years", "14years"), {**b, "doi": None}) is None


def test_a_merge_gives_a_paper_with_a_broken_doi_the_records_valid_one_and_undo_gives_it_back(tmp_path) -> None:
    """ProQuest RIS (MaxenceOuafik/MSM-Syndemic-Scoping-Review's proquest.ris, record 57) wrote one DOI without its
    punctuation, "DO  - http://dx.doi.org/101521aeap2012243193"; record 60, the same paper from another ProQuest
    database, "http://dx.doi.org/10.1521/aeap.2012.24.3.193". The merged paper kept the broken text as its DOI (no
    link, no DOI in exports). Now it takes the valid DOI and keeps the broken text as ``doi_as_exported``; undoing
    the merge gives the broken text back."""
    title = "Resilience, Syndemic Factors, and Serosorting Behaviors among HIV-Positive and HIV-Negative MSM"
    broken = Paper("1019919887", title, "Serosorting is commonly employed by MSM to reduce HIV risk.",
                   {"doi": "http://dx.doi.org/101521aeap2012243193", "year": 2012, "authors": ["Kurtz, Steven P."]})
    valid = Paper("1019007389", title, "Serosorting is commonly employed by MSM to reduce HIV risk (ProQuest).",
                  {"doi": "http://dx.doi.org/10.1521/aeap.2012.24.3.193", "year": 2012,
                   "authors": ["Kurtz, Steven P."]})
    store = Store(tmp_path / "ws")
    store.import_papers("t", [broken, valid])
    paper = store.paper("t", "1019919887")
    assert paper.fields["doi"] == "http://dx.doi.org/10.1521/aeap.2012.24.3.193"
    assert paper.fields["doi_as_exported"] == "http://dx.doi.org/101521aeap2012243193"
    with store.connect() as conn:
        assert conn.execute("SELECT doi FROM papers WHERE pid = '1019919887'").fetchone()[0] == \
            "10.1521/aeap.2012.24.3.193"
        record = merges(conn, "t")[0]["record"]
    with store.transaction() as conn:
        split_record(conn, "t", record)
    paper = store.paper("t", "1019919887")
    assert paper.fields["doi"] == "http://dx.doi.org/101521aeap2012243193"
    assert "doi_as_exported" not in paper.fields
    assert store.paper("t", "1019007389").fields["doi"] == "http://dx.doi.org/10.1521/aeap.2012.24.3.193"


def test_a_number_written_with_or_without_a_space_before_its_unit_is_the_same_number() -> None:
    """MEDLINE (Ovid) writes "body mass index >=50kg/m2", PubMed ">=50 kg/m(2)"; Scopus "ketorolac 15mg versus
    30mg", PubMed "15 mg versus 30 mg" (wilddamon/cs-scoping-review's exports of one search, round 18): under one
    DOI and PMID the titles were "one DOI on different papers" and the paper was kept twice, because a number run
    into a two-letter unit ("50kg") is no number. Titles that differ only in their spaces hold the same numbers."""
    medline = ("Neuraxial labor analgesia failure rates in women with a body mass index >=50kg/m2: a single-center "
               "retrospective cohort study")
    pubmed = medline.replace("50kg/m2", "50 kg/m(2)")
    a = {"year": "2021", "authors": ["Arnolds, D"], "doi": "10.1016/j.ijoa.2021.103176"}
    b = {"year": "2021", "authors": ["Arnolds, D"], "doi": "10.1016/j.ijoa.2021.103176"}
    assert _rule(medline, a, pubmed, b) == "same DOI and title"
    scopus = "Intra-operative ketorolac 15mg versus 30mg for analgesia following cesarean delivery"
    assert _rule(scopus, a, scopus.replace("15mg versus 30mg", "15 mg versus 30 mg"), b) == "same DOI and title"
    assert _rule(scopus, {**a, "doi": None}, scopus.replace("15mg", "25 mg"), {**b, "doi": None}) is None
    # PubMed transliterates µg as "mug" ("morphine 150mug"), Scopus and CINAHL lost the µ ("150mg"): one number
    pubmed = "A prospective study of post-cesarean delivery hypoxia after spinal anesthesia with intrathecal morphine"
    assert _rule(f"{pubmed} 150mug", a, f"{pubmed} 150mg", b) == "same DOI and title"
    assert _rule(f"{pubmed} 150mg", {**a, "doi": None}, f"{pubmed} 100mg", {**b, "doi": None}) is None


def test_a_correction_notice_under_its_articles_doi_is_not_that_article() -> None:
    """APA PsycInfo (EBSCOhost XML, wilddamon/cs-scoping-review, records 202 and 353) gives an erratum the DOI of
    the article it corrects: "'Association of maternal eating disorders with pregnancy and neonatal outcomes':
    Correction." (pages 328) was merged into the article (pages 285-293) by "same DOI and title", its part before
    the colon agreeing. A title that is the other's with only a notice's words added (correction, erratum,
    retraction, reply…) is the notice, another paper; the shared DOI is reported."""
    article = "Association of maternal eating disorders with pregnancy and neonatal outcomes."
    erratum = "'Association of maternal eating disorders with pregnancy and neonatal outcomes': Correction."
    a = {"year": "2020", "authors": ["Mantel, Ängla"], "doi": "10.1001/jamapsychiatry.2019.3664", "pages": "285-293"}
    b = {"year": "2020", "authors": [], "doi": "10.1001/jamapsychiatry.2019.3664", "pages": "328-328"}
    assert _rule(article, a, erratum, b) is None
    assert _rule(article, a, f"Correction to: {article}", b) is None
    assert _rule(article, a, f"Retraction Note: {article}", b) is None
    # a subtitle one database left out still merges, and a notice word both titles hold changes nothing
    assert _rule(article, a, article.rstrip(".") + ": a Swedish cohort study.", b) == "same DOI and title"
    corrected = "Surgical correction of scoliosis in adolescents: long-term outcomes"
    assert _rule(corrected, a, "Surgical correction of scoliosis in adolescents", b) == "same DOI and title"
