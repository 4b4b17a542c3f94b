"""Fixtures shared by the unit tests."""

from pathlib import Path

import pytest

from core.cli import main
from core.embedding import embed_corpus
from core.store import Store
from tests.helpers import make_papers, register_tiny

REAL_JATS = Path(__file__).resolve().parents[1] / "fixtures" / "real" / "jats"


@pytest.fixture()
def embedded(store, tiny_model_dir):
    """A store with corpus 'c' (15 papers of three journals) embedded with the tiny model registered as 'tiny'."""
    register_tiny(store, tiny_model_dir)
    store.import_papers("c", make_papers(5))
    embed_corpus(store, "c", "tiny")
    return store


@pytest.fixture()
def jats_store(tmp_path, tiny_model_dir, capsys) -> Store:
    """A workspace with the real PMC articles of fixtures/real/jats imported through the CLI as corpus 'pmc' (with
    their figures) and the tiny model registered as 'tiny'."""
    workspace = tmp_path / "ws"
    assert main(["--workspace", str(workspace), "import", *map(str, sorted(REAL_JATS.glob("*.xml"))),
                 "--corpus", "pmc", "--json"]) == 0
    capsys.readouterr()
    store = Store(workspace)
    register_tiny(store, tiny_model_dir)
    return store
