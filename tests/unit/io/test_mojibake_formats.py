"""Mojibake is repaired where R and Excel write it (CSV, BibTeX …), never in JSON lines or Parquet: those carry
Unicode exactly and are the app's own exports, which must come back as they went out."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from core.io import read_papers

GARBLED = "Copyright Â© 2020, the cafÃ© study"


def _abstracts(path: Path) -> list[str]:
    return [item.abstract for item in read_papers(path) if hasattr(item, "abstract")]


def test_json_lines_and_parquet_keep_their_text_exactly(tmp_path: Path) -> None:
    row = {"id": "a", "title": "A title", "abstract": GARBLED}
    jsonl = tmp_path / "p.jsonl"
    jsonl.write_text(json.dumps(row) + "\n", encoding="utf-8")
    parquet = tmp_path / "p.parquet"
    pd.DataFrame([row]).to_parquet(parquet)
    assert _abstracts(jsonl) == [GARBLED]
    assert _abstracts(parquet) == [GARBLED]


def test_the_same_text_in_a_csv_is_repaired(tmp_path: Path) -> None:
    csv = tmp_path / "p.csv"
    pd.DataFrame([{"id": "a", "title": "A title", "abstract": GARBLED}]).to_csv(csv, index=False)
    assert _abstracts(csv) == ["Copyright © 2020, the café study"]


def test_an_id_is_never_rewritten_as_mojibake(tmp_path: Path) -> None:
    """An id is a key: a round trip through CSV gave back the id 'Â\\x80' as '€' (CI's hypothesis draw). The id column
    keeps what the file holds; the title beside it is still repaired."""
    csv = tmp_path / "p.csv"
    pd.DataFrame([{"id": "Â\x80", "title": GARBLED, "abstract": "An abstract."}]).to_csv(csv, index=False)
    (paper,) = [item for item in read_papers(csv) if hasattr(item, "abstract")]
    assert paper.id == "Â\x80"
    assert paper.title == "Copyright © 2020, the café study"
