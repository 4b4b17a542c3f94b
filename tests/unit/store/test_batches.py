"""The import's batch insert: the fast path (nothing collides) and the careful one give the same table and counts."""

from __future__ import annotations

from core.records import Paper
from core.store import Store


def papers(*specs: tuple[str, str]) -> list[Paper]:
    return [Paper(pid, title, f"Abstract of {title}.", {"journal": "J"}) for pid, title in specs]


def test_a_batch_that_collides_after_some_rows_counts_only_what_was_added(tmp_path) -> None:
    store = Store(tmp_path / "ws")
    first = store.import_papers("c", papers(("a", "Alpha"), ("b", "Beta"), ("c", "Gamma")))
    assert (first.added, first.merged, first.conflicts) == (3, 0, [])
    # new, new, a duplicate of Beta (other id), an id already taken by other text, new: the fast path's insert
    # fails on the fourth row and its savepoint is rolled back before the batch is redone row by row
    second = store.import_papers("c", papers(("d", "Delta"), ("e", "Epsilon"), ("x", "beta"), ("a", "Other"),
                                             ("f", "Phi")))
    assert (second.imported, second.added, second.merged) == (5, 4, 1)
    assert [c["kept_as"] for c in second.conflicts] == ["a~4"]
    frame = store.papers_frame("c")
    assert len(frame) == store.corpus("c").papers == 7
    assert list(frame["id"]) == ["a", "b", "c", "d", "e", "a~4", "f"]  # rows in order: seq has no gaps
    assert frame.loc[frame["id"] == "a~4", "title"].item() == "Other"


def test_importing_the_same_file_twice_adds_nothing(tmp_path) -> None:
    store = Store(tmp_path / "ws")
    batch = papers(*((f"p{i}", f"Paper {i}") for i in range(2500)))  # more than one batch
    assert store.import_papers("c", batch).added == 2500
    again = store.import_papers("c", batch)
    assert (again.added, again.merged, store.corpus("c").papers) == (0, 2500, 2500)


def _one_paper_by_doi_across_batches(store: Store, corpus: str) -> tuple[int, int, str]:
    """Import, into a new corpus, 2,500 distinct papers whose row 2,400 (a later batch) is row 5's paper under
    another title spelling and id (same DOI): (added, merged, the rule that merged it)."""
    batch = [Paper(f"p{i}", f"A long enough distinct title number {i}", f"Abstract {i}.", {"doi": f"10.1/{i}"})
             for i in range(2500)]
    batch[2400] = Paper("q", "A LONG ENOUGH DISTINCT TITLE NUMBER 5.", "Another abstract.", {"doi": "10.1/5"})
    report = store.import_papers(corpus, batch)
    return report.added, report.merged, report.rules


def test_a_new_corpus_finds_a_key_stored_by_an_earlier_batch(tmp_path, monkeypatch) -> None:
    """A new corpus's fast path knows its stored keys from memory (`StoredKeys`), not by probing ``paper_keys``;
    a key an earlier batch stored still sends the batch the careful way, and so does the probe once memory is full."""
    import core.store.batches as batches

    store = Store(tmp_path / "ws")
    assert _one_paper_by_doi_across_batches(store, "c") == (2499, 1, {"same DOI and title": 1})
    monkeypatch.setattr(batches, "_KEYS_HELD", 100)  # held hashes dropped after the first batch: SQLite answers
    assert _one_paper_by_doi_across_batches(store, "d") == (2499, 1, {"same DOI and title": 1})
    probes: list[str] = []
    store._connection().set_trace_callback(probes.append)
    monkeypatch.setattr(batches, "_KEYS_HELD", 250_000)
    distinct = [Paper(f"p{i}", f"A long enough distinct title number {i}", f"Abstract {i}.", {"doi": f"10.1/{i}"})
                for i in range(4500)]
    assert store.import_papers("e", distinct).added == 4500
    assert not [s for s in probes if "FROM paper_keys" in s]  # three batches, each checked in memory only


def test_a_text_is_normalised_as_its_split_words_joined_and_lower_cased() -> None:
    """`normalise_text` answers a text that is folded already without splitting it, by looking for each white space
    character `str.split` splits on (BENCHMARKS.md §25g): every ASCII character, and a few others, in every place
    (alone, between words, doubled, at either end, beside a line break) gives the key of the words joined."""
    from core.records import normalise_text

    chars = [chr(c) for c in range(128)] + ["\x85", "\xa0", "\u2028", "\u3000", "é"]
    texts = [form.format(c=c, d=d) for c in chars for d in ("a", " ", "\n", "\t", "\x1f", "\x01")
             for form in ("{c}", "Ab {c} Cd", "Ab{c}{d}Cd", "{c}Word {d}", "Word{c}", "x{c}{c}y", "{d}{c}\n")]
    texts += ["", " ", "\n", "One  Two", " One", "One ", "One\nTwo", "One\n Two", "ONE two\x0bThree"]
    assert [normalise_text(t) for t in texts] == [" ".join(t.split()).lower() for t in texts]
    assert normalise_text(None) == ""  # type: ignore[arg-type]
