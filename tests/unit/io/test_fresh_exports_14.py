"""Real exports from repositories the project had not read before (issue 40, fourteenth round), and two leftovers of
round 13: text garbled by a wrong encoding in an R-written CSV, and Rayyan's BibTeX names turned round. Each file is
a byte-exact excerpt or a whole file, but for the Rayyan reduction (sources, licences and cuts in
tests/fixtures/real/tools/SOURCES.md, "Round 14"); each was counted by a hand-written reader before the product read
it (BENCHMARKS.md §25m)."""

from __future__ import annotations

from core.io import read_papers
from core.io.rows import RowWarning
from core.records import Paper, RowError
from tests.unit.io.support import TOOLS, tools_papers

# --- BibTeX authors joined by "; " in one name --------------------------------------------------------------------


def test_a_zotero_bibtex_author_field_of_names_joined_by_semicolons_is_a_list_of_those_names() -> None:
    """Zotero keeps a Web of Science record's authors as one name when they came in as "Osnabrugge, M; Ash, E;
    Morelli, M" and writes it so in BibTeX (``author = {Osnabrugge, M; Ash, E; Morelli, M},``): it was one author
    "Osnabrugge, M; Ash, E; Morelli, M". A lone "Muller, S" stays one name."""
    papers = tools_papers("zotero_semicolon_authors_3.bib")
    assert [p.fields["authors"] for p in papers] == [
        ["Osnabrugge, M", "Ash, E", "Morelli, M"], ["Muller, P", "Freudenthaler, R"], ["Muller, S"]]
    assert papers[0].fields["doi"] == "10.1017/pan.2021.37"  # written "http://dx.doi.org/10.1017/…"
    assert papers[0].fields["journal"] == "POLITICAL ANALYSIS"


def test_an_r_written_bibtex_author_field_of_names_joined_by_semicolons_is_a_list() -> None:
    """BibTeX written by R (``@Article{3,``, ``  Author = {Kaiser, Jonas; Rauchfleisch, Adrian; Bourassa,
    Nikki},``): the three were one author."""
    papers = tools_papers("r_bib_semicolon_authors_3.bib")
    assert [p.fields["authors"] for p in papers] == [
        ["Palmer, Lindsay"], ["Sydnor, Emily"], ["Kaiser, Jonas", "Rauchfleisch, Adrian", "Bourassa, Nikki"]]
    assert [p.fields["year"] for p in papers] == [None, 2018, 2020]


# --- ScienceDirect BibTeX: a family name of several words in brackets ---------------------------------------------


def test_a_sciencedirect_bracketed_family_name_is_read_as_that_family_name() -> None:
    """ScienceDirect's BibTeX (values in quotes) brackets a family name of several words: ``Wim [Van den
    Noortgate]``. It was kept with its brackets, "Wim [Van den Noortgate]"."""
    papers = tools_papers("sciencedirect_quoted_3.bib")
    assert papers[2].fields["authors"][-2:] == ["Celine Vens", "Van den Noortgate, Wim"]
    assert papers[0].fields["authors"] == ["Mehmet Ali Salahli", "Muzaffer Ozdemir", "Cumali Yasar"]
    assert [p.fields["doi"] for p in papers] == ["10.1016/j.sbspro.2012.05.414", "10.1016/j.compedu.2008.08.005",
                                                 "10.1016/j.compedu.2019.04.009"]


# --- BibTeX files cut short inside their last entry ----------------------------------------------------------------


def _cut(tmp_path, name: str, size: int) -> list:
    data = (TOOLS / name).read_bytes()
    path = tmp_path / name
    path.write_bytes(data[:size])
    return list(read_papers(path))


def test_a_bibtex_file_cut_inside_a_quoted_abstract_says_it_looks_cut_short(tmp_path) -> None:
    """ScienceDirect's BibTeX cut inside its last entry's quoted abstract (``abstract = "Personalization of …``):
    the entry was "could not be parsed", which does not name the cause."""
    data = (TOOLS / "sciencedirect_quoted_3.bib").read_bytes()
    items = _cut(tmp_path, "sciencedirect_quoted_3.bib", data.rindex(b"abstract = \"") + 200)
    papers = [i for i in items if isinstance(i, Paper)]
    errors = [i for i in items if isinstance(i, RowError)]
    assert len(papers) == 2
    assert [e.row for e in errors] == [3] and "looks cut short" in errors[0].reason


def test_a_bibtex_file_cut_inside_a_braced_abstract_warns_that_it_looks_cut_short(tmp_path) -> None:
    """R's BibTeX cut inside its last entry's abstract: the entry is imported, with a warning that said only "field
    'abstract' has no closing brace"; now it names the cut."""
    data = (TOOLS / "r_bib_semicolon_authors_3.bib").read_bytes()
    items = _cut(tmp_path, "r_bib_semicolon_authors_3.bib", data.rindex(b"Abstract = {") + 300)
    papers = [i for i in items if isinstance(i, Paper)]
    warnings = [i for i in items if isinstance(i, RowWarning)]
    assert len(papers) == 3
    assert [w.row for w in warnings] == [3] and "looks cut short" in warnings[0].reason


# --- Rayyan's BibTeX: names turned round ---------------------------------------------------------------------------


def test_rayyan_names_written_initial_first_are_read_family_first() -> None:
    """Rayyan writes Web of Science names turned round, the initial before the comma (``author={A, TOUROVSKAIA and
    M, FAUVER …}``): read as family "A", given "TOUROVSKAIA". Where every name of the file is so, each is read as
    "Tourovskaia, A", with one warning saying so. (A reduction of a Rayyan export: its abstracts replaced.)"""
    items = list(read_papers(TOOLS / "rayyan_turned_names_3.bib"))
    papers = [i for i in items if isinstance(i, Paper)]
    warnings = [i for i in items if isinstance(i, RowWarning)]
    assert papers[0].fields["authors"] == ["Tourovskaia, A", "Fauver, M", "Kramer, G", "Simonson, S", "Neumann, T"]
    assert papers[1].fields["authors"][:3] == ["Liang, J", "Qi, H", "Zhu, F"]
    assert len(warnings) == 1 and "Rayyan" in warnings[0].reason


def test_an_ordinary_bibtex_file_keeps_its_names_as_written() -> None:
    """Names "Family, Given" stay as they are."""
    assert tools_papers("zotero_semicolon_authors_3.bib")[2].fields["authors"] == ["Muller, S"]
    assert tools_papers("wos_bibtex_2025_9.bib")[0].fields["authors"][0].count(",") == 1


# --- Text garbled by a wrong encoding (R, Excel): repaired with ftfy --------------------------------------------------


def test_mojibake_in_an_r_written_csv_is_repaired_with_a_warning_naming_the_file() -> None:
    """R's CSV of a screening file (round 13's ``title_abstract.csv``) holds UTF-8 read once as Windows-1252:
    "Copyright Â© 2020", "Clâ€“HCO3-", "â€œside effectsâ€  not" (the closing quote's last byte lost). Those are
    repaired ("©", "–", "“side effects”"), and since round 15 "{PLA}â„¡{ETS}" too ("℡" garbled inside a word, which
    ftfy does not call garbled; test_fresh_exports_15); one warning names the file and the five records repaired."""
    items = list(read_papers(TOOLS / "r_csv_mojibake_6.csv"))
    papers = [i for i in items if isinstance(i, Paper)]
    warnings = [i for i in items if isinstance(i, RowWarning)]
    assert len(papers) == 6
    assert "Copyright © 2020 Elsevier B.V." in papers[1].abstract
    assert "Cl–HCO3- exchange" in papers[2].abstract
    assert "“side effects” not" in papers[4].abstract
    assert "â" not in "".join(p.abstract for p in papers[1:5])
    assert "PLA}℡{ETS" in papers[5].title
    assert len(warnings) == 1 and "r_csv_mojibake_6.csv" in warnings[0].reason and " 5 " in warnings[0].reason


def test_a_correct_a_tilde_in_a_name_stays() -> None:
    """A real "Ã" ("SÃO PAULO", "João") is not garbled text."""
    from core.io.mojibake import repaired_text

    assert repaired_text("UNIVERSIDADE DE SÃO PAULO") == "UNIVERSIDADE DE SÃO PAULO"
    assert repaired_text("Gonçalves, João; Ãlvaro") == "Gonçalves, João; Ãlvaro"
    assert repaired_text("cafÃ© au lait") == "café au lait"


# --- Web of Science's Excel (.xls) cut short ------------------------------------------------------------------------


def test_an_xls_workbook_cut_short_is_refused_naming_the_cut(tmp_path, capsys) -> None:
    """Web of Science's "Excel" export (an Excel 97-2003 ``savedrecs.xls``; this round's allisonpayne/bw-review,
    NodiraTillayeva and simonavoprea files) cut to its first 60 %: refused as "not a readable Excel 97-2003 workbook
    ('Workbook' stream length … > file data size …); open it in Excel, save it as .xlsx", which sends the user to
    Excel with a file Excel cannot open either; the cause is the missing end. xlrd's own lines ("WARNING *** file
    size (31334) not 512 + multiple of sector size (512)") were printed on the command line's output."""
    import pytest

    from core.errors import CorpusError

    data = (TOOLS / "wos_savedrecs_excel_18.xls").read_bytes()
    path = tmp_path / "savedrecs.xls"
    path.write_bytes(data[: int(len(data) * 0.6)])
    with pytest.raises(CorpusError, match="looks cut short") as refused:
        list(read_papers(path))
    assert "download or export it again" in str(refused.value)
    assert "WARNING ***" not in capsys.readouterr().out
