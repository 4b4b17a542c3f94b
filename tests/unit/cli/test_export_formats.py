"""`python -m core export --format ris|bibtex|csl|csv|jsonl --out FILE [--ids ...]`: the papers of a corpus as a
file for a reference manager or a table, read back by `import`; without --format the Parquet export stays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main
from core.io import EXPORT_FORMATS, read_papers
from core.records import Paper

ZOTERO = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "zotero_3.bib"


@pytest.fixture()
def workspace(tmp_path, capsys) -> Path:
    ws = tmp_path / "ws"
    assert main(["--workspace", str(ws), "import", str(ZOTERO), "--corpus", "z", "--json"]) == 0
    capsys.readouterr()
    return ws


@pytest.mark.parametrize("fmt", list(EXPORT_FORMATS))
def test_export_format_writes_every_paper_and_import_reads_them_back(fmt, workspace, tmp_path, capsys):
    out = tmp_path / f"z{EXPORT_FORMATS[fmt][1]}"
    assert main(["--workspace", str(workspace), "export", "--corpus", "z", "--format", fmt, "--out", str(out),
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"corpus": "z", "format": fmt, "papers": 3, "out": str(out)}
    titles = sorted(p.title for p in read_papers(out) if isinstance(p, Paper))
    assert main(["--workspace", str(workspace), "import", str(out), "--corpus", "again", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["imported"] == 3
    assert titles == sorted(p.title for p in read_papers(ZOTERO) if isinstance(p, Paper))


def test_export_of_chosen_ids_writes_only_those(workspace, tmp_path, capsys):
    out = tmp_path / "two.ris"
    assert main(["--workspace", str(workspace), "export", "--corpus", "z", "--format", "ris", "--out", str(out),
                 "--ids", "25776801", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["papers"] == 1
    text = out.read_text(encoding="utf-8")
    assert text.startswith("TY  - JOUR") and text.count("ER  - ") == 1 and "ID  - 25776801" in text
    assert "TI  - Age of Transfused Blood in Critically Ill Adults" in text


def test_bad_ids_or_ids_without_format_fail_with_one_sentence(workspace, tmp_path, capsys):
    out = tmp_path / "x.bib"
    assert main(["--workspace", str(workspace), "export", "--corpus", "z", "--format", "bibtex", "--out", str(out),
                 "--ids", "nope"]) != 0
    assert "corpus 'z' has no paper with id 'nope'" in capsys.readouterr().err and not out.exists()
    assert main(["--workspace", str(workspace), "export", "--corpus", "z", "--out", str(tmp_path / "pq"),
                 "--ids", "25776801"]) != 0
    assert "--ids needs --format" in capsys.readouterr().err


def test_without_format_the_parquet_export_is_unchanged(workspace, tmp_path, capsys):
    # no vectors yet: the Parquet export with vectors says so, as it did before --format existed
    code = main(["--workspace", str(workspace), "export", "--corpus", "z", "--out", str(tmp_path / "pq")])
    err = capsys.readouterr().err
    assert code != 0 and "embed" in err.lower()
