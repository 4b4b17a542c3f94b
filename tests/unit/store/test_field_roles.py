"""Fields have roles: the journal is the journal whatever its count, the year is a time axis, and counts, pages,
dates, ids, URLs and free text are never labels (issue 29, section 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import read_papers
from core.records import Paper
from core.store.field_roles import role_of
from core.store.field_stats import FieldCounts

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "real"
EXPORTS = Path(__file__).resolve().parents[4] / "shared" / "data" / "exports"
NEVER_LABELS = {"count", "pages", "date", "id", "url", "text", "authors", "keywords", "references", "year",
                "number", "alias"}


def test_a_small_medline_export_with_as_many_journals_as_papers_has_its_journal_as_a_label(store):
    store.import_papers("medline", read_papers(REAL / "pubmed_3.txt"))
    info = store.corpus("medline")
    frame = store.papers_frame("medline")
    assert frame["journal"].nunique() == info.papers == 3  # every paper its own journal: a count rule refused it
    assert info.journal == "journal" and info.labels[0] == "journal"
    assert info.year == "year" and "year" not in info.labels


@pytest.mark.parametrize("name, role", [
    ("Times Cited", "count"), ("cited by", "count"), ("Citing Works Count", "count"), ("TC", "count"),
    ("Page end", "pages"), ("start_page", "pages"), ("Volume", "pages"), ("AR", "pages"),
    ("Date Published", "date"), ("pubdate", "date"), ("DP", "date"),
    ("PMID", "id"), ("Source URLs", "id"), ("issn", "id"), ("UT", "id"),
    ("Funding Details", "text"), ("Correspondence Address", "text"), ("notes", "text"),
    ("Author Full Names", "authors"), ("AU", "authors"), ("Index Keywords", "keywords"), ("MeSH Terms", "keywords"),
    ("Document Type", "type"), ("Reference Type", "type"), ("CR", "references"), ("References", "references"),
    ("journal", "journal"), ("venue", "journal"), ("year", "year"), ("Abbreviated Source Title", "alias"),
])
def test_roles_by_name(name, role):
    assert role_of(name) == role


@pytest.mark.parametrize("counts, role", [
    (FieldCounts(90, 100, False, 100, numbers=100), "number"),  # many distinct numbers: a count
    (FieldCounts(5, 100, False, 100, numbers=100, integral=False), "number"),  # fractions are never classes
    (FieldCounts(3, 100, False, 100, numbers=100), "label"),  # 0 / 1 / 2 relevance grades may be classes
    (FieldCounts(40, 100, False, 100, dates=95), "date"),
    (FieldCounts(40, 100, False, 100, urls=60), "url"),
    (FieldCounts(40, 100, False, 100, long=70), "text"),
    (FieldCounts(4, 100, False, 100), "label"),
    (FieldCounts(90, 100, False, 100), "other"),  # nearly unique short values: not a class
    (FieldCounts(4, 100, True, 0), "other"),  # lists
])
def test_roles_of_unnamed_columns_by_their_values(counts, role):
    assert role_of("custom column", counts, 100) == role


def test_every_real_export_has_its_journal_as_label_and_no_count_date_or_id_label(store):
    expected = [line.split("\t") for line in (EXPORTS / "EXPECTED.tsv").read_text().splitlines()]
    checked = 0
    for file, count in expected:
        if count == "-" or "cochrane_" in file and file.endswith(".ris"):
            continue
        name = Path(file).stem.strip("_")[:60]
        store.import_papers(name, read_papers(EXPORTS / file), source=file)
        info = store.corpus(name)
        assert info.journal and info.labels[0] == info.journal, file
        bad = {c: info.roles[c] for c in info.labels if info.roles[c] in NEVER_LABELS}
        assert not bad, (file, bad)
        checked += 1
    assert checked >= 35


def test_the_user_marks_and_unmarks_label_columns_and_a_reimport_keeps_the_choice(store):
    papers = [Paper(f"p{i}", f"Title {i}", f"Abstract {i} text.", {"journal": f"J{i % 3}", "year": 2000 + i % 4,
                                                                 "group": f"g{i % 2}", "doi": f"10.1/{i}"})
              for i in range(20)]
    store.import_papers("c", papers[:10])
    assert store.corpus("c").labels == ["journal", "group"]
    info = store.set_labels("c", ["group"])
    assert info.labels == ["group"] and info.labels_chosen
    with pytest.raises(CorpusError, match="'year' cannot be a label column of corpus 'c': it is its year field"):
        store.set_labels("c", ["group", "year"])
    with pytest.raises(CorpusError, match="'doi' cannot be a label"):
        store.set_labels("c", ["doi"])
    store.import_papers("c", papers[10:])
    assert store.corpus("c").labels == ["group"]  # the user's choice stands after adding papers
    assert store.set_labels("c", None).labels == ["journal", "group"]  # back to the guess


def test_a_column_one_database_fills_with_values_that_never_repeat_is_no_label(store):
    """One search from several databases: Scopus's 'Art. No.' (article numbers) and Embase's 'custom5' (PMIDs) are
    filled only on their own database's rows, every value different. The rule "at most half as many values as
    rows" counted the corpus's rows, not the rows holding a value, so both became label columns (offered to colour
    the map and to train on) in the Library's walk of PubMed + Scopus + Web of Science + Embase + Zotero."""
    assert role_of("custom column", FieldCounts(8, 8, False, 8, numbers=8), 35) != "label"
    assert role_of("custom column", FieldCounts(8, 8, False, 8), 35) != "label"  # each value once
    assert role_of("custom column", FieldCounts(3, 8, False, 8), 35) == "label"  # repeated where filled
    assert role_of("Art. No.") == "pages"  # Scopus' article number, by its name too
    files = ["RIS/_baseline_pubmed.ris", "CSV/_baseline_scopus.csv", "RIS/_baseline_webofscience.ris",
             "RIS/_baseline_embase.ris", "RIS/_baseline_zotero.ris"]
    papers = [p for f in files for p in read_papers(EXPORTS / f)]
    store.import_papers("search", [p for p in papers if isinstance(p, Paper)], source="five databases")
    info = store.corpus("search")
    assert info.labels[0] == info.journal == "journal"
    assert "art. no." not in info.labels and "custom5" not in info.labels, info.labels
