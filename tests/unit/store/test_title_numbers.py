"""Two titles that differ only in a number are two papers: "… study 0" and "… study 12", "Part I" and "Part II".
The fuzzy title rule (similarity ≥ 90) merged them when they shared a DOI — a DOI some databases give the wrong
paper (issue 40 §1: "a shared DOI is not proof of one paper"); a walk-through found two such papers merged."""

from __future__ import annotations

import pytest

from core.store.identity import titles_agree


@pytest.mark.parametrize(("a", "b"), [
    ("Effects of exercise on sleep quality in older adults: study 0",
     "Effects of exercise on sleep quality in older adults: study 12"),
    ("Management of chronic kidney disease. Part I: diagnosis", "Management of chronic kidney disease. Part II: diagnosis"),
    ("Outcomes of phase 2 trials of novel anticoagulants in atrial fibrillation",
     "Outcomes of phase 3 trials of novel anticoagulants in atrial fibrillation"),
    ("Global burden of disease study 2019: mortality in 204 countries",
     "Global burden of disease study 2017: mortality in 195 countries"),
])
def test_titles_that_differ_in_a_number_do_not_agree(a: str, b: str) -> None:
    assert not titles_agree(a, b)


@pytest.mark.parametrize(("a", "b"), [
    ("COVID-19 and the heart: a review", "Covid 19 and the heart: a review."),
    ("Management of chronic kidney disease. Part I: diagnosis", "Management of chronic kidney disease. Part 1: diagnosis"),
    ("Type II diabetes in adolescents", "Type 2 diabetes in adolescents"),
    ("What I learned from 20 years of surgery", "What I learned from 20 years of surgery [Spanish]"),
    ("Effects of exercise on sleep quality in older adults", "Effects of excercise on sleep quality in older adults"),
])
def test_the_same_title_in_two_spellings_still_agrees(a: str, b: str) -> None:
    assert titles_agree(a, b)


def test_one_doi_on_two_numbered_studies_keeps_both_and_says_why(tmp_path) -> None:
    """The walk-through's case, through the import: two records with one DOI, titles alike but for their number."""
    from core.records import Paper
    from core.store import Store

    titles = ["Effects of exercise on sleep quality in older adults: study 0",
              "Effects of exercise on sleep quality in older adults: study 12"]
    papers = [Paper(id=f"r{k}", title=t, abstract=f"Abstract of a different study, number {k}.",
                    fields={"doi": "10.1000/shared"}) for k, t in enumerate(titles)]
    store = Store(tmp_path / "ws")
    report = store.import_papers("c", iter(papers), source="two.ris")
    assert (report.added, report.merged) == (2, 0)
    assert sorted(p.title for p in store.papers("c")) == titles
