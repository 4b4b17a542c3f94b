"""Issue 29 section 4: text is imported as the user exported it, each case on a real export (tests/fixtures/real,
sources in SOURCES.md): Scopus CSV rows with a trailing comma, Lens RIS abstracts with JATS / HTML / PubMed markup,
free-text reference columns (Scopus "References", Web of Science "CR"), BibTeX "--" and "---", and the Cochrane
Library's RIS flavours with their "Record #3 of 18" preamble."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from core.cli import main
from core.io import detect_format, export_papers, read_papers
from core.io.markup import plain_text
from core.records import Paper, RowError, duplicate_key

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "real"
_TAG = re.compile(r"</?(?:jats:|mml:)?[A-Za-z][\w-]*(?:\s[^<>]*)?>")


def _papers(path: Path) -> list[Paper]:
    return [p for p in read_papers(path) if isinstance(p, Paper)]


# 1. Scopus CSV: a data row ending with a comma has one more value than the header, and that value is empty


def _with_trailing_commas(source: Path, target: Path) -> int:
    """The real Scopus export with a comma after each data row's last value, as some exports write it."""
    rows = list(csv.reader(io.StringIO(source.read_text(encoding="utf-8-sig"), newline="")))
    out = io.StringIO()
    csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n").writerow(rows[0])
    for row in rows[1:]:
        line = io.StringIO()
        csv.writer(line, quoting=csv.QUOTE_ALL, lineterminator="").writerow(row)
        out.write(line.getvalue() + ",\n")
    target.write_text(out.getvalue(), encoding="utf-8")
    return len(rows) - 1


def test_a_scopus_csv_whose_rows_end_with_a_comma_imports_every_paper(tmp_path: Path) -> None:
    path = tmp_path / "scopus.csv"
    rows = _with_trailing_commas(REAL / "scopus_refs_8.csv", path)
    assert path.read_text(encoding="utf-8").splitlines()[1].endswith('",')
    items = list(read_papers(path))
    assert [i for i in items if isinstance(i, RowError)] == []
    papers = [i for i in items if isinstance(i, Paper)]
    assert len(papers) == rows == 8
    assert [p.title for p in papers] == [p.title for p in _papers(REAL / "scopus_refs_8.csv")]
    assert all("column_46" not in p.fields for p in papers)


def test_a_trailing_value_that_is_not_empty_is_still_a_shifted_row(tmp_path: Path) -> None:
    path = tmp_path / "shifted.csv"
    path.write_text("Title,Abstract\nT1,A1,\nT2,A2,surplus\n", encoding="utf-8")
    items = list(read_papers(path))
    assert [p.title for p in items if isinstance(p, Paper)] == ["T1"]
    assert [e.reason for e in items if isinstance(e, RowError)] == ["row 3: has 3 values but the header has 2 columns"]


# 2. Markup in titles and abstracts (Lens RIS: <p>, <jats:p>, <jats:title>, <AbstractText Label=...>)


def test_lens_ris_abstracts_are_read_without_their_markup() -> None:
    papers = _papers(REAL / "lens_49.ris")
    assert len(papers) == 49
    marked = [p for p in papers if "abstract_markup" in p.fields]
    assert len(marked) == 11  # as exported: <p>, <jats:p>/<jats:title> and <AbstractText Label=...>
    assert [p.id for p in papers if _TAG.search(p.abstract) or _TAG.search(p.title)] == []
    jats = next(p for p in marked if p.abstract.startswith("Purpose of Review: Legacy gambling harm"))
    assert jats.abstract.split("\n")[1].startswith("Recent Findings: Legacy harms to individuals")
    assert jats.abstract.split("\n")[2].startswith("Summary: These findings suggest programme")
    # the markup as exported, its line breaks (lines of their own in the RIS file) included
    assert jats.fields["abstract_markup"].startswith("<jats:title>Abstract\n</jats:title><jats:sec>\n<jats:title>Purpose")
    pubmed = next(p for p in marked if p.abstract.startswith("BACKGROUND: Gambling has traditionally"))
    lines = pubmed.abstract.split("\n")
    assert [line.split(":")[0] for line in lines[:4]] == ["BACKGROUND", "METHODS", "RESULTS", "CONCLUSIONS"]
    assert lines[4:] == ["© 2022. The Author(s)."]  # PubMed's <CopyrightInformation>, a line of its own
    assert any(p.abstract.startswith("Background and aims: Both the Problem Gambling") for p in marked)
    unmarked = next(p for p in papers if "abstract_markup" not in p.fields)
    assert "abstract_markup" not in unmarked.fields and "title_markup" not in unmarked.fields


def test_the_export_keeps_the_abstract_as_exported(tmp_path: Path) -> None:
    papers = _papers(REAL / "lens_49.ris")
    out = tmp_path / "lens.csv"
    assert export_papers(papers, out) == 49
    rows = list(csv.DictReader(out.open(encoding="utf-8", newline="")))
    marked = [r for r in rows if r["abstract_markup"]]
    assert len(marked) == 11
    assert all("<" not in r["abstract"] and "<" in r["abstract_markup"] for r in marked)
    again = _papers(out)  # a re-import of the export gives the same papers
    assert [(p.title, p.abstract) for p in again] == [(p.title, p.abstract) for p in papers]
    assert [p.fields.get("abstract_markup") for p in again] == [p.fields.get("abstract_markup") for p in papers]


@pytest.mark.parametrize(("written", "read"), [
    ("p < 0.05 in <5 mm lesions; a<b and c>d", "p < 0.05 in <5 mm lesions; a<b and c>d"),
    ("<p>First.</p><p>Second <i>in vivo</i>.</p>", "First.\nSecond in vivo."),
    ("CO<sub>2</sub> and <mml:math><mml:mi>x</mml:mi><mml:mo>=</mml:mo><mml:mn>2</mml:mn>"
     "<mml:annotation encoding=\"TeX\">x=2</mml:annotation></mml:math>", "CO2 and x=2"),
    ('<AbstractText Label="METHODS" NlmCategory="METHODS">A survey.</AbstractText>', "METHODS: A survey."),
    ("<jats:p>x<y and <unknown> kept</jats:p>", "x<y and <unknown> kept"),
    ("Smith &amp; Wesson, R&D", "Smith & Wesson, R&D"),
])
def test_markup_becomes_text_and_other_angle_brackets_stay(written: str, read: str) -> None:
    assert plain_text(written) == read


# 3. Free-text reference columns are kept as written and reported once, never as malformed ids


def test_scopus_free_text_references_are_no_links_and_are_reported_once(store, tmp_path: Path) -> None:
    path = REAL / "scopus_refs_8.csv"
    report = store.import_papers("s", read_papers(path), source=path.name).to_dict()
    links = report["links"]
    assert links["reasons"]["malformed id"] == 0 and links["read"] == 0 and links["rows"] == []
    assert links["free_text"]["papers"] == 8 and links["free_text"]["fields"] == ["references"]
    assert links["free_text"]["sentence"].startswith("free-text references (not links) in 8 papers")
    raw = next(csv.DictReader(path.open(encoding="utf-8-sig", newline="")))["References"]
    assert store.papers("s")[0].fields["references"] == raw


def test_web_of_science_cited_references_are_no_links(store) -> None:
    path = REAL / "wos_cr_8.txt"
    report = store.import_papers("w", read_papers(path), source=path.name).to_dict()
    links = report["links"]
    assert links["reasons"]["malformed id"] == 0 and links["rows"] == []
    assert links["free_text"]["papers"] == report["imported"] > 0
    assert links["free_text"]["fields"] == ["cited_references"]
    first = store.papers("w")[0].fields["cited_references"]
    assert isinstance(first, list) and len(first) > 10 and all(" " in ref for ref in first)


def test_import_json_shows_free_text_references_once(tmp_path: Path, capsys) -> None:
    workspace = str(tmp_path / "ws")
    assert main(["--workspace", workspace, "import", str(REAL / "scopus_refs_8.csv"), "--corpus", "s", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["links"]["free_text"]["papers"] == 8
    assert doc["links"]["rows"] == [] and doc["warnings"] == []
    assert json.dumps(doc).count("free-text references (not links)") == 1


# 4. BibTeX "--" and "---" are kept as typed, so the BibTeX and RIS exports of a paper merge


def test_bibtex_dashes_are_kept_as_typed(tmp_path: Path, store) -> None:
    papers = _papers(REAL / "zotero_dashes_3.bib")
    assert len(papers) == 3
    text = (REAL / "zotero_dashes_3.bib").read_text(encoding="utf-8")
    assert "–" not in "".join(p.title + p.abstract for p in papers) and "—" not in "".join(p.abstract for p in papers)
    assert "notions of absolute physical simplicity---minimal structure" in text
    assert "notions of absolute physical simplicity---minimal structure" in " ".join(papers[0].abstract.split())
    assert papers[1].abstract.startswith("The Lempel--Ziv complexity measure")
    assert papers[2].title == "Lempel--Ziv Factorization Using Less Time & Space"
    ris = tmp_path / "same.ris"  # the same papers as an RIS export writes them: the text as typed
    ris.write_text("".join(f"TY  - JOUR\nTI  - {p.title}\nAB  - {' '.join(p.abstract.split())}\nER  - \n\n"
                           for p in papers), encoding="utf-8")
    store.import_papers("z", iter(papers), source="zotero.bib")
    report = store.import_papers("z", read_papers(ris), source="same.ris")
    assert (report.added, report.merged) == (0, 3)
    assert {duplicate_key(p.title, p.abstract) for p in papers} == {
        duplicate_key(p.title, p.abstract) for p in _papers(ris)}


# 5. The Cochrane Library's RIS flavours (EndNote, ProCite, Reference Manager) with their preamble


@pytest.mark.parametrize("flavour", ["endnote", "procite", "refman"])
def test_cochrane_ris_with_its_preamble_imports_every_record(flavour: str, tmp_path: Path) -> None:
    path = REAL / f"cochrane_{flavour}_3.ris"
    assert path.read_text(encoding="utf-8").startswith("Record #3 of 18\nProvider: John Wiley & Sons, Ltd.")
    assert detect_format(path) == "ris"
    papers = _papers(path)
    assert len(papers) == 3
    assert papers[0].title.startswith("The Incredible Years Therapeutic Dinosaur Programme")
    assert papers[0].abstract.startswith("BACKGROUND: School interventions such as the Incredible Years")
    assert papers[0].fields["type"] == "JOUR" and papers[0].fields["journal"] == "Trials"
    as_text = tmp_path / "cochrane.txt"  # saved as .txt: still RIS by its content
    as_text.write_bytes(path.read_bytes())
    assert detect_format(as_text) == "ris" and len(_papers(as_text)) == 3


def test_a_title_that_is_markup_alone_stays_as_exported(tmp_path):
    """Stripping must not empty a field: a script tag or an image alone is kept as text (shown escaped)."""
    from core.io import read_papers

    path = tmp_path / "x.csv"
    path.write_text('id,title,abstract\nx1,"<script>alert(1)</script>","<img src=x onerror=alert(2)> and <p>real</p>"\n')
    paper = next(p for p in read_papers(path) if hasattr(p, "title"))
    assert paper.title == "<script>alert(1)</script>" and "title_markup" not in paper.fields
    assert paper.abstract == "and real" or paper.abstract.endswith("real")


def test_script_tags_are_no_markup_to_strip_they_stay_as_typed():
    from core.io.markup import plain_text

    title = "<script>window.__xss=1</script>Allosteric <i>regulation</i>"
    assert plain_text(title) == "<script>window.__xss=1</script>Allosteric regulation"
