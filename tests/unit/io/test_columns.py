"""Tests for core.io.columns: title, abstract and id column detection and overrides."""

from __future__ import annotations

import pytest

from core.errors import CorpusError
from core.io import ColumnMap, detect_columns


def test_detect_columns_finds_common_spellings_case_insensitively() -> None:
    assert detect_columns(["ID", "Title", "Abstract", "Journal"]) == ColumnMap("Title", "Abstract", "ID", journal="Journal")
    assert detect_columns(["pmid", "Paper Title", "summary"]) == ColumnMap("Paper Title", "summary", "pmid")
    assert detect_columns(["TI", "AB"]) == ColumnMap("TI", "AB", None)
    assert detect_columns(["Article Title", "Abstract Note", "arxiv_id"]).abstract == "Abstract Note"


def test_detect_columns_prefers_title_over_other_spellings() -> None:
    assert detect_columns(["paper_title", "title", "description", "abstract"]) == ColumnMap("title", "abstract")


def test_missing_abstract_column_is_named_with_the_columns_found() -> None:
    with pytest.raises(CorpusError) as error:
        detect_columns(["id", "title", "journal"], source="file 'x.csv'")
    message = str(error.value)
    assert message == ("file 'x.csv' has no abstract column (found: id, title, journal); choose the abstract "
                       "column, or import titles only (--title-only in the CLI, 'Titles only' on the Library page)")


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
