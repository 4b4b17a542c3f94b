"""The field counts tallied while a new corpus's rows go in are those SQL counts over the stored rows."""

from __future__ import annotations

import json

import pytest

from core.records import Paper
from core.store import Store
from core.store.field_roles import label_columns
from core.store.field_stats import FieldTally, counted_by_sql


def papers(n: int = 60) -> list[Paper]:
    out = []
    for i in range(n):
        fields = {
            "journal": f"J{i % 4}", "year": 2000 + i % 3 if i % 5 else float(2000 + i % 3),  # 2001 and 2001.0 alike
            "flag": [True, 1, "1", None][i % 4],  # true == 1, "1" apart, null not counted
            "doi": f"10.1/{i}", "authors": ["A", f"B{i}"] if i % 2 else None, "odd": None,
            "rare": "x" if i < 5 else None, "note": "a\udc80b" if i == 7 else "plain",
        }
        out.append(Paper(f"p{i}", f"Title {i}", f"Abstract number {i}.", fields))
    out.append(Paper("p0", "Title 0", "Abstract number 0.", {"journal": "dup"}))  # a duplicate: merged, not counted
    out.append(Paper("p1", "Another", "Other text.", {"journal": "J9"}))  # an id conflict: kept as p1~62
    return out


def test_the_tally_of_a_new_corpus_is_the_sql_count_of_its_rows(tmp_path):
    store = Store(tmp_path / "ws")
    store.import_papers("c", iter(papers()), source="test")
    with store.connect() as conn:
        stored = counted_by_sql(conn, "c")
        tally = FieldTally()
        tally.add(text for (text,) in conn.execute("SELECT fields FROM papers WHERE corpus = 'c'"))
    assert tally.counts() == stored
    assert stored["flag"].distinct == 2 and stored["odd"].filled == 0 and stored["authors"].nested
    info = store.corpus("c")
    assert (info.columns, info.labels, info.roles) == label_columns(stored, 61)
    # the journal first; the year is a time axis, not a label; identifiers (doi), nested and sparse fields are not
    assert info.labels == ["journal", "flag"] and info.journal == "journal" and info.year == "year"  # a note is text


def test_a_second_import_into_the_corpus_counts_every_stored_row(tmp_path):
    store = Store(tmp_path / "ws")
    store.import_papers("c", iter(papers(10)), source="a")
    extra = [Paper(f"q{i}", f"New {i}", f"New abstract {i}.", {"journal": f"K{i % 3}", "topic": "t"}) for i in range(30)]
    store.import_papers("c", iter(extra), source="b")
    with store.connect() as conn:
        n = conn.execute("SELECT COUNT(*) FROM papers WHERE corpus = 'c'").fetchone()[0]
        assert n == 11 + 30 and "topic" in store.corpus("c").columns
        info = store.corpus("c")
        assert (info.columns, info.labels, info.roles) == label_columns(counted_by_sql(conn, "c"), n)


@pytest.mark.parametrize("text", ['{"a": 1}', '{"a": "\\udc80"}'])
def test_the_tally_reads_stored_json(text):
    tally = FieldTally()
    tally.add([text, json.dumps({"a": None})])
    assert tally.counts()["a"].filled == 1
