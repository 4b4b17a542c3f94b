"""`import_file`: a real export read and imported with its report; a PMC package's papers, links and figures stored
in one transaction, so a failure while saving the figures leaves the corpus as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import bundle_files
from core.records import RowError
from core.store import ImportReport, import_file
from tests.helpers import make_papers

EXPORTS = Path("/work/shared/data/exports")
JATS = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "real" / "jats").glob("*.xml"))
needs_exports = pytest.mark.skipif(not (EXPORTS / "RIS" / "_baseline.ris").exists(),
                                   reason="the shared exports are not present")


@pytest.fixture()
def package(tmp_path) -> Path:
    """The three real PMC articles of fixtures/real/jats packed as one tar (3 + 6 + 9 figures)."""
    return bundle_files(JATS, tmp_path)


@needs_exports
def test_a_ris_export_then_the_same_collection_as_csv_merges_into_one_corpus(store):
    ris = import_file(store, EXPORTS / "RIS" / "_baseline.ris", "lens")
    assert (ris.corpus, ris.imported, ris.added, ris.merged, ris.skipped) == ("lens", 98, 98, 0, 2)
    assert len(ris.errors) == 2 and ris.figures is None and "figures" not in ris.to_dict()
    assert ris.links["read"] == 0 and ris.reading["reader"] == "ris"
    info = store.corpus("lens")
    assert info.papers == 98 and info.source == "_baseline.ris" and info.journal == "journal"

    csv = import_file(store, EXPORTS / "CSV" / "_baseline.csv", "lens")
    # 90 rows have the RIS text; 8 differ only in their structured abstract's punctuation and merge by DOI
    assert (csv.imported, csv.added, csv.merged, csv.skipped, csv.merged_by_doi) == (98, 0, 98, 2, 8)
    assert csv.filled == 98  # each RIS paper took the CSV's columns it lacked (PMID, ...); its text stayed
    assert csv.id_column == "PMID" and csv.reading["reader"] == "csv"
    assert (csv.links["read"], csv.links["kept"], csv.links["dropped"]) == (5991, 3, 5988)
    assert csv.links["reasons"]["not in corpus"] == 5983 and csv.links["reasons"]["self-link"] == 5
    assert store.corpus("lens").papers == 98 and store.corpus("lens").links == 3


@needs_exports
def test_chosen_label_columns_replace_the_guess_and_unmarkable_ones_are_dropped(store):
    report = import_file(store, EXPORTS / "CSV" / "_baseline_scopus.csv", "scopus", labels=["open access", "year"])
    assert report.added == 10
    assert report.links["free_text"]["papers"] == 10  # Scopus references are written out: no links
    info = store.corpus("scopus")
    assert info.labels == ["open access"] and info.labels_chosen


def test_a_pmc_package_imports_papers_links_and_figures(store, package):
    report = import_file(store, package, "pmc")
    assert (report.imported, report.added, report.skipped, report.figures) == (3, 3, 0, 18)
    assert report.to_dict()["figures"] == 18
    assert (report.links["read"], report.links["kept"], report.links["dropped"]) == (118, 0, 118)
    assert store.figure_count("pmc") == 18 and store.corpus("pmc").source == "articles.tar"
    assert {pid: len(figs) for pid, figs in store.figures("pmc").items()} == {
        "PMC5913589": 9, "PMC6035793": 6, "PMC6137811": 3}
    assert all("figures" not in p.fields for p in store.papers("pmc"))
    with store.connect() as conn:
        done = conn.execute("SELECT status, report FROM imports WHERE corpus = 'pmc'").fetchall()
    assert [r["status"] for r in done] == ["completed"] and json.loads(done[0]["report"])["figures"] == 18


def _failing_figures(monkeypatch) -> None:
    """Figure rows are written, then saving fails (a full disk, say) before the import commits."""
    import core.store.figures as figures

    written = figures._replace_figures

    def fail(conn, *args):
        written(conn, *args)
        assert conn.execute("SELECT COUNT(*) FROM figures").fetchone()[0] > 0
        raise OSError("no space left on device")

    monkeypatch.setattr(figures, "_replace_figures", fail)


def test_a_failure_saving_figures_stores_no_paper_link_or_figure(store, package, monkeypatch):
    _failing_figures(monkeypatch)
    with pytest.raises(OSError, match="no space"):
        import_file(store, package, "pmc")
    assert not store.has_corpus("pmc") and store.figure_count("pmc") == 0
    with store.connect() as conn:
        assert conn.execute("SELECT COUNT(*) FROM papers").fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM links").fetchone()[0] == 0
        assert [r[0] for r in conn.execute("SELECT status FROM imports")] == ["failed"]


def test_a_failed_reimport_leaves_the_existing_corpus_as_it_was(store, package, monkeypatch):
    store.import_papers("pmc", make_papers(2), source="first.csv")
    before = store.corpus("pmc")
    _failing_figures(monkeypatch)
    with pytest.raises(OSError):
        import_file(store, package, "pmc")
    after = store.corpus("pmc")
    assert (after.papers, after.version, after.columns, after.labels) == (6, before.version, before.columns,
                                                                           before.labels)
    assert store.figure_count("pmc") == 0 and not any(p.id.startswith("PMC") for p in store.papers("pmc"))
    monkeypatch.undo()
    assert import_file(store, package, "pmc").figures == 18 and store.corpus("pmc").papers == 6 + 3


def test_records_already_read_import_with_their_report(store):
    records = [*make_papers(2), RowError(9, "row 9: no abstract")]
    report = import_file(store, records, "demo", source="PubMed baseline")
    assert isinstance(report, ImportReport)
    assert (report.imported, report.added, report.merged, report.skipped, report.figures) == (6, 6, 0, 1, None)
    assert store.corpus("demo").source == "PubMed baseline"
    again = import_file(store, iter(make_papers(2)), "demo")
    assert (again.added, again.merged) == (0, 6)


def test_a_file_with_no_usable_paper_is_refused_in_one_sentence(store, tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("title,abstract\nOnly a title,\n", encoding="utf-8")
    with pytest.raises(CorpusError, match="no usable papers"):
        import_file(store, empty, "c")
    assert not store.has_corpus("c")


MEDLINE_TITLES_ONLY = """PMID- 5432876
DP  - 1970 Jun 10
TI  - Tryptophan metabolism in the magnesium deficient rat.
JT  - The Journal of vitaminology
AID - 10.5925/jnsv1954.16.140 [doi]

PMID- 25905182
DP  - 2000
TI  - Role of Glucose and Lipids in the Atherosclerotic Cardiovascular Disease in
      Patients with Diabetes.
BTI - Endotext
AID - NBK278947 [bookaccession]
"""


def test_a_file_of_titles_without_abstracts_says_how_to_keep_them(store, tmp_path):
    """Two real PubMed records without abstracts (a 1970 paper, a book chapter; from a public MEDLINE test file):
    refused in one sentence that names the title-only import, nothing stored; kept with title_only."""
    path = tmp_path / "no_abstracts.nbib"
    path.write_text(MEDLINE_TITLES_ONLY, encoding="utf-8")
    with pytest.raises(CorpusError, match=r"no_abstracts.nbib has no usable papers: every row lacked an abstract; "
                                          r"import titles only \(--title-only"):
        import_file(store, path, "c")
    assert not store.has_corpus("c")
    import_file(store, path, "c", title_only=True)
    frame = store.papers_frame("c")
    assert frame["doi"].tolist()[0] == "10.5925/jnsv1954.16.140"
    assert "Cardiovascular Disease in Patients with Diabetes." in frame["title"].tolist()[1]  # the wrapped title
    papers = store.papers("c")
    assert [p.fields.get("journal") for p in papers] == ["The Journal of vitaminology", "Endotext"]  # the book
