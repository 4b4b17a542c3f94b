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
from core.records import Paper, RowError

TOOLS = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "tools"


def _papers(name: str, title_only: bool = False) -> list[Paper]:
    return [item for item in read_papers(TOOLS / name, title_only=title_only) if isinstance(item, Paper)]


# --- leftover a: BibLaTeX names the journal "journaltitle" -------------------------------------------------------

def test_a_biblatex_journaltitle_is_the_journal() -> None:
    """Zotero's Better BibLaTeX writes ``journaltitle = {MIS Quarterly}`` (and ``shortjournal``, ``date``) where
    BibTeX writes ``journal``: the venue was empty for all twelve entries, so the map's journal colours and the
    journal vote left every such paper out."""
    papers = _papers("bbt_biblatex_journaltitle_12.bib")
    assert len(papers) == 12 and all(p.fields.get("journal") for p in papers)
    first = papers[0]
    assert (first.id, first.fields["journal"], first.fields["year"]) == ("ang_work_2001", "MIS Quarterly", 2001)
    assert first.fields["shortjournal"] == "MIS Q." and "journaltitle" not in first.fields
    assert papers[4].fields["journal"] == "Journal of Management Information Systems"


def test_the_same_biblatex_entries_under_two_keys_are_one_paper_each(store) -> None:
    """The file lists six papers twice, under two citation-key formulas ("ang_work_2001", "Ang.Slaughter.01.w"):
    six papers, six merges."""
    from core.store import import_file

    report = import_file(store, TOOLS / "bbt_biblatex_journaltitle_12.bib", "c")
    assert (report.imported, report.added, report.merged, report.skipped) == (12, 6, 6, 0)
    assert store.corpus("c").papers == 6 and store.paper("c", "ang_work_2001").fields["journal"] == "MIS Quarterly"


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


# --- fresh files of the seventh round ------------------------------------------------------------------------------

def test_an_xml_file_of_no_known_kind_names_its_root_element_and_the_readable_kinds(tmp_path) -> None:
    """An .xml whose root no reader knows (here an OAI-PMH answer wrapping a MODS record; a MODS file itself is read
    since issue 40's MODS reader) is read as PubMed XML by its extension, and the refusal said only "has no records",
    as for an empty PubMed file. It names what the file is and which XML exports are read. (OpenGrey's DSpace Dublin
    Core, the file that showed this, is read since round 8.)"""
    path = tmp_path / "record.xml"
    path.write_text('<?xml version="1.0"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><GetRecord><record>'
                    '<metadata><mods xmlns="http://www.loc.gov/mods/v3"><titleInfo><title>A title</title></titleInfo>'
                    "</mods></metadata></record></GetRecord></OAI-PMH>\n", encoding="utf-8")
    with pytest.raises(CorpusError) as caught:
        list(read_papers(path))
    message = str(caught.value)
    assert "<OAI-PMH>" in message and "PubMed XML" in message and "EndNote XML" in message and "MODS" in message
    assert "RIS" in message


def test_a_cochrane_library_export_with_classic_mac_line_ends_reads_every_record() -> None:
    """The Cochrane Library's citation-export.txt of 2017 ("Record #1 of 271", ``ID:``/``AU:``/``TI:``/``AB:``)
    ends every line with a bare CR, as a classic Mac does: all three reviews, their DOIs and abstracts."""
    papers = _papers("cochrane_cr_only_3.txt")
    assert [p.id for p in papers] == ["CD009275", "CD001903", "CD003054"]
    first = papers[0]
    assert first.title == "Different types of dietary advice for women with gestational diabetes mellitus"
    assert first.fields["doi"] == "10.1002/14651858.CD009275.pub3" and first.fields["year"] == 2017
    assert first.fields["journal"] == "Cochrane Database of Systematic Reviews"
    assert first.abstract.startswith("Background: Dietary advice is the main strategy") and "\r" not in first.abstract


def test_scopus_bibtex_exports_glued_end_to_start_are_three_entries() -> None:
    """Three Scopus BibTeX exports pasted into one file, each next one starting right after the closing brace
    (``}@CONFERENCE{Aires Moreira2021115,``): every entry is read, the glued one too."""
    papers = _papers("scopus_bibtex_glued_3.bib")
    assert [p.id for p in papers] == ["Grander20227", "Aires Moreira2021115", "Dezen-Kempter2018213"]
    assert papers[1].fields["doi"] == "10.1007/978-3-030-78570-3_9" and papers[1].fields["year"] == 2021
    assert papers[1].fields["journal"] == "Springer Proceedings in Mathematics and Statistics"


def test_a_citationchaser_ris_splits_its_authors_and_reads_empty_markup_and_r_missing_values_as_none() -> None:
    """citationchaser's RIS (written from R through Lens.org): every author of a record in one ``AU`` line joined by
    "; " ("AU  - Szlachta, Grzegorz; Dębski, Przemysław; …"; 582 of 622 records of the source), JATS abstracts over
    indented lines, R's missing value "NA" in ``AB``, ``JF``, ``DO``, ``VL``, ``IS``, and one abstract that is an
    empty JATS paragraph, ``AB  - <jats:p />``. The author list was one name of five people; the empty paragraph
    was imported as the abstract "<jats:p />"; the journal read "NA" (one journal in the map for all such records)."""
    items = list(read_papers(TOOLS / "citationchaser_ris_6.ris"))
    papers = [item for item in items if isinstance(item, Paper)]
    reasons = [item.reason for item in items if isinstance(item, RowError)]
    assert [p.id for p in papers] == ["10.2478/bhk-2023-0020", "10.1016/j.asmart.2018.10.002",
                                      "10.31486/toj.22.0085", "10.1016/j.arthro.2014.03.028"]
    assert papers[0].fields["authors"] == ["Szlachta, Grzegorz", "Dębski, Przemysław", "Kublin, Kamil",
                                           "Woźniak, Piotr", "Marek, Maciej"]
    assert papers[0].abstract.startswith("Study aim: The functional assessment of patients")
    assert reasons == ["row 5: no abstract (the export's placeholder 'NA')",
                       "row 6: no abstract (the export's placeholder '<jats:p />')"]
    titled = _papers("citationchaser_ris_6.ris", title_only=True)
    assert len(titled) == 6 and titled[5].abstract == "" and titled[5].fields["authors"] == ["Hewett, Timothy E."]
    lyle = titled[4]
    assert lyle.title.startswith("Quantification of lower extremity dynamic capability")
    assert lyle.fields.get("journal") is None and lyle.fields.get("doi") is None and lyle.fields["year"] == 2012


def test_pubmeds_pmid_list_is_refused_naming_the_export_that_has_records() -> None:
    """PubMed's Save with Format "PMID" writes the ids of a search, one a line: no titles, no abstracts. It was
    refused as "an unknown format" with the list of every format, which says nothing of what to do in PubMed."""
    with pytest.raises(CorpusError) as caught:
        detect_format(TOOLS / "pubmed_pmid_list_20.txt")
    message = str(caught.value)
    assert "list of PubMed ids" in message and "Format: PubMed" in message and "unknown format" not in message


@pytest.mark.parametrize("text", ["30668574\n", "2019\n2020\nTotal\n", "12\n\nfoo bar\n"])
def test_a_text_that_is_not_only_ids_is_not_taken_for_a_pmid_list(tmp_path, text: str) -> None:
    path = tmp_path / "numbers.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CorpusError) as caught:
        detect_format(path)
    assert "list of PubMed ids" not in str(caught.value)


def test_cnki_refworks_splits_its_authors_reads_its_lowercase_volume_and_drops_the_body_text_mark() -> None:
    """CNKI's RefWorks export of 2024 (CRLF, Chinese): all authors in one ``A1`` joined by ";" without a space
    ("A1 谢进;王娜;杨子奇": 168 of 298 records of the source), the volume tagged in lower case ("vo 45", often
    "vo " empty), and an "abstract" that is the article's opening marked "<正>" (CNKI's "body text"). The names were
    one author; the "vo" line was read as a continuation of ``IS`` ("issue": "22 vo"), so no record had a volume;
    the "<正>" mark was kept as the abstract's first characters."""
    papers = _papers("cnki_refworks_21.txt")
    assert len(papers) == 21
    first = papers[0]
    assert first.title == "基于VR技术的视觉传达设计创新路径探究" and first.fields["journal"] == "美术教育研究"
    assert first.fields["authors"] == ["谢进", "王娜", "杨子奇"]
    assert first.fields["issue"] == "22" and not first.fields.get("volume")
    kao = next(p for p in papers if p.title.startswith("基于文献计量学的国外文化遗产虚拟体验设计研究进展"))
    assert (kao.fields["issue"], kao.fields["volume"]) == ("20", "45")
    assert kao.fields["doi"] == "10.19554/j.cnki.1001-3563.2024.20.006"
    last = papers[20]
    assert last.title == "虚拟现实动画技术在会展中的运用" and last.abstract.startswith("本文探讨了虚拟现实动画在会展中的应用")


def test_an_elicit_csv_names_its_ai_summary_and_reads_a_dash_venue_as_none() -> None:
    """Elicit's CSV (``Title,Authors,DOI,DOI link,Venue,Citation count,Year,Abstract summary``): its "Abstract
    summary" is a sentence Elicit wrote for the question asked ("This paper is not directly relevant to the query
    …"), not the paper's abstract, so it is not taken as one; the refusal said only "choose the abstract column".
    It names what the column is and where the abstracts are. Titles only reads the rows; a venue of "-" (46 of the
    500 rows of the source) is no journal (it was one journal named "-" on the map)."""
    with pytest.raises(CorpusError, match="Elicit's 'Abstract summary' is .*not the paper's abstract"):
        read_papers(TOOLS / "elicit_8.csv")
    papers = _papers("elicit_8.csv", title_only=True)
    assert len(papers) == 8 and not any(p.abstract for p in papers)
    assert papers[0].fields["doi"] == "10.3390/su15032610" and papers[0].fields["authors"] == [
        "Carolina Almeida Cruz", "F. Matos"]
    assert [p.fields.get("journal") for p in papers][4:] == ["Journal of Financial Reporting & Accounting", None,
                                                             "Int. J. Inf. Manag. Data Insights", None]


def test_a_consensus_csv_takes_its_abstract_column_not_its_takeaway() -> None:
    """Consensus' CSV has the paper's "Abstract" and the tool's one-sentence "Takeaway": the abstract is the
    abstract, the takeaway a field (read right already: a guard for an AI search tool's export)."""
    papers = _papers("consensus_5.csv")
    assert len(papers) == 5
    first = papers[0]
    assert first.abstract.startswith("Integrating Large Language Models (LLMs) into autonomous agents")
    assert first.fields["takeaway"].startswith("Integrating Large Language Models into Multi-Agent Systems enables")
    assert first.fields["doi"] == "10.1145/3712003" and first.fields["authors"] == ["Junda He", "Christoph Treude",
                                                                                   "David Lo"]
