"""Real exports from repositories the project had not read before (issue 40, fourth round). Each file is a byte-exact
excerpt (sources, licences and cuts in tests/fixtures/real/tools/SOURCES.md); each test is a discrepancy found by
comparing the importer with an independent reading of the whole source file, or with a second export of the same
papers."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.io import read_papers
from core.io.formats import detect_format
from core.records import Paper, RowError

TOOLS = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "tools"


def _papers(name: str, **kwargs) -> list[Paper]:
    return [item for item in read_papers(TOOLS / name, **kwargs) if isinstance(item, Paper)]


def test_an_embase_csv_with_one_field_per_row_is_read_record_by_record() -> None:
    """Embase.com's CSV export writes each record as a block of ``"LABEL","value"[,"value"…]`` rows ("TITLE",
    "AUTHOR NAMES", "SOURCE TITLE", "ABSTRACT", "DOI"…), records separated by an empty line. It was read as one table
    whose header was the first record's "TITLE" row, and refused: "has no abstract column (found: TITLE,
    Development of novel liver-targeting glucocorticoid prodrugs)"."""
    path = TOOLS / "embase_fieldrows_4.csv"
    assert detect_format(path) == "csv"
    items = list(read_papers(path))
    papers = [item for item in items if isinstance(item, Paper)]
    errors = [item for item in items if isinstance(item, RowError)]
    assert len(papers) == 3 and len(errors) == 1 and "abstract" in errors[0].reason
    first = papers[0]
    assert first.title == "Development of novel liver-targeting glucocorticoid prodrugs"
    assert first.abstract.startswith("Background: Glucocorticoids (GCs) are widely used in the treatment")
    assert first.fields["journal"] == "Medicine in Drug Discovery" and first.fields["year"] == 2024
    assert first.fields["doi"] == "10.1016/j.medidd.2023.100172"
    assert first.fields["authors"] == ["Wang Y.", "Guo D.", "Winkler R.", "Lei X.", "Wang X.", "Messina J.",
                                       "Luo J.", "Lu H."]
    assert first.fields["keywords"][:2] == ["Alcoholic hepatitis", "Glucocorticoid receptor"]
    second = papers[1]
    assert second.fields["journal"] == "Sensors (Basel, Switzerland)"
    assert str(second.fields["medline pmid"]) == "38203148"  # the PMID, its PubMed link kept apart


def test_the_same_embase_records_read_alike_from_its_csv_and_its_ris() -> None:
    """The CSV blocks and the RIS export of one Embase search give the same papers: titles, journals, years, DOIs
    and abstracts (Embase itself writes a subscript as "O(3)" in its CSV and "O3" in its RIS, so the abstracts are
    compared up to there)."""
    csv_papers, ris_papers = _papers("embase_fieldrows_4.csv"), _papers("embase_jf_jo_3.ris")
    for field in ("doi", "journal", "year"):
        assert [p.fields[field] for p in csv_papers] == [p.fields[field] for p in ris_papers]
    assert [p.title for p in csv_papers] == [p.title for p in ris_papers]
    assert [" ".join(p.abstract.split())[:70] for p in csv_papers] == [
        " ".join(p.abstract.split())[:70] for p in ris_papers]


def test_an_embase_ris_journal_is_its_full_name_not_the_abbreviation() -> None:
    """Embase RIS writes the journal twice: ``JF  - Medicine in Drug Discovery`` (the full name, as the RIS
    specification says) and ``JO  - Med. Drug Disc.`` (its abbreviation). The abbreviation was taken: the paper's
    journal, its side panel and its RIS/BibTeX export said "Med. Drug Disc.", where Embase's CSV, PubMed and Scopus
    say "Medicine in Drug Discovery". The abbreviation stays as a field."""
    papers = _papers("embase_jf_jo_3.ris")
    assert [p.fields["journal"] for p in papers] == ["Medicine in Drug Discovery", "Sensors (Basel, Switzerland)",
                                                     "Atmospheric Environment"]
    assert papers[0].fields["journal_name"] == "Med. Drug Disc."


def test_sciencedirect_bibtex_with_one_keywords_field_per_keyword_keeps_them_all() -> None:
    """ScienceDirect's BibTeX of 2016-2017 writes ``keywords = "Cloud computing",`` once per keyword. Only the first
    was a keyword; the others became fields ``keywords_2`` … ``keywords_7`` with a warning each."""
    items = list(read_papers(TOOLS / "sciencedirect_2017_4.bib"))
    papers = [item for item in items if isinstance(item, Paper)]
    assert papers[0].fields["keywords"] == ["Cloud computing", "Cloud service", "Cloud service description",
                                            "SaaS service", "PaaS service", "IaaS service", "USDL"]
    assert not any(key.startswith("keywords_") for p in papers for key in p.fields)
    assert not [item for item in items if "appears more than once" in str(getattr(item, "reason", ""))]


def test_a_bibtex_journal_written_with_a_trailing_space_is_one_name() -> None:
    """ScienceDirect writes every value with a trailing space (``journal = "Clinical Neurophysiology ",``). The
    title lost it but the journal kept it, so "Clinical Neurophysiology " was another journal name."""
    journals = [p.fields["journal"] for p in _papers("sciencedirect_2016_es_3.bib")]
    assert journals == ["Personality and Individual Differences", "European Journal of Education and Psychology",
                        "Clinical Neurophysiology"]
    assert _papers("sciencedirect_2017_4.bib")[1].fields["journal"] == "e-Health Systems"  # its booktitle


def test_sciencedirect_escaped_braces_around_a_word_are_its_case_protection() -> None:
    """ScienceDirect escapes the braces that protect an acronym's case: ``\\{USDL\\}``, ``\\{EEG\\}``. Read as
    LaTeX's literal braces, the title was "… based on {USDL}", where Web of Science's export of the same paper says
    "… based on USDL"."""
    title = _papers("sciencedirect_2017_4.bib")[3].title
    assert title == "Towards a standardized cloud service description based on USDL"
    assert title == _papers("wos_bibtex_2017_3.bib")[0].title
    spanish, eeg = _papers("sciencedirect_2016_es_3.bib")[1:]
    assert eeg.title.startswith("EEG characteristics in “eyes-open” versus “eyes-closed” conditions")
    assert spanish.title.startswith("La relación entre el tiempo no estructurado, el ocio y las funciones")
    assert "{" not in eeg.abstract and "{" not in title


def test_google_scholar_authors_cut_short_with_an_ellipsis_are_still_a_list() -> None:
    """Publish or Perish writes Google Scholar's author line as shown there: "…, TK Pogany, DEV Arlinghaus, SL
    Arlinghaus, W Tobler, ..." when the list was cut at both ends. It stayed one name (12 of 366 papers in the
    source file); a list cut only at its end was already split."""
    papers = _papers("pop_gscholar_4.csv")
    assert papers[1].fields["authors"] == ["Q Yang", "J Snyder", "W Tobler"]
    assert papers[2].fields["authors"] == ["TK Pogany", "DEV Arlinghaus", "SL Arlinghaus", "W Tobler"]


def test_a_google_scholar_snippet_s_link_element_is_markup() -> None:
    """A Google Scholar snippet in Publish or Perish: "Computer use in geography<link href='#fn1'></link> Page 1 …".
    The ``<link>`` element stayed in the stored abstract."""
    paper = _papers("pop_gscholar_4.csv")[3]
    assert "<link" not in paper.abstract
    assert paper.abstract.startswith("Computer use in geography Page 1 COMPUTERS IN BEHAVIORAL SCIENCE")


def test_lens_null_given_names_are_not_part_of_the_name() -> None:
    """Lens writes an author without a given name as "null Ratkóczy" (its JSON's null, printed). The names were
    stored as "null Ratkóczy", "null Tobler"."""
    papers = _papers("lens_2024_3.csv", title_only=True)
    assert papers[0].fields["authors"][:3] == ["Ratkóczy", "Walcher", "Camerer"]
    assert "Einar Sjövall" in papers[0].fields["authors"]
    assert papers[2].fields["authors"] == ["Waldo R. Tobler"]


def test_an_acm_bibtex_export_without_abstracts_is_read_with_titles_only() -> None:
    """The ACM Digital Library's BibTeX of 2017 has no abstracts: every record is skipped for it (the import then
    names the fix, "import titles only"), and with titles only the three papers come in with their proceedings."""
    items = list(read_papers(TOOLS / "acm_noabstract_3.bib"))
    assert len(items) == 3 and all(isinstance(item, RowError) and "empty abstract" in item.reason for item in items)
    papers = _papers("acm_noabstract_3.bib", title_only=True)
    assert [p.fields["journal"] for p in papers][:1] == [
        "Proceedings of the 2014 IEEE/ACM 7th International Conference on Utility and Cloud Computing"]
    assert len(papers) == 3 and all(p.fields["title_only"] for p in papers)


def test_a_table_with_its_header_in_capitals_is_still_a_table(tmp_path: Path) -> None:
    """Only a block of label-and-value rows is read as Embase's field rows: a CSV whose header is in capitals
    ("TITLE","ABSTRACT") is the table it says it is, one paper a row."""
    path = tmp_path / "caps.csv"
    path.write_text('"TITLE","ABSTRACT","DOI"\n"A TITLE IN CAPITALS","An abstract.","10.1/a"\n'
                    '"ANOTHER ONE","More text.","10.1/b"\n"THIRD","Text again.","10.1/c"\n', encoding="utf-8")
    assert [(p.title, p.fields["doi"]) for p in _papers_at(path)] == [
        ("A TITLE IN CAPITALS", "10.1/a"), ("ANOTHER ONE", "10.1/b"), ("THIRD", "10.1/c")]


def _papers_at(path: Path) -> list[Paper]:
    return [item for item in read_papers(path) if isinstance(item, Paper)]


def test_cnki_refer_records_whose_abstract_holds_empty_lines_stay_whole() -> None:
    """CNKI's EndNote (Refer) export, in Chinese, CRLF: a thesis abstract of two paragraphs with empty lines between
    them ("…借鑒。\\r\\n\\r\\n…\\r\\n    論文第一部分…"). The empty line was taken for the end of the record: the thesis
    lost its second paragraph and a sixth "record" without a title was skipped."""
    items = list(read_papers(TOOLS / "cnki_refer_5.enw"))
    assert not [item for item in items if isinstance(item, RowError)]
    papers = [item for item in items if isinstance(item, Paper)]
    assert len(papers) == 5
    thesis = papers[4]
    assert thesis.title == "中西方高校人文教育的比較研究"
    assert thesis.abstract.startswith("隨著上個世紀70年代中期西方大學興起人文教育的“復歸”")
    assert "論文第一部分說明了研究的目的" in thesis.abstract and thesis.abstract.endswith("改進教學方法等。")
    assert thesis.fields["year"] == 2006 and thesis.fields["authors"] == ["潘福妮"]


def test_cnki_refer_names_joined_by_semicolons_in_one_tag_are_several() -> None:
    """CNKI writes several names in one tag: "%A Jaeyoung Choi;Geunho Jeong", "%Y 谢明勇;聂少平" (the advisors). They
    stayed one name."""
    papers = _papers("cnki_refer_5.enw")
    assert papers[0].fields["authors"] == ["张会佳", "侯相竹", "张涵", "殷澳", "高阳", "徐多多"]
    assert papers[0].fields["journal"] == "食品工业科技"
    assert papers[0].fields["keywords"] == ["黄芪多糖", "复合酶", "提取工艺", "响应面", "α-葡萄糖苷酶活性"]
    assert papers[0].fields["doi"] == "10.13386/j.issn1002-0306.2023090315"
    assert papers[3].fields["authors"] == ["Jaeyoung Choi", "Geunho Jeong"]
    assert papers[1].fields["tertiary_authors"] == ["谢明勇", "聂少平"]


@pytest.mark.parametrize("name", ["ovid_psycinfo_2.txt", "ovid_psycinfo_indented_2.txt", "ovid_journals_4.txt"])
def test_ovid_tagged_text_is_read(name: str) -> None:
    """Ovid's own tagged text ("<53. >", "VN - Ovid Technologies", "DB - PsycINFO", "TI - …", "AB - …"), as Ovid
    writes it for PsycINFO, Embase, MEDLINE or Journals@Ovid, with one or two spaces before the dash, or every line
    indented by one space. It was refused: "has an unknown format"."""
    assert detect_format(TOOLS / name) == "ovid"
    assert [item for item in read_papers(TOOLS / name, title_only=True) if isinstance(item, RowError)] == []


def test_ovid_tagged_text_gives_title_abstract_authors_journal_year_and_doi() -> None:
    first, chapter = _papers("ovid_psycinfo_2.txt")
    assert first.title.startswith("Academic procrastination as mediated by executive functioning")
    assert first.abstract.startswith("With academic procrastination prevalent at every level of education")
    assert first.fields["authors"] == ["Sudler, Eric L"] and first.fields["year"] == 2014
    assert first.fields["journal"] == "Dissertation Abstracts International Section A: Humanities and Social Sciences"
    assert first.fields["database"] == "PsycINFO"
    assert chapter.fields["journal"] is None  # a book chapter: its source names the editors, not a journal
    indented = _papers("ovid_psycinfo_indented_2.txt")
    assert indented[0].fields["authors"] == ["Kobori, Osamu", "Sawamiya, Yoko", "Iyo, Masaomi", "Shimizu, Eiji"]
    assert indented[0].fields["journal"] == "Behavioural and Cognitive Psychotherapy"
    assert indented[0].abstract.startswith("Background: One of the most common interpersonal reactions")
    journals = _papers("ovid_journals_4.txt", title_only=True)
    assert [p.fields["journal"] for p in journals] == [
        "ACSM'S Health & Fitness Journal", "Acta Biochimica et Biophysica Sinica", "Acta Chirurgica Belgica",
        "American Journal of Dermatopathology"]
    assert journals[1].fields["doi"] == "10.1093/abbs/gmr050" and journals[1].fields["year"] == 2011
    assert journals[1].fields["keywords"] == ["BCRP", "PI3K/AKT/NF-[kappa]B", "chemoresistance"]


def test_refworks_tagged_text_is_read() -> None:
    """RefWorks' tagged export ("RT Journal Article", "A1 Allan,Steven", "T1 …", "JF …", "AB …"), which CNKI writes
    too, was refused: "has an unknown format"."""
    path = TOOLS / "refworks_tagged_3.txt"
    assert detect_format(path) == "refworks"
    chapter, thesis, article = _papers("refworks_tagged_3.txt")
    assert article.title == ("Anger and anger expression in relation to perceptions of social rank, entrapment and "
                             "depressive symptoms")
    assert article.abstract.startswith("Explored the relationship between self-report measures of anger")
    assert article.fields["authors"] == ["Allan,Steven", "Gilbert,Paul"]
    assert article.fields["journal"] == "Personality & Individual Differences" and article.fields["year"] == 2002
    assert article.fields["issn"] == "0191-8869" and "Anger" in article.fields["keywords"]
    assert chapter.title == "Depression and coronary heart disease" and chapter.fields["year"] == 2002
    assert thesis.fields["authors"] == ["Catrambone, C.D."] and thesis.fields["year"] == 2000


def test_refworks_tagged_text_after_its_tag_legend_is_read() -> None:
    """A RefWorks export may start with its tag legend ("Refworks Export Tagged Format", "RT=Reference Type", …):
    the legend is no record."""
    assert detect_format(TOOLS / "refworks_legend_1.txt") == "refworks"
    items = list(read_papers(TOOLS / "refworks_legend_1.txt", title_only=True))
    assert len(items) == 1 and items[0].title == "The Empire's New Clothes"
    assert items[0].fields["journal"] == "Critical Inquiry" and items[0].fields["authors"] == ["Brennan,Timothy"]


def test_a_refer_record_with_two_type_lines_is_one_record() -> None:
    """A Refer record that starts with two ``%0`` lines ("%0 Serial", "%0 Audio": a podcast, in Zotero's Refer test
    exports) was split at the second: an empty record, skipped as "empty title and abstract", then the podcast."""
    items = list(read_papers(TOOLS / "refer_two_types_1.enw", title_only=True))
    assert len(items) == 1 and isinstance(items[0], Paper)
    assert items[0].title.startswith("Diesseits von Eden: der Podcast der katholischen Fakultäten Österreichs")
    assert items[0].fields["year"] == 2021
