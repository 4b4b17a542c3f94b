"""The store's corpora: imports, duplicates, atomic transactions, names, deletion."""

import pytest

from core.errors import CorpusError, NotFoundError
from core.records import Paper, RowError
from tests.helpers import make_papers


def test_import_counts_skips_and_merges_duplicates(store):
    papers = make_papers(4)
    records = papers + [RowError(7, "row 7: empty abstract"), papers[0],
                        Paper("other-id", papers[1].title.upper(), "  " + papers[1].abstract + " ", {})]
    report = store.import_papers("c1", records, source="x.csv")
    assert (report.imported, report.added, report.merged, report.skipped) == (14, 12, 2, 1)
    assert report.errors[0].row == 7
    info = store.corpus("c1")
    assert info.papers == 12 and "journal" in info.labels and "year" in info.columns


def test_reimport_is_idempotent_and_adding_new_papers_appends(store):
    store.import_papers("c", make_papers(3))
    again = store.import_papers("c", make_papers(3))
    assert again.added == 0 and again.merged == 9 and again.imported == 9
    more = store.import_papers("c", make_papers(4))
    assert more.added == 3
    assert list(store.papers_frame("c")["id"][:3]) == ["astro-0", "astro-1", "astro-2"]


def test_failed_read_mid_stream_leaves_store_untouched(store):
    store.import_papers("keep", make_papers(2))

    def broken():
        yield from make_papers(2)
        raise CorpusError("file 'x.jsonl' line 7 is not valid JSON")

    with pytest.raises(CorpusError):
        store.import_papers("new", broken())
    with pytest.raises(CorpusError):
        store.import_papers("keep", broken())
    assert not store.has_corpus("new")
    assert store.corpus("keep").papers == 6


def test_unsafe_names_are_refused(store):
    for bad in ["../evil", "/abs/path", "", "a" * 100, "x/y"]:
        with pytest.raises(CorpusError):
            store.import_papers(bad, make_papers(1))


def test_unknown_corpus_is_a_clear_error(store):
    with pytest.raises(NotFoundError, match="no corpus named 'nope'"):
        store.corpus("nope")


def test_delete_corpus_removes_papers(store):
    store.import_papers("c", make_papers(1))
    store.delete_corpus("c")
    assert not store.has_corpus("c")
    assert store.corpora() == []
