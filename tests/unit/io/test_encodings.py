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


MIXED = Path(__file__).parents[2] / "fixtures" / "real" / "tools" / "r_csv_utf8_cp1252_5.csv"


def test_a_utf8_file_with_windows_1252_bytes_loses_nothing() -> None:
    """A real CSV written by R (mcguinlu/COVID_suicide_living, all_results.csv: 528 records) is UTF-8 ("χ²", "ü")
    with 850 Windows-1252 bytes among them ("someone\\x92s", "\\x93I am a terrible person\\x94"): a UTF-8 export
    that went through a Windows program. It was refused whole ("not UTF-8 text; save it as UTF-8", which that file
    already mostly is). Each byte is read in the encoding it is in, and the reading names the mixture."""
    papers = _papers(MIXED)
    assert len(papers) == 5
    text = " ".join(p.title + " " + p.abstract for p in papers)
    assert "someone\u2019s moral" in text and "\u201cI am a terrible person\u201d" in text
    assert "\u03c7\u00b2" in text  # the UTF-8 characters are read as UTF-8
    assert "Anem\u00fcller" in " ".join(str(p.fields.get("authors")) for p in papers)
    assert "\ufffd" not in text and "\u00e2\u20ac" not in text  # nothing replaced, no mojibake
    plan = plan_import(MIXED)
    assert plan.reading["encoding"] == "UTF-8 mixed with Windows-1252"
    assert "encoding UTF-8 mixed with Windows-1252" in describe_reading(plan.reading)


def test_random_bytes_in_a_utf8_file_are_still_refused(tmp_path: Path) -> None:
    """Bytes that are no text in Windows-1252 either (controls, its five undefined bytes) stay a refusal."""
    path = tmp_path / "broken.csv"
    path.write_bytes("title,abstract\nA caf\u00e9 study,An abstract\n".encode() + b"Bad \x81\x8d row,text\x00\x01\n")
    with pytest.raises(CorpusError, match="not UTF-8 text"):
        _papers(path)


def test_windows_1252_bytes_past_the_first_mib_name_the_encoding_that_reads_them(tmp_path: Path) -> None:
    """Detection reads the first MiB; a UTF-8 file whose Windows-1252 bytes come later is refused with the fix that
    reads it (the import preview's Encoding choice), and that choice reads every row."""
    rows = [f"Title {i},An abstract about caf\u00e9 number {i} {'x' * 200}" for i in range(6000)]
    path = tmp_path / "late.csv"
    path.write_bytes(("title,abstract\n" + "\n".join(rows) + "\n").encode() + b"Someone\x92s title,The end\n")
    assert path.stat().st_size > 2**20
    with pytest.raises(CorpusError, match="UTF-8 with Windows-1252 bytes among it .*choose the encoding 'UTF-8 "
                                          "mixed with Windows-1252'"):
        _papers(path)
    papers = _papers(path, options=ReadOptions(encoding="UTF-8 mixed with Windows-1252"))
    assert len(papers) == 6001 and papers[-1].title == "Someone\u2019s title"
