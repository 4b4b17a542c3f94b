"""A file cut short (an interrupted download or copy) is told apart from one broken inside: its sentence names the
cause and the fix, for every XML and JSON reader."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import read_papers

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "real"
CUT = r"ends before its {kind} is closed \(line \d+\): it looks cut short \(an interrupted download or copy\); " \
      r"download or export it again$"


def _cut(tmp_path: Path, source: Path, fraction: float) -> Path:
    data = source.read_bytes()
    path = tmp_path / source.name
    path.write_bytes(data[: int(len(data) * fraction)])
    return path


@pytest.mark.parametrize("name", ["endnote_3.xml", "pubmed_biopython_1.xml", "pubmed_book_mixed_2.xml",
                                  "tools/mods_loc_journal_1.xml", "tools/marcxml_invenio_5.xml",
                                  "tools/arxiv_api_math_3.xml", "jats/PMC5913589.xml"])
@pytest.mark.parametrize("fraction", [0.3, 0.6, 0.97])
def test_an_xml_file_cut_short_says_so_and_names_the_fix(tmp_path: Path, name: str, fraction: float) -> None:
    path = _cut(tmp_path, REAL / name, fraction)
    with pytest.raises(CorpusError, match=rf"^file '{path.name}' " + CUT.format(kind="XML")):
        list(read_papers(path))


@pytest.mark.parametrize("name", ["openalex_works_7.json", "s2_batch_4.json", "tools/csl_3.json",
                                  "tools/crossref_works_ufsm_20.json"])
@pytest.mark.parametrize("fraction", [0.3, 0.6, 0.97])
def test_a_json_file_cut_short_says_so_and_names_the_fix(tmp_path: Path, name: str, fraction: float) -> None:
    path = _cut(tmp_path, REAL / name, fraction)
    with pytest.raises(CorpusError, match=rf"^file '{path.name}' " + CUT.format(kind="JSON")):
        list(read_papers(path))


def test_xml_broken_inside_is_still_named_by_its_line(tmp_path: Path) -> None:
    path = tmp_path / "pubmed.xml"
    shutil.copy(REAL / "pubmed_biopython_1.xml", path)
    path.write_bytes(path.read_bytes().replace(b"</ArticleTitle>", b"</ArticleTitl>", 1))
    with pytest.raises(CorpusError, match=r"^file 'pubmed.xml' is not valid XML \(line \d+\)$"):
        list(read_papers(path))


def test_json_broken_inside_is_still_named_by_its_line(tmp_path: Path) -> None:
    path = tmp_path / "works.json"
    text = (REAL / "openalex_works_7.json").read_text(encoding="utf-8")
    path.write_text(text.replace('"title"', '"title" "', 1), encoding="utf-8")
    with pytest.raises(CorpusError, match=r"^file 'works.json' is not valid JSON \(line \d+\)$"):
        list(read_papers(path))


def _papers_and_notes(path: Path) -> tuple[list, list[str], list[str]]:
    from core.io.rows import RowWarning
    from core.records import RowError

    items = list(read_papers(path))
    return ([i for i in items if not isinstance(i, (RowError, RowWarning))],
            [i.reason for i in items if isinstance(i, RowWarning)], [i.reason for i in items if isinstance(i, RowError)])


FIX = r"it looks cut short \(an interrupted download or copy\); download or export it again$"


@pytest.mark.parametrize("name, end", [("endnote_3.ris", "ER  -"), ("wos_3.ciw", "ER")])
def test_a_tagged_file_cut_inside_its_last_record_says_so(tmp_path: Path, name: str, end: str) -> None:
    """RIS and Web of Science records end with ER: a last record without it is the file cut short. With its title it
    is imported and warned about (its last field may be incomplete); without, skipped saying why."""
    text = (REAL / name).read_text(encoding="utf-8-sig")
    lines = text.splitlines()
    last_end = max(i for i, line in enumerate(lines) if line.startswith(end))
    before = max(i for i, line in enumerate(lines[:last_end]) if line.startswith(end))
    record = lines[before + 1:last_end]
    title_at = min(i for i, line in enumerate(record) if line[:2] in ("TI", "T1", "ST"))
    text_at = max(i for i, line in enumerate(record) if line[:2] in ("TI", "T1", "ST", "AB"))
    whole = len(_papers_and_notes(REAL / name)[0])

    with_title = tmp_path / f"a_{name}"  # cut after its title and abstract
    with_title.write_text("\n".join(lines[:before + 1 + text_at + 2]) + "\n", encoding="utf-8")
    papers, warnings, errors = _papers_and_notes(with_title)
    assert len(papers) == whole and not errors
    assert len(warnings) == 1 and re.match(
        r"the file ends inside this record \(no ER line follows\), so its last field may be incomplete: " + FIX, warnings[0])

    without_title = tmp_path / f"b_{name}"
    without_title.write_text("\n".join(lines[:before + 1 + title_at]) + "\n", encoding="utf-8")
    papers, warnings, errors = _papers_and_notes(without_title)
    assert len(papers) == whole - 1 and not warnings
    assert len(errors) == 1 and re.match(
        r"row \d+: the file ends inside this record \(no ER line follows\), before its title: " + FIX, errors[0])


def test_a_ris_file_that_never_writes_er_is_not_called_cut(tmp_path: Path) -> None:
    path = tmp_path / "no_er.ris"
    path.write_text("TY  - JOUR\nTI  - One\nAB  - A.\n\nTY  - JOUR\nTI  - Two\nAB  - B.\n", encoding="utf-8")
    papers, warnings, errors = _papers_and_notes(path)
    assert [p.title for p in papers] == ["One", "Two"] and not warnings and not errors


def test_a_bibtex_file_cut_inside_an_entry_is_reported_once_by_the_importer(tmp_path: Path) -> None:
    """bibtexparser logs its own warning for the cut entry ('Parsing of `@article` block ... aborted'); the reader
    reports the entry itself (a field read to the end of the entry), so the library's line does not reach the
    command line's output."""
    import subprocess
    import sys

    data = (REAL / "scopus_3.bib").read_bytes()
    path = tmp_path / "cut.bib"
    path.write_bytes(data[: int(len(data) * 0.6)])
    papers, warnings, errors = _papers_and_notes(path)
    assert len(papers) == 2 and any("no closing brace" in w for w in warnings)
    done = subprocess.run([sys.executable, "-m", "core", "--workspace", str(tmp_path / "ws"), "import", str(path),
                           "--corpus", "cut"], capture_output=True, text=True, cwd=Path(__file__).resolve().parents[3])
    assert done.returncode == 0 and "imported 2 rows" in done.stdout
    assert "aborted" not in done.stdout + done.stderr and "no closing brace" in done.stdout + done.stderr


@pytest.mark.parametrize("name", ["asreview_ace.xlsx", "tools/citavi_demo_60.ctv6bak"])
def test_a_zip_file_cut_short_says_so(tmp_path: Path, name: str) -> None:
    """An .xlsx workbook or a Citavi backup is a zip, whose table of contents is at its end: cut short, it is
    named as such (it was "not a valid Excel workbook" and "not valid XML (line 1)")."""
    path = _cut(tmp_path, REAL / name, 0.6)
    with pytest.raises(CorpusError, match=rf"^file '{path.name}' is a zip archive whose end is missing: " + FIX):
        list(read_papers(path))


def test_a_damaged_workbook_that_is_no_zip_names_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "x.xlsx"
    path.write_bytes(b"not a zip at all, only text saved with the wrong extension\n" * 4)
    with pytest.raises(CorpusError, match=r"^file 'x.xlsx' is not a valid Excel workbook \(.xlsx\)"):
        list(read_papers(path))


def test_a_scopus_text_file_cut_inside_its_last_record_says_so(tmp_path: Path) -> None:
    source = next((REAL / "tools").glob("scopus_text_2024_*.txt"))
    lines = source.read_text(encoding="utf-8-sig").splitlines()
    ends = [i for i, line in enumerate(lines) if line.strip() == "SOURCE: Scopus"]
    whole = len(_papers_and_notes(source)[0])
    record = lines[ends[-2] + 1:ends[-1]]
    abstract_at = next(i for i, line in enumerate(record) if line.startswith("ABSTRACT:"))
    path = tmp_path / "scopus.txt"
    path.write_text("\n".join(lines[:ends[-2] + 1 + abstract_at + 1]) + "\n", encoding="utf-8")
    papers, warnings, errors = _papers_and_notes(path)
    assert len(papers) == whole and not errors
    assert warnings == ["the file ends inside this record (no 'SOURCE: Scopus' line follows), so its last field may "
                        "be incomplete: it looks cut short (an interrupted download or copy); download or export it "
                        "again"]


@pytest.mark.parametrize("name", ["embase_3.csv", "scopus_authors_3.csv"])
def test_a_csv_file_cut_inside_a_quoted_value_says_so(tmp_path: Path, name: str) -> None:
    """A CSV cut inside its last row's quoted abstract: the row is imported (the csv module gives the text so far)
    and warned about; the same file whole gets no warning."""
    assert not _papers_and_notes(REAL / name)[1]
    data = (REAL / name).read_bytes()
    path = tmp_path / name
    path.write_bytes(data[: data.rfind(b',"', 0, len(data) - 200) + 30])  # 28 characters into a quoted value
    papers, warnings, errors = _papers_and_notes(path)
    assert papers and not errors
    assert warnings == ["the file ends inside a quoted value (it opens a quote it never closes), so its last field "
                        "may be incomplete: it looks cut short (an interrupted download or copy); download or export "
                        "it again"]


def test_a_gzip_compressed_csv_cut_inside_a_quoted_value_says_so(tmp_path: Path) -> None:
    """The same check on a `.csv.gz` whose text was cut before it was compressed (the file's end is known from the
    one reading of its text); the whole file compressed gets no warning."""
    import gzip

    data = (REAL / "embase_3.csv").read_bytes()
    whole, cut = tmp_path / "whole.csv.gz", tmp_path / "cut.csv.gz"
    whole.write_bytes(gzip.compress(data))
    cut.write_bytes(gzip.compress(data[: data.rfind(b',"', 0, len(data) - 200) + 30]))
    assert not _papers_and_notes(whole)[1]
    papers, warnings, errors = _papers_and_notes(cut)
    assert papers and not errors
    assert len(warnings) == 1 and warnings[0].startswith("the file ends inside a quoted value")
