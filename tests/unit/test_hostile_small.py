"""The smaller hostile inputs of issue 41 (item 8): unbounded input repeated in errors, an id past SQLite's integers,
control and bidi-override characters in names, a training base that is not a model, and an archive whose only
article is too large."""

from __future__ import annotations

import io
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from core.errors import CorpusError, MireadError, NotFoundError, StoreError, TrainingError
from core.mcp.server import one_sentence
from core.mcp.workspace import Workspace
from core.store import Store
from tests.helpers import make_papers

ROOT = Path(__file__).resolve().parents[2]
HUGE = "x" * 10_000_000


@pytest.fixture()
def filled(store: Store) -> Store:
    store.import_papers("c", make_papers(6), source="make_papers")
    return store


def _sentence(call, *args, **kwargs) -> str:
    try:
        call(*args, **kwargs)
    except (MireadError, ValueError) as error:
        return one_sentence("tool", error)
    raise AssertionError("no error")


def test_an_error_never_repeats_a_huge_input_whole(filled: Store):
    from core.mcp.papers import get_paper
    from core.mcp.writing import save_collection

    ws = Workspace(filled, allow_write=True)
    said = [_sentence(get_paper, ws, HUGE, corpus="c"), _sentence(get_paper, ws, "p", corpus=HUGE),
            _sentence(save_collection, ws, "keep", [HUGE, HUGE + "y"], corpus="c"),
            _sentence(save_collection, ws, HUGE, ["astro-0"], corpus="c"),
            _sentence(filled.paper, "c", HUGE), _sentence(filled.rename_collection, "c", HUGE, "b")]
    assert all(len(s) < 1000 for s in said), [len(s) for s in said]
    assert "xxxx" in said[0] and "…" in said[0]  # the start of what was given, cut


def test_restore_of_an_id_past_sqlites_integers_says_there_is_no_such_item(filled: Store):
    with pytest.raises(NotFoundError, match="has no item 99999999999999999999999"):
        filled.restore(99999999999999999999999)
    done = subprocess.run([sys.executable, "-m", "core", "--workspace", str(filled.root), "restore",
                           "99999999999999999999999"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode != 0 and "unexpected" not in done.stderr and "OverflowError" not in done.stderr
    assert "has no item 99999999999999999999999" in done.stderr


@pytest.mark.parametrize("bad", ["a\x00b", "evil\u202etxt.exe", "bell\x07", "iso\u2066late\u2069",
                                 "zero\u200bwidth\u200e"])
def test_names_with_control_or_bidi_characters_are_refused(filled: Store, bad: str):
    with pytest.raises(CorpusError, match="control or bidi"):
        filled.save_collection("c", bad, ["astro-0"])
    filled.save_collection("c", "fine", ["astro-0"])
    with pytest.raises(CorpusError, match="control or bidi"):
        filled.rename_collection("c", "fine", bad)
    with pytest.raises((StoreError, CorpusError), match="control or bidi"):
        filled.rename_topic("c", "minilm", "k6", "fine", 0, bad)
    assert [c.name for c in filled.collections("c")] == ["fine"]


def test_start_training_refuses_a_base_folder_that_holds_no_model_before_queuing(filled: Store, tmp_path: Path):
    from core.mcp.writing import start_training

    ws = Workspace(filled, allow_write=True)
    for base in ("/etc", str(tmp_path)):
        with pytest.raises(TrainingError, match="no model"):
            start_training(ws, "c", "journal", base=base)
    assert filled.active_job_rows() == []  # nothing queued


def test_an_archive_whose_only_article_is_too_large_says_why(store: Store, tmp_path: Path, monkeypatch):
    import core.io.jats as jats

    monkeypatch.setattr(jats, "MAX_XML_BYTES", 1000)
    path = tmp_path / "one.tar.gz"
    with tarfile.open(path, "w:gz") as archive:
        data = b"<article>" + b"x" * 2000 + b"</article>"
        info = tarfile.TarInfo("PMC1/big.nxml")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    from core.store import import_file

    with pytest.raises(CorpusError) as error:
        import_file(store, path, "c")
    assert "larger than" in str(error.value) and "has no usable" in str(error.value), str(error.value)
