"""Issue 19: the exports librarians bring — MEDLINE text, Excel, preambles, other tools' column names, EndNote XML,
Web of Science and Cochrane text, CSL JSON — and the title-only import and import preview."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main
from core.errors import CorpusError
from core.io import ReadOptions, detect_format, plan_import, read_papers
from core.io.vocabulary import tools_table, vocabulary
from core.store import Store
from tests.unit.io.support import papers_and_errors, write

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "real"

# PubMed's "PubMed format": a leading blank line, tags padded to four characters, six-space continuation lines
# (a title and a structured abstract that wrap), repeated AU/MH/AID tags, and a blank continuation line in AB.
MEDLINE = """
PMID- 29657938
OWN - NLM
STAT- PubMed-not-MEDLINE
DP  - 2018
TI  - Formulation of Herbal Gel of Antirrhinum majus Extract and Evaluation of its
      Anti-Propionibacterium acne Effects.
LID - 10.4103/abr.abr_87_17 [doi]
AB  - BACKGROUND: Antirrhinum majus contains aurone with anti-inflammatory effects.
      MATERIALS AND METHODS: Gels were formulated.
<SIX SPACES>
      RESULTS: The gel was effective.
FAU - Shahtalebi, Mohammad Ali
AU  - Shahtalebi MA
FAU - Asghari, Gholam Reza
AU  - Asghari GR
LA  - eng
PT  - Journal Article
TA  - Adv Biomed Res
JT  - Advanced biomedical research
OT  - Acne
OT  - blue light
AID - 10.4103/abr.abr_87_17 [doi]
AID - ABR-7-53 [pii]

PMID- 15301568
DP  - 2004
TI  - Phototherapy in the treatment of acne vulgaris: what is its role?
AB  - Acne vulgaris is a common dermatosis affecting 80% of the population.
AU  - Charakida A
MH  - Acne Vulgaris/*therapy
MH  - Humans
TA  - Am J Clin Dermatol
JT  - American journal of clinical dermatology
""".replace("<SIX SPACES>", " " * 6)


@pytest.mark.parametrize("name", ["pubmed.nbib", "pubmed.txt", "saved-as.ris", "pubmed.medline"])
def test_medline_text_is_recognised_by_its_content_whatever_the_extension(tmp_path: Path, name: str) -> None:
    path = write(tmp_path / name, MEDLINE.replace("\n", "\r\n"))
    assert detect_format(path) == "medline"
    papers, errors = papers_and_errors(path)
    assert errors == [] and [p.id for p in papers] == ["29657938", "15301568"]
    first = papers[0]
    assert first.title == ("Formulation of Herbal Gel of Antirrhinum majus Extract and Evaluation of its "
                           "Anti-Propionibacterium acne Effects.")
    assert first.abstract.startswith("BACKGROUND: Antirrhinum majus contains aurone with anti-inflammatory effects. "
                                     "MATERIALS AND METHODS: Gels were formulated.")
    assert first.abstract.endswith("RESULTS: The gel was effective.")
    assert first.fields["journal"] == "Advanced biomedical research" and first.fields["year"] == 2018
    assert first.fields["doi"] == "10.4103/abr.abr_87_17"
    assert first.fields["authors"] == ["Shahtalebi, Mohammad Ali", "Asghari, Gholam Reza"]  # lists; FAU, the fullest form
    assert first.fields["keywords"] == ["Acne", "blue light"]
    assert papers[1].fields["mesh"] == ["Acne Vulgaris/*therapy", "Humans"]


def test_the_same_records_as_endnote_xml_and_endnote_ris_give_the_same_papers() -> None:
    xml, _ = papers_and_errors(REAL / "endnote_3.xml")
    ris, _ = papers_and_errors(REAL / "endnote_3.ris")
    assert detect_format(REAL / "endnote_3.xml") == "endnote"
    assert len(xml) == len(ris) == 3

    def key(p):
        return p.id, p.title, p.abstract, p.fields["journal"], p.fields["year"], p.fields["authors"]

    assert [key(p) for p in xml] == [key(p) for p in ris]
    assert xml[0].fields["keywords"] == ["Acne", "Antirrhinum majus", "Propionibacterium acnes", "blue light"]


def test_a_preamble_and_semicolons_are_passed_over_and_reported(tmp_path: Path) -> None:
    text = ("'heart attack'/exp AND 'aspirin'/exp\n--------------------------------\n\n\n"
            "TITLE;ABSTRACT;SOURCE;PUBLICATION YEAR;DOI\n"
            '"Aspirin; a review";"Aspirin helps; sometimes.";Lancet;2001;10.1/a\n'
            "Second;Another abstract;BMJ;2002;10.1/b\n")
    path = write(tmp_path / "embase.csv", text)
    stream = read_papers(path)
    papers = list(stream)
    assert [(p.title, p.abstract, p.fields["journal"], p.fields["year"]) for p in papers] == [
        ("Aspirin; a review", "Aspirin helps; sometimes.", "Lancet", 2001), ("Second", "Another abstract", "BMJ", 2002)]
    assert stream.reading["header_row"] == 5 and stream.reading["separator"] == "semicolon"
    assert stream.reading["columns"]["journal"] == "SOURCE"
    forced = read_papers(path, options=ReadOptions(header_row=5, separator="semicolon"))
    assert [p.title for p in forced] == ["Aspirin; a review", "Second"]
    with pytest.raises(CorpusError, match="has no title column"):  # the user's header row is taken as given
        read_papers(path, options=ReadOptions(header_row=1))


def test_excel_workbooks_read_the_first_sheet_past_a_preamble_and_any_sheet_on_request(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Embase export"
    sheet.append(["Search: asthma AND children"])
    sheet.append([])
    sheet.append(["Title", "Abstract", "Source title", "Year", "Author Keywords"])
    sheet.append(["Asthma in children", "We studied asthma.", "Thorax", 2019, "asthma; children"])
    sheet.append(["Inhalers", "Inhalers work.", "Chest", 2020.0, None])
    other = book.create_sheet("Notes")
    other.append(["title", "abstract"])
    other.append(["Only on sheet two", "Its abstract."])
    path = tmp_path / "scopus.xlsx"
    book.save(path)
    assert detect_format(path) == "excel"
    stream = read_papers(path)
    papers = list(stream)
    assert [(p.title, p.fields["journal"], p.fields["year"]) for p in papers] == [
        ("Asthma in children", "Thorax", 2019), ("Inhalers", "Chest", 2020)]
    assert papers[0].fields["keywords"] == ["asthma", "children"]
    assert (stream.reading["reader"], stream.reading["sheet"], stream.reading["header_row"]) == (
        "excel", "Embase export", 3)
    second = list(read_papers(path, options=ReadOptions(sheet="Notes")))
    assert [p.title for p in second] == ["Only on sheet two"]
    with pytest.raises(CorpusError, match="has no sheet 'Missing' \\(sheets: Embase export, Notes\\)"):
        list(read_papers(path, options=ReadOptions(sheet="Missing")))


def test_an_old_xls_or_a_broken_workbook_gets_one_sentence(tmp_path: Path) -> None:
    old = write(tmp_path / "old.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600)
    with pytest.raises(CorpusError, match="not a readable Excel 97-2003 workbook"):  # a real one is read (test_excel_xls)
        list(read_papers(old))
    broken = write(tmp_path / "broken.xlsx", b"PK\x03\x04 not really a zip")  # a zip's start, not its end
    with pytest.raises(CorpusError, match="is a zip archive whose end is missing: it looks cut short"):
        list(read_papers(broken))
    broken = write(tmp_path / "broken.xlsx", b"not a zip at all")
    with pytest.raises(CorpusError, match="not a valid Excel workbook"):
        list(read_papers(broken))


def test_refworks_tab_delimited_columns_are_found_by_the_vocabulary(tmp_path: Path) -> None:
    text = ("Reference Type\tAuthors, Primary\tTitle Primary\tPeriodical Full\tPub Year\tAbstract\tDOI\n"
            "Journal Article\tSmith, J.;Doe, A.\tA RefWorks title\tJournal of Tests\t2015\tAn abstract.\t10.1/x\n")
    path = write(tmp_path / "refworks.txt", text)
    assert detect_format(path) == "tsv"
    (paper,) = list(read_papers(path))
    assert (paper.title, paper.fields["journal"], paper.fields["year"]) == ("A RefWorks title", "Journal of Tests",
                                                                           2015)
    assert paper.fields["authors"] == ["Smith, J.", "Doe, A."]


def test_web_of_science_tab_delimited_uses_ut_not_keywords_plus_as_the_id(tmp_path: Path) -> None:
    text = ("PT\tAU\tTI\tSO\tDE\tID\tAB\tPY\tDI\tUT\n"
            "J\tSmith, J\tWoS title one\tNATURE\tx; y\tKEYWORDS PLUS A\tAbstract one.\t2010\t10.1/w1\tWOS:0001\n"
            "J\tDoe, A\tWoS title two\tSCIENCE\tz\tKEYWORDS PLUS B\tAbstract two.\t2011\t10.1/w2\tWOS:0002\n")
    papers = list(read_papers(write(tmp_path / "savedrecs.txt", text)))
    assert [p.id for p in papers] == ["WOS:0001", "WOS:0002"]
    assert papers[0].fields["journal"] == "NATURE" and papers[0].fields["keywords"] == ["x", "y"]


def test_web_of_science_plain_text_reads_tags_and_continuation_lines(tmp_path: Path) -> None:
    text = ("\ufeffFN Clarivate Analytics Web of Science\nVR 1.0\n"
            "PT J\nAU Smith, J\n   Doe, A\nTI A title that\n   continues\nSO JOURNAL OF TESTS\n"
            "DE alpha; beta\nAB An abstract\n   on two lines.\nPY 2018\nDI 10.1/wos\nUT WOS:000123\nER\n\n"
            "PT J\nAU Roe, R\nTI Second\nSO OTHER JOURNAL\nAB Second abstract.\nPY 2019\nUT WOS:000124\nER\n\nEF\n")
    path = write(tmp_path / "savedrecs.txt", text)
    assert detect_format(path) == "wos"
    papers, errors = papers_and_errors(path)
    assert errors == []
    first = papers[0]
    assert (first.id, first.title, first.abstract) == ("WOS:000123", "A title that continues",
                                                       "An abstract on two lines.")
    assert first.fields["authors"] == ["Smith, J", "Doe, A"] and first.fields["keywords"] == ["alpha", "beta"]
    assert (first.fields["journal"], first.fields["year"], first.fields["doi"]) == ("JOURNAL OF TESTS", 2018,
                                                                                    "10.1/wos")
    assert papers[1].title == "Second"


def test_cochrane_central_export(tmp_path: Path) -> None:
    text = ("Record #1 of 2\nID: CN-01234567\nAU: Smith J\nAU: Doe A\nTI: A trial of things\n"
            "SO: Trials\nYR: 2017\nKY: Adult; Humans\nAB: We randomised things.\nDOI: 10.1/c1\n\n"
            "Record #2 of 2\nID: CN-07654321\nTI: Another trial\nSO: BMJ\nYR: 2018\nAB: Second.\n")
    path = write(tmp_path / "citation-export.txt", text)
    assert detect_format(path) == "cochrane"
    papers = list(read_papers(path))
    assert [(p.id, p.title, p.fields["journal"], p.fields["year"]) for p in papers] == [
        ("CN-01234567", "A trial of things", "Trials", 2017), ("CN-07654321", "Another trial", "BMJ", 2018)]
    assert papers[0].fields["authors"] == ["Smith J", "Doe A"] and papers[0].fields["keywords"] == ["Adult", "Humans"]


def test_csl_json_items_get_journal_year_doi_and_author_names(tmp_path: Path) -> None:
    items = [{"id": "http://zotero.org/users/1/items/ABC", "type": "article-journal", "title": "CSL title",
              "container-title": "Journal of CSL", "abstract": "CSL abstract.", "DOI": "10.1/csl",
              "author": [{"family": "Smith", "given": "Jane"}, {"literal": "The Consortium"}],
              "issued": {"date-parts": [[2021, 5, 3]]}}]
    (paper,) = list(read_papers(write(tmp_path / "zotero.json", json.dumps(items))))
    assert (paper.id, paper.title, paper.abstract) == ("http://zotero.org/users/1/items/ABC", "CSL title",
                                                        "CSL abstract.")
    assert paper.fields["journal"] == "Journal of CSL" and paper.fields["year"] == 2021
    assert paper.fields["doi"] == "10.1/csl" and paper.fields["authors"] == ["Smith, Jane", "The Consortium"]


PUBMED_CSV = ("PMID,Title,Authors,Citation,First Author,Journal/Book,Publication Year,Create Date,PMCID,NIHMS ID,DOI\n"
              "111,First paper,Smith J,Nature. 2020,Smith J,Nature,2020,2020/01/01,,,10.1/p1\n"
              "222,Second paper,Doe A,BMJ. 2021,Doe A,BMJ,2021,2021/01/01,,,10.1/p2\n")


def test_a_file_without_abstracts_names_the_fix_and_imports_titles_only_on_request(tmp_path: Path) -> None:
    path = write(tmp_path / "csv-asthma-set.csv", PUBMED_CSV)
    with pytest.raises(CorpusError) as error:
        read_papers(path)
    assert str(error.value).endswith("PubMed's CSV has no abstracts: save in PubMed format (.nbib) or as XML "
                                     "instead, or import titles only (--title-only in the CLI, 'Titles only' on the "
                                     "Library page)")
    papers = list(read_papers(path, title_only=True))
    assert [(p.id, p.title, p.abstract, p.fields["title_only"]) for p in papers] == [
        ("111", "First paper", "", True), ("222", "Second paper", "", True)]
    assert papers[0].fields["journal"] == "Nature" and papers[0].fields["year"] == 2020


def test_the_plan_counts_before_anything_is_stored_and_the_cli_dry_run_stores_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "Title,Abstract,Journal\nA,Abs,J1\nB,,J2\n,Abs c,J3\n"
    path = write(tmp_path / "mixed.csv", text)
    plan = plan_import(path)
    assert (plan.records, plan.papers, plan.with_abstract) == (3, 1, 1)
    # named by the rows a spreadsheet shows them on (the header is row 1)
    assert plan.skipped == [{"row": 3, "reason": "row 3: empty abstract"}, {"row": 4, "reason": "row 4: empty title"}]
    kept = plan_import(path, title_only=True)
    assert (kept.papers, kept.with_abstract, len(kept.skipped)) == (2, 1, 1)
    assert kept.summary() == "2 papers (1 title-only), 1 with an abstract; 1 row will be skipped"
    workspace = tmp_path / "ws"
    assert main(["--workspace", str(workspace), "import", str(path), "--dry-run", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["reader"], doc["header_row"], doc["separator"], doc["papers"], doc["skipped"]) == (
        "csv", 1, "comma", 1, 2)
    assert doc["columns"]["journal"] == "Journal"
    assert Store(workspace).corpora() == []
    assert main(["--workspace", str(workspace), "import", str(path), "--corpus", "c", "--title-only",
                 "--journal-column", "", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["added"], doc["skipped"], doc["title_only"], doc["columns"]["journal"]) == (2, 1, True, None)


def test_the_vocabulary_is_one_table_naming_the_tools() -> None:
    rows = tools_table()
    assert {"field", "column", "tools"} <= set(rows[0])
    assert "title_primary" in vocabulary()["title"] and "periodical_full" in vocabulary()["journal"]
    assert "source_title" in vocabulary()["journal"] and "eid" in vocabulary()["id"]
    tools = " ".join(r["tools"] for r in rows)
    for tool in ("RefWorks", "Zotero", "CINAHL", "Web of Science", "Scopus", "Lens", "Dimensions", "Covidence",
                 "Rayyan", "OpenAlex", "MEDLINE"):
        assert tool in tools


def _tagged(text: str, separator: str, tag_width: int, indent: str) -> list[dict[str, str]]:
    """An independent reading of tagged text: records split on ``separator``, each tag's lines joined by a space."""
    records = []
    for chunk in text.split(separator):
        tags: dict[str, str] = {}
        tag = ""
        for line in chunk.splitlines():
            if line.startswith(indent) and tag:
                tags[tag] += " " + line.strip()
            elif line.strip():
                tag = line[:tag_width].strip()
                tags.setdefault(tag, line[tag_width:].lstrip(" -").strip())
        if "TI" in tags:
            records.append(tags)
    return records


def test_a_real_pubmed_format_export_saved_as_txt() -> None:
    path = REAL / "pubmed_3.txt"
    expected = _tagged(path.read_text(), "\n\n", 4, "      ")
    papers, errors = papers_and_errors(path)
    assert detect_format(path) == "medline" and errors == [] and len(papers) == len(expected) == 3
    for paper, record in zip(papers, expected, strict=True):
        assert (paper.id, paper.title, paper.abstract) == (record["PMID"], record["TI"], record["AB"])
        assert paper.fields["journal"] == record["JT"] and paper.fields["year"] == int(record["DP"][:4])
    assert papers[0].fields["doi"] == "10.1016/j.scitotenv.2017.04.075"  # from the second LID line
    assert papers[0].fields["authors"][:2] == ["Neilen, Amanda D", "Chen, Chengrong R"]


def test_a_real_web_of_science_plain_text_export() -> None:
    path = REAL / "wos_3.ciw"
    expected = _tagged(path.read_text(), "\nER\n", 2, "   ")
    papers, errors = papers_and_errors(path)
    assert detect_format(path) == "wos" and errors == [] and len(papers) == len(expected) == 3
    for paper, record in zip(papers, expected, strict=True):
        assert (paper.id, paper.title, paper.abstract) == (record["UT"], record["TI"], record["AB"])
        assert (paper.fields["journal"], paper.fields["year"]) == (record["SO"], int(record["PY"]))
    assert papers[0].fields["authors"][:3] == ["Li, Wei", "Dou, Zhiguo", "Cui, Lijuan"]
    assert papers[0].fields["doi"] == "10.1080/20964129.2020.1722034"


def test_a_real_ovid_ris_export_with_numbered_records() -> None:
    path = REAL / "ovid_3.ris"
    raw = path.read_text()
    assert raw.startswith("1.\n")  # Ovid numbers its records on a line of their own
    papers, errors = papers_and_errors(path)
    titles = [line[6:].strip() for line in raw.splitlines() if line.startswith("T1  - ")]
    assert errors == [] and [p.title for p in papers] == titles and len(titles) == 3
    assert papers[0].fields["journal"] == "Open Journal of Forestry" and papers[0].fields["year"] == 2020


def test_a_real_embase_csv_export_takes_the_journal_and_year_from_its_source_citation() -> None:
    import csv

    path = REAL / "embase_3.csv"
    with open(path, encoding="utf-8", newline="") as handle:
        expected = list(csv.DictReader(handle))
    papers, errors = papers_and_errors(path)
    assert errors == [] and len(papers) == len(expected) == 3
    for paper, row in zip(papers, expected, strict=True):
        assert (paper.title, paper.abstract, paper.fields["source"]) == (row["Title"], row["Abstract"], row["Source"])
        assert row["Source"].startswith(f"{paper.fields['journal']} ({paper.fields['year']}) ")
        assert paper.fields["authors"] == row["Author Names"].split(", ")  # "Liu R., Adler D.G.": a list (issue 40)
    assert (papers[1].fields["journal"], papers[1].fields["year"]) == ("Cancer", 2004)


def test_a_real_web_of_science_ris_export() -> None:
    path = REAL / "wos_3.ris"
    lines = path.read_text().splitlines()
    titles = [line[6:].strip() for line in lines if line.startswith("TI  - ")]
    accession = [line[6:].strip() for line in lines if line.startswith("AN  - ")]
    papers, errors = papers_and_errors(path)
    assert errors == [] and [p.title for p in papers] == titles and len(titles) == 3
    assert [p.id for p in papers] == accession and papers[0].id.startswith("WOS:")
    assert papers[0].fields["journal"] == "JOURNAL OF APPLIED RESEARCH IN MEMORY AND COGNITION"


def test_a_real_workbook_from_a_screening_tool() -> None:
    openpyxl = pytest.importorskip("openpyxl")
    path = REAL / "asreview_ace.xlsx"
    sheet = openpyxl.load_workbook(path, read_only=True).worksheets[0]
    rows = list(sheet.iter_rows(values_only=True))
    header, body = list(rows[0]), rows[1:]
    with_abstract = [r for r in body if r[header.index("abstract")] not in (None, "") and r[1] not in (None, "")]
    plan = plan_import(path)
    assert plan.reading["reader"] == "excel" and plan.reading["sheet"] == sheet.title
    assert (plan.records, plan.papers) == (len(body), len(with_abstract))
    assert all(s["reason"].endswith("empty abstract") for s in plan.skipped)
    first = next(read_papers(path))
    assert (first.id, first.title) == (str(body[0][0]), body[0][1])
    assert first.fields["keywords"][:2] == [k.strip() for k in body[0][2].split(";")][:2]


@pytest.mark.parametrize("text", ["  Two\tspaces\u00a0and\u2003em\n\nlines\x1c ", "", "ÉCOLE  Straße", "a\u200bb", "x\x85y"])
def test_duplicate_keys_are_those_of_the_regex_white_space_fold(text: str) -> None:
    """normalise_text splits on white space instead of a regex: stored duplicate keys must not change."""
    import re

    from core.records import normalise_text

    assert normalise_text(text) == re.sub(r"\s+", " ", text).strip().lower()


def test_the_white_space_fold_agrees_with_the_regex_on_any_text() -> None:
    import re

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from core.records import normalise_text

    @settings(max_examples=300, deadline=None)
    @given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40))
    def check(text: str) -> None:
        assert normalise_text(text) == re.sub(r"\s+", " ", text).strip().lower()

    check()


def test_dimensions_and_lens_csv_headers(tmp_path: Path) -> None:
    dimensions = ('"About the data: Exported on Jan 04, 2021. Criteria: \'asthma\' in title and abstract."\n'
                  '"Rank","Publication ID","DOI","PMID","Title","Abstract","Source title","PubYear","Authors"\n'
                  '"1","pub.1000001","10.1/d1","","Dimensions paper","Its abstract.","Thorax","2020","Roe, R; Poe, P"\n')
    stream = read_papers(write(tmp_path / "Dimensions-Publication-2021.csv", dimensions))
    (paper,) = list(stream)
    assert stream.reading["header_row"] == 2 and stream.reading["columns"]["id"] == "Publication ID"
    assert (paper.id, paper.fields["journal"], paper.fields["year"], paper.fields["authors"]) == (
        "pub.1000001", "Thorax", 2020, ["Roe, R", "Poe, P"])
    lens = ("Lens ID,Title,Date Published,Publication Year,Source Title,Abstract,Author/s,DOI\n"
            "000-111-222-333-444,Lens paper,2019-05-01,2019,Chest,Lens abstract.,Doe J; Moe K,10.1/l1\n")
    (paper,) = list(read_papers(write(tmp_path / "lens-export.csv", lens)))
    assert (paper.id, paper.fields["journal"], paper.fields["year"]) == ("000-111-222-333-444", "Chest", 2019)
    assert paper.fields["authors"] == ["Doe J", "Moe K"] and paper.fields["date published"] == "2019-05-01"
    assert "publication year" not in paper.fields  # the year column's text is the year: kept once


def test_the_fold_of_ascii_text_agrees_with_the_regex() -> None:
    """ASCII texts take a short path (no split) when line breaks are their only irregular white space."""
    import re

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from core.records import normalise_text

    for text in ["a\nb", "a \nb", "\na", "a\n", "a\tb", "a\x1cb", "a\x0bb", "a\rb", "a b\x7f", "A\n\nB", "Ab Cd"]:
        assert normalise_text(text) == re.sub(r"\s+", " ", text).strip().lower(), repr(text)

    @settings(max_examples=500, deadline=None)
    @given(st.text(alphabet=st.sampled_from(list("aB \n\t\r\x0b\x0c\x1c\x1f\x7f.")), max_size=30))
    def check(text: str) -> None:
        assert normalise_text(text) == re.sub(r"\s+", " ", text).strip().lower()

    check()


def test_a_real_ais_elibrary_export_in_endnote_tagged_refer_text(tmp_path: Path) -> None:
    """Issue 19's 'not read yet': EndNote tagged text (%T/%A/%X), here as the AIS eLibrary writes it (.txt)."""
    path = REAL / "ais_refer_6.txt"
    text = path.read_text()
    expected = [dict((line[1], line[3:]) for line in block.splitlines() if line.startswith("%") and line[1] != "A")
                for block in text.split("\n\n") if block.strip()]
    assert detect_format(path) == "refer" and len(expected) == 6
    papers, errors = papers_and_errors(path)
    with_abstract = [r for r in expected if "X" in r]
    assert [(p.title, p.abstract) for p in papers] == [(r["T"], r["X"]) for r in with_abstract]
    # the journal's table of contents and subject index carry no abstract: skipped, each named by its record
    assert [(e.row, e.reason) for e in errors] == [(2, "row 2: empty abstract"), (3, "row 3: empty abstract")]
    first = papers[0].fields
    assert first["authors"] == ["Guo, Wenbo", "Straub, Detmar W.", "Zhang, Pengzhu", "Cai, Zhao"]
    assert (first["journal"], first["year"], first["volume"], first["pages"]) == (
        "Management Information Systems Quarterly", 2021, "45", "1309-1348")
    assert first["publication_type"] == "Journal Article" and first["url"].endswith("/misq/vol45/iss3/13")
    # a conference paper's venue is its %B: the meeting
    assert papers[1].fields["journal"] == "Hawaii International Conference on System Sciences 2019 (HICSS-52)"
    # the same text as Google Scholar names it, and as a .enl text file (CoLRev's tests): read by content
    for name in ("scholar.enw", "library.enl"):
        copy = write(tmp_path / name, text)
        assert detect_format(copy) == "refer" and len(papers_and_errors(copy)[0]) == 4


def test_refer_text_wrapped_lines_keywords_dois_and_records_without_a_blank_line(tmp_path: Path) -> None:
    text = ("\ufeff%0 Journal Article\r\n%T A title\r\n%A Smith, Jane\r\n%A Doe, A.\r\n%J Journal of Tests\r\n"
            "%D 2019\r\n%R doi:10.1/refer\r\n%K alpha\r\nbeta\r\n%K gamma; delta\r\n"
            "%X An abstract\r\nthat wraps.\r\n"
            "%0 Book Section\r\n%T A chapter\r\n%E Editor, E.\r\n%B The Book\r\n%D 2020\r\n%X Second.\r\n")
    path = write(tmp_path / "refs.enw", text)
    papers, errors = papers_and_errors(path)
    assert errors == [] and [(p.title, p.abstract) for p in papers] == [("A title", "An abstract that wraps."),
                                                                        ("A chapter", "Second.")]
    first, chapter = papers[0].fields, papers[1].fields
    assert first["authors"] == ["Smith, Jane", "Doe, A."] and first["doi"] == "10.1/refer"
    assert first["keywords"] == ["alpha", "beta", "gamma", "delta"] and first["year"] == 2019
    assert (chapter["journal"], chapter["editors"], chapter["year"]) == ("The Book", ["Editor, E."], 2020)
    assert "authors" not in chapter  # an editor is not an author


def test_an_endnote_library_file_is_named_as_such_with_the_way_to_export_it(tmp_path: Path) -> None:
    path = write(tmp_path / "My Library.enl", b"\x00\x01binary endnote database\x00" * 10)
    with pytest.raises(CorpusError, match=r"'My Library.enl' is an EndNote library .* Export and save as RIS"):
        detect_format(path)


def test_medline_gives_the_linking_issn_first_as_pubmed_xml_does() -> None:
    """Every ISSN of the IS lines, the Linking one first (issue 40 §3: one ISSN of several split journals)."""
    papers, _ = papers_and_errors(REAL / "pubmed_3.txt")
    assert [p.fields["issn"][0] for p in papers] == ["0048-9697", "0364-152X", "2167-8359"]
