"""Real exports from repositories the project had not read before (issue 40, thirteenth round). Each file is a
byte-exact excerpt or a whole file (sources, licences and cuts in tests/fixtures/real/tools/SOURCES.md); each was
counted by a hand-written reader before the product read it (BENCHMARKS.md §25l)."""

from __future__ import annotations

from core.io import read_papers
from core.io.rows import RowWarning
from core.records import Paper, RowError
from tests.unit.io.support import TOOLS, tools_papers

# --- BibTeX rewritten by an R script: the outer braces of a title stripped -----------------------------------------


def test_a_title_whose_outer_braces_a_script_stripped_keeps_the_rest_of_its_entry() -> None:
    """A review's screening file (Web of Science / Zoological Record and Zotero entries written again one field a
    line, ``  Title = {…},``, capitalised names) whose titles lost their outer braces: ``Title = {THE} {DIVERSITY} …
    {STUDY}.},`` (a "}" too many), ``Title = {Antibody-{Mediated} … {Infection},`` (one too few) and ``Title =
    {IN}-{VITRO} … {SKIN},`` (as many, but the first group closes at "IN"). The first two were read to the end of the
    entry, volume, year, ISSN and abstract inside the title, or (``{H2S} modulates … {KATP} channels},``) the extra
    "}" closed the entry and its abstract was left outside: skipped as "empty abstract"; the third was "could not be
    parsed". Each is read one field a line, the title's word braces balanced, with a warning naming the field."""
    items = list(read_papers(TOOLS / "wos_zoorec_bib2df_7.bib"))
    papers = [i for i in items if isinstance(i, Paper)]
    errors = [i for i in items if isinstance(i, RowError)]
    assert [p.title for p in papers] == [
        "A Baylisascaris Outbreak in Fox Squirrels (Sciurus niger) and Subsequent Detection of Francisella "
        "tularensis in Kansas, USA.",
        "THE DIVERSITY AND CONSERVATION OF MAMMALS IN THE DODO COASTAL FOREST IN SOUTHWESTERN COTE D'IVOIRE, "
        "WESTERN AFRICA: A PRELIMINARY STUDY.",
        "VARIATION IN CESTODE ASSEMBLAGES OF MASTOMYS AND ARVICANTHIS SPECIES (RODENTS: MURIDAE) FROM LAKE RETBA IN "
        "WESTERN SENEGAL.",
        "Antibody-Mediated Immune Subset Depletion Modulates the Immune Response in a Rabbit (Oryctolagus cuniculus) "
        "Model of Epstein-Barr Virus Infection",
        "H2S modulates duodenal motility in male rats via activating TRPV1 and KATP channels",
        "IN-VITRO DERMAL ABSORPTION OF PESTICIDES .5. IN-VIVO AND IN-VITRO COMPARISON OF THE HERBICIDE "
        "2,4-DICHLOROPHENOXYACETIC ACID IN RAT, GUINEA-PIG, PIG, HUMAN AND TISSUE-CULTURED SKIN"]
    assert [p.fields["year"] for p in papers] == [2020, 2019, 2010, 2020, 2014, 1994]
    assert papers[1].abstract.startswith("To improve the knowledge of non-volant mammal diversity")
    assert papers[2].abstract.startswith("We studied patterns of variation in cestode communities")
    assert papers[3].abstract.startswith("Epstein-Barr Virus (EBV) is a")
    assert papers[4].abstract.startswith("Background and PurposeH(2)S induces vasodilatation")
    assert papers[5].abstract.startswith("In vitro dermal absorption tests were conducted")
    assert papers[5].fields["doi"] == "10.1016/0887-2333(94)90112-0"
    assert papers[1].fields["authors"][:2] == ["Soiret, Serge Pacome Keagnon", "Kouakou, Celestin Yao"]
    assert papers[3].fields["journal"] == "COMPARATIVE MEDICINE"
    assert [e.row for e in errors] == [4] and "empty abstract" in errors[0].reason  # no abstract in the file
    warned = {i.row for i in items if isinstance(i, RowWarning) and i.column == "title"}
    assert warned == {2, 3, 5, 6, 7}


# --- Files cut short: the last record's sentence names the cut ----------------------------------------------------


def _cut(tmp_path, name: str, size: int | None = None, fraction: float = 0.6):
    """The fixture `name` cut to `size` bytes (default: its first 60 %), its items read."""
    data = (TOOLS / name).read_bytes()
    path = tmp_path / name
    path.write_bytes(data[: size if size is not None else int(len(data) * fraction)])
    return list(read_papers(path))


def test_an_ovid_export_cut_inside_its_last_record_says_it_looks_cut_short(tmp_path) -> None:
    """Ovid's tagged text (Embase, the "Citavi" export) has no end-of-record line; cut inside its second record,
    before the title ("<3002. >\\nVN  - Ovid Technologies\\nDB "), the record was skipped as "empty title and
    abstract", which does not name the cause."""
    items = _cut(tmp_path, "ovid_embase_citavi_2.ovd")
    papers = [i for i in items if isinstance(i, Paper)]
    errors = [i for i in items if isinstance(i, RowError)]
    assert [p.title for p in papers] == ["Quality of life in patients with primary ciliary dyskinesia: A systematic "
                                         "review."]
    assert len(errors) == 1 and errors[0].row == 2 and "looks cut short" in errors[0].reason
    assert "export it again" in errors[0].reason


def test_a_whole_ovid_export_reads_both_records_and_its_endnote_twin_merges(tmp_path) -> None:
    """The same two Embase records exported by Ovid as "Citavi" (.ovd) and "EndNote" (.cgi; the abstract's sections
    on lines of their own): both read whole, and the second file's two records merge into the first's although both
    conference abstracts carry the proceedings' one DOI (a conflict, not a merge, inside the first file)."""
    from core.store import Store, import_files

    report = import_files(Store(tmp_path / "ws"), [TOOLS / "ovid_embase_citavi_2.ovd",
                                                   TOOLS / "ovid_embase_endnote_2.cgi"], "c")
    first, second = report.files
    assert (first.imported, first.added, first.merged, first.skipped) == (2, 2, 0, 0)
    assert (second.imported, second.added, second.merged, second.skipped) == (2, 0, 2, 0)


def test_a_csv_cut_inside_its_last_row_says_it_looks_cut_short(tmp_path) -> None:
    """A CSV written by R from a BibTeX file (``BIBTEXKEY,JOURNAL,TITLE,ABSTRACT,ISSN,ISBN,DOI``) cut inside its
    last row, outside quotes ("leski_sequence_2015-1,Emerging infectious diseases,"): the row of 3 of 7 columns was
    skipped as "empty abstract"."""
    data = (TOOLS / "r_bib2csv_braces_6.csv").read_bytes()
    last = data.rindex(b"\n", 0, len(data) - 1) + 1
    items = _cut(tmp_path, "r_bib2csv_braces_6.csv", size=data.index(b",", data.index(b",", last) + 1) + 1)
    papers = [i for i in items if isinstance(i, Paper)]
    errors = [i for i in items if isinstance(i, RowError)]
    assert len(papers) == 5
    assert len(errors) == 1 and "looks cut short" in errors[0].reason and "3 of the header's 7" in errors[0].reason


def test_a_bibtex_file_cut_before_its_last_entrys_title_says_it_looks_cut_short(tmp_path) -> None:
    """Cut inside the last entry before its title (``  Month =``): the entry was skipped as "empty title and
    abstract"."""
    data = (TOOLS / "wos_zoorec_bib2df_7.bib").read_bytes()
    items = _cut(tmp_path, "wos_zoorec_bib2df_7.bib", size=data.rindex(b"Month = {") + 7)
    errors = [i for i in items if isinstance(i, RowError)]
    assert [e.row for e in errors] == [4, 7]
    assert "looks cut short" in errors[-1].reason


# --- Cochrane CENTRAL RIS (2026): trial registry records -----------------------------------------------------------


def test_a_central_trial_registry_record_has_no_url_for_a_journal_and_its_id_as_author(tmp_path) -> None:
    """The Cochrane Library's RIS of CENTRAL ("Record #1 of 936", "Provider: …" before each record, ``TY  -  JOUR``
    with two spaces after the dash, CRLF) writes a trial registry record's registry page as its journal (``JA  -
    https://clinicaltrials.gov/ct2/show/NCT06882096``) and its registry id as its one author, a comma after it
    (``AU  -  NCT06882096,``): the journal was the URL, so one trial's CT.gov and ICTRP records had two journals
    ("…/ct2/show/NCT05040321", "…/show/NCT05040321"), and the author "NCT06882096,". The seven records (three
    journal records and the registry records of one trial, each twice) import as four papers."""
    from core.store import Store, import_files

    papers = tools_papers("cochrane_central_registry_7.ris")
    assert len(papers) == 7
    registry = [p for p in papers if p.fields.get("authors", [""])[0].startswith("NCT")]
    assert [p.fields["authors"] for p in registry] == [["NCT06882096"], ["NCT05040321"], ["NCT05040321"]]
    assert [p.fields.get("journal") for p in registry] == [None, None, None]
    assert "https://clinicaltrials.gov/ct2/show/NCT06882096" in registry[0].fields["urls"]
    assert papers[3].fields["journal"] == "Nature communications"
    report = import_files(Store(tmp_path / "ws"), [TOOLS / "cochrane_central_registry_7.ris"], "c")
    assert (report.imported, report.added, report.merged, report.skipped) == (7, 4, 3, 0)


def test_a_pubmed_file_cut_inside_its_last_record_warns_that_it_looks_cut_short(tmp_path) -> None:
    """PubMed format has no end-of-record line, but every record ends with its ``SO`` (source) line. A file cut
    inside its last record's author list (NMN-NR's ``pubmed.nbib`` at 60 %, "…Graduate School of Medicine, The \\n
    ") was imported short without a word; now the record is imported with a warning naming the cut."""
    data = (TOOLS.parent / "pubmed_3.txt").read_bytes()
    cut = tmp_path / "pubmed_3.txt"
    cut.write_bytes(data[: data.rindex(b"\nAU  - ") + 5])
    items = list(read_papers(cut))
    papers = [i for i in items if isinstance(i, Paper)]
    warnings = [i for i in items if isinstance(i, RowWarning)]
    assert len(papers) == 3
    assert [w.row for w in warnings] == [3] and "looks cut short" in warnings[0].reason
    whole = list(read_papers(TOOLS.parent / "pubmed_3.txt"))
    assert not [i for i in whole if isinstance(i, RowWarning)]
