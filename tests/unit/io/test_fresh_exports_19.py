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
