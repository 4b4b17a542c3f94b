"""Real exports from repositories the project had not read before (issue 40, seventh round), and the four leftovers
of issue 40 (BibLaTeX ``journaltitle``, a one-reference EndNote Annotated export, the fix named for a Crossref file
without abstracts, generic front-matter titles with different DOIs). Each file is a byte-exact excerpt (sources,
licences and cuts in tests/fixtures/real/tools/SOURCES.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import read_papers
from core.io.formats import detect_format
from core.records import Paper

TOOLS = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "tools"


def _papers(name: str, title_only: bool = False) -> list[Paper]:
    return [item for item in read_papers(TOOLS / name, title_only=title_only) if isinstance(item, Paper)]


# --- leftover a: BibLaTeX names the journal "journaltitle" -------------------------------------------------------

def test_a_biblatex_journaltitle_is_the_journal(tmp_path) -> None:
    """BibLaTeX (Zotero's Better BibLaTeX, biber) writes ``journaltitle = {…}`` where BibTeX writes ``journal``: the
    venue was empty, so the map's journal colours and the journal vote left every such paper out."""
    path = tmp_path / "biblatex.bib"
    path.write_text("@article{wang2020,\n  title = {Multi-Resolution Convolutional Neural Networks},\n"
                    "  date = {2020-03-31},\n  journaltitle = {Scientific Reports},\n"
                    "  shortjournal = {Sci Rep},\n  abstract = {An abstract.}\n}\n", encoding="utf-8")
    paper, = [p for p in read_papers(path) if isinstance(p, Paper)]
    assert paper.fields["journal"] == "Scientific Reports" and paper.fields["year"] == 2020
    assert "journaltitle" not in paper.fields and paper.fields["shortjournal"] == "Sci Rep"


# --- leftover b: an EndNote Annotated export of one reference ----------------------------------------------------

def test_an_endnote_annotated_export_of_one_reference_is_refused_as_printed() -> None:
    """EndNote's File > Export with the Annotated style for one reference (BOM, CRLF, the abstract on the next line
    after a tab): the printed-bibliography check wanted three reference lines, so the file was taken for a CSV (its
    commas) and refused as a table without a title column, not named for what it is."""
    with pytest.raises(CorpusError, match="printed in a citation style.*RefMan \\(RIS\\) Export"):
        detect_format(TOOLS / "endnote_printed_annotated_1.txt")


@pytest.mark.parametrize("text", [
    'In 2019 the board wrote "we will review the policy next year" to all its members.\n',
    'Minutes (2019). Present: the chair, the treasurer and "the new secretary of the club".\n\tNotes follow.\n',
    'title,abstract\n"A study (2019). ""Quoted words here"" in it","An abstract"\n',
])
def test_one_line_of_plain_text_with_a_year_and_a_quote_is_not_a_printed_bibliography(tmp_path, text: str) -> None:
    path = tmp_path / "note.txt"
    path.write_text(text, encoding="utf-8")
    try:
        detect_format(path)
    except CorpusError as exc:
        assert "printed in a citation style" not in str(exc)


# --- leftover c: a Crossref file without abstracts names Crossref's fix ------------------------------------------

@pytest.mark.parametrize("name", ["crossref_work_noabstract_1.json", "crossref_sample_noabstract_3.json"])
def test_a_crossref_answer_without_abstracts_names_the_fix_for_crossref(store, name: str) -> None:
    """Crossref carries abstracts for few works: the refusal said only "import titles only", as for any file; it
    names where the abstracts are (the publisher, PubMed, OpenAlex) and still the titles-only way."""
    from core.store import import_file

    with pytest.raises(CorpusError) as caught:
        import_file(store, TOOLS / name, "c")
    message = str(caught.value)
    assert "every row lacked an abstract; Crossref rarely carries abstracts" in message
    assert "publisher, PubMed or OpenAlex" in message and "'Titles only'" in message


def test_a_file_without_abstracts_from_an_unnamed_source_keeps_the_plain_sentence(store) -> None:
    from core.store import import_file

    with pytest.raises(CorpusError, match="every row lacked an abstract; import titles only"):
        import_file(store, TOOLS / "datacite_json_noabstract_1.json", "c")
