"""Real exports from repositories the project had not read before (issue 40, fifth round). Each file is a byte-exact
excerpt (sources, licences and cuts in tests/fixtures/real/tools/SOURCES.md); each test is a discrepancy found by
comparing the importer with an independent reading of the whole source file, or a check that two exports of one
library read alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import read_papers
from core.io.formats import detect_format
from core.records import Paper, RowError

TOOLS = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "tools"


def _papers(name: str) -> list[Paper]:
    return [item for item in read_papers(TOOLS / name) if isinstance(item, Paper)]


def test_pubmed_abstract_text_display_is_refused_with_the_export_that_works() -> None:
    """PubMed's "Abstract (text)" download ("1. Phytomedicine. 2018 Dec 31;57:364-376. doi: …", then title, authors,
    "Author information:", the abstract, "DOI:"/"PMID:" lines; CRLF) is a display for reading, not a record format:
    its fields are not tagged. It was refused with the generic "has an unknown format; use CSV, TSV, …" list, which
    does not tell the user that the same search saved as "PubMed" format imports."""
    with pytest.raises(CorpusError) as refused:
        detect_format(TOOLS / "pubmed_abstract_text_3.txt")
    message = str(refused.value)
    assert "PubMed" in message and "Abstract (text)" in message
    assert "Format: PubMed" in message and "unknown format" not in message


def test_a_mendeley_ris_no_title_placeholder_is_skipped_with_its_reason() -> None:
    """Mendeley writes ``T1  - No Title`` for a PDF whose title it could not read; the record is skipped and the row
    error names the placeholder, never imported as a paper titled "No Title"."""
    items = list(read_papers(TOOLS / "mendeley_ris_8.ris"))
    errors = [item for item in items if isinstance(item, RowError)]
    assert len(items) == 8 and len(errors) == 6
    assert any("'No Title'" in error.reason for error in errors)
    assert all(item.title != "No Title" for item in items if isinstance(item, Paper))


def test_one_endnote_library_reads_alike_from_its_indented_ris_and_its_bibtex() -> None:
    """The same EndNote library exported as RIS (values wrapped onto lines indented by six spaces) and as BibTeX
    (UTF-8 BOM, ``RN57`` keys): the wrapped RIS lines join into one title and abstract, equal to the BibTeX ones."""
    ris, bib = _papers("endnote_indented_6.ris"), _papers("endnote_bibtex_bom_7.bib")
    assert len(ris) == 5 and len(bib) == 6
    by_title = {paper.title: paper for paper in bib}
    for paper in ris:
        twin = by_title[paper.title]
        assert " ".join(paper.abstract.split()) == " ".join(twin.abstract.split())
        assert paper.fields.get("doi") == twin.fields.get("doi") and paper.fields["year"] == twin.fields["year"]
        assert len(paper.fields["authors"]) == len(twin.fields["authors"])
    assert ris[0].title == ("MixHop: Higher-Order Graph Convolutional Architectures via Sparsified Neighborhood "
                            "Mixing")


def test_an_openalex_api_page_unescapes_entities_and_keeps_title_markup_apart() -> None:
    """An OpenAlex ``/works`` API page (``{"meta": …, "results": [...], "group_by": []}``): "&amp;" in a title is
    unescaped, ``<i>PLATON</i>`` is not left in the title text, and the work without an abstract is skipped."""
    items = list(read_papers(TOOLS / "openalex_api_4.json"))
    papers = [item for item in items if isinstance(item, Paper)]
    assert len(items) == 4 and len(papers) == 3
    assert papers[0].title.startswith("Crystallography & NMR System")
    assert "&amp;" not in papers[0].abstract and "<" not in papers[2].title
    assert papers[0].fields["doi"] == "10.1107/s0907444998003254"


def test_an_acm_csv_without_abstracts_names_titles_only_though_its_books_have_no_title(store) -> None:
    """ACM Digital Library's CSV export leaves ``description`` (its abstract) empty in every row and writes a book's
    or report's title in ``booktitle``, leaving ``title`` empty. Because some rows lacked the title too, the refusal
    said "every row lacked a title or abstract" without naming the fix, though the articles import titles only."""
    from core.store import import_file

    with pytest.raises(CorpusError, match="every row lacked an abstract; import titles only"):
        import_file(store, TOOLS / "acm_dl_csv_5.csv", "acm")
    assert len(_papers_titles("acm_dl_csv_5.csv")) == 4


def test_acm_csv_authors_joined_by_and_are_a_list_with_entities_unescaped() -> None:
    """ACM's CSV joins whole names with " and " ("Lars Braubach and Kai Jander and Alexander Pokahr") and writes an
    accented letter as an HTML entity ("Miguel Jimenez-Gan&#225;n"). The cell stayed one name, and the entity's
    ";" cut it in two glued halves ("…Miguel Jimenez-Gan&#225", "n and Jozsef Biro and …")."""
    first, second = _papers_titles("acm_dl_csv_5.csv")[:2]
    assert second.fields["authors"] == ["Lars Braubach", "Kai Jander", "Alexander Pokahr"]
    names = first.fields["authors"]
    assert len(names) == 17 and names[0] == "Sergio Garcia-Gomez" and names[-1] == "Dimitri Mazmanov"
    assert "Miguel Jimenez-Ganán" in names and not any("&#" in name or " and " in name for name in names)


def test_ieee_xplore_csv_of_2019_reads_its_publication_year_column() -> None:
    """IEEE Xplore's CSV of 2019 names the year column "Publication_Year" (later exports say "Year")."""
    papers = _papers("ieee_xplore_2019_5.csv")
    assert len(papers) == 5 and all(isinstance(p.fields.get("year"), int) for p in papers)
    assert all(p.abstract and p.fields.get("journal") for p in papers)
    assert all(isinstance(p.fields["authors"], list) and len(p.fields["authors"]) >= 1 for p in papers)


def test_a_publish_or_perish_csv_of_2019_is_refused_naming_titles_only() -> None:
    """Publish or Perish's Google Scholar CSV (UTF-8 BOM, "Cites,Authors,Title,…,Age") has no abstracts."""
    with pytest.raises(CorpusError, match="have no abstracts"):
        read_papers(TOOLS / "gscholar_pop_2019_3.csv")
    assert len(_papers_titles("gscholar_pop_2019_3.csv")) == 3


def _papers_titles(name: str) -> list[Paper]:
    return [item for item in read_papers(TOOLS / name, title_only=True) if isinstance(item, Paper)]


def test_acm_csv_proceedings_papers_have_their_proceedings_as_venue() -> None:
    """ACM's CSV leaves ``journal`` empty for a conference paper and names the proceedings in ``booktitle``, as BibTeX
    does (where the venue already falls back to booktitle); the venue was empty, so the map's journal colours and
    the journal vote lost every ACM conference paper."""
    first, second = _papers_titles("acm_dl_csv_5.csv")[:2]
    assert first.fields["journal"].startswith("Proceedings of the 2012 IEEE 10th International Symposium on Parallel")
    assert second.fields["journal"] == "Proceedings of the 2014 International Conference on Cloud and Autonomic Computing"


def test_an_acm_csv_name_with_a_hyphenated_initial_splits_at_and() -> None:
    """A cell from the same ACM export (row 17 of acm.csv): "C. -W. Chong and P. Raveendran and R. Mukundan"."""
    from core.io.names import author_list

    assert author_list("C. -W. Chong and P. Raveendran and R. Mukundan") == ["C. -W. Chong", "P. Raveendran",
                                                                             "R. Mukundan"]


def test_a_mendeley_citation_key_with_a_comma_keeps_its_entry() -> None:
    """Mendeley writes a key from an author with a comma in it: ``@article{Neeson, 2015,``. bibtexparser reads the key
    "Neeson" and then " 2015" as a field without "=", and drops the whole entry ("could not be parsed"): the paper
    was lost (3 entries of library.bib, 1 of My_Collection.bib)."""
    items = list(read_papers(TOOLS / "mendeley_collection_55.bib", title_only=True))
    assert not [item for item in items if isinstance(item, RowError) and "could not be parsed" in item.reason]
    neeson = next(item for item in items if isinstance(item, Paper) and item.title.startswith("Enhancing ecosystem"))
    assert neeson.fields["year"] == 2015 and neeson.fields["doi"] == "10.1073/pnas.1423812112"
    assert neeson.fields["authors"][0] == "Neeson, Thomas M" and len(neeson.fields["authors"]) == 6
