"""Files saved by Excel on Windows or a Mac (issue 40 §2): real exports re-encoded as Windows-1252, Latin-1 and Mac
Roman are read, their encoding named in the reading, and a user's choice of encoding wins over detection."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import ReadOptions, plan_import, read_papers
from core.io.plan import describe_reading
from core.records import Paper

EXPORTS = Path("/work/shared/data/exports")
SCOPUS = EXPORTS / "CSV" / "_baseline_scopus.csv"
REFWORKS = EXPORTS / "TSV" / "_baseline_refworks.tsv"
EMBASE = EXPORTS / "CSV" / "_baseline_embase.csv"
pytestmark = pytest.mark.skipif(not SCOPUS.exists(), reason="the shared exports are not present")


def _reencoded(source: Path, encoding: str, target: Path) -> tuple[Path, str]:
    """The export saved in ``encoding`` (characters it lacks become '?', as Excel writes them) and its text."""
    text = source.read_text(encoding="utf-8-sig").encode(encoding, "replace").decode(encoding)
    target.write_bytes(text.encode(encoding))
    return target, text


def _papers(path: Path, **kwargs) -> list[Paper]:
    return [p for p in read_papers(path, **kwargs) if isinstance(p, Paper)]


@pytest.mark.parametrize(("encoding", "named"), [("cp1252", "Windows-1252"), ("latin-1", "Windows-1252"),
                                                 ("mac_roman", "Mac Roman")])
def test_a_reencoded_scopus_csv_reads_as_its_utf8_original(tmp_path: Path, encoding: str, named: str) -> None:
    path, text = _reencoded(SCOPUS, encoding, tmp_path / "scopus.csv")
    assert any(ord(c) > 127 for c in text)  # accented letters are there to be misread
    original = tmp_path / "original.csv"
    original.write_text(text, encoding="utf-8")
    papers = _papers(path)
    assert len(papers) == 10  # EXPECTED.tsv's count for this export
    assert [(p.title, p.abstract) for p in papers] == [(p.title, p.abstract) for p in _papers(original)]
    assert any(ord(c) > 127 for p in papers for c in p.title + p.abstract)
    plan = plan_import(path)
    assert plan.reading["encoding"] == named
    assert f"encoding {named}" in describe_reading(plan.reading)


@pytest.mark.parametrize("name", ["refworks.tsv", "refworks.txt"])
def test_a_windows_tab_file_is_read_whatever_its_extension(tmp_path: Path, name: str) -> None:
    path, _ = _reencoded(REFWORKS, "cp1252", tmp_path / name)
    plan = plan_import(path)
    assert (plan.reader_name, plan.reading["encoding"], plan.with_abstract) == ("TSV", "Windows-1252", 98)


def test_the_encoding_a_user_chooses_wins_over_detection(tmp_path: Path) -> None:
    # this Mac Roman export has few accented letters; detection takes it for Windows-1252
    path, text = _reencoded(EMBASE, "mac_roman", tmp_path / "embase.csv")
    original = tmp_path / "original.csv"
    original.write_text(text, encoding="utf-8")
    expected = [(p.title, p.abstract) for p in _papers(original)]
    chosen = ReadOptions(encoding="Mac Roman")
    assert [(p.title, p.abstract) for p in _papers(path, options=chosen)] == expected
    assert plan_import(path, options=chosen).reading["encoding"] == "Mac Roman"
    with pytest.raises(CorpusError, match="encoding 'klingon' is unknown"):
        plan_import(path, options=ReadOptions(encoding="klingon"))


def test_utf8_files_say_so_and_the_caption_stays_quiet_about_it() -> None:
    plan = plan_import(SCOPUS)
    assert plan.reading["encoding"] == "UTF-8 (with BOM)"
    assert not any(part.startswith("encoding") for part in describe_reading(plan.reading))
