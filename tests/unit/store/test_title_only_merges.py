"""A title-only paper stays findable after a merge fills it: a corpus exported to CSV, RIS and BibTeX and the three
exports imported back at once gave 61 papers for 60. The RIS record of 'Dimensions Database' (no abstract, no DOI, a
title too short for a title key) filled the CSV paper's note, and the paper's duplicate key was then recomputed from
its title and empty abstract alone, no longer the title-only key (title, year, first author, volume, issue, page)
that the BibTeX record was looked up by."""

from __future__ import annotations

from pathlib import Path

from core.store import Store, import_file, import_files

CSV = "title,abstract,authors,year\nDimensions Database,,Digital Science,2026\n"
RIS_WITH_NOTE = "TY  - JOUR\nTI  - Dimensions Database\nAU  - Digital Science\nPY  - 2026\nN1  - Accessed\nER  - \n"
BIB = "@misc{dim,\n  title = {Dimensions {Database}},\n  author = {Digital Science},\n  year = {2026}\n}\n"


def _files(tmp_path: Path) -> list[Path]:
    paths = []
    for name, text in (("a.csv", CSV), ("b.ris", RIS_WITH_NOTE), ("c.bib", BIB)):
        (path := tmp_path / name).write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def test_three_exports_of_one_title_only_paper_are_one_paper(tmp_path):
    store = Store(tmp_path / "ws")
    report = import_files(store, _files(tmp_path), "c", title_only=[True] * 3).to_dict()
    assert (report["read"], report["added"], report["merged"]) == (3, 1, 2), report
    assert store.corpus("c").papers == 1


def test_a_filled_title_only_paper_is_found_by_a_later_import(tmp_path):
    store = Store(tmp_path / "ws")
    csv, ris, bib = _files(tmp_path)
    import_file(store, csv, "c", title_only=True)
    filled = import_file(store, ris, "c", title_only=True).to_dict()
    assert filled["merged"] == 1 and filled["filled"] == 1, filled  # the RIS record gave the paper its note
    report = import_file(store, bib, "c", title_only=True).to_dict()
    assert (report["added"], report["merged"]) == (0, 1), report
    assert store.corpus("c").papers == 1


def test_two_title_only_papers_of_one_title_and_other_authors_stay_two_after_a_fill(tmp_path):
    store = Store(tmp_path / "ws")
    (one := tmp_path / "one.csv").write_text(CSV + "Dimensions Database,,Other Author,2026\n", encoding="utf-8")
    import_file(store, one, "c", title_only=True)
    (fill := tmp_path / "fill.ris").write_text(RIS_WITH_NOTE, encoding="utf-8")
    import_file(store, fill, "c", title_only=True)
    (other := tmp_path / "other.ris").write_text(RIS_WITH_NOTE.replace("Digital Science", "Other Author"),
                                                 encoding="utf-8")
    report = import_file(store, other, "c", title_only=True).to_dict()
    assert (report["added"], report["merged"]) == (0, 1), report
    assert store.corpus("c").papers == 2
