"""Collections: named selections of a corpus's papers that users keep, change, merge, delete (undoably), and that
find their papers again after the corpus is deleted and imported again, even under new ids."""

from pathlib import Path

import pytest

from core.errors import CorpusError, NotFoundError
from core.records import Paper
from core.store import import_file
from tests.helpers import make_papers

LENS = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "lens_49.ris"


@pytest.fixture()
def corpus(store):
    store.import_papers("c", make_papers(4))  # astro-0..3, bio-0..3, econ-0..3
    return store


def test_create_add_list_and_read_back_in_order_of_addition(corpus):
    s = corpus
    made = s.save_collection("c", "  Stars  first ", ["astro-2", "astro-0"], note="to read")
    assert (made.corpus, made.name, made.note, made.papers, made.missing) == ("c", "Stars first", "to read", 2, 0)
    again = s.save_collection("c", "stars FIRST", ["astro-0", "bio-1", "bio-1"])  # same name, case aside: added to
    assert again.name == "Stars first" and again.papers == 3 and again.note == "to read"  # note kept when not given
    assert s.collection_ids("c", "Stars first") == ["astro-2", "astro-0", "bio-1"]
    s.save_collection("c", "Money", ["econ-0", "astro-0"])
    assert [c.name for c in s.collections("c")] == ["Money", "Stars first"]  # newest first
    assert [c.name for c in s.collections()] == ["Money", "Stars first"]
    assert s.collections("other") == []
    assert s.collection_membership("c") == {"astro-2": ["Stars first"], "astro-0": ["Stars first", "Money"],
                                            "bio-1": ["Stars first"], "econ-0": ["Money"]}
    assert s.collection("c", "money").to_dict()["papers"] == 2


def test_unknown_ids_are_refused_in_one_sentence_and_nothing_is_stored(corpus):
    s = corpus
    with pytest.raises(NotFoundError, match=r"4 ids given for collection 'New' are not a paper of corpus 'c': "
                                            r"'x1', 'x2', 'x3', \.\.\.; nothing was saved"):
        s.save_collection("c", "New", ["astro-0", "x1", "x2", "x3", "x4"])
    assert s.collections("c") == []
    s.save_collection("c", "Kept", ["astro-0"])
    with pytest.raises(NotFoundError, match="1 id given for collection 'Kept' is not a paper of corpus 'c': 'nope'"):
        s.save_collection("c", "Kept", ["bio-0", "nope"], note="changed")
    kept = s.collection("c", "Kept")
    assert s.collection_ids("c", "Kept") == ["astro-0"] and kept.note == ""  # neither the ids nor the note
    with pytest.raises(NotFoundError, match="there is no corpus named 'nowhere'"):
        s.save_collection("nowhere", "x", [])


def test_names_are_checked(corpus):
    s = corpus
    with pytest.raises(CorpusError, match="a collection needs a name"):
        s.save_collection("c", "   ", ["astro-0"])
    with pytest.raises(CorpusError, match="at most 120 characters"):
        s.save_collection("c", "x" * 121, ["astro-0"])
    s.save_collection("c", "A", ["astro-0"])
    s.save_collection("c", "B", ["bio-0"])
    with pytest.raises(CorpusError, match="corpus 'c' has a collection named 'B' already"):
        s.rename_collection("c", "A", " b ")
    with pytest.raises(NotFoundError, match=r"corpus 'c' has no collection named 'Z' \(its collections: 'B', 'A'\)"):
        s.collection("c", "Z")


def test_remove_merge_rename_and_note(corpus):
    s = corpus
    s.save_collection("c", "A", ["astro-0", "astro-1", "bio-0"])
    s.save_collection("c", "B", ["bio-0", "econ-0"])
    assert s.remove_from_collection("c", "A", ["astro-1", "not-there"]) == 1
    assert s.collection_ids("c", "A") == ["astro-0", "bio-0"]
    merged = s.merge_collections("c", ["A", "B"], into="Both")
    assert merged.papers == 3 and s.collection_ids("c", "Both") == ["astro-0", "bio-0", "econ-0"]
    assert {c.name for c in s.collections("c")} == {"A", "B", "Both"}  # sources kept
    into_a = s.merge_collections("c", ["B", "A"], into="A", keep_sources=False)  # into one of the sources
    assert s.collection_ids("c", "A") == ["astro-0", "bio-0", "econ-0"] and into_a.name == "A"
    assert {c.name for c in s.collections("c")} == {"A", "Both"}
    assert [i.name for i in s.trash()] == ["B"]  # the dropped source went to the trash, undoable
    renamed = s.rename_collection("c", "A", "Alpha")
    assert renamed.name == "Alpha" and s.collection_ids("c", "alpha") == ["astro-0", "bio-0", "econ-0"]
    assert s.rename_collection("c", "Alpha", "ALPHA").name == "ALPHA"  # the case of its own name may change
    assert s.set_collection_note("c", "alpha", "  why these  ").note == "why these"
    assert s.set_collection_note("c", "alpha", "").note == ""


def test_delete_goes_to_the_trash_names_it_and_restore_undoes_it(corpus):
    s = corpus
    s.save_collection("c", "A", ["astro-0", "bio-0"], note="n")
    item = s.delete_collection("c", "a")
    assert item.kind == "collection" and item.name == "A" and item.corpus == "c"
    assert item.describe() == "collection 'A' of corpus 'c' (2 papers)"
    assert s.collections("c") == [] and s.collections() == [] and s.collection_membership("c") == {}
    assert s.corpus("c").papers == 12  # its papers stay in the corpus
    s.save_collection("c", "A", ["econ-0"])  # the name is free meanwhile
    with pytest.raises(CorpusError, match="corpus 'c' has a collection named 'A' now"):
        s.restore(item.id)
    back = s.restore(item.id, as_name="A old")
    assert back.name == "A old" and s.trash() == []
    restored = s.collection("c", "A old")
    assert (restored.note, s.collection_ids("c", "A old")) == ("n", ["astro-0", "bio-0"])

    gone = s.delete_collection("c", "A")
    s.empty_trash(gone.id)
    assert [c.name for c in s.collections("c")] == ["A old"]
    with s.connect() as conn:  # its entries are deleted for good too
        assert conn.execute("SELECT COUNT(*) FROM collection_papers").fetchone()[0] == 2


def test_a_collection_finds_its_papers_again_when_the_corpus_is_deleted_and_imported_again(store):
    import_file(store, LENS, "lens")
    ids = [p.id for p in store.papers("lens")]
    assert len(ids) == 47  # 49 records, two of them duplicates
    chosen = ids[3:13]
    store.save_collection("lens", "Ten", chosen)
    store.delete_corpus("lens")
    gone = store.collections()
    assert [(c.name, c.papers, c.missing) for c in gone] == [("Ten", 0, 10)]  # kept, its papers missing
    assert store.collection_ids("lens", "Ten") == []
    import_file(store, LENS, "lens")
    assert store.collection("lens", "Ten").papers == 10 and store.collection("lens", "Ten").missing == 0
    assert store.collection_ids("lens", "Ten") == chosen


def test_papers_imported_again_under_new_ids_are_found_by_their_text(store):
    papers = make_papers(2)
    store.import_papers("c", papers)
    store.save_collection("c", "Mine", ["bio-1", "astro-0", "econ-1"])
    store.delete_corpus("c")
    renumbered = [Paper(f"new-{i}", p.title.upper(), p.abstract, p.fields) for i, p in enumerate(papers)]
    store.import_papers("c", renumbered)  # the same texts (case aside) under other ids
    found = store.collection("c", "Mine")
    assert (found.papers, found.missing) == (3, 0)
    assert store.collection_ids("c", "Mine") == ["new-3", "new-0", "new-5"]
    assert store.collection_membership("c")["new-3"] == ["Mine"]
    # adding a paper it holds under its new id adds nothing; removing by the new id works
    assert store.save_collection("c", "Mine", ["new-3", "new-1"]).papers == 4
    assert store.remove_from_collection("c", "Mine", ["new-0"]) == 1
    assert store.collection_ids("c", "Mine") == ["new-3", "new-5", "new-1"]
