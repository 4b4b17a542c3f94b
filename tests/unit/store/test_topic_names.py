"""Topic names persist per corpus, model, clustering and level, across reopening the workspace."""

from __future__ import annotations

import pytest

from core.errors import MireadError
from core.store import Store
from tests.helpers import make_papers


def test_a_renamed_topic_survives_reopening_the_store(tmp_path):
    store = Store(tmp_path / "ws")
    store.import_papers("c", make_papers(), source="test")
    assert store.rename_topic("c", "minilm", "v1-k12-c3-s0", "coarse", 2, "  Dark   matter ") == "Dark matter"
    store.rename_topic("c", "minilm", "v1-k12-c3-s0", "fine", 2, "Halo profiles")
    again = Store(tmp_path / "ws")
    assert again.topic_names("c", "minilm", "v1-k12-c3-s0", "coarse") == {2: "Dark matter"}
    assert again.topic_names("c", "minilm", "v1-k12-c3-s0", "fine") == {2: "Halo profiles"}
    assert again.topic_names("c", "other-model", "v1-k12-c3-s0", "coarse") == {}
    again.rename_topic("c", "minilm", "v1-k12-c3-s0", "coarse", 2, "")  # empty: back to the keywords
    assert again.topic_names("c", "minilm", "v1-k12-c3-s0", "coarse") == {}


def test_names_go_with_their_corpus_and_bad_names_are_refused(tmp_path):
    store = Store(tmp_path / "ws")
    store.import_papers("c", make_papers(), source="test")
    store.rename_topic("c", "minilm", "k", "fine", 0, "Stars")
    with pytest.raises(MireadError, match="at most 80 characters"):
        store.rename_topic("c", "minilm", "k", "fine", 0, "x" * 81)
    with pytest.raises(MireadError):
        store.rename_topic("missing", "minilm", "k", "fine", 0, "Stars")
    store.delete_corpus("c")
    store.import_papers("c", make_papers(), source="test")
    assert store.topic_names("c", "minilm", "k", "fine") == {}
