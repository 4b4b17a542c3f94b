"""`python -m core search`: the JSON contract (rank, id, title, score, labels) plus each result's `why`."""

from __future__ import annotations

from tests.unit.cli.test_collections_cli import run


def test_search_json_keeps_its_contract_and_says_why(embedded, capsys):
    code, doc, _ = run(embedded, capsys, "search", "--corpus", "c", "--model", "tiny", "--abstract",
                       "redshift telescope", "-k", "3", "--json")
    assert code == 0 and set(doc) >= {"query", "model", "results", "warning", "notice", "weights"}
    first = doc["results"][0]
    assert {"rank", "id", "title", "score", "journal", "year", "why"} <= set(first)
    assert "abstract" not in first and "row" not in first
    assert first["why"]["match"] in ("words", "both") and "redshift" in first["why"]["words"]
    code, doc, _ = run(embedded, capsys, "search", "--corpus", "c", "--model", "tiny", "--abstract", '"dark matter"',
                       "--json")
    assert code == 0 and all("dark matter" in " ".join(r["why"]["words"]) or r["why"]["words"] == ["dark", "matter"]
                             for r in doc["results"])
    code, doc, _ = run(embedded, capsys, "search", "--corpus", "c", "--model", "tiny", "--paper", "bio-2", "--json")
    assert code == 0 and "bio-2" not in [r["id"] for r in doc["results"]]  # a paper's neighbours: as before
