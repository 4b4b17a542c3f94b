"""The first run: `make run` prepares the demo's map, and the CLI's errors name the command that fixes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from core import cli, demo
from core.embedding import get_model
from core.explore import cached_map
from tests.helpers import register_tiny

PUBMED = Path(__file__).resolve().parents[1] / "fixtures" / "corpus" / "pubmed.xml"


def test_the_demo_is_imported_embedded_and_its_default_map_cached(store, tiny_model_dir, monkeypatch):
    register_tiny(store, tiny_model_dir)
    monkeypatch.setattr(demo, "demo_files", lambda cache: [PUBMED])
    said: list[str] = []
    doc = demo.prepare_demo(store, limit=0, embed=True, say=said.append, map_method="pca", model="tiny")
    spec = get_model("tiny", store)
    assert doc["papers"] == store.corpus(demo.DEMO_CORPUS).papers > 0
    assert doc["embed"]["new"] == doc["papers"] and doc["map"] == {"method": "pca", "cached": False}
    # the page asks with its sliders' explicit default parameters: the same cache entry
    assert cached_map(store, demo.DEMO_CORPUS, spec, "pca", {}) is not None
    assert [line.split()[0] for line in said] == ["fetching", "embedding", "computing"]
    again = demo.prepare_demo(store, limit=0, embed=True, say=said.append, map_method="pca", model="tiny")
    assert again["already"] and again["embed"]["new"] == 0 and again["map"]["cached"] is True


def test_a_search_on_a_corpus_not_yet_embedded_names_the_embed_command(store, tiny_model_dir, capsys):
    register_tiny(store, tiny_model_dir)
    store.import_papers("c", demo.sample_papers([PUBMED], 0))
    code = cli.main(["--workspace", str(store.root), "search", "--corpus", "c", "--model", "tiny", "--title",
                     "malaria", "--abstract", "bed nets"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert err.strip().endswith("run `python -m core embed --corpus c --model tiny` first")


@pytest.mark.parametrize("command", ["map", "predict"])
def test_other_commands_on_an_unembedded_corpus_say_the_same(store, tiny_model_dir, capsys, command):
    register_tiny(store, tiny_model_dir)
    store.import_papers("c", demo.sample_papers([PUBMED], 0))
    args = ["--corpus", "c", "--model", "tiny"]
    if command == "predict":
        args += ["--title", "malaria", "--abstract", "bed nets"]
    code = cli.main(["--workspace", str(store.root), command, *args])
    err = capsys.readouterr().err
    assert code == 2 and "python -m core embed --corpus c --model tiny" in err
