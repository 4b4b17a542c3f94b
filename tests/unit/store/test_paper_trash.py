"""Single papers into the trash (a librarian's wrong record): deleted with their merged records, keys, figures and
links, counted as missing in collections, and restored whole with the same ids and order; refused, saying why, when
the corpus is gone or holds the paper again. The Library had no way to delete one paper at all."""

from __future__ import annotations

import pytest

from core.errors import CorpusError, NotFoundError
from core.records import Paper
from core.store import import_file

RIS = ("TY  - JOUR\nID  - P1\nTI  - A study of things\nAB  - One abstract of the study.\nDO  - 10.1/x\nER  - \n\n"
       "TY  - JOUR\nID  - P2\nTI  - A Study of Things.\nAB  - Another abstract, longer.\nDO  - 10.1/x\nER  - \n\n"
       "TY  - JOUR\nID  - Q1\nTI  - Quite another paper\nAB  - About rivers and nitrate.\nDO  - 10.1/q\nER  - \n\n"
       "TY  - JOUR\nID  - R1\nTI  - Rocks and stones\nAB  - About rocks.\nER  - \n")


def _search(store, tmp_path):
    path = tmp_path / "search.ris"
    path.write_text(RIS)
    report = import_file(store, path, "c")
    assert (report.added, report.merged) == (3, 1)
    store.save_collection("c", "to read", ["P1", "Q1"])
    return path


def test_a_deleted_paper_goes_to_the_trash_with_its_merged_record_and_comes_back_whole(store, tmp_path):
    _search(store, tmp_path)
    before = store.papers_frame("c")
    version = store.corpus("c").version
    with store.connect() as conn:
        merged = conn.execute("SELECT COUNT(*) FROM merged_records WHERE corpus = 'c'").fetchone()[0]
    assert merged == 1
    item = store.delete_papers("c", ["P1"])
    assert item.kind == "papers" and item.papers == 1 and item.corpus == "c"
    assert item.describe() == "paper 'A study of things' of corpus 'c'"
    assert [p.id for p in store.papers("c")] == ["Q1", _rocks(store)]
    assert store.corpus("c").version != version
    assert {c.name: (c.papers, c.missing) for c in store.collections("c")} == {"to read": (1, 1)}
    with store.connect() as conn:
        assert conn.execute("SELECT COUNT(*) FROM merged_records WHERE corpus = 'c'").fetchone()[0] == 0
    store.restore(item.id)
    after = store.papers_frame("c")
    assert after["id"].tolist() == before["id"].tolist() and after["title"].tolist() == before["title"].tolist()
    assert {c.name: (c.papers, c.missing) for c in store.collections("c")} == {"to read": (2, 0)}
    with store.connect() as conn:
        assert conn.execute("SELECT COUNT(*) FROM merged_records WHERE corpus = 'c'").fetchone()[0] == 1
    assert store.trash() == []


def _rocks(store) -> str:
    return next(p.id for p in store.papers("c") if p.title == "Rocks and stones")


def test_a_paper_imported_again_meanwhile_is_not_restored_twice(store, tmp_path):
    path = _search(store, tmp_path)
    item = store.delete_papers("c", ["Q1"])
    import_file(store, path, "c")  # the search imported again: Q1 is back
    with pytest.raises(CorpusError, match="holds paper 'Q1' again"):
        store.restore(item.id)
    assert [p.id for p in store.papers("c")].count("Q1") == 1


def test_papers_restored_after_later_imports_keep_their_place_or_go_to_the_end(store, tmp_path):
    _search(store, tmp_path)
    rocks = _rocks(store)
    item = store.delete_papers("c", [rocks])  # the last paper: the next import takes its place
    store.import_papers("c", [Paper("N1", "New paper", "A new abstract.", {})], source="more")
    store.restore(item.id)
    assert [p.id for p in store.papers("c")] == ["P1", "Q1", "N1", rocks]


def test_deleting_refuses_unknown_ids_and_emptying_the_trash_deletes_for_good(store, tmp_path):
    _search(store, tmp_path)
    with pytest.raises(NotFoundError, match="no paper with id 'nope'"):
        store.delete_papers("c", ["Q1", "nope"])
    assert len(store.papers("c")) == 3
    item = store.delete_papers("c", ["Q1", "P1"])
    assert item.describe() == "paper 'Quite another paper' and 1 other paper of corpus 'c'"
    store.empty_trash(item.id)
    with store.connect() as conn:
        left = conn.execute("SELECT COUNT(*) FROM papers WHERE corpus LIKE '#trash:%'").fetchone()[0]
    assert left == 0 and len(store.papers("c")) == 1


def test_papers_of_a_deleted_corpus_wait_for_it(store, tmp_path):
    _search(store, tmp_path)
    item = store.delete_papers("c", [_rocks(store)])
    corpus = store.delete_corpus("c")
    with pytest.raises(CorpusError, match="not in the workspace now"):
        store.restore(item.id)
    store.restore(corpus.id)
    store.restore(item.id)
    assert len(store.papers("c")) == 3
