"""Tests for core.io.papers and the readers: rows validated into papers, streaming, real data."""

from __future__ import annotations

import codecs
import gzip
import itertools
import json
import tracemalloc
from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import columns_of, preview, read_papers, read_rows
from core.records import Paper, RowError, duplicate_key
from tests.unit.io.support import FIXTURES, MEDICAL, papers_and_errors, write


def test_csv_reader_validates_rows_and_derives_ids() -> None:
    papers, errors = papers_and_errors(FIXTURES / "papers.csv")
    assert [p.id for p in papers] == ["p1", "p2", "10.1000/c", duplicate_key(
        "Paper with a hashed id", "Neither an id nor a DOI is given here.")[:16]]
    first, second = papers[0], papers[1]
    assert first.title == "Deep learning for cells"
    assert first.fields == {"journal": "Nature", "year": 2020, "doi": "10.1000/a"}
    assert second.title == "Quoted, title"
    assert second.abstract == "First line of the abstract.\nSecond line, with a comma."
    assert second.fields["doi"] is None
    # records 4 and 5, named by the rows a spreadsheet shows (the header is row 1; a quoted abstract on two lines
    # is one row)
    assert errors == [RowError(4, "row 5: empty abstract"), RowError(5, "row 6: empty title")]


def test_tsv_reader_detects_alternative_column_names() -> None:
    papers, errors = papers_and_errors(FIXTURES / "papers.tsv")
    assert [(p.id, p.title, p.fields) for p in papers] == [
        ("101", "Graph neural networks", {"category": "cs.LG"}),
        ("102", "Protein folding", {"category": "q-bio.BM"}),
    ]
    assert errors == [RowError(3, "row 4: empty abstract")]


def test_jsonl_reader_keeps_nested_values_and_normalises_names() -> None:
    papers, errors = papers_and_errors(FIXTURES / "papers.jsonl")
    attention, bert = papers
    assert attention.fields == {
        "keywords": ["attention", "translation"],
        "meta": {"venue": "NeurIPS", "pages": [1, 11]},
        "year": 2017,
        "score": None,
    }
    assert bert.abstract == "Pre-training of deep bidirectional transformers."
    assert bert.fields["journal"] == "NAACL"  # the vocabulary reads "venue" as the journal
    assert errors == [RowError(2, "row 2: empty title")]


def test_parquet_reader_streams_batches(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({
        "paper_id": [1, 2, 3],
        "title": ["A", "B", None],
        "abstract": ["text a", "text b", "text c"],
        "score": [0.5, float("nan"), 1.0],
    })
    pq.write_table(table, tmp_path / "p.parquet", row_group_size=1)
    papers, errors = papers_and_errors(tmp_path / "p.parquet")
    assert [(p.id, p.title, p.fields) for p in papers] == [("1", "A", {"score": 0.5}), ("2", "B", {"score": None})]
    assert errors == [RowError(3, "row 3: empty title")]


def test_pubmed_reader_maps_medline_fields() -> None:
    papers, errors = papers_and_errors(FIXTURES / "pubmed.xml")
    dopamine, carcase = papers
    assert dopamine.id == "10704411"
    assert dopamine.abstract == (
        "BACKGROUND\nDrugs of abuse facilitate dopamine release.\n\nRESULTS\n"
        "Dopamine modulates responses of flies to cocaine."
    )
    fields = dopamine.fields
    assert fields["journal"] == "Current biology : CB"
    assert fields["year"] == 2000
    assert fields["doi"] == "10.1016/s0960-9822(00)00336-5"
    assert fields["mesh"] == ["Animals", "Dopamine"]
    assert fields["keywords"] == ["addiction", "flies"]
    assert fields["authors"] == ["Bainton, R J", "Heberlein, U"]  # LastName, ForeName: MEDLINE's FAU form
    assert fields["country"] == "England"
    assert carcase.id == "399296" and carcase.fields["year"] == 1979
    assert errors == [RowError(2, "row 2: empty abstract")]


def test_bibtex_reader_strips_braces_and_decodes_latex() -> None:
    papers, errors = papers_and_errors(FIXTURES / "refs.bib")
    smith, lee = papers
    assert smith.id == "smith2020deep"
    assert smith.title == "Deep learning for Übersicht of cells"
    assert smith.abstract == "We study deep networks and find 50% fewer errors."
    assert smith.fields["journal"] == "Journal of Machine Learning"
    assert smith.fields["authors"] == ["Smith, John", "Müller, Anna"]
    assert smith.fields["year"] == 2020 and smith.fields["entrytype"] == "article"
    assert smith.fields["keywords"] == ["deep learning", "cells"]
    assert lee.fields["journal"] == "Proceedings of KDD"
    assert errors == [RowError(3, "row 3: empty abstract")]


def test_bibtex_entries_sharing_a_key_are_all_read(tmp_path: Path) -> None:
    bib = write(tmp_path / "d.bib", "@misc{a, title={T1}, abstract={A1}}\n@misc{a, title={T2}, abstract={A2}}\n")
    papers, errors = papers_and_errors(bib)  # a key is an id: the importer keeps the second as 'a~2' (issue 40)
    assert [(p.id, p.title) for p in papers] == [("a", "T1"), ("a", "T2")]
    assert errors == []


def test_ris_reader_maps_tags_and_joins_continuation_lines() -> None:
    papers, errors = papers_and_errors(FIXTURES / "refs.ris")
    apnea, neutrophil = papers
    assert apnea.id == "10.1152/jappl.1990.1"
    assert apnea.abstract == "Topical anesthesia increased obstructive apneas in loud snorers."
    assert apnea.fields["journal"] == "Journal of Applied Physiology"
    assert apnea.fields["year"] == 1990
    assert apnea.fields["authors"] == ["Doe, Jane", "Roe, Richard"]
    assert apnea.fields["keywords"] == ["sleep", "apnea"]
    assert neutrophil.id == "ris-2"
    assert neutrophil.fields["journal"] == "Blood Conference" and neutrophil.fields["year"] == 1989
    assert errors == [RowError(3, "row 3: empty abstract")]


def test_column_overrides_apply_when_reading(tmp_path: Path) -> None:
    csv_file = write(tmp_path / "o.csv", "Heading,Body,Ref\nA title,An abstract,r1\n")
    (paper,) = read_papers(csv_file, title_column="Heading", abstract_column="Body", id_column="Ref")
    assert (paper.id, paper.title, paper.abstract, paper.fields) == ("r1", "A title", "An abstract", {})


def test_read_papers_names_the_missing_abstract_column() -> None:
    with pytest.raises(CorpusError) as error:
        read_papers(FIXTURES / "papers.csv", abstract_column="Body")
    assert "file 'papers.csv' has no column 'Body'" in str(error.value)


def test_read_rows_keeps_every_raw_column() -> None:
    rows = list(read_rows(FIXTURES / "papers.csv"))
    assert len(rows) == 6
    assert rows[3] == {"ID": "p4", "Title": "Paper without an abstract", "Abstract": "",
                       "Journal": "Nature", "Year": "2021", "DOI": ""}


def test_columns_of_and_preview() -> None:
    assert columns_of(FIXTURES / "papers.jsonl") == ["id", "title", "abstract", "keywords", "meta", "year",
                                                    "score", "Venue "]
    frame = preview(FIXTURES / "papers.csv", n=2)
    assert list(frame.columns) == ["ID", "Title", "Abstract", "Journal", "Year", "DOI"]
    assert frame["ID"].tolist() == ["p1", "p2"]


def test_ids_are_stable_across_rereads() -> None:
    first = [p.id for p in read_papers(FIXTURES / "papers.csv") if isinstance(p, Paper)]
    second = [p.id for p in read_papers(FIXTURES / "papers.csv") if isinstance(p, Paper)]
    assert first == second


def test_bom_utf8_and_utf16_files_are_read(tmp_path: Path) -> None:
    text = "id,title,abstract\nx1,Café culture,Über alles\n"
    for name, data in (("bom8.csv", codecs.BOM_UTF8 + text.encode("utf-8")), ("u16.csv", text.encode("utf-16"))):
        assert columns_of(write(tmp_path / name, data)) == ["id", "title", "abstract"]
        (paper,) = read_papers(tmp_path / name)
        assert (paper.id, paper.title, paper.abstract) == ("x1", "Café culture", "Über alles")


def test_gzipped_jsonl_is_read(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl.gz"
    path.write_bytes(gzip.compress((FIXTURES / "papers.jsonl").read_bytes()))
    assert [p.id for p in read_papers(path) if isinstance(p, Paper)] == ["j1", "j3"]


@pytest.mark.parametrize(
    ("record", "reason"),
    [
        ({"title": "T"}, "row 2: empty abstract"),
        ({"title": "T", "abstract": "   \n "}, "row 2: empty abstract"),
        ({"title": float("nan"), "abstract": "A"}, "row 2: empty title"),
        ({"title": None, "abstract": None}, "row 2: empty title and abstract"),
        ({"title": ["T"], "abstract": "A"}, "row 2: title or abstract is not text"),
    ],
)
def test_rows_without_usable_title_or_abstract_are_skipped(tmp_path: Path, record: dict, reason: str) -> None:
    lines = [json.dumps({"title": "Good", "abstract": "Fine"}), json.dumps(record)]
    papers, errors = papers_and_errors(write(tmp_path / "r.jsonl", "\n".join(lines)))
    assert [p.title for p in papers] == ["Good"]
    assert errors == [RowError(2, reason)]


def test_gzipped_pubmed_xml_is_read(tmp_path: Path) -> None:
    path = write(tmp_path / "pubmed.xml.gz", gzip.compress((FIXTURES / "pubmed.xml").read_bytes()))
    assert [p.id for p in read_papers(path) if isinstance(p, Paper)] == ["10704411", "399296"]


def test_json_array_file_is_read(tmp_path: Path) -> None:
    path = write(tmp_path / "a.json", json.dumps([{"id": 1, "title": "T", "abstract": "A", "tags": ["x"]}]))
    assert list(read_papers(path)) == [Paper("1", "T", "A", {"tags": ["x"]})]


def test_extra_cells_in_a_csv_row_become_a_row_error(tmp_path: Path) -> None:
    path = write(tmp_path / "e.csv", "title,abstract\nT,A\nT2,A2,surplus\n")
    papers, errors = papers_and_errors(path)
    assert len(papers) == 1
    assert errors == [RowError(2, "row 3: has 3 values but the header has 2 columns")]


def test_read_rows_streams_a_large_csv_lazily(tmp_path: Path) -> None:
    path = tmp_path / "big.csv"
    with open(path, "w", encoding="utf-8") as out:
        out.write("id,title,abstract\n")
        out.writelines(f"{i},Title {i},Abstract number {i} " + "word " * 20 + "\n" for i in range(200_000))
    tracemalloc.start()
    try:
        rows = read_rows(path)
        first = list(itertools.islice(rows, 5))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [row["id"] for row in first] == ["0", "1", "2", "3", "4"]
    assert next(rows)["id"] == "5"
    assert peak < path.stat().st_size / 4


@pytest.mark.skipif(not MEDICAL.exists(), reason="shared medical abstracts are not present")
def test_real_medical_abstracts_read_with_disease_labels() -> None:
    papers, errors = papers_and_errors(MEDICAL)
    assert len(papers) == 2888 and errors == []
    assert all(isinstance(p.fields.get("disease"), str) for p in papers)
    assert len({p.id for p in papers}) == 2888
    with gzip.open(MEDICAL, "rt", encoding="utf-8") as handle:
        assert papers[0].id == json.loads(handle.readline())["id"]


def test_a_medline_book_chapter_takes_its_book_as_venue_and_a_whole_book_has_none() -> None:
    """As BibTeX's booktitle does for @incollection: the chapter's BTI is its venue (journal field)."""
    from core.io.medline import medline_row

    chapter = medline_row({"PMID": "25905182", "TI": "Role of Glucose and Lipids.", "BTI": "Endotext"})
    assert (chapter["title"], chapter["journal"]) == ("Role of Glucose and Lipids.", "Endotext")
    book = medline_row({"PMID": "20301295", "BTI": "GeneReviews(R)"})
    assert (book["title"], book["journal"]) == ("GeneReviews(R)", None)
    article = medline_row({"PMID": "1", "TI": "A paper.", "JT": "Nature", "BTI": "Ignored"})
    assert article["journal"] == "Nature"


def test_zoteros_medline_test_file_imports_its_chapter_with_the_book_as_venue(store) -> None:
    """Zotero's MEDLINE translator test input (fixtures/real/medline): the article keeps its journal; the chapter
    takes its book, as Zotero's bookTitle; editors (FED/ED) are not authors; wrapped lines are joined."""
    from core.store.importing import import_file

    path = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "medline" / "zotero_medline_chapter.nbib"
    report = import_file(store, path, "z")
    assert (report.added, report.skipped) == (2, 0)
    papers = {p.id: p for p in store.papers("z")}  # the PMID is the id
    article, chapter = papers["8692918"], papers["21249755"]
    assert article.title == "The structure of bovine F1-ATPase complexed with the antibiotic inhibitor aurovertin B."
    assert article.fields["journal"].startswith("Proceedings of the National Academy of Sciences")
    assert (chapter.title, chapter.fields["journal"]) == ("Peutz-Jeghers Syndrome", "Cancer Syndromes")
    assert len(chapter.fields["authors"]) == 7 and "Roberts M" not in chapter.fields["authors"]
    assert chapter.abstract.startswith("PJS is a rare disease.") and "\n" not in chapter.abstract
    # the ISSNs, the linking one first as the PubMed XML reader gives them, not the IS lines joined ("0027-8424
    # (Print) 0027-...")
    assert article.fields["issn"] == ["0027-8424"]


def test_a_year_of_four_digits_is_read_as_the_year_pattern_reads_it() -> None:
    """`_year` answers a four-digit text without its regex (BENCHMARKS.md §25e): the same year as the pattern, which
    takes any Unicode decimal digit (Arabic-Indic too) and no superscripts, and nothing inside longer numbers."""
    import re

    from core.io.rows import _year

    def by_pattern(value: object) -> int | None:
        match = re.search(r"(?<!\d)(\d{4})(?!\d)", str(value or ""))
        return int(match.group(1)) if match else None

    values = ["2019", "\u0662\u0660\u0661\u0669", "\u00b2\u2070\u00b9\u2079", "0000", "20190", "x2019", "2019 ",
              "Jun2023", "NOV 2021", "19", "", "-201", 2019, 2019.0, None, 0]
    assert [_year(v) for v in values] == [by_pattern(v) for v in values]
    assert _year("\u0662\u0660\u0661\u0669") == 2019 and _year("\u00b2\u2070\u00b9\u2079") is None


def test_a_journal_column_is_read_as_a_citation_only_when_it_holds_one(tmp_path: Path) -> None:
    """The citation pattern is tried only on journals with "(" (every citation has its year in parentheses), and a
    conference venue only fills a row without a journal: the same fields as before."""
    path = write(tmp_path / "venues.csv", "id,title,abstract,journal,booktitle,year\n"
                 "a,T1,A1,Endoscopic Ultrasound (2014) 3:3 (152-160),,\n"
                 "b,T2,A2,Journal (of) Things,,2001\n"
                 "c,T3,A3,,Proc. of a Conference,2002\n"
                 "d,T4,A4,Plain Journal,Proc. kept as its own field,2003\n")
    papers, _ = papers_and_errors(path)
    assert [(p.fields["journal"], p.fields["year"], p.fields.get("source")) for p in papers] == [
        ("Endoscopic Ultrasound", 2014, "Endoscopic Ultrasound (2014) 3:3 (152-160)"), ("Journal (of) Things", 2001, None),
        ("Proc. of a Conference", 2002, None), ("Plain Journal", 2003, None)]
    assert papers[3].fields["booktitle"] == "Proc. kept as its own field"


def test_a_title_is_folded_to_one_line_as_its_split_words_joined() -> None:
    """`_one_line` leaves a folded title as it is without splitting it (BENCHMARKS.md §25e); every white space
    character, and every other character of the Basic Multilingual Plane, folds as ``" ".join(text.split())``."""
    from core.io.papers import _one_line

    texts = [f"{a}{chr(c)}{b}" for c in range(0x10000) for a, b in (("a", "b"), ("a ", ""))]
    texts += ["", " ", "a  b", " a", "a ", "a\u3000b", "a\u2028b", "a\x85b", "a\xa0b", "\U0001f600 x", "a\tb c"]
    assert [_one_line(t) for t in texts] == [" ".join(t.split()) for t in texts]
