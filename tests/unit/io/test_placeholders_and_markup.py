"""Issue 40: placeholders are not text ("[No abstract available]" is no abstract), and HTML-escaped markup in titles
and abstracts ("&lt;p&gt;", Crossref's "&lt;jats:p&gt;", twice escaped "&amp;lt;i&amp;gt;") is read as markup."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.io import read_papers
from core.io.markup import placeholder, plain_text
from core.records import Paper, RowError
from core.store import import_file

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "real"
NO_ABSTRACT = REAL / "scopus_cancer_noabstract_3.csv"  # row 2: Scopus's "[No abstract available]"


def _read(path: Path, **kwargs) -> tuple[list[Paper], list[RowError]]:
    items = list(read_papers(path, **kwargs))
    return [i for i in items if isinstance(i, Paper)], [i for i in items if isinstance(i, RowError)]


@pytest.mark.parametrize("text", [
    "[No abstract available]", "No abstract available.", "[Not Available].", "Abstract not available",
    "ABSTRACT NOT AVAILABLE", "No abstract available", "[Abstract not available]", "Not available.", "(No abstract)",
    "No abstract.", "Abstract unavailable", "  [ No Abstract Available ] ", "N/A", "[No abstract available.]",
    "NA",  # R's missing value: RIS written by synthesisr/CiteSource has "AB  - NA" (citesource_agris_na_3.ris)
])
def test_placeholders_are_recognised(text: str) -> None:
    assert placeholder(text)


@pytest.mark.parametrize("text", [
    "No abstract available: we show that abstracts matter.", "Not available in stores, the drug was studied.",
    "Abstract", "None of the patients relapsed.", "Na", "na", "Availability of data is discussed.", "",
])
def test_real_text_is_no_placeholder(text: str) -> None:
    assert not placeholder(text)


def test_a_scopus_placeholder_abstract_is_skipped_with_its_reason() -> None:
    papers, errors = _read(NO_ABSTRACT)
    assert len(papers) == 2 and all("No abstract available" not in p.abstract for p in papers)
    assert errors == [RowError(2, "row 3: no abstract (the export's placeholder '[No abstract available]')")]


def test_a_placeholder_abstract_with_titles_only_is_a_title_only_paper(store) -> None:
    papers, errors = _read(NO_ABSTRACT, title_only=True)
    assert errors == [] and len(papers) == 3
    folkman = papers[1]
    assert folkman.title == "Tumor angiogenesis: therapeutic implications."
    assert folkman.abstract == "" and folkman.fields["title_only"] is True
    report = import_file(store, NO_ABSTRACT, "c")
    assert (report.added, report.skipped) == (2, 1)


def test_a_placeholder_title_is_no_title(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text('title,abstract\n"[Not Available].","A real abstract."\n"Real title","Real abstract."\n',
                    encoding="utf-8")
    papers, errors = _read(path)
    assert [p.title for p in papers] == ["Real title"]
    assert errors == [RowError(1, "row 2: no title (the export's placeholder '[Not Available].')")]


@pytest.mark.parametrize(("written", "read"), [
    ("&lt;p&gt;Soil fauna &lt;i&gt;in situ&lt;/i&gt;.&lt;/p&gt;", "Soil fauna in situ."),
    ("&lt;jats:p&gt;\n   &lt;jats:italic&gt; Amauroderma&lt;/jats:italic&gt; s.lat. was defined.&lt;/jats:p&gt;",
     "Amauroderma s.lat. was defined."),
    ("Effect of &amp;lt;i&amp;gt;E. coli&amp;lt;/i&amp;gt; on mice", "Effect of E. coli on mice"),
    ("p &lt; 0.05 and n &gt; 10", "p < 0.05 and n > 10"),  # escaped comparison signs are no markup
    ("&lt;unknown&gt; stays", "<unknown> stays"),
    ("Caf&amp;eacute; &amp; bar", "Caf&eacute; & bar"),  # one level of entities only, when no markup is escaped
])
def test_escaped_markup_is_unescaped_and_stripped(written: str, read: str) -> None:
    assert plain_text(written) == read


def test_escaped_markup_in_an_export_is_read_as_text_and_kept_as_exported(tmp_path: Path) -> None:
    path = tmp_path / "e.csv"
    abstract = "&lt;p&gt;We study soils.&lt;/p&gt;&lt;p&gt;Fauna differ.&lt;/p&gt;"
    path.write_text(f'title,abstract\n"&lt;i&gt;Soil&lt;/i&gt; fauna","{abstract}"\n', encoding="utf-8")
    (paper,), errors = _read(path)
    assert errors == []
    assert paper.title == "Soil fauna" and paper.abstract == "We study soils.\nFauna differ."
    assert paper.fields["abstract_markup"] == abstract
