"""Store.papers_frame built a column at a time (core/store/frame_build.py, BENCHMARKS §31p) gives the frame the
per-paper dicts and `DataFrame.from_records` gave: same columns, order, dtypes and values."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import pytest

from core.records import Paper
from core.store import Store
from core.store.frame_build import frame_of, parse_fields


def _reference(rows: list[tuple], with_abstract: bool, journal: str | None, names: dict[str, str]) -> pd.DataFrame:
    """The frame as papers_frame built it before §31p: one dict per paper, `DataFrame.from_records`."""
    records = []
    for row in rows:
        pid, title, fields = row[0], row[1], json.loads(row[-1] or "{}")
        rec: dict[str, Any] = {"id": pid, "title": title}
        if with_abstract:
            rec["abstract"] = row[2]
        for key, value in fields.items():
            if key not in ("id", "title", "abstract"):
                rec[key] = value
        if pid in names:
            rec[journal] = names[pid]
        records.append(rec)
    return pd.DataFrame.from_records(records) if records else pd.DataFrame(columns=["id", "title"])


ROWS = [
    ("a", "One", "Abs one", json.dumps({"year": 2001, "journal": "Nature", "authors": ["X, Y"], "doi": "10.1/a"})),
    ("b", "Two", None, json.dumps({"year": 2003, "journal": "PLOS ONE", "cited": 4.5, "id": "ignored"})),
    ("c", "Three", "", None),
    ("d", "Four", "Abs four", json.dumps({"journal": None, "flag": True, "title": "ignored", "extra": {"k": 1}})),
    ("e", "Fünf\x1f", "Ab", json.dumps({"year": "2010", "keywords": ["k1", "k2"], "flag": False})),
    # text beside a number, a list beside text, NaN, a number past int64, a field only missing values hold
    ("f", "Six", "Ab six", '{"mixed": "x", "authors": "One, A.", "score": NaN, "big": 1180591620717411303424, '
                           '"nothing": null}'),
    ("g", "Seven", None, json.dumps({"mixed": 7, "authors": ["Two, B."], "score": 1.5, "big": 3, "nothing": None,
                                     "journal": "Cell"})),
]


def _built(rows: list[tuple], with_abstract: bool, journal: str | None = None,
           names: dict[str, str] | None = None) -> pd.DataFrame:
    fields = parse_fields([r[-1] for r in rows])
    return frame_of([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows] if with_abstract else None,
                    fields, journal, names)


@pytest.mark.parametrize("with_abstract", [True, False])
@pytest.mark.parametrize("rows", [ROWS, ROWS[:1], ROWS[2:3], ROWS[::-1], ROWS[5:], ROWS[6:], []])
def test_same_frame_as_from_records(rows: list[tuple], with_abstract: bool) -> None:
    given = rows if with_abstract else [(r[0], r[1], r[3]) for r in rows]
    expected = _reference(given, with_abstract, None, {})
    pd.testing.assert_frame_equal(_built(rows, with_abstract), expected)


def test_journal_identities_replace_the_stored_spelling() -> None:
    names = {"b": "PLOS ONE (one name)", "a": "Nature"}
    expected = _reference(ROWS, True, "journal", names)
    got = _built(ROWS, True, "journal", names)
    pd.testing.assert_frame_equal(got, expected)
    assert got.loc[got["id"] == "b", "journal"].item() == "PLOS ONE (one name)"


def test_fields_parsed_in_one_call_keep_each_paper_apart() -> None:
    parsed = parse_fields(['{"a": 1}', None, "", '{"b": "x,y}{"}'])
    assert parsed == [{"a": 1}, {}, {}, {"b": "x,y}{"}]
    assert parse_fields([]) == []
    with pytest.raises(ValueError):  # two values in one paper's text would shift every later paper: refused
        parse_fields(['{"a": 1}', '{"b": 2}, {"c": 3}', '{"d": 4}'])


def test_store_papers_frame_reads_every_paper_and_field(tmp_path) -> None:
    store = Store(tmp_path / "ws")
    papers = [Paper(f"p{i}", f"Title {i}", f"Abstract {i}", {"year": 2000 + i % 3, "journal": ["J. A", "J A"][i % 2],
                                                             **({"doi": f"10.1/{i}"} if i % 2 else {})})
              for i in range(7)]
    store.import_papers("c", papers, source="test")
    frame = store.papers_frame("c")
    assert frame["id"].tolist() == [f"p{i}" for i in range(7)]
    assert frame["abstract"].tolist() == [f"Abstract {i}" for i in range(7)]
    assert frame["year"].tolist() == [2000 + i % 3 for i in range(7)]
    assert frame["doi"].isna().tolist() == [i % 2 == 0 for i in range(7)]
    assert frame["journal"].nunique() == 1  # "J. A" and "J A": one journal identity
    assert "abstract" not in store.papers_frame("c", with_abstract=False).columns
    assert set(store.papers_frame("c", stored_journals=True)["journal"]) == {"J. A", "J A"}


@pytest.fixture
def collector_on():
    import gc

    was = gc.isenabled()
    gc.enable()
    yield
    (gc.enable if was else gc.disable)()


def test_the_garbage_collector_is_held_off_during_a_read_and_restored(tmp_path, monkeypatch, collector_on) -> None:
    """§31q: the collector's full passes over the read's millions of objects cost half of a 1M read."""
    import gc

    import core.store.corpora as corpora

    store = Store(tmp_path / "ws")
    store.import_papers("c", [Paper("a", "A", "x", {"journal": "J"}), Paper("b", "B", "y", {"journal": "K"})])
    seen: list[bool] = []
    real = corpora.frame_of
    monkeypatch.setattr(corpora, "frame_of", lambda *a, **k: seen.append(gc.isenabled()) or real(*a, **k))
    assert len(store.papers_frame("c")) == 2
    assert seen == [False] and gc.isenabled()
    gc.disable()  # a caller that had it off keeps it off
    store.papers_frame("c")
    assert not gc.isenabled()
    gc.enable()
    for saved in (store.arrays / "frames").glob("*-frame.arrow"):  # the frame kept in the workspace (§31z): built
        saved.unlink()
    monkeypatch.setattr(corpora, "frame_of", lambda *a, **k: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        store.papers_frame("c")
    assert gc.isenabled()  # back on after a failed read


def test_overlapping_reads_in_threads_turn_the_collector_back_on_once_both_end(collector_on) -> None:
    import gc
    import threading

    from core.store.frame_build import gc_paused

    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    states: list[tuple[str, bool]] = []

    def first() -> None:
        with gc_paused():
            first_in.set()
            second_in.wait(5)
        states.append(("first out", gc.isenabled()))
        first_out.set()

    def second() -> None:
        first_in.wait(5)
        with gc_paused():
            second_in.set()
            first_out.wait(5)
            states.append(("second still in", gc.isenabled()))
        states.append(("second out", gc.isenabled()))

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert states == [("first out", False), ("second still in", False), ("second out", True)]
