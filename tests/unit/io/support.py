"""Helpers shared by the core.io tests: fixture paths, writing a file, reading papers and row errors."""

from __future__ import annotations

from pathlib import Path

from core.io import read_papers
from core.records import Paper, RowError

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"
MEDICAL = Path("/work/shared/data/medical_abstracts.jsonl.gz")


def papers_and_errors(path: Path, **kwargs) -> tuple[list[Paper], list[RowError]]:
    items = list(read_papers(path, **kwargs))
    return [i for i in items if isinstance(i, Paper)], [i for i in items if isinstance(i, RowError)]


def write(path: Path, data: bytes | str) -> Path:
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path
