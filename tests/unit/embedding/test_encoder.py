"""Encoder: order, normalisation, pooling, caching by (model, text)."""

import numpy as np
import pytest

from core.embedding import Encoder, ModelSpec, embed_corpus, get_model, pool, vectors_fingerprint
from core.errors import ModelError
from tests.helpers import make_papers, register_tiny


@pytest.fixture()
def tiny(store, tiny_model_dir):
    return register_tiny(store, tiny_model_dir)


def test_encode_returns_unit_vectors_in_input_order(tiny):
    enc = Encoder(tiny, batch_size=3)
    papers = make_papers(3)
    together = enc.encode(papers)
    assert together.shape == (9, 32) and together.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    one_by_one = np.stack([enc.encode([p])[0] for p in papers])
    np.testing.assert_allclose(together, one_by_one, atol=1e-5)


def test_length_sorting_does_not_change_results_with_batch_size(tiny):
    papers = make_papers(4)
    a = Encoder(tiny, batch_size=1).encode(papers)
    b = Encoder(tiny, batch_size=7).encode(papers)
    np.testing.assert_allclose(a, b, atol=1e-5)


def test_pooling_mean_ignores_padding_and_cls_takes_first_token():
    import torch

    hidden = torch.tensor([[[1.0, 1.0], [3.0, 3.0], [100.0, 100.0]]])
    mask = torch.tensor([[1, 1, 0]])
    assert pool(hidden, mask, "mean").tolist() == [[2.0, 2.0]]
    assert pool(hidden, mask, "cls").tolist() == [[1.0, 1.0]]


def test_progress_callback_reaches_total(tiny):
    seen = []
    Encoder(tiny, batch_size=4).encode(make_papers(2), progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (6, 6)


def test_embed_corpus_caches_by_model_and_text(store, tiny):
    store.import_papers("c", make_papers(3))
    first = embed_corpus(store, "c", "tiny")
    assert (first.new, first.cached, first.total) == (9, 0, 9)
    second = embed_corpus(store, "c", "tiny")
    assert (second.new, second.cached) == (0, 9)
    store.import_papers("c", make_papers(4))
    third = embed_corpus(store, "c", "tiny")
    assert (third.new, third.cached, third.total) == (3, 9, 12)
    matrix = store.embeddings("c", vectors_fingerprint(tiny))
    direct = Encoder(tiny).encode(store.papers("c"))
    np.testing.assert_allclose(matrix, direct, atol=1e-5)
    store.import_papers("other", make_papers(2))
    assert embed_corpus(store, "other", "tiny").new == 0


def test_unknown_model_and_missing_folder_are_clear_errors(store):
    with pytest.raises(ModelError, match="unknown model"):
        get_model("no-such-model", store)
    with pytest.raises(ModelError, match="no folder"):
        Encoder(ModelSpec(name="gone", source="checkpoint", location="/nonexistent/folder"))


def test_hub_model_offline_fails_with_one_sentence(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ModelError, match="Hugging Face hub"):
        Encoder(get_model("scibert"))


def test_default_batch_is_32_on_a_cpu_and_256_on_a_gpu(monkeypatch, store):
    """On an H200, MiniLM's forward passes over 100k papers took 23.4 s in batches of 32 and 5.6 s in 256."""
    import core.embedding.encoder as enc

    assert enc.default_batch_size("cpu") == 32
    monkeypatch.setattr(enc, "resolve_device", lambda device: "cuda")
    assert enc.default_batch_size("auto") == 256
    asked = []

    def fake_encoder(spec, device="auto", batch_size=32, fast=None):
        asked.append(batch_size)
        raise RuntimeError("stop here")

    monkeypatch.setattr(enc, "get_encoder", fake_encoder)
    store.import_papers("c", make_papers(1))
    with pytest.raises(RuntimeError, match="stop here"):
        embed_corpus(store, "c", "minilm")
    assert asked == [256]
