"""Reading a large file in a child process (core.io.background): the import it feeds stores exactly what the
in-process reading stores; reading errors, early stops and a dead child are handled."""

from __future__ import annotations

import csv
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import plan_import, read_papers
from core.io.background import _next_batch, _tuples
from core.records import Paper
from core.store import Store
from core.store.batches import stored_form


def _children() -> set[str]:
    """The live child processes of this test process (Linux)."""
    tasks = Path(f"/proc/{os.getpid()}/task")
    return {pid for task in tasks.iterdir() for pid in (task / "children").read_text().split()}


@pytest.fixture()
def no_new_children():
    """Asserts that a test leaves no child process behind (other tests' servers may be running)."""
    before = _children()
    yield
    assert not _children() - before


def _table(store: Store, corpus: str) -> list[tuple]:
    with sqlite3.connect(store.db_path) as conn:
        papers = conn.execute("SELECT pid, seq, title, abstract, fields, hash, dkey FROM papers WHERE corpus = ? "
                              "ORDER BY seq", (corpus,)).fetchall()
        links = conn.execute("SELECT * FROM links WHERE corpus = ? ORDER BY 2, 3", (corpus,)).fetchall()
    return papers + [("links",)] + links


def _messy_csv(path: Path, rows: int) -> None:
    """Rows with duplicates, an id taken by other text, bad rows, empty abstracts and citation lists."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["id", "title", "abstract", "journal", "year", "references"])
        for i in range(rows):
            pid = f"p{i}" if i % 97 else f"p{i - 1}"  # every 97th row reuses the previous id with other text
            k = i // 2 if i % 50 == 0 else i  # every 50th row repeats an earlier paper's text (other spacing)
            abstract = "" if i % 331 == 5 else f"Abstract  number {k} on\ttopic {k % 7}." if k < i else \
                f"Abstract number {k} on topic {k % 7}."
            refs = ";".join(f"p{j}" for j in (i - 1, i - 2, 999_999) if j >= 0)
            out.writerow([pid, f"Title {k}", abstract, f"Journal {i % 13}",
                          1990 + i % 30, refs])
            if i % 613 == 7:
                out.writerow([f"x{i}", "too", "many", "cells", "here", "", "extra", "more"])


def test_background_import_stores_what_the_in_process_import_stores(tmp_path, monkeypatch, no_new_children):
    path = tmp_path / "papers.csv"
    _messy_csv(path, 9_000)
    reports, tables = [], []
    for threshold in ("off", "0"):  # never / always read in a child process
        monkeypatch.setenv("MIREAD_READ_PROCESS_ABOVE", threshold)
        store = Store(tmp_path / f"ws{threshold}")
        stream = read_papers(path)
        assert stream.id_column == "id"
        report = store.import_papers("c", stream, source=path.name).to_dict()
        report.pop("corpus")
        reports.append(report)
        tables.append(_table(store, "c"))
    assert reports[0] == reports[1]
    assert tables[0] == tables[1]
    assert reports[0]["skipped"] > 10 and reports[0]["conflicts"] and reports[0]["merged"] > 50
    assert reports[0]["links"]["kept"] > 10_000


def test_stored_form_computed_in_the_reading_process_is_the_importers(tmp_path):
    """Papers arriving with `prepared` (computed by the child) are stored as if the importer computed it."""
    papers = [Paper(f"p{i}", f"Title {i % 40}", f"Abstract\n {i % 40}", {"journal": "J", "references": ["p0"]})
              for i in range(100)]
    store_a, store_b = Store(tmp_path / "a"), Store(tmp_path / "b")
    store_a.import_papers("c", [Paper(p.id, p.title, p.abstract, dict(p.fields)) for p in papers])
    shipped = _tuples([Paper(p.id, p.title, p.abstract, dict(p.fields)) for p in papers], stored_form)
    assert all(t[3] is None for t in shipped)  # the fields travel only inside the stored form
    store_b.import_papers("c", [Paper(*t[:3], {}, t[4]) for t in shipped])
    assert _table(store_a, "c") == _table(store_b, "c")


def test_a_reading_error_in_the_child_is_raised_and_nothing_is_stored(tmp_path, monkeypatch, no_new_children):
    monkeypatch.setenv("MIREAD_READ_PROCESS_ABOVE", "0")
    path = tmp_path / "papers.jsonl"
    lines = [json.dumps({"id": f"p{i}", "title": f"T {i}", "abstract": f"A {i}"}) for i in range(5_000)]
    lines[4_500] = '{"id": "broken", "title": '
    path.write_text("\n".join(lines), encoding="utf-8")
    store = Store(tmp_path / "ws")
    with pytest.raises(CorpusError, match="line 4501 is not valid JSON"):
        store.import_papers("c", read_papers(path), source=path.name)
    assert not store.has_corpus("c")


def test_stopping_early_stops_the_reading_process(tmp_path, monkeypatch, no_new_children):
    monkeypatch.setenv("MIREAD_READ_PROCESS_ABOVE", "0")
    path = tmp_path / "papers.csv"
    _messy_csv(path, 20_000)
    plan = plan_import(path, limit=50)
    assert plan.records == 50 and not plan.complete


def test_a_child_that_died_is_one_sentence(tmp_path):
    child = subprocess.Popen([sys.executable, "-c", "import sys; sys.exit(3)"], stdout=subprocess.PIPE)
    with pytest.raises(CorpusError, match=r"stopped unexpectedly .*code 3\); nothing was stored, import it again"):
        _next_batch(child.stdout, child, tmp_path / "papers.csv")
    child.stdout.close()


def test_small_files_are_read_in_process(tmp_path, monkeypatch, no_new_children):
    monkeypatch.delenv("MIREAD_READ_PROCESS_ABOVE", raising=False)
    path = tmp_path / "papers.csv"
    _messy_csv(path, 200)
    stream = read_papers(path)
    assert sum(isinstance(r, Paper) for r in stream) > 150
