"""Tests for core.corpus: readers, column detection, validation, refusals and export."""

from __future__ import annotations

import codecs
import gzip
import itertools
import json
import tracemalloc
from pathlib import Path

import pytest

from core.io import readers as corpus
from core.io import (
    FORMATS,
    ColumnMap,
    columns_of,
    detect_columns,
    detect_format,
    export_papers,
    preview,
    read_papers,
    read_rows,
)
from core.errors import CorpusError
from core.records import Paper, RowError, duplicate_key

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "corpus"
MEDICAL = Path("/work/shared/data/medical_abstracts.jsonl.gz")


def papers_and_errors(path: Path, **kwargs) -> tuple[list[Paper], list[RowError]]:
    items = list(read_papers(path, **kwargs))
    return [i for i in items if isinstance(i, Paper)], [i for i in items if isinstance(i, RowError)]


def write(path: Path, data: bytes | str) -> Path:
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


# --- format detection ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("a.csv", "csv"), ("a.CSV", "csv"), ("a.csv.gz", "csv"), ("a.tsv", "tsv"), ("a.tab", "tsv"),
        ("a.jsonl", "jsonl"), ("a.ndjson.gz", "jsonl"), ("a.json-lines", "jsonl"), ("a.parquet", "parquet"),
        ("a.xml", "pubmed"), ("pubmed21n1298.xml.gz", "pubmed"), ("a.bib", "bibtex"), ("a.bibtex", "bibtex"),
        ("a.ris", "ris"),
    ],
)
def test_detect_format_by_extension(name: str, expected: str) -> None:
    assert detect_format(name) == expected
    assert expected in FORMATS


def test_detect_format_prefers_explicit_format() -> None:
    assert detect_format("data.txt", "TSV") == "tsv"
    assert detect_format("data.csv", "xml") == "pubmed"


def test_unknown_extension_is_refused_with_the_formats_listed() -> None:
    with pytest.raises(CorpusError) as error:
        detect_format("x.docx")
    assert str(error.value) == (
        "file 'x.docx' has an unknown format; use CSV, TSV, JSONL, Parquet, PubMed XML, BibTeX or RIS"
    )


def test_unknown_explicit_format_is_refused() -> None:
    with pytest.raises(CorpusError, match="format 'xlsx' is unknown"):
        detect_format("a.csv", "xlsx")


def test_txt_file_is_ris_only_when_it_starts_with_a_type_tag(tmp_path: Path) -> None:
    ris = write(tmp_path / "export.txt", (FIXTURES / "refs.ris").read_text())
    assert detect_format(ris) == "ris"
    notes = write(tmp_path / "notes.txt", "just some notes\n")
    with pytest.raises(CorpusError, match="unknown format"):
        detect_format(notes)


# --- column detection ------------------------------------------------------------------------


def test_detect_columns_finds_common_spellings_case_insensitively() -> None:
    assert detect_columns(["ID", "Title", "Abstract", "Journal"]) == ColumnMap("Title", "Abstract", "ID")
    assert detect_columns(["pmid", "Paper Title", "summary"]) == ColumnMap("Paper Title", "summary", "pmid")
    assert detect_columns(["TI", "AB"]) == ColumnMap("TI", "AB", None)
    assert detect_columns(["Article Title", "Abstract Note", "arxiv_id"]).abstract == "Abstract Note"


def test_detect_columns_prefers_title_over_other_spellings() -> None:
    assert detect_columns(["paper_title", "title", "description", "abstract"]) == ColumnMap("title", "abstract")


def test_missing_abstract_column_is_named_with_the_columns_found() -> None:
    with pytest.raises(CorpusError) as error:
        detect_columns(["id", "title", "journal"], source="file 'x.csv'")
    message = str(error.value)
    assert message.startswith("file 'x.csv' has no abstract column (looked for abstract,")
    assert "summary" in message and message.endswith("found: id, title, journal)")


def test_missing_title_column_is_named() -> None:
    with pytest.raises(CorpusError, match="has no title column"):
        detect_columns(["abstract", "year"])


def test_column_overrides_are_used_and_matched_case_insensitively() -> None:
    columns = ["Heading", "Body", "Ref", "title", "abstract"]
    assert detect_columns(columns, title="heading", abstract="Body", id="ref") == ColumnMap("Heading", "Body", "Ref")


def test_override_naming_a_missing_column_lists_the_columns_found() -> None:
    with pytest.raises(CorpusError) as error:
        detect_columns(["title", "abstract", "year"], abstract="text", source="file 'x.csv'")
    assert str(error.value) == "file 'x.csv' has no column 'text' for the abstract (found: title, abstract, year)"


def test_same_column_for_title_and_abstract_is_refused() -> None:
    with pytest.raises(CorpusError, match="both title and abstract"):
        detect_columns(["text", "id"], title="text", abstract="text")


# --- readers on fixtures ---------------------------------------------------------------------


def test_csv_reader_validates_rows_and_derives_ids() -> None:
    papers, errors = papers_and_errors(FIXTURES / "papers.csv")
    assert [p.id for p in papers] == ["p1", "p2", "10.1000/c", duplicate_key(
        "Paper with a hashed id", "Neither an id nor a DOI is given here.")[:16]]
    first, second = papers[0], papers[1]
    assert first.title == "Deep learning for cells"
    assert first.fields == {"journal": "Nature", "year": "2020", "doi": "10.1000/a"}
    assert second.title == "Quoted, title"
    assert second.abstract == "First line of the abstract.\nSecond line, with a comma."
    assert second.fields["doi"] is None
    assert errors == [RowError(4, "row 4: empty abstract"), RowError(5, "row 5: empty title")]


def test_tsv_reader_detects_alternative_column_names() -> None:
    papers, errors = papers_and_errors(FIXTURES / "papers.tsv")
    assert [(p.id, p.title, p.fields) for p in papers] == [
        ("101", "Graph neural networks", {"category": "cs.LG"}),
        ("102", "Protein folding", {"category": "q-bio.BM"}),
    ]
    assert errors == [RowError(3, "row 3: empty abstract")]


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
    assert bert.fields["venue"] == "NAACL"
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
    assert fields["authors"] == ["Bainton RJ", "Heberlein U"]
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


def test_bibtex_duplicate_keys_become_row_errors(tmp_path: Path) -> None:
    bib = write(tmp_path / "d.bib", "@misc{a, title={T1}, abstract={A1}}\n@misc{a, title={T2}, abstract={A2}}\n")
    papers, errors = papers_and_errors(bib)
    assert [p.title for p in papers] == ["T1"]
    assert errors == [RowError(2, "row 2: duplicate citation key 'a' (line 2)")]


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
    assert errors == [RowError(2, "row 2: has 3 values but the header has 2 columns")]


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize("content", [b"", b"  \n\n"])
def test_empty_file_is_refused(tmp_path: Path, content: bytes) -> None:
    with pytest.raises(CorpusError, match=r"^file 'x.csv' is empty$"):
        read_papers(write(tmp_path / "x.csv", content))


def test_header_without_rows_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match=r"^file 'x.csv' has no rows$"):
        read_papers(write(tmp_path / "x.csv", "id,title,abstract\n"))


def test_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="file 'nope.csv' was not found"):
        read_papers(tmp_path / "nope.csv")


def test_missing_abstract_column_is_refused_before_reading(tmp_path: Path) -> None:
    path = write(tmp_path / "x.csv", "id,title,journal\n1,T,J\n")
    with pytest.raises(CorpusError, match=r"file 'x.csv' has no abstract column .*found: id, title, journal\)"):
        read_papers(path)


def test_non_utf8_bytes_are_refused_with_their_position(tmp_path: Path) -> None:
    path = write(tmp_path / "x.csv", "title,abstract\nCaf".encode() + b"\xe9,text\n")
    with pytest.raises(CorpusError) as error:
        read_papers(path)
    assert str(error.value) == (
        "file 'x.csv' is not UTF-8 text (invalid byte at position 18); save it as UTF-8 and import again"
    )


def test_non_utf8_bytes_late_in_a_file_are_refused_with_their_position(tmp_path: Path) -> None:
    body = "title,abstract\n" + "A title,An abstract\n" * 60_000
    path = write(tmp_path / "late.csv", body.encode() + b"T,\xff\n")
    with pytest.raises(CorpusError, match=rf"invalid byte at position {len(body) + 2}\)"):
        list(read_papers(path))


def test_bad_json_line_is_refused_with_its_line_number(tmp_path: Path) -> None:
    lines = ['{"title": "T", "abstract": "A"}'] * 6 + ['{"title": "T", "abstract": ']
    path = write(tmp_path / "x.jsonl", "\n".join(lines) + "\n")
    with pytest.raises(CorpusError, match=r"^file 'x.jsonl' line 7 is not valid JSON$"):
        read_papers(path)


def test_non_object_json_line_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "x.jsonl", '{"title": "T", "abstract": "A"}\n[1, 2]\n')
    with pytest.raises(CorpusError, match=r"^file 'x.jsonl' line 2 is not a JSON object$"):
        read_papers(path)


def test_truncated_gzip_is_refused(tmp_path: Path) -> None:
    data = gzip.compress(("{\"title\": \"T\", \"abstract\": \"A\"}\n" * 5000).encode())
    path = write(tmp_path / "x.jsonl.gz", data[: len(data) // 2])
    with pytest.raises(CorpusError, match=r"^file 'x.jsonl.gz' is truncated or not valid gzip$"):
        list(read_papers(path))


def test_gzip_expanding_past_the_limit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MIREAD_MAX_EXPANDED_BYTES", "100000")
    path = write(tmp_path / "bomb.csv.gz", gzip.compress(b"title,abstract\n" + b"a,b\n" * 100_000))
    with pytest.raises(CorpusError, match="expands to more than 100,000 bytes"):
        list(read_papers(path))


def test_oversized_csv_field_is_refused_with_its_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(corpus, "MAX_FIELD_CHARS", 1000)
    path = write(tmp_path / "big.csv", "title,abstract\nT,short\nT," + "x" * 5000 + "\n")
    with pytest.raises(CorpusError, match=r"file 'big.csv' row 2 has a field longer than"):
        list(read_papers(path))


def test_malformed_parquet_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match=r"^file 'x.parquet' is not a valid Parquet file$"):
        read_papers(write(tmp_path / "x.parquet", b"PAR1 not really parquet"))


def test_malformed_xml_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "x.xml", "<PubmedArticleSet><PubmedArticle><MedlineCitation>")
    with pytest.raises(CorpusError, match="file 'x.xml' is not valid XML"):
        read_papers(path)


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE PubmedArticleSet [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>1</PMID><Article>
<Journal><JournalIssue><PubDate><Year>2000</Year></PubDate></JournalIssue><Title>J</Title></Journal>
<ArticleTitle>&lol9;</ArticleTitle><Abstract><AbstractText>&lol9;</AbstractText></Abstract>
</Article></MedlineCitation></PubmedArticle></PubmedArticleSet>
"""

EXTERNAL_ENTITY = BILLION_LAUGHS.replace(
    BILLION_LAUGHS[BILLION_LAUGHS.index("<!DOCTYPE"): BILLION_LAUGHS.index("]>") + 2],
    '<!DOCTYPE PubmedArticleSet [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>',
).replace("&lol9;", "&xxe;")


@pytest.mark.parametrize("document", [BILLION_LAUGHS, EXTERNAL_ENTITY], ids=["billion-laughs", "external-entity"])
def test_xml_declaring_entities_is_refused(tmp_path: Path, document: str) -> None:
    with pytest.raises(CorpusError, match="declares XML entities, which are refused for safety"):
        read_papers(write(tmp_path / "evil.xml", document))


@pytest.mark.parametrize(("document", "entity"), [(BILLION_LAUGHS, "&lol9;"), (EXTERNAL_ENTITY, "&xxe;")],
                         ids=["billion-laughs", "external-entity"])
def test_xml_entities_past_the_scanned_head_are_left_unexpanded(tmp_path: Path, document: str, entity: str) -> None:
    padding = "<!-- " + "p" * (70 * 1024) + " -->\n"
    padded = write(tmp_path / "padded.xml", document.replace("<!DOCTYPE", padding + "<!DOCTYPE", 1))
    (paper,) = read_papers(padded)
    assert (paper.title, paper.abstract) == (entity, entity)


# --- streaming, round trip, real data --------------------------------------------------------


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


def sample_papers() -> list[Paper]:
    return [
        Paper("a1", "First title", "First abstract.\nSecond line.", {
            "journal": "Nature", "year": 2020, "tags": ["x", "y"], "meta": {"k": [1, 2]}, "note": None,
            "flag": True, "score": 0.25,
        }),
        Paper("a2", "Second title", "Another abstract.", {
            "journal": "Cell", "year": 2021, "tags": [], "meta": None, "note": "text", "flag": False, "score": 1.5,
        }),
    ]


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz", ".parquet"])
def test_export_then_import_round_trips_every_field(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"out{suffix}"
    assert export_papers(sample_papers(), path) == 2
    assert list(read_papers(path)) == sample_papers()


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".csv.gz"])
def test_export_csv_round_trips_text_lists_and_dicts(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"out{suffix}"
    export_papers(sample_papers(), path)
    back = list(read_papers(path))
    assert [(p.id, p.title, p.abstract) for p in back] == [(p.id, p.title, p.abstract) for p in sample_papers()]
    assert back[0].fields == {"journal": "Nature", "year": "2020", "tags": ["x", "y"], "meta": {"k": [1, 2]},
                              "note": None, "flag": "True", "score": "0.25"}
    assert back[1].fields["tags"] == [] and back[1].fields["meta"] is None


def test_export_parquet_round_trips_columns_of_mixed_types(tmp_path: Path) -> None:
    papers = [Paper("m1", "T1", "A1", {"v": 1}), Paper("m2", "T2", "A2", {"v": "one"}),
              Paper("m3", "T3", "A3", {"v": [1, "x"]})]
    export_papers(papers, tmp_path / "m.parquet")
    assert list(read_papers(tmp_path / "m.parquet")) == papers


def test_export_skips_row_errors_and_reimport_is_idempotent(tmp_path: Path) -> None:
    items = list(read_papers(FIXTURES / "papers.csv"))
    assert export_papers(items, tmp_path / "again.jsonl") == 4
    assert list(read_papers(tmp_path / "again.jsonl")) == [i for i in items if isinstance(i, Paper)]


@pytest.mark.skipif(not MEDICAL.exists(), reason="shared medical abstracts are not present")
def test_real_medical_abstracts_read_with_disease_labels() -> None:
    papers, errors = papers_and_errors(MEDICAL)
    assert len(papers) == 2888 and errors == []
    assert all(isinstance(p.fields.get("disease"), str) for p in papers)
    assert len({p.id for p in papers}) == 2888
    with gzip.open(MEDICAL, "rt", encoding="utf-8") as handle:
        assert papers[0].id == json.loads(handle.readline())["id"]
