"""What each import did stays readable after a reload: the Library lists a corpus's imports (file, when, read = added
+ merged + skipped) and every skipped row with its file, row and reason. The report lived only in the browser
session: a reload mid-import, or another tab, lost the skipped rows and their reasons for good."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from core.store import Store, import_files
from core.store.import_history import import_history
from tests.app.test_import_several import THREE
from tests.app.test_pages import APP, empty_workspace  # noqa: F401 (fixtures)


def test_import_history_adds_up_per_file_and_keeps_the_skipped_rows(empty_workspace):  # noqa: F811
    store = Store(empty_workspace)
    import_files(store, THREE, "search")
    files, skipped = import_history(store, "search")
    assert [f["file"] for f in files] == [p.name for p in THREE]
    assert [f["read"] for f in files] == [50, 10, 10]
    assert all(f["read"] == f["added"] + f["merged"] + f["skipped"] for f in files)
    assert sum(f["added"] for f in files) == store.corpus("search").papers == 64
    assert [(s["file"], s["row"]) for s in skipped] == [("_baseline_pubmed.ris", 13),
                                                       *(("_baseline_webofscience.ris", r) for r in (2, 3, 7))]
    assert skipped[0]["reason"] == "empty abstract"
    # the corpus was new: Web of Science's 2 merges went into papers of the same import, none was "already there"
    assert [f["within the import"] for f in files] == [0, 0, 2]
    assert [f["into papers already there"] for f in files] == [0, 0, 0]
    import_files(store, THREE[1:2], "search")  # the Scopus export again, later: its records are all there
    files, _ = import_history(store, "search")
    assert (files[-1]["merged"], files[-1]["within the import"], files[-1]["into papers already there"]) == (10, 0, 10)


def test_a_new_session_shows_the_corpus_imports_on_the_library(empty_workspace):  # noqa: F811
    import_files(Store(empty_workspace), THREE, "search")
    at = AppTest.from_file(APP, default_timeout=90)
    at.switch_page("app_pages/library.py")
    at.run()
    assert not at.exception
    assert any(e.label == "Imports into search (3 files, 70 records read)" for e in at.expander), [
        e.label for e in at.expander]
    table = next(d.value for d in at.dataframe if "imported" in d.value.columns)
    assert list(table["read"]) == [50, 10, 10] and list(table["skipped"]) == [1, 0, 3]
    assert list(table["within the import"]) == [0, 0, 2] and list(table["into papers already there"]) == [0, 0, 0]
    assert not any("merged into papers already there +" in c.value for c in at.caption)  # the sentence was false
    rows = next(d.value for d in at.dataframe if "reason" in d.value.columns)
    assert len(rows) == 4


def _import_row(store: Store, corpus: str, file: str, pid: int, started: float) -> None:
    """An import row as `import_streams` writes it when it starts (its process alive or not)."""
    with store.connect() as conn:
        conn.execute("INSERT INTO imports(corpus, file, status, started, pid) VALUES (?, ?, 'running', ?, ?)",
                     (corpus, file, started, pid))


def test_an_import_under_way_and_one_that_never_finished_are_said_on_the_library(empty_workspace):  # noqa: F811
    """A tab reloaded during an import (or a second tab) showed nothing of it: a user would import the file again.
    An import whose process died was not said either, although nothing of it was kept."""
    import os
    import subprocess
    import sys
    import time

    store = Store(empty_workspace)
    import_files(store, THREE, "search")
    _import_row(store, "search", "big search.ris", os.getpid(), time.time() - 5)  # this process: still running
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    _import_row(store, "old", "killed.csv", int(gone.stdout), time.time() - 60)  # its process has ended
    assert [r["file"] for r in store.running_imports()] == ["big search.ris"]
    assert [r["file"] for r in store.unfinished_imports()] == ["killed.csv"]
    at = AppTest.from_file(APP, default_timeout=90)
    at.switch_page("app_pages/library.py")
    at.run()
    assert not at.exception
    infos = " ".join(i.value for i in at.info)
    assert "An import of **big search.ris** into **search** is under way" in infos, infos
    warnings = " ".join(w.value for w in at.warning)
    assert "**killed.csv** into **old**" in warnings and "Nothing of it was kept" in warnings, warnings
