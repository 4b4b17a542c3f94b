"""Round 20 of fresh real exports (BENCHMARKS §25s): files no earlier round had read, each defect a failing test
first. Sources in tests/fixtures/real/tools/SOURCES.md ("Round 20"); the records below are typed in, shortened,
from those files."""

from __future__ import annotations

from pathlib import Path

from tests.unit.io.support import papers_and_errors, write

# ProQuest's export of a search's documents as a table (kokkoniemi/mapping-study-toolbox, MIT:
# scrapers/ProQuestDocuments-2020-05-10-1.csv, 300 records), saved as CSV by a spreadsheet with ";" between cells
# and CRLF after each row. Its own column names: "pubtitle" the journal, "digitalObjectIdentifier" the DOI (with a
# leading space, as every value after the first columns), "StoreId" ProQuest's document id (its docview link).
_PROQUEST_HEADER = ("Title;Abstract;StoreId;AccessionNumber;AlternateTitle;ArticleType;AuthorAffiliation;Authors;"
                    "digitalObjectIdentifier;documentType;issn;issue;language;pages;pubdate;pubtitle;year;volume;"
                    "DocumentURL;subjects;Database\r\n")
_PROQUEST_ROWS = (
    "Reflections of design-based research approach on learning experience of visual programming;The purpose of "
    "this study was to examine the reflections of design-based research approach on visual programming.;"
    "2385076517;;;Scholarly Journals;;\"Özyurt, Hacer;Özcan Özyurt\"; 10.33902/JPR.2020057981; Journal Article;;1;"
    " English; 12-21;Apr 2020;Journal of Pedagogical Research;2020;4;"
    "https://search.proquest.com/docview/2385076517?accountid=11774; design-based research , visual programming;"
    "ProQuest Central,Social Science Premium Collection\r\n"
    "Collaborative Approach in Software Engineering Education: An Interdisciplinary Case;This study describes a "
    "collaborative approach to software engineering education.;2101386811; EJ1181267;;Scholarly Journals;;"
    "\"Vicente, Aileen Joan;Tan, Tiffany Adelaine;Yu, Alvin Ray\";; Article , Report;2165-3151;; English; 127-152;2018;"
    "Journal of Information Technology Education: Innovations in Practice;2018;17;"
    "https://search.proquest.com/docview/2101386811?accountid=11774; Higher Education , Philippines;"
    "Social Science Premium Collection\r\n"
)


def test_a_proquest_table_names_its_journal_doi_and_document_id(tmp_path: Path) -> None:
    """ProQuest's table names the journal "pubtitle", the DOI "digitalObjectIdentifier" and its document id
    "StoreId": none was known, so 300 records came in without a journal or DOI (and ERIC's and ProQuest Central's
    copies of one paper could merge only by title)."""
    path = write(tmp_path / "ProQuestDocuments-2020-05-10-1.csv", _PROQUEST_HEADER + _PROQUEST_ROWS)
    papers, errors = papers_and_errors(path)
    assert len(papers) == 2 and not errors
    first, second = papers
    assert first.fields["journal"] == "Journal of Pedagogical Research"
    assert first.fields["doi"] == "10.33902/JPR.2020057981"
    assert first.id == "2385076517" and second.id == "2101386811"
    assert second.fields["journal"] == "Journal of Information Technology Education: Innovations in Practice"
    assert not second.fields.get("doi")
    assert first.fields["authors"] == ["Özyurt, Hacer", "Özcan Özyurt"]


# DistillerSR's report of the references it marked duplicates (HEDCO-Institute/4DSW_Scoping_Review, CC BY 4.0:
# data/4dsw-duplicate-refs.csv, 574 rows): all of a reference's authors in one cell as "Family, Given, Family,
# Given"; rows 8 and 9 are one report, its authors listed in another order.
_DISTILLER = (
    'RefID,Author,Title,Abstract,Reason,Labels,"Response Sets",Attachments\n'
    '143,"Husted, Jessica L., Davis, Derald E., Haniger, Jason T., Lewis, Jared R.","A Project Focusing on '
    "Superintendents' Knowledge of Evidence-Based Practices of Structuring Time for Student Learning\",\"This "
    'report describes a problem based learning project.","duplicate of 138","Initial RIS Import",,\n'
    '150,"Haniger, Jason T., Davis, Derald E., Husted, Jessica L., Lewis, Jared R.","A Project Focusing on '
    "Superintendents' Knowledge of Evidence-Based Practices of Structuring Time for Student Learning\",\"This "
    'report describes a problem based learning project on superintendents.","duplicate of 138",'
    '"Initial RIS Import",,\n'
    '44,"Turner, Jon, Finch, Kim, Uribe-Zarain, Ximena","Staff Perspectives of the Four-Day School Week: A New '
    'Analysis of Compressed School Schedules","Staff perspectives.","duplicate of 430","Initial RIS Import",,\n'
    '1,"Hale, RMM","A case study of the four-day school week in five South Dakota prekindergarten-12 public schools"'
    ',"A case study.","duplicate of 3054","Initial RIS Import",,\n'
)


def test_distillersr_names_in_one_cell_are_each_a_person(tmp_path: Path) -> None:
    """"Husted, Jessica L., Davis, Derald E., …" was kept as one author: the paper showed one person with every
    name in it, and its first author's family name agreed with any other record whose author cell held "Haniger"
    anywhere (the two rows above merged as "same title, year and first author" though their first authors
    differ; they are one report, listed twice). Pairs of a family name and given names, two or more, are the
    people."""
    path = write(tmp_path / "4dsw-duplicate-refs.csv", _DISTILLER)
    papers, errors = papers_and_errors(path)
    assert len(papers) == 4 and not errors
    assert papers[0].fields["authors"] == ["Husted, Jessica L.", "Davis, Derald E.", "Haniger, Jason T.",
                                           "Lewis, Jared R."]
    assert papers[2].fields["authors"] == ["Turner, Jon", "Finch, Kim", "Uribe-Zarain, Ximena"]
    assert papers[3].fields["authors"] == ["Hale, RMM"]


# Zotero's BibTeX of the review's eligible studies (same repository: outputs/data_dashboard/data/
# eligible_studies_ref.bib @ f9bf639^, 135 entries): the attachment paths in ``file``, some escaped for BibTeX
# (``C\:\\Users\\…``), most as Windows wrote them (``C:\Users\…``).
_ZOTERO_BIB = r"""@article{akinsFourDayModifiedSchool2022,
  title = {Four-{{Day Modified School Systems}} in {{Rural Oklahoma}}},
  author = {Akins, Bryan},
  year = {2022},
  abstract = {A study of four-day school weeks in rural Oklahoma.},
  journal = {Electronic Theses and Dissertations},
  file = {C\:\\Users\\strevino\\Zotero\\storage\\5X5L626V\\Akins_2022_Four-Day.pdf;C\:\\Users\\strevino\\Zotero\\storage\\B4GZNVLU\\435.html}
}

@phdthesis{amysFourdaySchoolWeek2016,
  title = {The Four-Day School Week: {{Research}} on Extended Weekends},
  author = {Amys, Ryan Donald},
  year = {2016},
  abstract = {With restrictions being made on state budgets.},
  school = {Montana State University},
  file = {C:\Users\strevino\Zotero\storage\9E92G9M5\Amys_2016_The four-day school week.pdf}
}
"""


def test_a_bibtex_file_field_is_a_path_not_latex(tmp_path: Path) -> None:
    """``file`` holds the attachments' paths on the exporting machine. Read as LaTeX, the escaped form became
    "C \\nUsers\\nstrevino\\n…" (``\\:`` a space, ``\\\\`` a line break) and the plain form gave a warning per
    entry ("unknown LaTeX command \\Users, \\strevino, … kept as written": 117 for 135 entries). Kept as the
    paths, with BibTeX's escapes undone, and no warning."""
    from core.store import Store
    from core.store.importing import import_file

    path = write(tmp_path / "eligible_studies_ref.bib", _ZOTERO_BIB)
    papers, _ = papers_and_errors(path)
    assert len(papers) == 2
    assert papers[0].fields["file"] == ("C:\\Users\\strevino\\Zotero\\storage\\5X5L626V\\Akins_2022_Four-Day.pdf;"
                                        "C:\\Users\\strevino\\Zotero\\storage\\B4GZNVLU\\435.html")
    assert papers[1].fields["file"] == ("C:\\Users\\strevino\\Zotero\\storage\\9E92G9M5\\"
                                        "Amys_2016_The four-day school week.pdf")
    report = import_file(Store(tmp_path / "ws"), path, "c")
    assert report.added == 2 and not [w for w in report.warnings if "file" in str(w)]


def test_better_bibtex_relax_before_initials_is_no_text(tmp_path: Path) -> None:
    """Zotero (Better BibTeX) writes an author's bare initials as ``{\\relax LM}`` so that BibLaTeX keeps them one
    unit (same file: 8 of 135 entries, "Braun, {\\relax LM}", "Maiden, J and Crowson, {\\relax HM} and Byerly, C").
    ``\\relax`` does nothing in LaTeX; it was kept as written with a warning, the author shown "Braun, \\relax LM"."""
    from core.store import Store
    from core.store.importing import import_file

    path = write(tmp_path / "relax.bib", "@techreport{braunFourDay1985,\n  title = {The Four-Day School Week in "
                 "Rural Districts},\n  author = {Maiden, J and Crowson, {\\relax HM} and Byerly, C},\n  year = "
                 "{1985},\n  abstract = {A survey of districts.}\n}\n")
    papers, _ = papers_and_errors(path)
    assert papers[0].fields["authors"] == ["Maiden, J", "Crowson, HM", "Byerly, C"]
    report = import_file(Store(tmp_path / "ws"), path, "c")
    assert report.added == 1 and not report.warnings


def test_a_proquest_title_and_its_translation_after_a_slash_is_the_same_dois_paper(tmp_path: Path) -> None:
    """ProQuest writes a Spanish paper's two titles "English title?/Título original" (no spaces around the "/");
    Scopus writes "English title? [Título original]" under the same DOI (kokkoniemi/mapping-study-toolbox's one
    search: scopus.csv and ProQuestDocuments-2020-05-14.csv, row 140). The two were kept apart as "one DOI on
    different papers"; the parts around the "/" are the titles."""
    from core.store import Store, import_files

    scopus = write(tmp_path / "scopus.csv", (
        '\ufeffAuthors,Title,Year,Source title,DOI,Abstract,EID\n"Andreu-Andrés M.Á., García-Casas M.",'
        '"Cooperative or collaborative learning: Is there a difference in university students’ perceptions? '
        '[Aprendizaje cooperativo o colaborativo: ¿hay alguna diferencia en la percepción de los estudiantes '
        'universitarios?]",2016,"Revista Complutense de Educacion","10.5209/rev_RCED.2016.v27.n3.47398",'
        '"The aim of this study is to know the perception of university students.",2-s2.0-84978159427\n'))
    proquest = write(tmp_path / "ProQuestDocuments-2020-05-14.csv", (
        "Title;Abstract;StoreId;Authors;digitalObjectIdentifier;pubtitle;year\r\n"
        "\"Cooperative or collaborative learning: Is there a difference in university students' perceptions?/"
        "Aprendizaje cooperativo o colaborativo: ¿hay alguna diferencia en la percepción de los estudiantes "
        "universitarios?\";The aim of this study is to know the perception of the university students.;1806618828;"
        "\"Andreu-Andrés, María Ángeles;García-Casas, Miguel\"; 10.5209/rev_RCED.2016.v27.n3.47398;"
        "Revista Complutense de Educación;2016\r\n"))
    report = import_files(Store(tmp_path / "ws"), [scopus, proquest], "c")
    later = report.files[1]
    assert (later.imported, later.added, later.merged) == (1, 0, 1) and not later.conflicts


# Embase's RIS of 2024 (eduardstan/telemonitoring-wearable-devices-review, MIT: data/raw/embase/
# usability_100_records.ris, 100 records, 60 with C5): the MEDLINE PMID in ``C5``, Embase's own id in ``U2``.
_EMBASE_RIS = """TY  - JOUR
M3  - Article
Y1  - 2024
VL  - 84
IS  - 4
SP  - 266
EP  - 273
SN  - 1876-4738
JF  - Journal of Cardiology
JO  - J. Cardiol.
UR  - https://www.embase.com/search/results?subaction=viewrecord&id=L2032248265&from=export
U2  - L2032248265
C5  - 38701945
DB  - Embase
DB  - Medline
DO  - 10.1016/j.jjcc.2024.04.009
A1  - Kagiyama, N.
A1  - Kasai, T.
T1  - Feasibility of self-measurement telemonitoring using a handheld heart sound recorder in patients with heart \
failure – SELPH multicenter pilot study
N2  - Background: Multi-parametric assessment, including heart sounds, may help to detect heart failure.
ER  - 

"""


def test_an_embase_ris_record_has_its_medline_pmid_from_c5(tmp_path: Path) -> None:
    """Embase's RIS writes a MEDLINE record's PMID as ``C5``: it was kept only as "custom5", so an Embase record
    without a DOI could not meet its PubMed copy by PMID, nor show its PMID."""
    path = write(tmp_path / "embase_usability.ris", _EMBASE_RIS)
    papers, _ = papers_and_errors(path)
    assert "38701945" in (papers[0].id, papers[0].fields.get("pmid"))  # the PMID (the id the reader chose)
    assert "custom5" not in papers[0].fields


# Rayyan's CSV as jbaladeg/systematic_review_RAYYAN keeps it (articles_github.csv @ 4f4ba1e, 399 KB, read through
# the file index; no licence file, so two records are typed in, shortened): a record from a Korean database gives
# its title and journal in two languages as a JSON list in one cell, and R's "NA" for missing values.
_RAYYAN = (
    '"key","title","year","month","day","journal","issn","volume","issue","pages","authors","url","language",'
    '"publisher","location","abstract","doi","keywords","pubmed_id","pmc_id","notes"\n'
    '"rayyan-176871698","[""Analyzing the Slope of Korean Maze CBM for Students with Reading Disabilities: Focusing '
    'on the Sensitivity of Slope and Differences in Gender and Grade"", ""읽기 장애학생을 위한 어절 선택 CBM 분석: '
    '기울기 민감도, 성별, 학년 차이에 초점을 맞추어""]",2020,NA,NA,"[""The Korea Journal of Learning '
    'Disabilities"", ""학습장애연구""]","1738-7337",17,3,"159-176","Yeo,, Seungsoo","","","",NA,"It is necessary '
    'for teachers to use a progress monitoring tool.","10.47635/KJLD.2020.17.3.159","",NA,NA,"RAYYAN-INCLUSION: '
    '{""rater1""=>""Excluded""} | RAYYAN-LABELS: bloque 1"\n'
    '"rayyan-176871696","Sensitivity/Specificity of an Executive Function Screener at Detecting ADHD and Reading '
    'Disability",2016,NA,NA,"CLINICAL NEUROPSYCHOLOGIST","[""1385-4046"", ""1744-4144""]",30,5,"779-780","Karr, J. '
    'and Garcia-Barrera, M. A. and Kibby, M. Y.","","","",NA,"An executive function screener.","","",NA,NA,'
    '"RAYYAN-INCLUSION: {""rater1""=>""Excluded""}"\n'
)


def test_a_rayyan_title_given_in_two_languages_as_a_list_is_its_first_title(tmp_path: Path) -> None:
    """The title cell '["Analyzing the Slope of Korean Maze CBM …", "읽기 장애학생을 위한 …"]' was the paper's title
    as written, brackets and quotes shown in every view and export (the journal cell, a list too, was read as
    one). The first is the title; the others are kept as the paper's other titles."""
    path = write(tmp_path / "articles.csv", _RAYYAN)
    papers, errors = papers_and_errors(path)
    assert len(papers) == 2 and not errors
    korean, other = papers
    assert korean.title == ("Analyzing the Slope of Korean Maze CBM for Students with Reading Disabilities: Focusing "
                            "on the Sensitivity of Slope and Differences in Gender and Grade")
    assert korean.fields["other_titles"] == ["읽기 장애학생을 위한 어절 선택 CBM 분석: 기울기 민감도, 성별, 학년 차이에 초점을 맞추어"]
    assert other.title.startswith("Sensitivity/Specificity of an Executive") and "other_titles" not in other.fields


def test_a_rayyan_journal_given_in_two_languages_is_one_journal(tmp_path: Path) -> None:
    """The journal cell '["The Korea Journal of Learning Disabilities", "학습장애연구"]' was read as a list: the
    paper had no journal name to show or colour by (a journal is one text). The first is the journal, the other is
    kept as another name of it, which the corpus's journal names know."""
    from core.journal_identity import journal_identities

    path = write(tmp_path / "articles.csv", _RAYYAN)
    papers, _ = papers_and_errors(path)
    korean = papers[0]
    assert korean.fields["journal"] == "The Korea Journal of Learning Disabilities"
    assert korean.fields["journal_other_names"] == ["학습장애연구"]
    names = journal_identities([(p.id, p.fields) for p in papers])
    assert names.names[korean.id] == "The Korea Journal of Learning Disabilities"
    assert names.name_of("학습장애연구") == "The Korea Journal of Learning Disabilities"
