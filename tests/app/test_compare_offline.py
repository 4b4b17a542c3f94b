"""The Compare page on an offline machine whose only other models need the Hugging Face hub (the demo workspace:
minilm, and scibert, SPECTER2… listed but not loadable): it says so, instead of opening on model B = scibert with an
Embed button that can only fail (qamap10)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.embedding import embed_corpus
from core.store import Store
from tests.app.test_pages import APP, texts
from tests.helpers import make_papers


@pytest.fixture()
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Store:
    """Corpus 'c' embedded with the packaged minilm only; the hub unreachable."""
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    store = Store(tmp_path / "ws")
    store.import_papers("c", make_papers(4), source="make_papers")
    embed_corpus(store, "c", "minilm")
    return store


def test_only_hub_models_besides_a_are_named_not_offered_as_b(workspace):
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["model"] = "minilm"
    at.session_state["map_method"] = "pca"
    at.run()
    at.switch_page("app_pages/compare.py").run()
    assert not at.exception, at.exception
    shown = " ".join(texts(elements) for elements in (at.info, at.warning, at.markdown, at.caption))
    assert not [b for b in at.button if b.label.startswith("Embed c with")], [b.label for b in at.button]
    assert "need the Hugging Face hub" in shown and "scibert" in shown, shown
