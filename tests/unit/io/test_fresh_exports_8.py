"""Real exports from repositories the project had not read before (issue 40, eighth round), and two leftovers of
issue 40: BibLaTeX books that list only editors, and a one-item DSpace Dublin Core file. Each file is a byte-exact
excerpt or a whole file (sources, licences and cuts in tests/fixtures/real/tools/SOURCES.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.io import read_papers
from core.io.formats import detect_format
from core.records import Paper
from tests.unit.io.support import TOOLS
from tests.unit.io.support import tools_items as _items
from tests.unit.io.support import tools_papers as _papers

# --- NoteExpress (.net) as CNKI writes it ------------------------------------------------------------------------

def test_a_cnki_noteexpress_export_is_read_with_its_authors_as_a_list() -> None:
    """CNKI's NoteExpress export (``{Reference Type}: Journal Article``, ``{Author}: A;;B;;C``): "unknown format".
    Five records, five abstracts; authors split at ";;" (foreign articles) and ";" (Chinese names, a trailing ";"),
    keywords too; ``(#br)`` is a line break and Elsevier's leading "Abstract" heading is dropped."""
    assert detect_format(TOOLS / "noteexpress_cnki_5.net") == "noteexpress"
    papers = _papers("noteexpress_cnki_5.net")
    assert len(papers) == 5
    first = papers[0]
    assert first.title == "Share-option based compensation expense, shareholder returns and financial crisis"
    assert first.fields["authors"] == ["Alaa Alhaj-Ismail", "Sami Adwan", "John Stittle"]
    assert (first.fields["journal"], first.fields["year"]) == ("Journal of Contemporary Accounting & Economics", 2019)
    assert first.abstract.startswith("This paper contributes to the literature") and "(#br)" not in first.abstract
    assert first.fields["keywords"][:2] == ["IFRS 2", "Share-based payment"]
    third = papers[2]
    assert third.title == "高效产生任意矢量光场的一种方法"
    assert third.fields["authors"] == ["齐淑霞", "刘圣", "李鹏", "韩磊", "程华超", "吴东京", "赵建林"]
    assert third.fields["keywords"] == ["偏振态", "空间光调制器", "矢量光场"]
    assert (third.fields["journal"], third.fields["year"]) == ("物理学报", None)  # online first: no {Year}
    assert not any("(#br)" in p.abstract for p in papers)


def test_a_structured_noteexpress_abstract_keeps_its_sections_as_lines() -> None:
    """A structured abstract ("Abstract(#br)Background(#br)Surgical clinic …(#br)Materials and methods(#br)…"):
    its sections are lines, the heading "Abstract" is dropped; twelve authors joined by ";;" are twelve."""
    papers = _papers("noteexpress_cnki_english_3.net")
    assert len(papers) == 3
    assert papers[0].fields["authors"][-1] == "Yaohua Feng" and len(papers[0].fields["authors"]) == 12
    structured = papers[2].abstract.split("\n")
    assert structured[:2] == ["Background", structured[1]] and structured[1].startswith("Surgical clinic")
    assert "Materials and methods" in structured and "Conclusions" in structured


def test_every_kind_of_cnki_record_is_accounted_for() -> None:
    """Fifteen records of nine kinds (articles, theses, a conference paper, a newspaper article, a book, standards,
    a patent): nine with an abstract are papers, the other six are skipped as without one, none lost. A newspaper's
    title is its journal, a conference paper's proceedings too; a year comes from ``{Date}`` where no ``{Year}``."""
    items = _items("noteexpress_cnki_types_15.net")
    papers = [i for i in items if isinstance(i, Paper)]
    assert (len(papers), len(items)) == (9, 15)
    by_title = {p.title: p for p in _papers("noteexpress_cnki_types_15.net", title_only=True)}
    assert len(by_title) == 15
    assert by_title["坚持在大局下行动"].fields["journal"] == "人民铁道"
    assert by_title["坚持在大局下行动"].fields["year"] == 2019  # {Date}: 2019-01-09
    conference = by_title["城市竖向对下凹式立交桥积水风险的影响"]
    assert conference.fields["journal"].startswith("共享与品质——2018中国城市规划年会论文集")
    article = by_title["携手前进,共创未来——习近平在巴拿马媒体发表署名文章"]
    assert not article.abstract.startswith("<正>") and article.abstract.startswith("11月30日")
    assert article.fields["keywords"][:2] == ["巴拿马", "习近平"]  # joined by "," in this record
    assert by_title["企业党员干部队伍建设问题研究"].fields["authors"] == ["徐敏"]


def test_a_noteexpress_record_with_full_width_colons_and_semicolons() -> None:
    """A record of the Chinese Medical Association: ``{Abstract}：`` and ``{URL}：`` with a full-width colon,
    keywords joined by "；". The abstract and URL were part of the keywords line."""
    paper = _papers("noteexpress_cnki_fullwidth_1.net")[0]
    assert paper.title == "软组织肉瘤诊治中国专家共识(2015年版)"
    assert paper.abstract.startswith("软组织肉瘤是一类间叶来源的恶性肿瘤")
    assert paper.fields["keywords"] == ["肉瘤", "软组织肿瘤", "诊断", "治疗", "规范"]
    assert paper.fields["url"] == "https://rs.yiigle.com/CN112152201604/889113.htm"
    assert paper.fields["authors"] == ["中国抗癌协会肉瘤专业委员会", "中国临床肿瘤学会"]
    assert (paper.fields["journal"], paper.fields["year"]) == ("中华肿瘤杂志", 2016)


def test_a_noteexpress_value_broken_by_bare_carriage_returns_stays_one_field() -> None:
    """CRLF lines, an address broken by eight bare CRs and a line starting ",": one record; Chinese authors joined
    by "," are two people."""
    papers = _papers("noteexpress_cnki_cr_1.net")
    assert len(papers) == 1
    paper = papers[0]
    assert paper.fields["authors"] == ["谢昕", "王小增"]
    assert paper.fields["address"].endswith(",湖北武汉430074") and "\r" not in paper.fields["address"]
    assert (paper.fields["journal"], paper.fields["year"], paper.fields["issue"]) == ("湖北社会科学", 2005, "09")
    assert paper.fields["keywords"] == ["政府公共关系", "公共行政", "发展历程", "理念"]


# --- leftover: BibLaTeX books that list only editors -------------------------------------------------------------

def test_a_book_that_lists_only_editors_has_them_as_its_people() -> None:
    """Zotero (Better BibLaTeX) writes an edited book with ``editor = {…}`` and no ``author``: it had no authors,
    so the side panel and every export showed nobody. The editors are its people, as Zotero's creator column and
    the citation styles show them ("Uhlir, P. F. (Ed.)"), marked as editors; a book with only translators keeps
    none as authors (Zotero does not list translators as its creators either)."""
    papers = {p.id: p for p in _papers("bbt_biblatex_editors_4.bib", title_only=True)}
    assert papers["bordier2016"].fields["authors"] == ["Bordier, Julien"]
    assert "author_role" not in papers["bordier2016"].fields
    edited = papers["uhlir2012"]
    assert edited.fields["authors"] == ["Uhlir, P. F.", "National Research Council (U.S.)"]
    assert edited.fields["editors"] == edited.fields["authors"] and edited.fields["author_role"] == "editors"
    assert papers["davidhazi2014"].fields["authors"] == ["Dávidházi, Péter"]
    translated = papers["mounier2012"]
    assert translated.fields["authors"] == [] and len(translated.fields["translator"]) == 6


@pytest.mark.parametrize("fmt", ["bibtex", "ris", "csl"])
def test_an_edited_book_is_exported_with_its_editors_as_editors(tmp_path, fmt: str) -> None:
    """Exported, the editors stay editors (BibTeX ``editor``, RIS ``ED``, CSL ``editor``) so Zotero and EndNote
    read them as such, and read back here they are the book's people again; an author is still written as one."""
    from core.io.reference_export import write_references

    papers = _papers("bbt_biblatex_editors_4.bib", title_only=True)
    path = tmp_path / f"out.{ {'bibtex': 'bib', 'ris': 'ris', 'csl': 'json'}[fmt]}"
    with open(path, "w", encoding="utf-8", newline="") as out:
        write_references(papers, out, fmt)
    text = path.read_text(encoding="utf-8")
    marks = {"bibtex": ("editor = {Uhlir, P. F. and", "author = {Bordier, Julien}"),
             "ris": ("ED  - Uhlir, P. F.", "AU  - Bordier, Julien"), "csl": ('"editor": [', '"author": [')}[fmt]
    assert all(mark in text for mark in marks)
    again = {p.title: p for p in read_papers(path, title_only=True) if isinstance(p, Paper)}
    book = again[papers[3].title]
    assert book.fields["authors"] == ["Uhlir, P. F.", "National Research Council (U.S.)"]
    assert book.fields.get("author_role") == "editors"


# --- leftover: one DSpace item in Dublin Core ------------------------------------------------------------------------

def test_a_dspace_dublin_core_file_is_one_paper() -> None:
    """DSpace exports each item of a collection in its own folder with its own ``dublin_core.xml`` (the Simple
    Archive Format), so a file of one item is what DSpace writes, not a broken export: it was refused naming its
    root element. Now one paper: title, the English abstract (the German ``abstractalt`` kept apart), the author as
    a list, the year issued, the subjects as keywords."""
    assert detect_format(TOOLS / "opengrey_dspace_dc_1.xml") == "dspace"
    papers = _papers("opengrey_dspace_dc_1.xml")
    assert len(papers) == 1
    paper = papers[0]
    assert paper.title == "Social security strategies and redistributive effects in European social transfer systems"
    assert paper.abstract.startswith("'The present paper examines the linkage between social security strategies")
    assert paper.fields["abstract_alt"].startswith("Die Autorin zeigt")
    assert (paper.fields["authors"], paper.fields["year"]) == (["Kraus, Margit"], 2000)
    assert paper.fields["keywords"][:2] == ["EU", "SOCIAL POLICY"] and len(paper.fields["keywords"]) == 12
    assert paper.fields["identifier_uri"] == "http://hdl.handle.net/10068/86620"


def test_a_folder_of_dspace_items_imports_as_one_collection(store, tmp_path) -> None:
    """Several items' ``dublin_core.xml`` files dropped together are one corpus, every record accounted for."""
    from core.store import import_file

    source = (TOOLS / "opengrey_dspace_dc_1.xml").read_bytes()
    first = tmp_path / "item_000" / "dublin_core.xml"
    second = tmp_path / "item_001" / "dublin_core.xml"
    for path, data in ((first, source), (second, source.replace(b"Social security strategies", b"Pension rules"))):
        path.parent.mkdir()
        path.write_bytes(data)
    reports = [import_file(store, path, "c") for path in (first, second)]
    assert [(r.imported, r.added, r.merged, r.skipped) for r in reports] == [(1, 1, 0, 0), (1, 1, 0, 0)]
    assert store.corpus("c").papers == 2


# --- SpringerLink's CSV: authors run together ----------------------------------------------------------------------

def test_springerlink_csv_authors_run_together_are_split_into_people() -> None:
    """SpringerLink's search-results CSV writes every author of a paper in one cell with no separator ("Araz R.
    AlievNigar T. Ismayilova"): each paper had one author, glued, in the panel and every export. A name ends where a
    lower-case letter meets a capital ("…AlievNigar…"), except inside a family name ("McDonald", "DeVries")."""
    papers = _papers("springer_3.csv", title_only=True)
    assert papers[0].fields["authors"] == ["Araz R. Aliev", "Nigar T. Ismayilova"]
    assert papers[1].fields["authors"] == ["Prof. Rafik A. Aliev", "Prof. Dr. Janusz Kacprzyk", "Prof. Witold Pedrycz",
                                          "Prof. Mo Jamshidi", "Mustafa Babanli", "Prof. Fahreddin M. Sadikoglu"]
    assert papers[2].fields["authors"] == ["Barnabás Bede", "Prof. Martine Ceberio", "Dr. Martine De Cock",
                                          "Prof. Vladik Kreinovich"]


@pytest.mark.parametrize(("cell", "names"), [
    ("Cristiano André da CostaRodrigo da Rosa Righi", ["Cristiano André da Costa", "Rodrigo da Rosa Righi"]),
    ("Xiaolong (Luke) ZhangXiaoru Yuan", ["Xiaolong (Luke) Zhang", "Xiaoru Yuan"]),
    ("Mary McDonaldJohn DeVriesAnn MacArthur", ["Mary McDonald", "John DeVries", "Ann MacArthur"]),
    ("Jiang FeiMa Xiaoping", ["Jiang Fei", "Ma Xiaoping"]),
    ("Simon Elias Bibri", ["Simon Elias Bibri"]),
])
def test_springer_names_run_together_split_where_one_name_ends(tmp_path, cell: str, names: list[str]) -> None:
    """Cells from a real SpringerLink export (CBurgardt/TASD-mestrado's SearchResults.csv) and particles that
    must hold."""
    header = "Item Title,Publication Title,Book Series Title,Journal Volume,Journal Issue,Item DOI,Authors," \
             "Publication Year,URL,Content Type\n"
    row = f'"A title","A journal","","1","2","10.1007/x","{cell}","2019","http://link.springer.com/x","Article"\n'
    path = tmp_path / "SearchResults.csv"
    path.write_text(header + row, encoding="utf-8")
    paper = next(p for p in read_papers(path, title_only=True) if isinstance(p, Paper))
    assert paper.fields["authors"] == names


# --- Europe PMC records as getpapers and pygetpapers save them ------------------------------------------------------

def test_a_getpapers_europe_pmc_file_is_read() -> None:
    """ContentMine's getpapers saves Europe PMC's search results as ``eupmc_results.json``: a list of Europe PMC
    records with every value in a one-item list (``"title": ["…"]``) and the abstract as ``abstractText``. It was
    refused ("no abstract column"). Three records: an editorial without an abstract, skipped; two papers with their
    journal (``journalInfo.journal.title``), year, DOI, PMID, authors as "Family, Given" and keywords."""
    items = _items("eupmc_getpapers_3.json")
    papers = [i for i in items if isinstance(i, Paper)]
    assert (len(items), len(papers)) == (3, 2)
    first = papers[0]
    assert first.title == "Optogenetic Stimulation Enhanced Neuronal Plasticities in Motor Recovery after " \
                          "Ischemic Stroke."
    assert first.abstract.startswith("Motor capability recovery after ischemic stroke involves dynamic remodeling")
    assert (first.fields["journal"], first.fields["year"], first.fields["doi"]) == (
        "Neural Plasticity", 2019, "10.1155/2019/5271573")
    assert first.fields["pmid"] == "31007684" and first.fields["pmcid"] == "PMC6441501"
    assert first.fields["authors"][:2] == ["Lu, Changbo", "Wu, Xianglong"] and len(first.fields["authors"]) == 8
    assert papers[1].fields["authors"][0] == "O'Shea, Christopher"
    assert papers[1].fields["keywords"][:2] == ["Fluorescence", "Calcium"]
    titles = {p.title for p in _papers("eupmc_getpapers_3.json", title_only=True)}
    assert "A new approach to urinary bladder control with optogenetics." in titles


def test_a_pygetpapers_europe_pmc_file_and_its_csv_are_read() -> None:
    """pygetpapers keeps the records under ``papers`` keyed by PMCID (``{"nextCursorMark", "papers": {…}}``) and
    writes the same as ``europe_pmc.csv`` (a nameless index column, ``abstractText``, ``authorString``,
    ``pubYear``): both refused. Four records, one without an abstract; the same three papers from either file."""
    items = _items("eupmc_pygetpapers_4.json")
    papers = [i for i in items if isinstance(i, Paper)]
    assert (len(items), len(papers)) == (4, 3)
    first = papers[0]
    assert first.title.startswith("Analysis of Management Practices and Breeders' Perceptions of Climate Change")
    assert first.abstract.startswith("Global climate change inflicts unambiguous risks on agricultural")
    assert (first.fields["journal"], first.fields["year"], first.fields["doi"]) == (
        "Animals : an open access journal from MDPI", 2024, "10.3390/ani14060885")
    assert first.fields["authors"][:2] == ["Mohamed-Brahmi, Aziza", "Ameur, Mehrez"]
    assert len(first.fields["authors"]) == 11 and first.fields["keywords"][0] == "Sheep"
    single = next(p for p in _papers("eupmc_pygetpapers_4.json", title_only=True) if not p.abstract)
    assert single.fields["authors"] == ["Köhler-Rollefson, Ilse"]  # one author: an object, not a list
    table = _items("eupmc_pygetpapers_4.csv")
    rows = [i for i in table if isinstance(i, Paper)]
    assert (len(table), [p.title for p in rows]) == (4, [p.title for p in papers])
    assert rows[0].fields["year"] == 2024 and rows[0].fields["authors"][0] == "Mohamed-Brahmi A"


@pytest.mark.parametrize(("cell", "count", "kept"), [
    ("Harris RB, Wenying W, Badinqiuying, Smith AT, Bedunah DJ.", 5, "Badinqiuying"),
    ("Peng MS, Liu YH, Shen QK, Zhang XH, Dong J, Li JX, Zhao H, Zhang H, Zhang X, He Y, Shi H, Cui C, Ouzhuluobu, "
     "Wu TY, Liu SM, Gonggalanzi, Baimakangzhuo, Bai C, Duojizhuoma, Liu T, Dai SS, Murphy RW, Qi XB, Dong G, Su B, "
     "Zhang YP.", 26, "Ouzhuluobu"),
])
def test_a_pubmed_style_author_list_with_one_word_names_is_split(cell: str, count: int, kept: str) -> None:
    """Europe PMC's ``authorString`` (pygetpapers' europe_pmc.csv, shiwani-w/Adaptation-Strategies) writes names
    PubMed's way, "Family Initials" joined by ", ", where Tibetan authors have one name ("Badinqiuying"): the whole
    list was one author, as a name without initials broke the "every part ends in initials" rule."""
    from core.io.names import author_list

    names = author_list(cell)
    assert len(names) == count and kept in names and names[-1].endswith(("DJ", "YP"))
    assert author_list("Smith, John") == ["Smith, John"]
    assert author_list("Department of Health, Education and Welfare") == [
        "Department of Health, Education and Welfare"]


# --- NASA ADS BibTeX -------------------------------------------------------------------------------------------------

def test_a_nasa_ads_bibtex_export_with_abstracts_reads_journals_placeholders_and_paragraphs() -> None:
    """NASA ADS's BibTeX with abstracts (its export service's own output, 24 records): a journal written as an AAS
    macro (``journal = {\\prl}``) was the text "\\prl"; ADS's "no abstract" placeholder (``Not Available
    \\textbackslash\\textbackslash``) was an abstract ("Not Available \\\\"); ADS writes a paragraph break as
    ``\\textbackslash\\textbackslash``, which ran into the next word ("\\textbackslashThe", kept as an unknown
    command); ``~`` between initials ("D.~W.~E.") stayed in the authors' names."""
    items = _items("ads_bibtex_abs_24.bib", title_only=True)
    papers = [i for i in items if isinstance(i, Paper)]
    assert len(items) == len(papers) == 24
    by_id = {p.id: p for p in papers}
    prl = by_id["2018PhRvL.120b9901P"]
    assert prl.fields["journal"] == "Physical Review Letters" and prl.fields["journal_abbreviation"] == "PhRvL"
    assert not prl.abstract and not by_id["2018Wthr...73Q..35."].abstract
    assert len([p for p in papers if p.abstract]) == 9
    assert not any("textbackslash" in p.abstract or p.abstract.rstrip().endswith("\\") for p in papers)
    catalog = by_id["2017yCat.113380453S"].abstract
    assert "comparison star.\nThe analysis has been performed" in " ".join(catalog.split(" "))
    assert by_id["2017CBET.4403....2G"].fields["authors"] == ["Green, D. W. E."]
    assert by_id["2007AAS...210.2104M"].fields["authors"][1] == "Drake, A. J."


# --- RIS written with one space before the dash ---------------------------------------------------------------------

def test_a_ris_file_with_one_space_before_each_dash_is_read() -> None:
    """A RIS file whose tags are written ``TY - JOUR`` (one space before the dash, not two; 124 records, none of
    them read: "has no records"). Zotero's and EndNote's RIS readers take it; so does this one, tag lines being
    known only inside a record that starts so, so a wrapped abstract line such as "US - China trade" stays text."""
    papers = _papers("ris_one_space_3.ris")
    assert len(papers) == 3
    first = papers[0]
    assert first.title.startswith("1,520 reference genomes from cultivated human gut bacteria")
    assert first.abstract.startswith("Reference genomes are essential for metagenomic analyses")
    assert (first.fields["journal"], first.fields["year"], first.fields["doi"]) == (
        "Nature Biotechnology", 2019, "10.1038/s41587-018-0008-8")
    assert first.fields["authors"][:2] == ["Zou, Yuanqiang", "Xue, Wenbin"] and len(first.fields["authors"]) == 31
    assert papers[2].fields["authors"][-1] == "Vega Thurber, Rebecca"


def test_one_space_tags_are_tags_only_in_a_record_that_starts_so(tmp_path) -> None:
    path = tmp_path / "two.ris"
    path.write_text("TY  - JOUR\nTI  - A title\nAB  - An abstract on trade between the\nUS - China and others.\n"
                    "ER  - \n", encoding="utf-8")
    paper = _papers_at(path)[0]
    assert paper.abstract.endswith("US - China and others.") and "US" not in paper.fields
    assert detect_format(TOOLS / "ris_one_space_3.ris") == "ris"
    renamed = tmp_path / "export.txt"
    renamed.write_bytes((TOOLS / "ris_one_space_3.ris").read_bytes())
    assert detect_format(renamed) == "ris"


def _papers_at(path: Path) -> list[Paper]:
    return [item for item in read_papers(path) if isinstance(item, Paper)]
