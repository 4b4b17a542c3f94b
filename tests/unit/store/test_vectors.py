"""The store's embedding arrays: chunks keyed by text hash, corpus-order matrices, damage and repair."""

import numpy as np
import pytest

from core.errors import StoreError
from tests.helpers import make_papers


def test_embeddings_roundtrip_in_corpus_order_and_missing_detection(store):
    store.import_papers("c", make_papers(2))
    hashes = store.paper_hashes("c")
    assert store.missing_hashes("c", "fp") == hashes
    vecs = np.arange(len(hashes) * 3, dtype=np.float32).reshape(-1, 3)
    store.add_embeddings("fp", hashes[::-1], vecs[::-1].copy())
    assert store.missing_hashes("c", "fp") == []
    np.testing.assert_array_equal(store.embeddings("c", "fp"), vecs)
    assert store.embedded_models("c") == ["fp"]


def test_missing_embeddings_and_damaged_files_are_reported(store):
    store.import_papers("c", make_papers(1))
    hashes = store.paper_hashes("c")
    with pytest.raises(StoreError, match="not embedded"):
        store.embeddings("c", "fp")
    store.add_embeddings("fp", hashes, np.ones((len(hashes), 2), np.float32))
    for f in (store.arrays / "embeddings" / "fp").glob("*.npy"):
        f.write_bytes(b"garbage")
    with pytest.raises(StoreError, match="damaged"):
        store.embeddings("c", "fp")
    assert store.repair()["dropped_chunks"] == 1
    assert len(store.missing_hashes("c", "fp")) == len(hashes)


def test_the_vectors_revision_changes_whenever_a_models_vectors_are_added_or_dropped(store):
    """Pages cache "is this corpus embedded" on (corpus version, vectors revision): both directions must show."""
    store.import_papers("c", make_papers(2))
    hashes = store.paper_hashes("c")
    empty = store.vectors_revision("fp")
    assert empty == (0, 0)
    store.add_embeddings("fp", hashes[:1], np.ones((1, 3), np.float32))
    one = store.vectors_revision("fp")
    store.add_embeddings("fp", hashes[1:], np.ones((len(hashes) - 1, 3), np.float32))
    both = store.vectors_revision("fp")
    assert len({empty, one, both}) == 3
    assert store.vectors_revision("other") == (0, 0)  # per model
    for f in (store.arrays / "embeddings" / "fp").glob("*.npy"):
        f.write_bytes(b"garbage")
    store.repair()  # the damaged chunks are dropped: the revision says so
    assert store.vectors_revision("fp") not in {one, both}


def test_threads_building_the_same_matrix_at_once_all_get_it(store):
    """Two page threads asking for a corpus's matrix at once (the map and a background map job) both build it; one's
    clean-up of older versions deleted the file the other had just put in place (FileNotFoundError on the map)."""
    import threading

    store.import_papers("c", make_papers(20))
    hashes = store.paper_hashes("c")
    vecs = np.random.default_rng(0).normal(size=(len(hashes), 8)).astype(np.float32)
    store.add_embeddings("fp", hashes, vecs)
    matrices = store.arrays / "matrices"
    errors: list[BaseException] = []
    for _ in range(30):
        for old in matrices.glob("*.npy"):
            old.unlink()
        start = threading.Barrier(6)

        def build() -> None:
            start.wait()
            try:
                np.testing.assert_array_equal(store.embeddings("c", "fp"), vecs)
            except BaseException as exc:  # noqa: BLE001 - collected and asserted below
                errors.append(exc)

        threads = [threading.Thread(target=build) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []
    assert [p.name for p in matrices.glob("*.npy")] == [f"c-fp-v{store.corpus('c').version}.npy"]
    assert not list(matrices.glob("*.tmp"))
