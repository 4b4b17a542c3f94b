"""Duplicates the rules kept apart and merges they made on too little (BENCHMARKS §25t): authors listed in another
order, generic titles without a place, Ovid's note tails, "Jr" after a family name, an impossible page range and
short titles at one place."""

from __future__ import annotations

from pathlib import Path

from core.records import Paper
from core.store import Store
from core.store.identity import match_keys, same_paper, title_key

_REPORT = ("A Project Focusing on Superintendents' Knowledge of Evidence-Based Practices of Structuring Time for "
           "Student Learning")


def _rule(a_title: str, a: dict, b_title: str, b: dict) -> str | None:
    return same_paper(a_title, a, match_keys(a_title, a), b_title, b, match_keys(b_title, b))[0]


def test_one_report_with_its_authors_in_another_order_is_one_paper() -> None:
    """DistillerSR's duplicate list (round 20, RefID 143/150): one report, its four authors listed in another
    order; no year in the file. The first authors differ, the family names are the same people."""
    husted = ["Husted, Jessica L.", "Davis, Derald E.", "Haniger, Jason T.", "Lewis, Jared R."]
    haniger = ["Haniger, Jason T.", "Davis, Derald E.", "Husted, Jessica L.", "Lewis, Jared R."]
    assert _rule(_REPORT, {"authors": husted}, _REPORT, {"authors": haniger}) == \
        "same title, year and authors (another order)"
    assert _rule(_REPORT, {"authors": husted, "year": "2019"}, _REPORT, {"authors": haniger, "year": "2019"}) == \
        "same title, year and authors (another order)"
    assert _rule(_REPORT, {"authors": husted, "year": "2019"}, _REPORT, {"authors": haniger, "year": "2021"}) is None
    other = ["Haniger, Jason T.", "Davis, Derald E.", "Husted, Jessica L.", "Moore, Ann"]  # one person differs
    assert _rule(_REPORT, {"authors": husted}, _REPORT, {"authors": other}) is None
    assert _rule(_REPORT, {"authors": ["Husted, J."]}, _REPORT, {"authors": ["Haniger, J."]}) is None


def test_one_report_with_one_author_left_out_and_the_others_in_another_order_is_one_paper() -> None:
    """DistillerSR's duplicate list, RefID 3023/123: 'Roling, Carter, Hull, Odneal' and 'Odneal, Carter, Hull',
    one report marked a duplicate by the review's screeners. Three names or more, the shorter list inside the
    longer, one name left out at most."""
    guide = "The school leader and policymaker's guide to a four-day school week: Considerations"
    four = ["Roling, Tim", "Carter, Gregory", "Hull, Lisa Suzanne", "Odneal, Becky"]
    assert _rule(guide, {"authors": four}, guide, {"authors": ["Odneal, Becky", "Carter, Gregory", "Hull, L. S."]}) \
        == "same title, year and authors (another order, one left out)"
    assert _rule(guide, {"authors": four}, guide, {"authors": ["Odneal, Becky", "Carter, Gregory"]}) is None
    assert _rule(guide, {"authors": four}, guide, {"authors": ["Odneal, Becky", "Carter, Gregory", "Moore, A."]}) \
        is None


def test_authors_in_another_order_merge_on_import(tmp_path: Path) -> None:
    store = Store(tmp_path / "ws")
    report = store.import_papers("d", [
        Paper("143", _REPORT, "This report describes a problem based learning project.",
              {"authors": ["Husted, Jessica L.", "Davis, Derald E.", "Haniger, Jason T.", "Lewis, Jared R."]}),
        Paper("150", _REPORT, "This report describes a problem based learning project on superintendents.",
              {"authors": ["Haniger, Jason T.", "Davis, Derald E.", "Husted, Jessica L.", "Lewis, Jared R."]}),
    ])
    assert (report.added, report.merged) == (1, 1)


def test_generic_titles_without_a_place_are_not_merged_by_title_alone(tmp_path: Path) -> None:
    """DistillerSR's title-only citation list (round 20): 'Editorial Board' and 'Issue Information' of different
    issues, no year, author, volume or pages, were one paper each. A generic title needs its place to merge; the
    same records imported again still merge (their own ids), and a place given merges as before."""
    store = Store(tmp_path / "ws")
    rows = [Paper(str(i), title, "", {}) for i, title in enumerate(
        ["Editorial Board", "Editorial Board", "Issue Information", "Issue Information", "ISSUE INFORMATION"])]
    report = store.import_papers("t", rows)
    assert (report.added, report.merged) == (5, 0)
    again = store.import_papers("t", rows)
    assert (again.added, again.merged) == (0, 5)
    place = {"year": "2020", "volume": "12", "issue": "3", "pages": "i-ii"}
    placed = store.import_papers("p", [Paper("a", "Editorial Board", "", dict(place)),
                                       Paper("b", "Editorial Board", "", dict(place))])
    assert (placed.added, placed.merged) == (1, 1)
    same_ids = [Paper("2059f045", "Editorial Board", "", {"refid": refid, "bibliography": f"(2023). Editorial Board "
                                                           f"Economics of Education Review, {volume}(), 1."})
                for refid, volume in ((3690, 97), (3776, 93), (3780, 92))]  # ids from the text: one for all
    hashed = store.import_papers("h", same_ids)
    assert (hashed.added, hashed.merged) == (3, 0)
    assert (store.import_papers("h", same_ids).merged, store.import_papers("h", same_ids[:1]).added) == (3, 0)
    yearly = store.import_papers("y", [Paper("a", "Editorial Board", "", {"year": "2020"}),
                                       Paper("b", "Editorial Board", "", {"year": "2020"})])
    assert (yearly.added, yearly.merged) == (2, 0)  # a year alone is not a place


def test_ovid_note_tails_are_not_the_title() -> None:
    """Ovid MEDLINE appends '[Erratum appears in …]' to a title; exports cut it off (no closing bracket) or nest
    brackets in it ('[added]]'): cytology 1470/1547, respiratory 1016/1218, haematology 52/117 of §25t."""
    title = ("Economic analysis of human papillomavirus triage, repeat cytology, and immediate colposcopy in "
             "management of women with minor cytological abnormalities in Sweden")
    assert title_key(title + ".[Erratum appears in Acta Obstet Gyneco") == title_key(title)
    fifth = "Anti-Factor H autoantibodies in a fifth renal transplant recipient with atypical HUS"
    assert title_key(fifth + ".[Erratum appears in Am J Transplant. 2009 Sep;9(9):2205 Note: Niauif, P [added]]."
                             "[Erratum") == title_key(fifth)
    assert title_key(fifth + " [Comment in: N Engl J Med. 2009;360:1]") == title_key(fifth)
    assert title_key("[Erratum appears in a journal of ours]") != ""  # a title that is only the note stays


def test_a_generational_suffix_is_not_the_family_name() -> None:
    """Respiratory 377/378: 'Lynch Jr, T. J.' and 'Lynch, T.': one first author, one place, a title and its
    longer form."""
    short = "Optimal therapy of malignant pleural effusions"
    long = short + ": Report of a randomized trial of bleomycin, tetracycline, and talc and a meta-analysis"
    place = {"year": "1996", "volume": "8", "pages": "183-190"}
    assert _rule(short, {**place, "authors": ["Lynch, T."]}, long, {**place, "authors": ["Lynch Jr, T. J."]}) == \
        "same first author, year, volume and pages"


def test_an_impossible_page_range_is_no_pages() -> None:
    """Haematology 196/197: '2297-2108' (a typing slip of 2097-2108) was a place that conflicted with 2097-2108."""
    title = "Disease recurrence in paediatric renal transplantation"
    one = {"year": "2009", "volume": "24", "issue": "11", "authors": ["Cochat, P."]}
    assert _rule(title, {**one, "pages": "2297-2108"}, title + ".", {**one, "pages": "2097-2108"}) == \
        "same title, year and first author"
    assert _rule(title, {**one, "pages": "1351-9"}, title, {**one, "pages": "2097-2108"}) is None  # '1351-1359'


def test_a_short_title_at_one_place_is_one_paper() -> None:
    """Respiratory 325/326 and 496/497: titles under 25 key characters never merge on title and year, but the
    same title at the same year, volume and page range, by the same first author, is one paper."""
    place = {"year": "2011", "volume": "16", "pages": "891-899"}
    assert _rule("Intrapleural therapy", {**place, "authors": ["Huggins, J. Terrill"]},
                 "Intrapleural therapy", {**place, "authors": ["Huggins, J. T."]}) == "same title, volume and pages"
    assert _rule("[Pleuritis carcinomatosa]", {**place, "authors": ["Miyanaga, A."]},
                 "Pleuritis carcinomatosa", {**place, "authors": ["Miyanaga, Akihiko"]}) == \
        "same title, volume and pages"
    assert _rule("Reply", {**place, "authors": ["Huggins, J."]}, "Reply",
                 {**place, "pages": "900-901", "authors": ["Huggins, J."]}) is None  # two places
    assert _rule("Reply", {"year": "2011", "authors": ["Huggins, J."]}, "Reply",
                 {"year": "2011", "authors": ["Huggins, J."]}) is None  # no place
    assert _rule("Reply", {**place, "authors": ["Huggins, J."]}, "Reply", {**place, "authors": ["Sahn, S."]}) is None


def test_an_older_workspace_gets_the_new_keys_once(tmp_path: Path) -> None:
    """Papers stored before §25t hold the title key with Ovid's tail, the author-year key of "Jr", and no place key
    for a short title: a workspace of keys version 2 gets them recomputed once, and later records find them."""
    import sqlite3

    store = Store(tmp_path / "ws")
    ovid = ("Thoracoscopic decortication vs tube thoracostomy with fibrinolysis for empyema in children.[Erratum "
            "appears in J Pediatr Surg. 2009 Sep;44(9):1865 Note: Rivard, Doug")
    place = {"year": "2011", "volume": "16", "pages": "891-899"}
    store.import_papers("c", [Paper("a", ovid, "", {"year": "2009", "authors": ["St Peter, S. D."]}),
                              Paper("b", "Intrapleural therapy", "", {**place, "authors": ["Huggins, J. T."]})])
    with sqlite3.connect(store.db_path) as conn:  # as version 2 stored them: the tail's key, no place key
        conn.execute("UPDATE paper_keys SET key = 'title:old' WHERE key LIKE 'title:%'")
        conn.execute("DELETE FROM paper_keys WHERE key LIKE 'place:%'")
        conn.execute("PRAGMA user_version = 2")
    store = Store(tmp_path / "ws")
    with sqlite3.connect(store.db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 3
        stored = {pid: {key for (key,) in conn.execute(
            "SELECT k.key FROM paper_keys k JOIN papers p ON p.corpus = k.corpus AND p.seq = k.seq WHERE p.pid = ?",
            (pid,))} for pid in ("a", "b")}
    assert stored["a"] == set(match_keys(ovid, {"year": "2009", "authors": ["St Peter, S. D."]}))
    assert stored["b"] == set(match_keys("Intrapleural therapy", {**place, "authors": ["Huggins, J. T."]}))
    assert any(key.startswith("place:") for key in stored["b"])


def test_one_correction_notice_in_two_databases_forms_is_one_paper_and_not_its_article() -> None:
    """Haematology 20/21 and 57/58: Web of Science's "Title (vol 360, pg 542, 2009)" and Embase's "[Erratum: ]Title
    (Journal (2009) 360 (542-544))", often cut off, are one notice's titles; the article's own title is another."""
    title = "Eculizumab for atypical hemolytic-uremic syndrome"
    wos, embase = f"{title} (vol 360, pg 542, 2009)", f"{title} (New England Journal of Medicine (2009) 360 (542-544))"
    cut = f"Erratum: {title} (The New England Journal of Medicine (M"
    assert title_key(wos) == title_key(embase) == title_key(cut) == title_key(f"Erratum: {title}")
    assert title_key(wos) != title_key(title)
    notice = {"year": "2009", "volume": "360", "issue": "23", "pages": "2487-2487", "authors": ["Philipp, T."]}
    assert _rule(wos, notice, embase, dict(notice)) == "same title, year and first author"
    for plain in ("A study of IL-6 (Interleukin 6 (IL6)) in children with sepsis",
                  "Severe deficiency of ADAMTS13 (ADAMTS 13) activity in a subgroup (of children)"):
        assert title_key(plain) == " ".join(plain.lower().replace("(", " ").replace(")", " ").replace("-", " ")
                                            .split())  # parentheses inside a title stay
