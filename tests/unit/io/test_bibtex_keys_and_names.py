"""Issue 40: a BibTeX citation key is an id like any other, not proof of one paper (Scopus, Web of Science and
Mendeley write author-year keys that different papers share), and capitalised field names (Web of Science's
``Author``, ``Title``, ``Keywords``) are read as their lower-case fields, authors split into a list. Real exports in
tests/fixtures/real (SOURCES.md)."""

from __future__ import annotations

from pathlib import Path

from core.io import read_papers
from core.records import Paper, RowError
from core.store import import_file

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "real"
SAME_KEY = REAL / "scopus_samekey_16.bib"  # 16 papers; rows 9, 14 and 16 are three different papers keyed Liu2022


def _read(path: Path, **kwargs) -> tuple[list[Paper], list[RowError]]:
    items = list(read_papers(path, **kwargs))
    return [i for i in items if isinstance(i, Paper)], [i for i in items if isinstance(i, RowError)]


def test_every_entry_of_a_scopus_bibtex_with_shared_keys_is_read_with_its_key_as_id() -> None:
    stream = read_papers(SAME_KEY, title_only=True)
    items = list(stream)
    papers = [i for i in items if isinstance(i, Paper)]
    assert [i for i in items if isinstance(i, RowError)] == []
    assert len(papers) == 16 and stream.id_column == "key"
    liu = [p for p in papers if p.id == "Liu2022"]
    assert len(liu) == 3 and len({p.title for p in liu}) == 3 and len({p.fields["doi"] for p in liu}) == 3
    assert liu[1].title.startswith("Interactive Effects of Epichloë Endophytes and Arbuscular Mycorrhizal")
    assert liu[1].fields["authors"][:2] == ["Liu, H.", "Tang, H."]


def test_papers_sharing_a_key_are_all_imported_and_listed_as_conflicts(store) -> None:
    report = import_file(store, SAME_KEY, "scopus", title_only=True)
    assert (report.added, report.merged, report.skipped) == (16, 0, 0)
    assert [(c["row"], c["id"], c["kept_as"]) for c in report.conflicts] == [
        (14, "Liu2022", "Liu2022~14"), (16, "Liu2022", "Liu2022~16")]
    assert "title and abstract differ" in report.conflicts[0]["reason"]
    assert store.corpus("scopus").papers == 16


def test_the_same_entry_twice_under_one_key_is_one_paper(tmp_path: Path, store) -> None:
    entry = "@article{Smith2020, title={Soil fauna}, abstract={Fauna of soils.}, author={Smith, A. and Roe, B.}}\n"
    bib = tmp_path / "twice.bib"
    bib.write_text(entry + "\n" + entry, encoding="utf-8")
    papers, errors = _read(bib)
    assert errors == [] and [p.id for p in papers] == ["Smith2020", "Smith2020"]
    report = import_file(store, bib, "c")
    assert (report.added, report.merged, report.conflicts) == (1, 1, [])


def test_an_entry_with_a_repeated_field_and_a_repeated_key_is_still_read(tmp_path: Path) -> None:
    bib = tmp_path / "both.bib"
    bib.write_text("@misc{a, title={T1}, abstract={A1}}\n@misc{a, title={T2}, abstract={A2}, note={x}, note={y}}\n",
                   encoding="utf-8")
    papers, errors = _read(bib)
    assert errors == []
    assert [(p.id, p.title) for p in papers] == [("a", "T1"), ("a", "T2")]
    assert papers[1].fields["note"] == "x" and papers[1].fields["note_2"] == "y"


def test_web_of_science_bibtex_capitalised_fields_give_an_author_list_and_clean_keywords() -> None:
    papers, errors = _read(REAL / "wos_bibtex_4.bib")
    assert errors == [] and len(papers) == 4
    first = papers[0]
    assert first.id == "WOS:000719584000015"
    assert first.fields["authors"] == ["Figueira, Jose Rui", "Greco, Salvatore", "Roy, Bernard"]
    assert first.fields["keywords"] == ["Multiple criteria analysis", "ELECTRE methods", "Scoring methods",
                                        "Non-compensatory composite indicators", "Healthcare system evaluation"]
    assert first.fields["journal"] == "EUROPEAN JOURNAL OF OPERATIONAL RESEARCH"
    assert first.title == "ELECTRE-SCORE : A first outranking based method for scoring actions"
    assert "Author" not in first.fields and "author" not in first.fields
    assert papers[1].fields["journal"] == "RELIABILITY ENGINEERING & SYSTEM SAFETY"  # written "\\&"
    assert papers[3].fields["authors"][2] == "Sarmas, Elissaios"  # a name wrapped over two lines


def test_web_of_science_bibtex_wrapped_lines_are_spaces_and_early_access_gives_the_year() -> None:
    """pyBibX's real WoS export: values wrapped at ~70 columns with a three-space indent (in an abstract too), a
    proceedings title wrapped in ``Booktitle``, and an early-access article without ``Year``."""
    (first, _, early, proceedings), _ = _read(REAL / "wos_bibtex_4.bib")
    assert first.abstract.startswith("In this paper, we present (to the best of our knowledge) the first outranking "
                                     "method to assign a score to each alternative.")
    assert "\n" not in first.abstract and "  " not in first.abstract
    assert (early.fields["year"], early.fields["early access date"]) == (2021, "NOV 2021")
    assert proceedings.fields["journal"] == ("2020 11TH INTERNATIONAL CONFERENCE ON INFORMATION, INTELLIGENCE, "
                                             "SYSTEMS AND APPLICATIONS (IISA 2020)")


def test_web_of_science_plain_text_authors_are_the_full_names_short_forms_kept() -> None:
    papers, _ = _read(REAL / "wos_cr_8.txt")
    assert papers[0].fields["authors"] == ["Toh, Ming Liang"]  # AF, not AU's "Toh, ML"
    assert papers[0].fields["author_short_names"] == ["Toh, ML"]
    assert "author_full_names" not in papers[0].fields


def test_medline_authors_are_the_full_names() -> None:
    papers, _ = _read(REAL / "pubmed_3.txt")
    assert papers[1].fields["authors"][:2] == ["Piqueray, Julien", "Gilliaux, Valentin"]


def test_authors_stored_glued_before_this_fix_are_a_list_in_the_panel_and_in_exports(tmp_path: Path) -> None:
    from core.display import author_text
    from core.io.reference_export import write_references

    glued = ["Zhang, Jingfan and Li, Jian and Fan, Yingxu and Mo, Qifeng and Li,\n   Yingwen"]  # the old reading
    assert author_text(glued, limit=None) == "Zhang, Jingfan; Li, Jian; Fan, Yingxu; Mo, Qifeng; Li, Yingwen"
    assert author_text("Smith, A. and Roe, B.") == "Smith, A.; Roe, B."
    assert author_text(["Procter and Gamble"]) == "Procter and Gamble"  # no "Family, Given" parts: one name
    paper = Paper("p", "Soil", "Fauna.", {"authors": glued})
    out = tmp_path / "p.ris"
    with open(out, "w", encoding="utf-8", newline="") as handle:
        write_references([paper], handle, "ris")
    assert [line[6:] for line in out.read_text(encoding="utf-8").splitlines() if line.startswith("AU")] == [
        "Zhang, Jingfan", "Li, Jian", "Fan, Yingxu", "Mo, Qifeng", "Li, Yingwen"]
