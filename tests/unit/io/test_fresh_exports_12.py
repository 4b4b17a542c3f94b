"""Real exports from repositories the project had not read before (issue 40, twelfth round). Each file is a
byte-exact excerpt or a whole file (sources, licences and cuts in tests/fixtures/real/tools/SOURCES.md); each was
counted by a hand-written reader before the product read it (BENCHMARKS.md §25j)."""

from __future__ import annotations

from core.io import read_papers
from core.records import Paper
from core.store import Store, import_files
from core.store.identity import external_ids
from tests.unit.io.support import TOOLS, second_merges_whole, tools_papers


def _pmids(name: str) -> list[str | None]:
    """Each paper's PMID as the import's identity rules see it (from its id column or its fields)."""
    stream = read_papers(TOOLS / name)
    return [external_ids(p.fields, p.id, stream.id_column).get("pmid") for p in stream if isinstance(p, Paper)]

# --- Ovid's CSV export (Embase through Ovid): Ovid's field codes as the header -------------------------------------


def test_an_ovid_embase_csv_keeps_its_authors_apart_and_reads_journal_year_and_pmid() -> None:
    """Ovid's CSV (``ORN,VN,DB,UI,PM,TI,SO,AU,IN,PB,MH,DU,OD,AB,FTURL,AO``; Windows-1252, CRLF rows) writes a list
    field one value a line with an empty line between (``"Hall V.\\n\\nJohnson D.\\n\\nTorresi J."``): the three
    authors were one, "Hall V. Johnson D. Torresi J."; the journal was the whole source ("Journal of Travel Medicine.
    25 (1) (no pagination), 2018. Article Number: tay018. Date of …"), the year none, the PMID (``PM``:
    "29635641 [http://www.ncbi.nlm.nih.gov/pubmed/?term=29635641]") no id, and the Emtree headings one keyword."""
    papers = tools_papers("ovid_embase_csv_4.csv")
    assert len(papers) == 4
    first = papers[0]
    assert first.title == ("Travel and biologic therapy: Travel-related infection risk, vaccine response and "
                           "recommendations.")
    assert first.fields["authors"] == ["Hall V.", "Johnson D.", "Torresi J."]
    assert [len(p.fields["authors"]) for p in papers] == [3, 7, 17, 12]
    assert [p.fields["journal"] for p in papers] == ["Journal of Travel Medicine", "Health Information Science and "
                                                     "Systems", "Therapeutic Advances in Neurological Disorders",
                                                     "Alzheimer's Research and Therapy"]
    assert [p.fields["year"] for p in papers] == [2018, 2021, 2021, 2021]
    assert _pmids("ovid_embase_csv_4.csv") == ["29635641", None, None, "33863377"]
    assert first.fields["source"].startswith("Journal of Travel Medicine. 25 (1) (no pagination), 2018.")
    assert "*infection risk" in first.fields["keywords"] and "yellow fever vaccine" in first.fields["keywords"]
    assert first.abstract.startswith("Background: Biologic therapy has revolutionized the manageme")


def test_an_ovid_embase_csv_with_every_field_takes_the_journal_title_doi_and_author_keywords() -> None:
    """The same records exported with every field (``…,TJ,KW,UR,MH,…,DO,…,YR,…``): ``TJ`` is the journal's title,
    ``DO`` the DOI as a link, ``KW`` the author keywords one a line; the Embase accession number (``UI``) is no
    PMID."""
    papers = tools_papers("ovid_embase_csv_fields_4.csv")
    first = papers[0]
    assert first.fields["authors"] == ["Hall V.", "Johnson D.", "Torresi J."]
    assert first.fields["journal"] == "Journal of Travel Medicine"
    assert (first.fields["doi"], first.fields["year"]) == ("10.1093/jtm/tay018", 2018)
    assert _pmids("ovid_embase_csv_fields_4.csv") == ["29635641", None, None, "33863377"]
    assert first.fields["keywords"][:4] == ["Biologic agent", "Infection risk", "Travel", "Vaccine response"]
    assert first.fields.get("accession_number") == "2011722477"


def test_the_two_ovid_csv_exports_of_one_search_merge_whole(tmp_path) -> None:
    """Both files hold the same four Embase records: the second merges into the first, read = added + merged."""
    report = import_files(Store(tmp_path / "ws"), [TOOLS / "ovid_embase_csv_4.csv",
                                                   TOOLS / "ovid_embase_csv_fields_4.csv"], "c")
    later = report.files[1]
    assert (later.imported, later.added, later.merged, later.skipped) == (4, 0, 4, 0)
    assert report.imported == report.added + report.merged + report.skipped == 8


# --- PubMed's CSV: a generational suffix in one name --------------------------------------------------------------


def test_a_pubmed_csv_name_with_a_suffix_does_not_glue_the_author_list() -> None:
    """PubMed's CSV writes "Lima EABF, Oden JT, Hormuth DA 2nd, Yankeelov TE, Almeida RC.": "2nd" after the
    initials made the list read as one name (all five authors one); "Cox LA Jr." alone stays one name."""
    papers = tools_papers("pubmed_csv_suffix_3.csv", title_only=True)
    assert [len(p.fields["authors"]) for p in papers] == [1, 1, 5]
    assert papers[1].fields["authors"] == ["Cox LA Jr."]
    assert papers[2].fields["authors"] == ["Lima EABF", "Oden JT", "Hormuth DA 2nd", "Yankeelov TE", "Almeida RC"]


# --- ACM Digital Library BibTeX of IEEE papers: a formula written only as TeX ---------------------------------------


def test_a_formula_given_only_as_tex_keeps_its_text() -> None:
    """ACM's BibTeX of IEEE/ACM Transactions papers carries IEEE's markup: ``<inline-formula><tex-math
    notation="LaTeX">$F_0$</tex-math></inline-formula>`` (in the title, HTML-escaped). The TeX was dropped as an
    annotation repeating a formula, but here it is the formula's only form: "consecutive values", "the (i.e.,
    -norm", "Autoregressive Neural Model" lost what they were about. A ``tex-math`` beside MathML in ``<alternatives>``
    still repeats it and stays out."""
    vqvae = tools_papers("acm_bibtex_texmath_2.bib")[1]
    assert vqvae.title == ("A Vector Quantized Variational Autoencoder (VQ-VAE) Autoregressive Neural $F_0$ Model "
                           "for Statistical Parametric Speech Synthesis")
    assert "conditional independence between consecutive $F_0$ values, given the RNN state" in vqvae.abstract
    sparsity = tools_papers("acm_bibtex_texmath_2.bib")[0]
    assert "(i.e., $l_1$-norm, kurtosis" in sparsity.abstract
    assert "<tex-math" in sparsity.fields["abstract_markup"]  # the export's markup kept as exported


def test_tex_beside_mathml_in_alternatives_is_still_left_out() -> None:
    from core.io.markup import plain_text

    both = ('<p>a <inline-formula><alternatives><mml:math><mml:mi>x</mml:mi></mml:math>'
            '<tex-math>$x$</tex-math></alternatives></inline-formula> b</p>')
    assert plain_text(both) == "a x b"
    assert plain_text('<p>a <inline-formula><tex-math notation="LaTeX">$x$</tex-math></inline-formula> b</p>') == \
        "a $x$ b"


# --- Lens CSV: OpenAlex's "Deleted Journal" ------------------------------------------------------------------------


def test_lens_deleted_journal_is_no_journal() -> None:
    """Lens (from OpenAlex) names a venue it has lost "Deleted Journal": three papers of three journals (Journal of
    Disability Research, Journal of Electrical Systems, …) came out as one journal, one colour on the map and one
    vote. It is a placeholder, like Elicit's "-" for an unknown venue: no journal."""
    papers = tools_papers("lens_deleted_journal_3.csv")
    assert len(papers) == 3
    assert [p.fields.get("journal") for p in papers] == [None, None, None]


# --- Scopus BibTeX: a brace in an abstract written as text ----------------------------------------------------------


def test_a_scopus_bibtex_entry_with_an_unbalanced_brace_in_its_abstract_is_read_line_by_line() -> None:
    """Scopus writes a chemical name's braces as text and had dropped one ("4- [(5-amino-1H-1,2,4-triazol-3-yl)imino]
    methyl}-6-methoxyphenol"): the extra "}" closed the entry for bibtexparser and the paper was skipped as "could not
    be parsed" (1 of 732 in the source file). Scopus writes one field a line (``abstract={…},``), so such an entry is
    read line by line, with a warning naming the field."""
    from core.io.rows import RowWarning

    items = list(read_papers(TOOLS / "scopus_bibtex_brace_3.bib"))
    papers = [i for i in items if isinstance(i, Paper)]
    assert [p.fields.get("doi") for p in papers] == ["10.1016/j.scitotenv.2021.146994",
                                                    "10.1016/j.molstruc.2021.130382",
                                                    "10.1016/j.envpol.2021.117054"]
    sumrra = papers[1]
    assert sumrra.title.startswith("Computational investigation of molecular structures, spectroscopic properties")
    assert sumrra.fields["authors"][:2] == ["Sumrra, S.H.", "Zafar, W."]
    assert sumrra.fields["journal"] == "Journal of Molecular Structure" and sumrra.fields["year"] == 2021
    assert "imino]methyl}-6-methoxyphenol (L2) and one bis-Schiff base" in sumrra.abstract
    assert sumrra.abstract.endswith("as a result of chelation. © 2021")
    warnings = [i for i in items if isinstance(i, RowWarning)]
    assert [w.column for w in warnings] == ["abstract"]


# --- One DOI, PubMed's subscripts in parentheses ------------------------------------------------------------------


def test_pubmed_subscripts_in_parentheses_are_the_formula_of_the_scopus_title(tmp_path) -> None:
    """PubMed writes a formula's subscripts in parentheses ("… in SnCl(2)/NaBH(4) system: … for H(2)O(2)/glucose …"),
    Scopus as digits ("SnCl2/NaBH4", "H2O2"). One DOI, titles 98.6 % alike, but the "(2)", "(4)" read as numbers
    the other title lacks ("Part 2" against no part): "one DOI on different papers", and the paper was kept twice."""
    second_merges_whole(tmp_path, "pubmed_subscripts_1.nbib", "scopus_subscripts_1.bib", 1)


def test_a_number_in_parentheses_after_a_space_still_parts_titles() -> None:
    from core.store.identity import titles_agree

    assert titles_agree("Effects of H(2)O(2) on cells", "Effects of H2O2 on cells")
    assert not titles_agree("Long-term outcomes of the cohort study (2)", "Long-term outcomes of the cohort study")


# --- CNKI's E-Study text export (知网研学) ---------------------------------------------------------------------------


def test_a_cnki_estudy_export_is_read() -> None:
    """CNKI's E-Study text (``DataType: 1``, then ``Title-题名: …``, ``Author-作者: 柯洪琴;陈璿英;王启斌;``,
    ``Source-刊名: …``, ``Year-年``, ``PubTime-出版时间``, ``Keyword-关键词``, ``Summary-摘要: <正>…``) was refused
    as "an unknown format". Authors and keywords are lists, the year the publication date's where ``Year-年`` is
    missing, and CNKI's ``<正>`` marker (a summary taken from the body text) no text."""
    papers = tools_papers("cnki_estudy_3.txt")
    assert [p.title for p in papers] == ["1例卡培他滨与苯妥英钠相互作用致乳腺癌合并癫痫患者小脑功能障碍的病例分析",
                                         "中国女性乳腺癌筛查标准(T/CPMA 014-2020)", "阿霉素抗4T1乳腺癌荷瘤小鼠的免疫调控机制"]
    first = papers[0]
    assert first.fields["authors"] == ["柯洪琴", "陈璿英", "王启斌"]
    assert first.fields["journal"] == "中南药学"
    assert first.fields["keywords"] == ["苯妥英钠", "卡培他滨", "相互作用", "小脑功能障碍", "不良反应"]
    assert first.abstract.startswith("苯妥英钠作为一种传统抗癫痫药物(AEDs)")
    assert [p.fields["year"] for p in papers] == [2021, 2021, 2021]
    assert not papers[1].fields.get("authors")  # a standard, with no author
    assert papers[2].fields["authors"][:2] == ["张楠", "曹晓东"]


# --- PubMed format: a group author wrapped over two lines -----------------------------------------------------------


def test_a_wrapped_group_author_in_pubmed_format_stays_one_author() -> None:
    """``CN  - COVID-19 Working Group of The Cancer Institute Hospital of Japanese Foundation for`` /
    ``      Cancer Research``: Biopython's MEDLINE parser makes a continuation line of a list tag (CN, OT, RN, …) a new
    item, so the group came out as two authors, the second "Cancer Research"."""
    (paper,) = tools_papers("pubmed_cn_wrapped_1.nbib", title_only=True)
    assert paper.fields["authors"][-1] == ("COVID-19 Working Group of The Cancer Institute Hospital of Japanese "
                                           "Foundation for Cancer Research")
    assert "Cancer Research" not in paper.fields["authors"]
