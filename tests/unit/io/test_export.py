"""Tests for core.io.export: export then import round-trips every field."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.io import export_papers, read_papers
from core.records import Paper
from tests.unit.io.support import FIXTURES


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
    assert back[0].fields == {"journal": "Nature", "year": 2020, "tags": ["x", "y"], "meta": {"k": [1, 2]},
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
