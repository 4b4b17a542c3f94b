"""Round trip: import, export (core.corpus.export_papers), re-import: JSONL and Parquet keep every field exactly;
CSV and TSV keep ids, titles and abstracts."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.io import export_papers, read_papers
from core.io.mojibake import repaired_text
from core.store import Store
from tests.reliability.support import FIXTURES, TALLY, papers_of

EXACT = ("jsonl", "parquet", "jsonl.gz")
TEXT_ONLY = ("csv", "tsv", "csv.gz")
SOURCES = sorted(p.name for p in (FIXTURES / "corpus").iterdir())


def roundtrip(store: Store, corpus: str, fmt: str, folder) -> str:
    """Export `corpus` as `fmt`, re-import it as a new corpus, return that corpus's name."""
    out = folder / f"{corpus}-export.{fmt}"
    count = export_papers(store.papers(corpus), out)
    assert count == store.corpus(corpus).papers
    again = f"{corpus}-again-{fmt.replace('.', '-')}"
    store.import_papers(again, read_papers(out), source=out.name)
    TALLY[f"round trip: {fmt.split('.')[0]}"] += 1
    return again


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("fmt", EXACT + TEXT_ONLY)
def test_fixture_corpora_survive_export_and_reimport(source, fmt, store, tmp_path):
    store.import_papers("orig", read_papers(FIXTURES / "corpus" / source), source=source)
    again = roundtrip(store, "orig", fmt, tmp_path)
    before, after = papers_of(store, "orig"), papers_of(store, again)
    if fmt in EXACT:
        assert after == before
        assert store.corpus(again).columns == store.corpus("orig").columns
    else:
        assert [p[:3] for p in after] == [p[:3] for p in before]


SCALAR = st.one_of(
    st.text(max_size=20), st.integers(min_value=-(2**80), max_value=2**80), st.floats(allow_nan=False,
                                                                                     allow_infinity=False),
    st.booleans(), st.none(), st.sampled_from(["", "\x00", "[1]", "{}", "null", "a\r\nb", "<b>x</b>", "\u202e"]),
)
VALUE = st.recursive(SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                     st.dictionaries(st.text(max_size=5), inner, max_size=3)),
                     max_leaves=6)
KEY = st.one_of(st.text(min_size=1, max_size=10), st.sampled_from(["journal", "year", "ID", "Title", "doi", "x y"]))
TITLE = st.text(min_size=1, max_size=40).filter(str.strip)
ROW = st.builds(lambda extra, title, abstract, pid: {**extra, "title": title, "abstract": abstract,
                                                      **({"id": pid} if pid is not None else {})},
                st.dictionaries(KEY, VALUE, max_size=5), TITLE, TITLE, st.one_of(st.none(), st.text(max_size=8)))
COLUMN_TYPES = st.sampled_from(["mixed", "int", "float", "str", "list"])


def _column_values(kind: str):
    return {"int": st.integers(min_value=-(2**63), max_value=2**63 - 1), "float": st.floats(allow_nan=False,
            allow_infinity=False), "str": st.text(max_size=10), "list": st.lists(st.text(max_size=5), max_size=3),
            "mixed": VALUE}[kind]


@settings(max_examples=int(os.environ.get("MIREAD_FUZZ_EXAMPLES", "60")) // 2, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(rows=st.lists(ROW, min_size=1, max_size=12), column_kind=COLUMN_TYPES, data=st.data())
def test_generated_corpora_with_any_json_fields_round_trip_exactly(tmp_path_factory, rows, column_kind, data):
    folder = tmp_path_factory.mktemp("rt")
    for row in rows:  # one column of a single type, as Parquet stores natively
        row["typed"] = data.draw(_column_values(column_kind))
    source = folder / "generated.jsonl"
    source.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    store = Store(folder / "ws")
    store.import_papers("orig", read_papers(source), source=source.name)
    TALLY["round trip: generated corpora"] += 1
    for fmt in ("jsonl", "parquet", "csv"):
        again = roundtrip(store, "orig", fmt, folder)
        before, after = papers_of(store, "orig"), papers_of(store, again)
        if fmt == "csv":  # a text format: what reads as mojibake comes back repaired (core.io.mojibake), the id never
            assert [p[:3] for p in after] == [(p[0], *map(repaired_text, p[1:3])) for p in before]
        else:
            assert after == before, fmt
