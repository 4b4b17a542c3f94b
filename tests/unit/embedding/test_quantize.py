"""Fast paths: the fast CPU encoder modes and their own cache key; the index kind chosen by corpus size."""

import numpy as np
import pytest

from core.embedding import Encoder, embed_corpus, fingerprint, vectors_fingerprint
from core.embedding import quantize as quantize
from core.explore import IVF_NPROBES, VectorIndex, choose_kind, exact_topk, recall_at_k
from tests.helpers import make_papers, register_tiny


@pytest.fixture()
def tiny(store, tiny_model_dir):
    return register_tiny(store, tiny_model_dir)


@pytest.fixture(params=[True, False], ids=["bf16-cpu", "no-bf16-cpu"])
def fast_kind_expected(request, monkeypatch):
    """Run a test as on a CPU with native bf16 (bf16 mode) and as on one without (int8 mode)."""
    monkeypatch.setattr(quantize, "cpu_supports_bf16", lambda: request.param)
    return "bf16" if request.param else "int8"


def _unit(n, d, seed=0):
    x = np.random.default_rng(seed).normal(size=(n, d)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_fast_mode_vectors_stay_close_to_exact(tiny, fast_kind_expected):
    papers = make_papers(2)
    exact = Encoder(tiny, device="cpu", fast=False).encode(papers)
    fast_encoder = Encoder(tiny, device="cpu", fast=True)
    fast = fast_encoder.encode(papers)
    assert fast_encoder.fast == fast_kind_expected
    assert fast.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(fast, axis=1), 1.0, atol=1e-4)
    assert np.min(np.sum(exact * fast, axis=1)) > 0.95


def test_fast_mode_is_cached_under_its_own_fingerprint(store, tiny):
    store.import_papers("c", make_papers(2))
    exact_fp, fast_fp = vectors_fingerprint(tiny, fast=False), vectors_fingerprint(tiny, fast=True, device="cpu")
    assert exact_fp == fingerprint(tiny) and fast_fp != exact_fp and len(fast_fp) == len(exact_fp)
    fast = embed_corpus(store, "c", "tiny", device="cpu", fast=True)
    assert fast.new == 6
    assert store.missing_hashes("c", fast_fp) == [] and len(store.missing_hashes("c", exact_fp)) == 6
    exact = embed_corpus(store, "c", "tiny", device="cpu", fast=False)
    assert (exact.new, exact.cached) == (6, 0)
    assert not np.array_equal(store.embeddings("c", fast_fp), store.embeddings("c", exact_fp))


def test_environment_switches_the_fast_mode(tiny, monkeypatch):
    monkeypatch.setenv(quantize.FAST_ENV, "1")
    assert Encoder(tiny, device="cpu").fast in quantize.KINDS
    assert vectors_fingerprint(tiny, device="cpu") != fingerprint(tiny)
    monkeypatch.setenv(quantize.FAST_ENV, "0")
    assert Encoder(tiny, device="cpu").fast == ""
    assert vectors_fingerprint(tiny) == fingerprint(tiny)
    monkeypatch.setenv(quantize.FAST_ENV, "auto")
    monkeypatch.setattr(quantize, "cpu_supports_bf16", lambda: False)
    assert Encoder(tiny, device="cpu").fast == ""


def test_single_texts_embed_in_input_order(tiny):
    encoder = Encoder(tiny, device="cpu", batch_size=3)
    texts = [f"{p.title}. {p.abstract}" for p in make_papers(2)]
    together = encoder.encode_texts(texts)
    one_by_one = np.stack([encoder.encode_texts([t])[0] for t in texts])
    np.testing.assert_allclose(together, one_by_one, atol=1e-5)
    assert encoder.encode_texts([]).shape == (0, encoder.dim)


def test_index_kind_follows_corpus_size():
    assert choose_kind(100, exact_limit=100, ivf_above=1000) == "exact"
    assert choose_kind(101, exact_limit=100, ivf_above=1000) == "hnsw"
    assert choose_kind(1001, exact_limit=100, ivf_above=1000) == "ivf"


def test_ivf_index_reaches_recall_persists_and_filters(tmp_path):
    x, q = _unit(3000, 32), _unit(40, 32, seed=5)
    path = tmp_path / "idx.faiss"
    index = VectorIndex(x, exact_limit=100, path=path, ivf_above=1000)
    assert index.kind == "ivf" and path.exists() and index.faiss_index.nprobe in IVF_NPROBES
    _, found = index.search(q, 10)
    assert recall_at_k(found, exact_topk(x, q, 10)[1]) >= 0.95
    reloaded = VectorIndex(x, exact_limit=100, path=path, ivf_above=1000)
    assert reloaded.faiss_index.nprobe == index.faiss_index.nprobe
    np.testing.assert_array_equal(reloaded.search(q, 10)[1], found)
    mask = np.zeros(3000, bool)
    mask[::3] = True
    _, kept = index.search(q, 10, mask)
    assert (kept >= 0).all() and mask[kept].all()


def test_persisted_index_of_the_other_kind_is_rebuilt(tmp_path):
    x = _unit(1500, 16)
    path = tmp_path / "idx.faiss"
    assert VectorIndex(x, exact_limit=100, path=path, ivf_above=10_000).kind == "hnsw"
    rebuilt = VectorIndex(x, exact_limit=100, path=path, ivf_above=1000)
    assert rebuilt.kind == "ivf" and type(rebuilt.faiss_index).__name__ == "IndexIVFFlat"
    import faiss

    assert type(faiss.read_index(str(path))).__name__ == "IndexIVFFlat"
