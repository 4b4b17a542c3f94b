"""A corpus's papers frame, its journal identities and "every paper embedded" kept in the workspace per corpus
version (core/store/frame_file.py, BENCHMARKS §31z): a fresh process reads files instead of the catalog's every row,
gets exactly the frame it would have built, and never a stale one."""

from __future__ import annotations

import sqlite3

import pandas as pd
import pytest

import core.store.corpora as corpora
from core.records import Paper
from core.store import Store
from core.store.frame_file import load_frame, save_frame
from tests.unit.store.test_frame_build import ROWS, _built


@pytest.mark.parametrize("with_abstract", [True, False])
@pytest.mark.parametrize("rows", [ROWS, ROWS[:1], ROWS[2:3], ROWS[::-1], ROWS[5:], ROWS[6:]])
def test_a_saved_frame_reads_back_the_same(tmp_path, rows, with_abstract) -> None:
    """Lists, dicts, text beside numbers, NaN, a number past int64, booleans: the same columns, dtypes, values."""
    frame = _built(rows, with_abstract, "journal", {"b": "PLOS ONE (one name)"})
    save_frame(frame, tmp_path / "f.arrow")
    pd.testing.assert_frame_equal(load_frame(tmp_path / "f.arrow", len(frame)), frame)
    assert load_frame(tmp_path / "f.arrow", len(frame) + 1) is None  # not this corpus's whole frame: not used
    assert load_frame(tmp_path / "none.arrow", len(frame)) is None


def _fresh_process() -> None:
    """Forget what this process computed (a new server reads only the workspace)."""
    corpora._JOURNALS.clear()


def _papers(n: int, start: int = 0) -> list[Paper]:
    return [Paper(f"p{i}", f"Title {i}", f"Abstract {i}", {"year": 2000 + i % 3, "journal": ["J. A", "J A"][i % 2],
                                                           "authors": [f"Author {i}"]})
            for i in range(start, start + n)]


def _touch_titles_behind_the_store(store: Store, title: str) -> None:
    """Change every title in the catalog without a new corpus version: only a read of the catalog would see it."""
    with sqlite3.connect(store.db_path) as conn:
        conn.execute("UPDATE papers SET title = ?", (title,))


def test_a_fresh_process_reads_the_frame_the_first_one_saved(tmp_path) -> None:
    store = Store(tmp_path / "ws")
    store.import_papers("c", _papers(7), source="test")
    built = store.papers_frame("c")
    _touch_titles_behind_the_store(store, "changed behind")
    _fresh_process()
    again = Store(tmp_path / "ws").papers_frame("c")
    pd.testing.assert_frame_equal(again, built)  # read from the workspace's file, not the catalog's rows
    assert again["journal"].nunique() == 1  # the journal identities' one name, as built
    assert set(Store(tmp_path / "ws").papers_frame("c", stored_journals=True)["journal"]) == {"J. A", "J A"}


def test_a_new_corpus_version_is_read_from_the_catalog_and_the_old_file_goes(tmp_path) -> None:
    store = Store(tmp_path / "ws")
    store.import_papers("c", _papers(5), source="test")
    store.papers_frame("c")
    old = sorted((store.arrays / "frames").glob("c-*-frame.arrow"))
    assert len(old) == 1
    store.import_papers("c", _papers(3, start=5), source="test")  # a new version
    _fresh_process()
    frame = Store(tmp_path / "ws").papers_frame("c")
    assert frame["id"].tolist() == [f"p{i}" for i in range(8)]
    assert not old[0].exists()  # the frame of a version before is never read again
    assert len(list((store.arrays / "frames").glob("c-*-frame.arrow"))) == 1


def test_the_frame_file_goes_with_its_deleted_corpus_and_a_restore_reads_the_catalog(tmp_path) -> None:
    store = Store(tmp_path / "ws")
    store.import_papers("c", _papers(4), source="test")
    store.import_papers("c2", _papers(2), source="test")
    store.papers_frame("c")
    store.papers_frame("c2")
    item = store.delete_corpus("c")
    left = sorted(p.name for p in (store.arrays / "frames").iterdir())
    assert left and all(name.startswith("c2-") for name in left)
    assert item.files == 0  # a saved frame is no file of the corpus's own: the trash does not list it
    store.restore(item.id, as_name="c old")
    assert store.papers_frame("c old")["id"].tolist() == [f"p{i}" for i in range(4)]


def test_the_journal_spellings_are_read_from_the_workspace_by_a_fresh_process(tmp_path, monkeypatch) -> None:
    store = Store(tmp_path / "ws")
    store.import_papers("c", _papers(6), source="test")
    joined, table = store.journal_identities("c").joined(), store.journal_identities("c").table()
    assert joined  # "J. A" and "J A": one journal under two spellings
    _fresh_process()
    monkeypatch.setattr(corpora, "journal_identities", lambda *a, **k: 1 / 0)  # never computed again
    summary = Store(tmp_path / "ws").journal_identities("c", names=False)
    assert summary.joined() == joined
    assert summary.table() == table  # the Journals page's rows, as computed
    assert summary.name_of("J A") == store.journal_identities("c", names=False).name_of("J. A")
    with pytest.raises(ZeroDivisionError):  # the per-paper names are not kept: asked for, they are computed
        Store(tmp_path / "ws").journal_identities("c")


def test_every_paper_embedded_is_kept_per_corpus_version_and_vectors_revision(tmp_path) -> None:
    import numpy as np

    store = Store(tmp_path / "ws")
    store.import_papers("c", _papers(3), source="test")
    fp = "0123456789abcdef"
    assert not store.is_embedded("c", fp)
    store.add_embeddings(fp, store.missing_hashes("c", fp), np.ones((3, 4), dtype=np.float32))
    assert store.is_embedded("c", fp)
    with sqlite3.connect(store.db_path) as conn:  # the keys gone behind the store, its chunks (revision) kept
        conn.execute("DELETE FROM emb_keys")
    assert Store(tmp_path / "ws").is_embedded("c", fp)  # the kept yes: the catalog's every paper not probed again
    store.import_papers("c", _papers(1, start=3), source="test")  # a new version: asked again
    assert not store.is_embedded("c", fp)
    store.add_embeddings(fp, store.missing_hashes("c", fp), np.ones((4, 4), dtype=np.float32))  # a new revision
    assert store.is_embedded("c", fp)


def test_a_workspace_whose_frames_folder_cannot_be_made_still_reads_everything(tmp_path, monkeypatch) -> None:
    """A read-only workspace (the folder cannot be made): the frame, the journals and the embedded check are made
    from the catalog each time, as before §31z."""
    import numpy as np

    store = Store(tmp_path / "ws")
    store.import_papers("c", _papers(4), source="test")
    fp = "0123456789abcdef"
    store.add_embeddings(fp, store.missing_hashes("c", fp), np.ones((4, 4), dtype=np.float32))

    def refused(*_a, **_k):
        raise PermissionError("read-only")

    monkeypatch.setattr(Store, "array_path", refused)
    assert store.papers_frame("c")["id"].tolist() == [f"p{i}" for i in range(4)]
    _fresh_process()
    assert store.journal_identities("c", names=False).joined()
    assert store.is_embedded("c", fp)
    assert not (store.arrays / "frames").exists()
