"""Fixtures shared by the core.evaluation tests."""

import pytest

from tests.helpers import make_papers, register_tiny


@pytest.fixture()
def tiny_store(store, tiny_model_dir):
    """36 papers of three journals, and the tiny random BERT registered as 'tiny'."""
    register_tiny(store, tiny_model_dir)
    store.import_papers("c", make_papers(12))
    return store
