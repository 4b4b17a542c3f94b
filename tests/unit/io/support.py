"""Helpers shared by the core.io tests: fixture paths, writing a file, reading papers and row errors."""

from __future__ import annotations

from pathlib import Path

from core.io import read_papers
from core.records import Paper, RowError

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"
TOOLS = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "tools"
MEDICAL = Path("/work/shared/data/medical_abstracts.jsonl.gz")


def papers_and_errors(path: Path, **kwargs) -> tuple[list[Paper], list[RowError]]:
    items = list(read_papers(path, **kwargs))
    return [i for i in items if isinstance(i, Paper)], [i for i in items if isinstance(i, RowError)]


def write(path: Path, data: bytes | str) -> Path:
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def tools_items(name: str, title_only: bool = False) -> list[Paper | RowError]:
    """The papers and row errors read from a real export of tests/fixtures/real/tools."""
    return [item for item in read_papers(TOOLS / name, title_only=title_only)
            if isinstance(item, (Paper, RowError))]


def tools_papers(name: str, title_only: bool = False) -> list[Paper]:
    """The papers read from a real export of tests/fixtures/real/tools."""
    return [item for item in tools_items(name, title_only) if isinstance(item, Paper)]


def second_merges_whole(tmp_path: Path, first: str, second: str, records: int) -> None:
    """Two fixtures of one search imported together: every record of the second merges into the first's papers,
    with no "one id on different papers" conflict, and read = added + merged + skipped."""
    from core.store import Store, import_files

    report = import_files(Store(tmp_path / "ws"), [TOOLS / first, TOOLS / second], "c")
    later = report.files[1]
    assert (later.imported, later.added, later.merged, later.skipped) == (records, 0, records, 0)
    assert not later.conflicts
    assert report.imported == report.added + report.merged + report.skipped == 2 * records
