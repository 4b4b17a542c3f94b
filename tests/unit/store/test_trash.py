"""The trash: deleting a corpus or a model is undoable, names the one object it acts on, and empties for good."""

import json
import time

import numpy as np
import pytest

from core.errors import CorpusError, NotFoundError
from core.records import Paper
from tests.helpers import make_papers


def _corpus_with_everything(store, name: str) -> None:
    papers = make_papers(2)
    papers[1] = Paper(papers[1].id, papers[1].title, papers[1].abstract,
                      {**papers[1].fields, "references": [papers[0].id]})
    store.import_papers(name, papers)
    store.rename_topic(name, "minilm", "k6", "fine", 0, "my topic")
    version = store.corpus(name).version
    (store.arrays / "maps").mkdir(exist_ok=True)
    np.save(store.arrays / "maps" / f"{store.corpus_slug(name)}-0123456789abcdef-v{version}-umap.npy", np.ones(3))


def test_delete_moves_a_corpus_whole_to_the_trash_and_restore_brings_it_back(store):
    _corpus_with_everything(store, "a")
    store.import_papers("b", make_papers(1))
    before = store.papers_frame("a")
    info = store.corpus("a")
    links = store.corpus("a").links
    item = store.delete_corpus("a")
    assert item.kind == "corpus" and item.name == "a" and item.papers == info.papers and item.files == 1
    assert "corpus 'a' (6 papers" in item.describe()
    assert not store.has_corpus("a") and [c.name for c in store.corpora()] == ["b"]
    assert not list((store.arrays / "maps").glob("a-*"))
    with pytest.raises(NotFoundError):
        store.corpus("a")
    assert [t.name for t in store.trash()] == ["a"]

    restored = store.restore(item.id)
    assert restored.name == "a" and store.trash() == []
    again = store.corpus("a")
    assert (again.papers, again.version, again.labels, again.links) == (info.papers, info.version, info.labels, links)
    assert store.papers_frame("a").equals(before)
    assert store.topic_names("a", "minilm", "k6", "fine") == {0: "my topic"}
    assert len(list((store.arrays / "maps").glob("a-*"))) == 1
    assert store.corpus("b").papers == 3  # the other corpus is untouched throughout


def test_restore_refuses_a_name_taken_since_and_restores_under_another(store):
    _corpus_with_everything(store, "a")
    item = store.delete_corpus("a")
    store.import_papers("a", make_papers(1))
    with pytest.raises(CorpusError, match="a corpus named 'a' exists now"):
        store.restore(item.id)
    assert store.corpus("a").papers == 3 and len(store.trash()) == 1  # nothing touched
    restored = store.restore(item.id, as_name="a old")
    assert restored.name == "a old" and store.corpus("a old").papers == 6
    assert store.topic_names("a old", "minilm", "k6", "fine") == {0: "my topic"}
    assert len(list((store.arrays / "maps").glob(f"{store.corpus_slug('a old')}-*"))) == 1


def test_empty_trash_deletes_for_good_and_only_what_it_names(store):
    store.import_papers("a", make_papers(1))
    store.import_papers("b", make_papers(1))
    first, second = store.delete_corpus("a"), store.delete_corpus("b")
    gone = store.empty_trash(first.id)
    assert [g.name for g in gone] == ["a"] and [t.name for t in store.trash()] == ["b"]
    with store.connect() as conn:
        assert conn.execute("SELECT COUNT(*) FROM papers WHERE corpus = ?", (f"#trash:{first.id}",)).fetchone()[0] == 0
    with pytest.raises(NotFoundError, match="the trash has no item"):
        store.restore(first.id)
    store.empty_trash()
    assert store.trash() == [] and store.corpora() == []
    with store.connect() as conn:
        assert conn.execute("SELECT COUNT(*) FROM papers").fetchone()[0] == 0
    assert second.id != first.id


def test_items_older_than_the_keep_time_are_emptied_on_the_next_delete(store):
    store.import_papers("old", make_papers(1))
    store.import_papers("new", make_papers(1))
    old = store.delete_corpus("old")
    with store.connect() as conn:
        conn.execute("UPDATE trash SET deleted = ? WHERE id = ?", (time.time() - 31 * 86400, old.id))
    store.delete_corpus("new")
    assert [t.name for t in store.trash()] == ["new"]
    assert store.TRASH_KEEP_DAYS >= 7


def test_a_corpus_in_use_by_a_job_is_not_deleted(store):
    store.import_papers("busy", make_papers(1))
    with store.connect() as conn:
        conn.execute("INSERT INTO jobs(id, kind, status, args, created) VALUES ('j1', 'train', 'running', ?, 0)",
                     (json.dumps({"corpus": "busy"}),))
    with pytest.raises(CorpusError, match="in use by job j1"):
        store.delete_corpus("busy")
    assert store.corpus("busy").papers == 3 and store.trash() == []


def test_deleting_a_model_moves_its_folder_and_restore_brings_it_back(store):
    folder = store.models_dir / "ft"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    store.save_model("ft", {"name": "ft", "source": "checkpoint", "location": str(folder), "labels": ["x"]})
    item = store.delete_model("ft")
    assert item.kind == "model" and item.describe() == "model 'ft'"
    assert store.saved_models() == [] and not folder.exists()
    with pytest.raises(NotFoundError, match="no saved model named 'nope'"):
        store.delete_model("nope")
    store.restore(item.id)
    assert [m["name"] for m in store.saved_models()] == ["ft"] and (folder / "config.json").exists()
    assert store.trash() == []


def test_deleting_a_corpus_leaves_the_arrays_of_a_corpus_whose_name_starts_like_its_files(store):
    """Issue 41, item 3: corpus 'a-<fingerprint>-v1' has files 'a-<fingerprint>-v1-<fp>-v<n>…' that also read as
    corpus 'a''s; deleting and emptying 'a' must leave them (its map, its stable map's positions) alone."""
    fp = "0123456789abcdef"
    other = f"a-{fp}-v1"
    _corpus_with_everything(store, "a")
    _corpus_with_everything(store, other)
    stable = store.arrays / "maps" / f"{store.corpus_slug(other)}-{fp}-v0-stable-n15-s0.npz"
    np.savez(stable, coords=np.ones((3, 2)))
    theirs = sorted(p.name for p in (store.arrays / "maps").glob(f"{other}-{fp}-*"))
    assert len(theirs) == 2
    item = store.delete_corpus("a")
    assert item.files == 1
    assert sorted(p.name for p in (store.arrays / "maps").glob(f"{other}-{fp}-*")) == theirs
    store.empty_trash()
    assert sorted(p.name for p in (store.arrays / "maps").glob(f"{other}-{fp}-*")) == theirs
    restored = store.delete_corpus(other)
    assert restored.files == 2
