"""Tests for refusals: empty, missing, non-UTF-8, malformed, oversized and unsafe files."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import plan_import, read_papers, tabular
from tests.unit.io.support import write


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


def test_a_stray_byte_in_utf8_is_read_as_windows_1252_and_named(tmp_path: Path) -> None:
    # UTF-8 text (the ü) with one stray byte that is text in Windows-1252 (é): read, not refused (it was refused as
    # "not UTF-8 text": the whole file lost for one byte); the reading names the mixture, and a byte that is text in
    # neither is still refused (tests/unit/io/test_encodings.py)
    path = write(tmp_path / "x.csv", "title,abstract\nMüller,".encode() + b"\xe9 text\n")
    [paper] = list(read_papers(path))
    assert (paper.title, paper.abstract) == ("Müller", "é text")
    assert plan_import(path).reading["encoding"] == "UTF-8 mixed with Windows-1252"


def test_non_utf8_bytes_late_in_a_file_are_refused_with_their_position(tmp_path: Path) -> None:
    body = "title,abstract\n" + "A title,An abstract\n" * 60_000
    path = write(tmp_path / "late.csv", body.encode() + b"T,\xff\n")
    with pytest.raises(CorpusError, match=rf"invalid byte at position {len(body) + 2}\)"):
        list(read_papers(path))


def test_bad_json_line_is_refused_with_its_line_number(tmp_path: Path) -> None:
    lines = ['{"title": "T", "abstract": "A"}'] * 6 + ['{"title": "T", "abstract": ']
    path = write(tmp_path / "x.jsonl", "\n".join([*lines, lines[0]]) + "\n")
    with pytest.raises(CorpusError, match=r"^file 'x.jsonl' line 7 is not valid JSON$"):
        read_papers(path)
    path = write(tmp_path / "x.jsonl", "\n".join(lines) + "\n")  # the last line: the file cut short
    with pytest.raises(CorpusError, match=r"^file 'x.jsonl' ends before its JSON is closed \(line 7\): it looks cut "
                                          r"short"):
        read_papers(path)


def test_non_object_json_line_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "x.jsonl", '{"title": "T", "abstract": "A"}\n[1, 2]\n')
    with pytest.raises(CorpusError, match=r"^file 'x.jsonl' line 2 is not a JSON object$"):
        read_papers(path)


def test_truncated_gzip_is_refused(tmp_path: Path) -> None:
    data = gzip.compress(("{\"title\": \"T\", \"abstract\": \"A\"}\n" * 5000).encode())
    path = write(tmp_path / "x.jsonl.gz", data[: len(data) // 2])
    with pytest.raises(CorpusError, match=r"^file 'x.jsonl.gz' is truncated or not valid gzip; it may be cut short .*download or export it again$"):
        list(read_papers(path))


def test_gzip_expanding_past_the_limit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MIREAD_MAX_EXPANDED_BYTES", "100000")
    path = write(tmp_path / "bomb.csv.gz", gzip.compress(b"title,abstract\n" + b"a,b\n" * 100_000))
    with pytest.raises(CorpusError, match="expands to more than 100,000 bytes"):
        list(read_papers(path))


def test_oversized_csv_field_is_refused_with_its_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tabular, "MAX_FIELD_CHARS", 1000)
    path = write(tmp_path / "big.csv", "title,abstract\nT,short\nT," + "x" * 5000 + "\n")
    # the second record: row 3 of a spreadsheet, whose header is row 1
    with pytest.raises(CorpusError, match=r"file 'big.csv' row 3 has a field longer than"):
        list(read_papers(path))


def test_malformed_parquet_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match=r"^file 'x.parquet' is not a valid Parquet file; it may be cut short or damaged: export it again$"):
        read_papers(write(tmp_path / "x.parquet", b"PAR1 not really parquet"))


def test_malformed_xml_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "x.xml", "<PubmedArticleSet><PubmedArticle><MedlineCitation>\n</Pubmed>\n</x>\n")
    with pytest.raises(CorpusError, match=r"^file 'x.xml' is not valid XML \(line 2\)$"):
        read_papers(path)
    path = write(tmp_path / "x.xml", "<PubmedArticleSet><PubmedArticle><MedlineCitation>")
    with pytest.raises(CorpusError, match=r"^file 'x.xml' ends before its XML is closed \(line 1\)"):
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
