"""Round 17 of fresh real exports (BENCHMARKS §25p): files no earlier round had read, each a failing test first.

Fixtures under tests/fixtures/real/tools (SOURCES.md, "Round 17")."""

from __future__ import annotations

from core.io import read_papers
from core.records import Paper
from tests.unit.io.support import TOOLS


def _papers(name: str) -> list[Paper]:
    return [item for item in read_papers(TOOLS / name) if isinstance(item, Paper)]


def test_a_biosis_tab_export_takes_its_journal_from_so_not_its_taxa() -> None:
    """Web of Science's BIOSIS Previews tab-delimited export (Mac: CR line ends) has ``TA`` for its taxa
    ("Plantae; Plants, Spermatophytes, …"), which MEDLINE's ``TA`` (a journal abbreviation) made the journal."""
    papers = _papers("wos_tab_biosis_mac_2.txt")
    assert [p.id for p in papers] == ["BIOSIS:PREV201900288213", "BIOSIS:PREV201900231357"]
    assert [p.fields["journal"] for p in papers] == ["Journal of Applied Ecology", "Forest Ecology and Management"]
    assert papers[0].fields["doi"] == "10.1111/1365-2664.13299"
    assert papers[0].fields["authors"][1] == "Schwarzkopf, Lin"
    assert "Plantae" in papers[0].fields["ta"]  # the taxa stay, under their own tag


def test_a_current_contents_tab_export_takes_its_authors_from_af_when_au_runs_together() -> None:
    """Current Contents Connect's tab-delimited export writes ``AU`` without separators ("Roach, MCThompson,
    FRJones-Farrand, T") and ``AF`` joined by "; ": the full names are the authors, the short text is kept."""
    papers = _papers("wos_tab_ccc_mac_2.txt")
    assert papers[0].fields["authors"] == ["Roach, Melissa C.", "Thompson, Frank R., III", "Jones-Farrand, Todd"]
    assert papers[0].fields["author_short_names"] == ["Roach, MCThompson, FRJones-Farrand, T"]
    assert len(papers[1].fields["authors"]) == 8
    assert papers[0].fields["journal"] == "FOREST ECOLOGY AND MANAGEMENT"


def test_the_garbled_text_warning_shows_the_files_own_garble() -> None:
    """Scopus RIS (MaxenceOuafik/MSM-Syndemic-Scoping-Review's scopus.ris, records 69 and 75) holds "Funding
    details: VetenskapsrÃ¥det": the warning's example was always '"â€œ" for "“", "Ã©" for "é"', which this file
    does not hold. It now shows the first garbled word it repaired, and where."""
    from core.io.mojibake import repaired_rows
    from core.io.rows import RowWarning

    rows = [(68, {"title": "Syndemics", "n1": "Funding details: National Institutes of Health"}),
            (69, {"title": "Syndemics", "n1": "Funding details: VetenskapsrÃ¥det, VR, 2016-01707"}),
            (75, {"title": "Syndemics", "n1": ["Funding details: VetenskapsrÃ¥det, VR, 2016-01707"]})]
    out = list(repaired_rows(rows, "scopus.ris", "ris"))
    assert out[1][1]["n1"] == "Funding details: Vetenskapsrådet, VR, 2016-01707"
    warning = out[-1][1]
    assert isinstance(warning, RowWarning)
    assert "\"VetenskapsrÃ¥det,\" for \"Vetenskapsrådet,\" (row 69, n1)" in warning.reason, warning.reason
    assert "â€œ" not in warning.reason
    assert warning.reason.startswith("file 'scopus.ris': 2 records held text garbled by a wrong encoding")
    assert warning.reason.endswith("repaired (rows 69, 75)")


def test_biosis_taxa_are_no_spelling_of_the_journal() -> None:
    """The journal identities read a record's ``ta`` as MEDLINE's journal abbreviation: BIOSIS's taxa became
    spellings of "Journal of Applied Ecology" (the 6-database borealis merge showed "Forest Ecology and Management"
    spelled "Aves, Vertebrata, Chordata, …"). ``ta`` names the journal only beside MEDLINE's ``jt``."""
    from core.journal_identity import journal_identities

    papers = _papers("wos_tab_biosis_mac_2.txt")
    found = journal_identities([(p.id, p.fields) for p in papers])
    assert found.spellings == {"Journal of Applied Ecology": ["Journal of Applied Ecology"],
                               "Forest Ecology and Management": ["Forest Ecology and Management"]}
    medline = {"journal": "Journal of applied ecology", "jt": "Journal of applied ecology", "ta": "J Appl Ecol"}
    assert "J Appl Ecol" in journal_identities([("1", medline)]).spellings["Journal of applied ecology"]


def test_a_tab_export_cut_short_after_a_lone_quote_inside_a_value_is_not_inside_quotes(tmp_path) -> None:
    """Web of Science's tab-delimited export quotes nothing: a value holds a lone quote as text ('"small'' prey',
    Current Contents, record 206 of the borealis search). Cut at 60 %, the file was said to end "inside a quoted
    value (it opens a quote it never closes)" because its quotes were odd in number; and a last row cut after its
    title was skipped "before its title". It ends inside its last record, whose title was read: imported, warned."""
    from tests.unit.io.support import papers_and_errors

    data = (TOOLS / "wos_tab_ccc_quote_3.txt").read_bytes()
    whole = _papers("wos_tab_ccc_quote_3.txt")
    assert len(whole) == 3 and "\"small'' prey" in whole[1].abstract
    cut = tmp_path / "savedrecs.txt"
    cut.write_bytes(data[: data.rindex(b"\r", 0, len(data) - 1) + 1 + 900])  # 900 bytes into the second record
    items = list(read_papers(cut))
    warnings = [i for i in items if not isinstance(i, Paper) and "cut short" in getattr(i, "reason", "")]
    assert [p.id for p in items if isinstance(p, Paper)][:2] == [whole[0].id, whole[1].id]
    assert len([p for p in items if isinstance(p, Paper)]) == 3
    assert [w.reason for w in warnings] == [
        "the file ends inside this record (16 of the header's 49 columns, no line break after them), so its last "
        "field may be incomplete: it looks cut short (an interrupted download or copy); download or export it again"]
    assert papers_and_errors(cut)[1] == []


def test_a_biosis_author_with_an_e_mail_is_the_name_and_the_e_mail_is_kept_beside() -> None:
    """BIOSIS writes a corresponding author's e-mail into the name ("Nordberg, Eric J. (ericjnordberg@gmail.com)"):
    the name became "Nordberg, Eric J. (ericjnordberg@gmail.com)" in the paper, its RIS/BibTeX export and its first
    author. The name is the name; the e-mails stay as ``author_emails`` ("name: e-mail"), nothing lost."""
    papers = _papers("wos_tab_biosis_mac_2.txt")
    assert papers[0].fields["authors"] == ["Nordberg, Eric J.", "Schwarzkopf, Lin"]
    assert papers[0].fields["author_emails"] == ["Nordberg, Eric J.: ericjnordberg@gmail.com"]
    assert papers[1].fields["authors"][0] == "Lelli, Chiara"
    assert papers[1].fields["author_emails"] == ["Lelli, Chiara: chiara.lelli7@unibo.it"]
