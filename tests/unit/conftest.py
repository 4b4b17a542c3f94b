"""Fixtures shared by the unit tests."""

import pytest

from core.embedding import embed_corpus
from tests.helpers import make_papers, register_tiny


@pytest.fixture()
def embedded(store, tiny_model_dir):
    """A store with corpus 'c' (15 papers of three journals) embedded with the tiny model registered as 'tiny'."""
    register_tiny(store, tiny_model_dir)
    store.import_papers("c", make_papers(5))
    embed_corpus(store, "c", "tiny")
    return store
