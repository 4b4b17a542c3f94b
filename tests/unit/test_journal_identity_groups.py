"""Issue 42 (BENCHMARKS §31q): `journal_identities` reads a journal's papers once per distinct input (the journal
text and the name and ISSN fields it reads; the year and volume only where a name carries a saved page's issue
tail), not once per paper. The grouping is compared with the per-paper computation it replaced (kept here as the
reference, as it was at 5b77da6) on every real fixture and on edge cases: the same groups in the same order, the
same identities for every paper."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from core.io import read_papers
from core.journal_forms import issue_cuts
from core.journal_identity import _alike, _field_kind, _hashable, _identities, _texts, journal_identities
from core.records import Paper

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"


def _per_paper(records: Iterable[tuple[str, Mapping[str, Any]]], journal_field: str = "journal",
               alias_fields: Iterable[str] = ()) -> dict[tuple, list[str]]:
    """The grouping as it was: `issue_cuts` and the key built for every paper."""
    aliases = frozenset(alias_fields)
    layouts: dict[tuple[str, ...], tuple[tuple[str, str | None], ...]] = {}
    alike: dict[tuple, list[str]] = defaultdict(list)
    for pid, fields in records:
        value = fields.get(journal_field)
        if not isinstance(value, str) or not value.strip():
            continue
        keys = tuple(fields)
        layout = layouts.get(keys)
        if layout is None:
            layout = layouts[keys] = tuple(
                (key, "name" if key in aliases else _field_kind(key)) for key in keys
                if key != journal_field and (key in aliases or _field_kind(key)) and (key != "ta" or "jt" in keys))
        cut = issue_cuts(fields, [value, *(t for key, kind in layout if kind == "name" for t in _texts(fields[key]))])
        alike[(value, cut, *((kind, _hashable(fields[key])) for key, kind in layout))].append(pid)
    return alike


def _same(records: list[tuple[str, Mapping[str, Any]]], **kwargs: Any) -> None:
    expected = _per_paper(records, **kwargs)
    grouped = _alike(records, kwargs.get("journal_field", "journal"), frozenset(kwargs.get("alias_fields", ())))
    assert list(grouped.items()) == list(expected.items())  # same groups, same papers, same order
    found, before = journal_identities(records, **kwargs), _identities(expected)
    assert list(found.names.items()) == list(before.names.items())
    assert found == before  # spellings, ISSNs, paper counts, keys


def _real_records() -> list[tuple[str, dict[str, Any]]]:
    records = []
    for path in sorted(REAL.rglob("*")):
        if not path.is_file() or path.suffix.lower() == ".md" or path.name.startswith("EXPECTED"):
            continue
        try:
            papers = [p for p in read_papers(path, title_only=True) if isinstance(p, Paper)]
        except Exception:  # noqa: BLE001 - a file no reader takes (a tool's script, a note) is no fixture here
            continue
        records += [(f"{path.name}:{p.id}", p.fields) for p in papers]
    return records


def test_every_real_fixture_groups_as_each_paper_read_alone() -> None:
    records = _real_records()
    assert len(records) > 2000 and len({f.get("journal") for _, f in records}) > 100
    # each paper three times (one journal's papers share their fields), the copies in another order
    copies = records + [(f"{pid}#2", dict(f)) for pid, f in reversed(records)] + [(f"{pid}#3", f) for pid, f in records]
    _same(copies)
    _same(copies, alias_fields=["journal_abbrev", "source"])
    _same(copies, journal_field="publisher")


def test_a_saved_page_issue_tail_is_cut_per_paper_by_its_own_year_and_volume() -> None:
    """"Nature Communications 2019 10:1" is the journal only where that paper's volume (or, without one, year) agrees:
    papers that share the journal text but not the volume are still told apart."""
    tail = "Nature Communications 2019 10:1"
    records = [("a", {"journal": tail, "year": 2019, "volume": "10"}), ("b", {"journal": tail, "year": 2019, "volume": "11"}),
               ("c", {"journal": tail, "year": 2019}), ("d", {"journal": tail, "year": 2007}), ("e", {"journal": tail}),
               ("f", {"journal": "Nature Communications", "issn": "2041-1723"}),
               ("g", {"journal": "Nat Commun", "journal_abbrev": tail, "volume": "10"}),
               ("h", {"journal": "Nat Commun", "journal_abbrev": tail, "volume": "9"})]
    _same(records)
    cut = {pid: bool(key[1]) for key, pids in _alike(records, "journal", frozenset()).items() for pid in pids}
    assert cut == {"a": True, "b": False, "c": True, "d": False, "e": True, "f": False, "g": True, "h": False}


@pytest.mark.parametrize("value", [None, math.nan, "", "  ", 3, ["PLOS ONE"], {"title": "PLOS ONE"}])
def test_a_paper_without_a_journal_text_keeps_none(value: Any) -> None:
    records = [("x", {"journal": value, "issn": "1932-6203"}), ("y", {"journal": "PLOS ONE", "issn": "1932-6203"}),
               ("z", {"issn": "1932-6203"})]
    _same(records)
    assert set(journal_identities(records).names) == {"y"}


class _Spelled:
    """A stored value that is no text but whose repr reads like one (a caller's own object)."""

    def __repr__(self) -> str:
        return "Nature Communications 2019 10:1"


def test_mixed_types_nan_and_a_repr_that_reads_like_a_name_group_as_each_paper_alone() -> None:
    nan = float("nan")
    records = [
        ("1", {"journal": "Sci Rep", "issn": 20452322}), ("2", {"journal": "Sci Rep", "issn": 20452322.0}),
        ("3", {"journal": "Sci Rep", "issn": True}), ("4", {"journal": "Sci Rep", "issn": 1}),
        ("5", {"journal": "Sci Rep", "issn": nan}), ("6", {"journal": "Sci Rep", "issn": float("nan")}),
        ("7", {"journal": "Sci Rep", "issn": ["2045-2322", None, 7]}), ("8", {"journal": "Sci Rep", "issn": None}),
        # a dict whose repr is another paper's text: the issue tail is in the text only
        ("9", {"journal": "Nature", "journal_abbrev": "{'x': 'Nature Communications 2019 10:1'}", "volume": "10"}),
        ("10", {"journal": "Nature", "journal_abbrev": {"x": "Nature Communications 2019 10:1"}, "volume": "10"}),
        ("9b", {"journal": "Nature", "journal_abbrev": _Spelled(), "volume": "10"}),
        ("9c", {"journal": "Nature", "journal_abbrev": "Nature Communications 2019 10:1", "volume": "10"}),
        ("9d", {"journal": "Nature", "journal_abbrev": _Spelled(), "volume": "10"}),
        ("11", {"journal": "Nature", "journal_abbrev": ["Nature Communications 2019 10:1", {"x": 1}], "volume": "3"}),
        ("12", {"journal": "Scientific Reports", "journal_abbrev": "Sci Rep", "issn": "2045-2322 (electronic)"}),
        ("13", {"journal": " Sci Rep ", "issn": "2045-2322"}), ("14", {"issn": "2045-2322", "journal": "Sci Rep"}),
    ]
    _same(records)
    _same(records * 2)
    names = journal_identities(records).names
    assert names["1"] == names["12"] == names["14"] == "Scientific Reports"
