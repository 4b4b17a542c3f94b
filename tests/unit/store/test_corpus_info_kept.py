"""`Store.corpus()` is kept per thread until the database changes (BENCHMARKS §30h: a page run asked ~15 times, each
counting the corpus's papers): the same answer without SQL while nothing changed, a fresh one after this
connection's own writes or another connection's commit, and a kept answer a caller cannot spoil."""

from __future__ import annotations

import threading

import pytest

from core.store import Store
from tests.helpers import make_papers


def _counts(store: Store, call) -> tuple[object, int]:
    """What `call()` returns and how many COUNT queries it ran on this thread's connection."""
    seen: list[str] = []
    conn = store._connection()
    conn.set_trace_callback(seen.append)
    try:
        result = call()
    finally:
        conn.set_trace_callback(None)
    return result, sum("COUNT(*)" in s for s in seen)


def test_an_unchanged_corpus_is_answered_without_counting_again(store: Store):
    store.import_papers("c", make_papers(3))
    first, counted = _counts(store, lambda: store.corpus("c"))
    again, counted_again = _counts(store, lambda: store.corpus("c"))
    assert counted == 1 and counted_again == 0
    assert again == first and again.papers == 9


def test_this_connections_own_writes_and_another_connections_commit_are_seen(store: Store, tmp_path):
    store.import_papers("c", make_papers(3))
    assert store.corpus("c").papers == 9
    store.import_papers("c", make_papers(4))  # this thread's connection: total_changes moves
    assert store.corpus("c").papers == 12
    other = Store(store.root)  # another connection to the same catalog commits
    other.import_papers("c", make_papers(5))
    assert store.corpus("c").papers == 15
    done: list[int] = []
    thread = threading.Thread(target=lambda: done.append(store.import_papers("c", make_papers(6)).added))
    thread.start()
    thread.join()  # the same Store, another thread's connection
    assert done == [3] and store.corpus("c").papers == 18


def test_a_kept_answer_cannot_be_spoiled_by_a_caller(store: Store):
    store.import_papers("c", make_papers(2))
    info = store.corpus("c")
    info.columns.append("spoiled")
    info.papers = -1
    again = store.corpus("c")
    assert "spoiled" not in again.columns and again.papers == 6


def _in_new_thread(store: Store, call) -> tuple[object, int]:
    """`_counts` of `call()` on a thread of its own (the app runs each page run on a new thread)."""
    found: list[tuple[object, int]] = []
    thread = threading.Thread(target=lambda: found.append(_counts(store, call)))
    thread.start()
    thread.join()
    return found[0]


def test_a_new_threads_page_run_finds_the_corpora_kept_until_anything_commits(store: Store):
    """BENCHMARKS §31y: each page run is a new script thread with a new connection, so the per-thread answers were
    never found: the sidebar's `corpora()` and `corpus()` counted 1M papers again on every run (~0.1–0.3 s). They are
    kept for every thread until any connection commits; a transaction's own uncommitted rows are still seen."""
    store.import_papers("c", make_papers(3))
    assert _counts(store, store.corpora)[1] == 1 and _counts(store, lambda: store.corpus("c"))[1] == 1
    listed, counted = _in_new_thread(store, store.corpora)
    info, counted_info = _in_new_thread(store, lambda: store.corpus("c"))
    assert counted == counted_info == 0 and [c.papers for c in listed] == [9] and info.papers == 9
    listed[0].papers = -1  # a caller's copy
    assert store.corpora()[0].papers == 9
    other = Store(store.root)  # another process's connection commits
    other.import_papers("d", make_papers(2))
    listed, counted = _in_new_thread(store, store.corpora)
    assert counted == 1 and sorted(c.papers for c in listed) == [6, 9]
    assert _in_new_thread(store, lambda: store.corpus("d"))[0].papers == 6
    with pytest.raises(KeyboardInterrupt), store.transaction() as conn:  # its own rows, never a kept answer
        conn.execute("DELETE FROM papers WHERE corpus = 'd'")
        assert store.corpus("d").papers == 0 and [c.papers for c in store.corpora() if c.name == "d"] == [0]
        raise KeyboardInterrupt  # rolled back
    assert store.corpus("d").papers == 6
