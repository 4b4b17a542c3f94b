"""Real exports from repositories the project had not read before (issue 40, fifteenth round), and three leftovers
of round 14: a Scopus CSV cut inside its last, unquoted field; mojibake between BibTeX braces; and the import's
warnings each under a heading that says what they are. Sources, licences and cuts in
tests/fixtures/real/tools/SOURCES.md ("Round 15"); each file was counted by a hand-written reader before the product
read it (BENCHMARKS.md §25n)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.cli import main
from core.errors import CorpusError
from core.io import read_papers
from core.io.rows import RowWarning
from core.records import Paper, RowError
from tests.unit.io.support import TOOLS, tools_papers

REAL = TOOLS.parent


def _items(path: Path, title_only: bool = False) -> tuple[list[Paper], list[RowError], list[RowWarning]]:
    items = list(read_papers(path, title_only=title_only))
    return ([i for i in items if isinstance(i, Paper)], [i for i in items if isinstance(i, RowError)],
            [i for i in items if isinstance(i, RowWarning)])


# --- a Scopus CSV cut inside its last, unquoted field ---------------------------------------------------------------


@pytest.mark.parametrize("keep", [2, 10, 16])
def test_a_scopus_csv_cut_inside_its_unquoted_last_field_warns_that_it_looks_cut_short(tmp_path, keep) -> None:
    """Scopus's CSV of 2022 writes its last column, the EID ("2-s2.0-85117082989"), unquoted. Cut inside it
    ("…,Scopus,2", round 14's JoL-Meta file at 60 %) the file was imported without a word: the last record is
    imported, with a warning that the file looks cut short."""
    data = (TOOLS / "scopus_csv_2022_5.csv").read_bytes()
    start = data.rindex(b",Scopus,") + len(b",Scopus,")
    path = tmp_path / "scopus.csv"
    path.write_bytes(data[:start + keep])
    papers, errors, warnings = _items(path)
    assert len(papers) == 5 and not errors
    assert [w.row for w in warnings] == [5] and "looks cut short" in warnings[0].reason
    assert warnings[0].column == "EID"


def test_a_csv_whose_last_row_is_whole_but_has_no_line_break_is_not_warned(tmp_path) -> None:
    """Zotero's CSV ends without a line break: a whole last value is no sign of a cut."""
    data = (TOOLS / "scopus_csv_2022_5.csv").read_bytes()
    path = tmp_path / "scopus.csv"
    path.write_bytes(data.rstrip(b"\r\n"))
    papers, errors, warnings = _items(path)
    assert len(papers) == 5 and not errors and not warnings


def _cut_warnings(path: Path) -> list[RowWarning]:
    try:
        return [w for w in _items(path, title_only=True)[2] if "cut short" in w.reason]
    except CorpusError:  # a file refused for its columns (no title): nothing imported, nothing to warn about
        return []


def test_a_whole_last_eid_one_digit_shorter_than_the_others_is_not_warned(tmp_path) -> None:
    """Scopus' EIDs grew a digit in 2025 ("2-s2.0-85117082989", "2-s2.0-105028317012"): a file of new records whose
    last is older, without a final line break, ends in a whole value one character shorter than the rest."""
    data = (TOOLS / "scopus_csv_2022_5.csv").read_bytes().rstrip(b"\r\n")
    eids = [b"2-s2.0-85126271708", b"2-s2.0-85125407649", b"2-s2.0-85122875146", b"2-s2.0-85121640173"]
    for number, eid in enumerate(eids):
        data = data.replace(eid, b"2-s2.0-10502831701" + str(number).encode())
    path = tmp_path / "scopus.csv"
    path.write_bytes(data)
    papers, errors, warnings = _items(path)
    assert len(papers) == 5 and not errors and not warnings


@pytest.mark.parametrize(("before", "value", "cut"), [
    (["2-s2.0-85126271708"] * 3, "2", True), (["2-s2.0-85126271708"] * 3, "2-s2.0-851", True),
    (["2-s2.0-85126271708"] * 3, "2-s2.0-8512627170", False), (["Article"] * 4, "Note", False),
    (["Scopus"] * 4, "Sco", False), (["12", "15", "10"], "9", False), (["2-s2.0-85126271708"] * 2, "2", False),
])
def test_what_counts_as_a_visibly_cut_last_value(before: list[str], value: str, cut: bool) -> None:
    from core.io.cut_short import last_value_cut

    assert last_value_cut(value, before) is cut


def test_no_real_csv_fixture_is_warned_cut_short(tmp_path) -> None:
    """Every real CSV/TSV export here, whole, and without its final line break: no "cut short" warning."""
    files = sorted([*REAL.glob("*.csv"), *TOOLS.glob("*.csv"), *TOOLS.glob("*.tsv")])
    assert len(files) > 30
    for source in files:
        assert not _cut_warnings(source), source.name
        path = tmp_path / source.name
        path.write_bytes(source.read_bytes().rstrip(b"\r\n"))
        assert not _cut_warnings(path), f"{source.name} without its final line break"


# --- mojibake between BibTeX braces -----------------------------------------------------------------------------------


def test_mojibake_between_bibtex_braces_is_repaired() -> None:
    """R's CSV of BibTeX titles keeps their braces: "{RAT} {PLA}â„¡{ETS} {FOLLOWING}" is UTF-8 "℡" (E2 84 A1)
    read as Windows-1252 inside a word whose braces only protect its case; it was left as written (ftfy does not
    call "â„¡" garbled). Now repaired; the file's one warning counts five records."""
    papers, _, warnings = _items(TOOLS / "r_csv_mojibake_6.csv")
    assert "{RAT} {PLA}℡{ETS} {FOLLOWING}" in papers[5].title
    assert "â" not in papers[5].title
    assert len(warnings) == 1 and " 5 records " in warnings[0].reason


@pytest.mark.parametrize("text", [
    "{PLA}℡{ETS}", "{UNIVERSIDADE DE SÃO PAULO}", "Gonçalves, João; Ãlvaro", "{Ãlvaro} and {Âme}",
    "{Résumé} of {Ça}", "a {ℓ}-norm", "{à} la {carte}", "{IL}-{2} â {IL}-{6}",
])
def test_correct_text_with_braces_is_left_as_it_is(text: str) -> None:
    from core.io.mojibake import repaired_text

    assert repaired_text(text) == text


@pytest.mark.parametrize(("garbled", "fixed"), [
    ("{PLA}â„¡{ETS}", "{PLA}℡{ETS}"), ("PLAâ„¡ETS", "PLA℡ETS"), ("{Caf}{Ã©}", "{Caf}{é}"),
    ("{donâ€™t}", "{don’t}"),
])
def test_garbled_text_between_braces_is_repaired(garbled: str, fixed: str) -> None:
    from core.io.mojibake import repaired_text

    assert repaired_text(garbled) == fixed


# --- the import's warnings, each under its own heading --------------------------------------------------------------


def test_the_cli_puts_repaired_text_under_a_heading_that_says_so(tmp_path, capsys) -> None:
    """The CLI printed "1 warning: fields not read whole (their papers were imported)" over the mojibake repair,
    whose fields were read whole (and repaired)."""
    assert main([f"--workspace={tmp_path / 'ws'}", "import", str(TOOLS / "r_csv_mojibake_6.csv"), "--corpus",
                 "c", "--title-only"]) == 0
    out = capsys.readouterr().out
    assert "not read whole" not in out
    assert "1 warning: text garbled by a wrong encoding, repaired" in out


def test_the_cli_puts_names_turned_round_under_a_heading_that_says_so(tmp_path, capsys) -> None:
    assert main([f"--workspace={tmp_path / 'ws'}", "import", str(TOOLS / "rayyan_turned_names_3.bib"),
                 "--corpus", "c"]) == 0
    out = capsys.readouterr().out
    assert "not read whole" not in out
    assert "1 warning: author names written turned round, read family name first" in out


def test_the_cli_keeps_fields_not_read_whole_under_their_own_heading(tmp_path, capsys) -> None:
    assert main([f"--workspace={tmp_path / 'ws'}", "import", str(REAL / "scopus_3.bib"), "--corpus", "s"]) == 0
    assert "1 warning: fields not read whole (their papers were imported)" in capsys.readouterr().out


def test_each_warning_in_the_report_carries_its_kind(tmp_path) -> None:
    from core.store import Store, import_file

    report = import_file(Store(tmp_path / "ws"), TOOLS / "rayyan_turned_names_3.bib", "c").to_dict()
    assert [w["kind"] for w in report["warnings"]] == ["names"]


# --- Europe PMC's REST answer as XML (its default format) and as Dublin Core ------------------------------------------


def test_europe_pmc_dublin_core_answer_is_read() -> None:
    """Europe PMC's search answer with ``format=dc`` (``<responseWrapper>`` holding ``<rdf:RDF><rdf:Description>``
    records: ``dc:title``, ``dc:creator`` a name each, ``dcterms:abstract``, DOI and PubMed ids as URLs, the journal
    in an OpenURL citation) was refused as "XML whose root element is <responseWrapper>, which no reader here
    knows", though its JSON form is read. pyEuropePMC's recorded answer, first 3 of 25 records."""
    items = list(read_papers(TOOLS / "europepmc_rest_dc_3.xml", title_only=True))
    papers = [i for i in items if isinstance(i, Paper)]
    assert [p.title for p in papers] == [
        "Abscopal response in a patient with fibrolamellar hepatocellular carcinoma following radiotherapy.",
        "Department of Error.",
        "The role of psychological flexibility in relation to health outcomes in people in remission from cancer."]
    first, _, third = papers
    assert first.fields["authors"] == ["Schoenfeld, JD", "Haas-Kogan, DA", "O'Neill, AF"]
    assert first.fields["doi"] == "10.1016/s0140-6736(24)02600-x"
    assert first.id == "39709209"  # the PMID
    assert first.fields["journal"] == "Lancet (London, England)"
    assert first.fields["year"] == 2025
    assert not first.abstract and not papers[1].fields.get("authors")
    assert third.abstract.startswith("Objective") and "psychological flexibility" in third.abstract
    assert "<h4>" not in third.abstract and "&lt;" not in third.abstract


def test_europe_pmc_dublin_core_answer_without_titles_only_keeps_every_record_counted(tmp_path) -> None:
    from core.store import Store, import_file

    report = import_file(Store(tmp_path / "ws"), TOOLS / "europepmc_rest_dc_3.xml", "c")
    assert (report.imported, report.skipped, report.imported + report.skipped) == (1, 2, 3)


def test_europe_pmc_xml_answer_is_read_as_its_json_answer_is() -> None:
    """The same search with ``format=xml`` (the API's default; ``resultType=lite``: no abstracts) was refused the
    same way; read with ``title_only`` it gives the JSON answer's fields."""
    papers = [i for i in read_papers(TOOLS / "europepmc_rest_lite_3.xml", title_only=True) if isinstance(i, Paper)]
    assert len(papers) == 3
    assert papers[0].fields["authors"] == ["Schoenfeld JD", "Haas-Kogan DA", "O'Neill AF"]
    assert papers[0].fields["journal"] == "Lancet"
    assert papers[0].fields["doi"] == "10.1016/s0140-6736(24)02600-x"
    assert papers[1].fields["pmcid"] == "PMC12124214"
    assert (papers[0].fields["volume"], papers[0].fields["issue"]) == ("404", "10471")  # a lite record's: were lost
    assert [p.fields["year"] for p in papers] == [2025, 2025, 2025]


def test_a_europe_pmc_xml_answer_cut_short_is_named_cut_short(tmp_path) -> None:
    data = (TOOLS / "europepmc_rest_dc_3.xml").read_bytes()
    path = tmp_path / "epmc.xml"
    path.write_bytes(data[: int(len(data) * 0.6)])
    with pytest.raises(CorpusError, match="cut short"):
        list(read_papers(path, title_only=True))


# --- Lens.org: an author written "null" ----------------------------------------------------------------------------


def test_a_lens_author_written_null_is_no_author() -> None:
    """Lens.org writes an author it has no name for (EFSA's panel) as "null null" in its CSV and "null, null" in its
    RIS: the paper's first author was "null". DrMattG/Salmon_network's two exports of one search."""
    csv_papers = tools_papers("lens_null_author_3.csv")
    ris_papers = tools_papers("lens_null_author_3.ris")
    for papers in (csv_papers, ris_papers):
        efsa = next(p for p in papers if p.title.startswith("Assessment of animal diseases"))
        assert "null" not in " ".join(efsa.fields["authors"]).lower()
        assert "Nielsen" in efsa.fields["authors"][0] and len(efsa.fields["authors"]) > 10
    assert csv_papers[0].fields["authors"] == ["Kristine Cerbule", "Jacques Godfroid"]


def test_a_name_with_null_in_it_stays() -> None:
    """Only a name that is nothing but "null" goes: "Nullmeyer, A" or "Null, Jane" stay."""
    from core.io.known_fields import clean_authors

    fields = {"authors": ["Null, Jane", "Nullmeyer, A", "null", "null, null", "null null", "NULL"]}
    clean_authors(fields)
    assert fields["authors"] == ["Null, Jane", "Nullmeyer, A"]


# --- CiNii's OpenSearch answer (JSON-LD) ------------------------------------------------------------------------------


def test_a_cinii_opensearch_answer_is_read() -> None:
    """CiNii Articles' OpenSearch answer (``format=json``: JSON-LD, the records under ``@graph[0].items``, each with
    ``title``, ``dc:creator`` as ``{"@value": name}``, ``prism:publicationName``, ``prism:publicationDate``, a
    ``description`` for 4 of 20) was refused as "JSON whose records are under '@graph', a shape this importer does not
    read". YutoMizutani/CiNiiKit's recorded answer, whole."""
    papers = [i for i in read_papers(TOOLS / "cinii_opensearch_20.json", title_only=True) if isinstance(i, Paper)]
    assert len(papers) == 20
    second = papers[1]
    assert second.title == "認知症高齢者の徘徊行動に対する応用行動分析学的介入の一例"
    assert second.fields["authors"] == ["宮 裕昭", "松岡 照之", "鑪 直樹", "大川 一郎"]
    assert second.fields["journal"] == "認知症ケア事例ジャーナル"
    assert second.fields["year"] == 2018
    assert second.id == "https://ci.nii.ac.jp/naid/40021608074/en"
    assert (second.fields["volume"], second.fields["issue"], second.fields["issn"]) == ("11", "1", "1882-7993")
    assert len([p for p in papers if p.abstract]) == 4
    assert '"psychology" and "social welfare"' in papers[0].abstract


def test_a_cinii_answer_without_titles_only_counts_every_record(tmp_path) -> None:
    from core.store import Store, import_file

    report = import_file(Store(tmp_path / "ws"), TOOLS / "cinii_opensearch_20.json", "c")
    assert (report.imported, report.skipped) == (4, 16)
