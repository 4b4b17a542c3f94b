"""Round 19 of fresh real exports (BENCHMARKS §25r): files no earlier round had read, each defect a failing test
first. Fixtures under tests/fixtures/real/tools (SOURCES.md, "Round 19"); where the source repository has no
licence the record's values are typed in here instead (as §25p did)."""

from __future__ import annotations

from pathlib import Path

from core.store import Store
from core.store.importing import import_file

# Publish or Perish's CSV header as it wrote it for a Google Scholar search (qpetalsbreezi/trichoptera-bibliometrics,
# data/raw/google_scholar/trichoptera_google_scholar_raw_2023.csv; no licence file, so the rows below are typed in,
# shortened, from its rows 2, 7 and 9)
_POP_HEADER = ("\ufeffCites,Authors,Title,Year,Source,Publisher,ArticleURL,CitesURL,GSRank,QueryDate,Type,DOI,ISSN,"
               "CitationURL,Volume,Issue,StartPage,EndPage,ECC,CitesPerYear,CitesPerAuthor,AuthorCount,Age,Abstract,"
               "FullTextURL,RelatedURL\n")
_POP_ROWS = (
    '0,"M Ramírez-Carmona","1.8 Tricópteros, los arquitectos de los ríos",,"“Del monte baja la vida"": historia '
    'biocultural de la …","researchgate.net","https://www.researchgate.net/x.pdf","",649,"2026-01-04 09:49:12",'
    '"PDF","","","",,,,,0,0.00,0,1,,"… El término ""Trichoptera"", que es el nombre científico de este Orden, '
    'proviene del griego …","",""\n'
    '1,"X Ge, Z Peng, L Peng, X Jia, K Chen, C Sun, B Wang","A checklist of the caddisflies (Insecta: Trichoptera) '
    'from the middle and lower basins of Jinsha river, southwestern China; including one new species and nine …",'
    '2023,"Diversity","mdpi.com","https://www.mdpi.com/1424-2818/15/2/181","https://scholar.google.com/scholar?'
    'cites=5225104678599514811",27,"2026-01-04 09:49:12","HTML","","","",,,,,1,0.33,0,7,3,"… study provides the '
    'first published checklist for caddisfly in the middle and lower basins of the …","",""\n'
    '22,"F Keck, J Brantschen, F Altermatt","A combination of machine‐learning and eDNA reveals the genetic '
    'signature of environmental change at the landscape levels",2023,"Molecular Ecology","Wiley Online Library",'
    '"https://onlinelibrary.wiley.com/doi/abs/10.1111/mec.17073","",901,"2026-01-04 09:49:12","",'
    '"10.1111/mec.17073","","",,,,,22,7.33,7,3,3,"… However, Amphipoda and Trichoptera were clearly detected in '
    'lower proportions by metabarcoding …","",""\n'
)


def test_a_publish_or_perish_cites_count_is_no_reference_list(tmp_path: Path) -> None:
    """Publish or Perish's ``Cites`` is how many times Google Scholar says a paper was cited (0, 1, 22), one
    number a row. It was read as the paper's reference list: every row's "0" reported as a malformed reference
    id, every other count looked up as the id of a cited paper ("not in corpus"; a corpus whose ids are numbers
    would have got false citation links). The count stays a field as exported; no reference is read."""
    path = tmp_path / "pop_scholar.csv"
    path.write_text(_POP_HEADER + _POP_ROWS, encoding="utf-8")
    report = import_file(Store(tmp_path / "ws"), path, "c")
    assert report.imported == report.added == 3
    assert report.links["read"] == 0 and report.links["dropped"] == 0
    assert not report.link_rows


def test_a_scopus_title_with_its_original_after_a_semicolon_is_the_same_dois_paper(tmp_path: Path) -> None:
    """Scopus' CSV of 2025 writes a translated paper's title as "English title; Original title" (no brackets,
    as its older ``[Original title]`` had): "Neuroendorine paraneoplastic syndromes; Neuroendokrine
    paraneoplastische Syndrome" (Hautarzt, German). Web of Science gives the English title alone under the same
    DOI and PMID. The two were kept apart as "one DOI on different papers"; the part before "; " is the title."""
    from tests.unit.io.support import second_merges_whole

    second_merges_whole(tmp_path, "scopus_translated_title_1.csv", "wos_translated_title_1.txt", 1)


# ScienceDirect's "Export citation to text", as JuanSebastianGarcia/Analisis-bibliometrico keeps two of them
# (`analisis bibliometrico/data/ScienceDirect_citations_1727133168286.txt` @ 1f792f8, 100 records; `Datos sin
# normalizar/ScienceDirect_citations_1726852264314.txt` @ fd8d6b6, 60 records); no licence file, so three records
# are typed in here, their abstracts shortened: a journal article, a book chapter with editors, an untitled
# supplement without authors or abstract.
_SCIENCEDIRECT_TEXT = """Meltem Özmutlu, Derin Atay, Barış Erdoğan,
Collaboration and engagement based coding training to enhance children’s computational thinking self-efficacy,
Thinking Skills and Creativity,
Volume 40,
2021,
100833,
ISSN 1871-1871,
https://doi.org/10.1016/j.tsc.2021.100833.
(https://www.sciencedirect.com/science/article/pii/S1871187121000481)
Abstract: Although there are different definitions for computational thinking in the literature, it is possible \
to define it mainly as problem solving.
Keywords: Computational thinking; Algorithm; Programming

Ramon Carbó-Dorca,
Mathematical Elements of Quantum Electronic Density Functions,
Editor(s): J.R. Sabin, E. Brändas,
Advances in Quantum Chemistry,
Academic Press,
Volume 49,
2005,
Pages 121-207,
ISSN 0065-3276,
ISBN 9780120348497,
https://doi.org/10.1016/S0065-3276(05)49003-6.
(https://www.sciencedirect.com/science/article/pii/S0065327605490036)
Abstract: Resumen
Objetivo
This chapter is a discussion on the electronic density functions formal structure and mathematical properties.

MESAS ESPONTÁNEAS/TABELAS ESPONTÂNEAS,
Gaceta Sanitaria,
Volume 37, Supplement 1,
2023,
Pages S6-S56,
ISSN 0213-9111,
https://doi.org/10.1016/S0213-9111(23)00047-X.
(https://www.sciencedirect.com/science/article/pii/S021391112300047X)
"""


def test_a_sciencedirect_text_export_is_read(tmp_path: Path) -> None:
    """ScienceDirect's text export (a printed reference a line, each ended by a comma; the link in parentheses;
    "Abstract:", "Keywords:") was refused as a CSV "with no title column (found: Meltem Özmutlu, …)"."""
    from core.io.formats import detect_format
    from tests.unit.io.support import papers_and_errors

    path = tmp_path / "ScienceDirect_citations_1727133168286.txt"
    path.write_text(_SCIENCEDIRECT_TEXT, encoding="utf-8")
    assert detect_format(path) == "sciencedirect"
    papers, errors = papers_and_errors(path, title_only=True)
    assert len(papers) == 3 and not errors
    first, chapter, supplement = (p.fields for p in papers)
    assert papers[0].title.startswith("Collaboration and engagement based coding training to enhance children’s")
    assert first["authors"] == ["Meltem Özmutlu", "Derin Atay", "Barış Erdoğan"]
    assert (first["journal"], first["volume"], first["year"]) == ("Thinking Skills and Creativity", "40", 2021)
    assert first["doi"] == "10.1016/j.tsc.2021.100833" and first["article_number"] == "100833"
    assert first["keywords"] == ["Computational thinking", "Algorithm", "Programming"]
    assert papers[0].abstract.startswith("Although there are different definitions")
    assert papers[1].title == "Mathematical Elements of Quantum Electronic Density Functions"
    assert chapter["authors"] == ["Ramon Carbó-Dorca"] and chapter["editors"] == ["J.R. Sabin", "E. Brändas"]
    assert (chapter["journal"], chapter["publisher"], chapter["pages"]) == ("Advances in Quantum Chemistry",
                                                                           "Academic Press", "121-207")
    assert chapter["isbn"] == "9780120348497" and chapter["doi"] == "10.1016/S0065-3276(05)49003-6"
    assert papers[2].title == "MESAS ESPONTÁNEAS/TABELAS ESPONTÂNEAS" and "authors" not in supplement
    assert supplement["journal"] == "Gaceta Sanitaria" and supplement["pages"] == "S6-S56"


def test_a_sciencedirect_text_export_cut_short_says_so(tmp_path: Path) -> None:
    """The file cut inside its last record's citation (no link line): the records before are read, the cut one is
    skipped with the cut-short sentence; none is lost without a word."""
    from tests.unit.io.support import papers_and_errors

    cut = _SCIENCEDIRECT_TEXT[:_SCIENCEDIRECT_TEXT.index("Pages S6-S56")]
    path = tmp_path / "sd.txt"
    path.write_text(cut, encoding="utf-8")
    papers, errors = papers_and_errors(path, title_only=True)
    assert len(papers) == 2 and len(errors) == 1
    assert "cut short" in errors[0].reason and errors[0].row == 3


# Scopus' RIS of 2026, as BrewSSS/open-window-precision-biomarkers-scoping-review keeps its first ten records
# (`03_search/availability_export_test_2026-10-05/Scopus_EI_first10.ris` @ 825d32d, read through the file index; no
# licence file, so one record is typed in, shortened)
_SCOPUS_RIS_2026 = """TY  - JOUR
AU  - Elrefaei, N.
AU  - Christian, D.A.
AU  - Adams, T.A.
TI  - A stochastic agent-based model for naive CD8+ T cell recirculation dynamics in mice
PY  - 2026
T2  - Journal of Theoretical Biology
VL  - 635
C7  - 112577
DO  - 10.1016/j.jtbi.2026.112577
UR  - https://www.scopus.com/pages/publications/105049105133?origin=resultslist
AB  - Understanding the dynamics of T cell recirculation is vital for predicting immune responses.
SN  - 00225193 (ISSN)
C2  - 42660280
LA  - English
J2  - J. Theor. Biol.
M3  - Article
DB  - Scopus
N1  - EID: 2-s2.0-105049105133
ER  -
"""


def test_a_scopus_ris_records_c2_is_its_pmid(tmp_path: Path) -> None:
    """Scopus writes a record's PubMed ID under ``C2`` in its RIS ("C2  - 42660280", ``DB  - Scopus``); it was kept
    only as "custom2", so the record had no PMID to match a PubMed or MEDLINE record by."""
    from tests.unit.io.support import papers_and_errors

    path = tmp_path / "scopus.ris"
    path.write_text(_SCOPUS_RIS_2026, encoding="utf-8")
    papers, _ = papers_and_errors(path)
    assert "42660280" in (papers[0].id, papers[0].fields.get("pmid"))  # the PMID (the id the reader chose)
    assert "custom2" not in papers[0].fields


def test_an_endnote_ris_c2_pmc_id_is_its_pmcid(tmp_path: Path) -> None:
    """EndNote writes a PubMed record's PMC id under ``C2`` ("C2  - PMC5887696", tests/fixtures/real/endnote_3.ris):
    its form says what it is."""
    from tests.unit.io.support import papers_and_errors

    papers, _ = papers_and_errors(Path(__file__).resolve().parents[2] / "fixtures" / "real" / "endnote_3.ris")
    assert papers[0].fields.get("pmcid") == "PMC5887696"


# CNKI's EndNote (Refer) export of a thesis, as cmsax/cnki-converter keeps one for its demo (`demo.txt` @ 0f5116e,
# 40 records, CRLF; no licence file, so the record is typed in, its paragraphs shortened): the abstract's paragraphs
# are separated by empty lines, and the record's last tag, ``%W CNKI``, follows the last paragraph after one.
_CNKI_THESIS = ("%0 Thesis\r\n%A 张建华\r\n%T 基于深度学习的语音识别应用研究\r\n%Y 徐蔚然\r\n%I 北京邮电大学\r\n%9 硕士\r\n"
                "%D 2015\r\n%K 语音识别;;深度学习;;特征提取\r\n%X 随着智能家居、车载语音系统以及各种语音识别软件流行。\r\n\r\n"
                "    1、基于深度神经网络的声学特征提取研究\r\n\r\n    深度神经网络是一种有监督训练的多层网络。\r\n\r\n"
                "%W CNKI\r\n\r\n"
                "%0 Journal Article\r\n%A 吴继琴\r\n%T Fairclough 三维分析模型下的话语分析\r\n%J 九江职业技术学院学报\r\n"
                "%D 2019\r\n%X “一带一路”倡议背景下,江西企业“走出去”取得巨大成绩。\r\n%W CNKI\r\n\r\n")


def test_a_cnki_refer_tag_after_an_abstracts_paragraphs_ends_no_record(tmp_path: Path) -> None:
    """A tag after an empty line began a new record, so CNKI's ``%W CNKI`` after a thesis abstract's last paragraph
    was a record of its own: 40 records read as 49, the 9 extra skipped as "empty title and abstract". A tag the
    record does not have yet, after its ``%0``, is more of the same record; ``%0`` or a tag it already has begins
    the next."""
    from tests.unit.io.support import papers_and_errors

    path = tmp_path / "CNKI-demo.txt"
    path.write_bytes(_CNKI_THESIS.encode("utf-8"))
    papers, errors = papers_and_errors(path)
    assert len(papers) == 2 and not errors
    thesis = papers[0]
    assert thesis.title == "基于深度学习的语音识别应用研究" and thesis.fields["database_provider"] == "CNKI"
    assert "1、基于深度神经网络的声学特征提取研究" in thesis.abstract and "有监督训练的多层网络" in thesis.abstract
    assert papers[1].fields["journal"] == "九江职业技术学院学报"
