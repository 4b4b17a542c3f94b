"""The MCP `evaluate` tool finds a stored evaluation at any sample size, as the app does (core.evaluation.stored): it
looked up 2,000 and 5,000 papers only, so a run the Evaluate page stored at 'Sample 12' was 'no stored figures' over
MCP while the Compare page showed it."""

from __future__ import annotations

import pytest

from core.errors import MireadError
from core.evaluation import QUICK_TASKS, evaluate_models, evaluation_figures
from core.mcp.models import evaluate
from core.mcp.workspace import Workspace


def figures(doc: dict) -> dict[tuple[str, str], tuple[float, int]]:
    return {(r["task"], r["metric"]): (r["value"], r["n"]) for r in doc["results"] if r["model"] == "tiny"}


def test_an_evaluation_stored_at_an_unusual_sample_size_is_read_back_through_mcp(embedded):
    stored = evaluate_models(embedded, "c", "journal", ["tiny"], list(QUICK_TASKS), sample=12, seed=4)
    got = evaluate(Workspace(embedded), "journal", ["tiny"], seed=4)
    assert evaluate(Workspace(embedded), "journal", ["tiny"])["results"] == got["results"]  # no seed: the newest run
    assert (got["sample"], got["seed"], got["cached"]) == (12, 4, len(QUICK_TASKS))  # read back, nothing computed
    assert figures(got) == figures(stored) and figures(got)[("purity", "purity@10")][1] == 12
    table, missing = evaluation_figures(embedded, "c", "journal", ["tiny"])  # what the app shows: the same run
    assert not missing and all(n.split()[0] in ("12", "9") for n in table["n"]), set(table["n"])
    with pytest.raises(MireadError, match="no stored figures of tiny"):
        evaluate(Workspace(embedded), "journal", ["tiny"], seed=0)  # another seed: another sample, not stored


def test_an_evaluation_on_held_out_papers_is_read_back_through_mcp(embedded):
    ids = embedded.papers_frame("c")["id"].astype(str).tolist()[3:]
    stored = evaluate_models(embedded, "c", "journal", ["tiny"], list(QUICK_TASKS), sample=5000, papers=ids)
    got = evaluate(Workspace(embedded), "journal", ["tiny"])
    assert figures(got) == figures(stored) and figures(got)[("purity", "purity@10")][1] == len(ids)
    assert got["held_out"] and got["cached"] == len(QUICK_TASKS)


def test_the_mcp_and_json_rows_carry_the_interval_the_evaluate_page_shows(embedded):
    """Evaluate shows each figure with its 95 % interval; the `evaluate --json` rows and the MCP `evaluate` answer
    (the same document) gave the interval only for pair retrieval, so an assistant quoted a bare kNN accuracy or
    purity. Every row with an interval on the page now carries it as low / high, the very same numbers."""
    from core.evaluation.intervals import interval_of
    from core.evaluation.report import figure_table, result_from_row

    evaluate_models(embedded, "c", "journal", ["tiny"], list(QUICK_TASKS), sample=12, seed=4)
    got = evaluate(Workspace(embedded), "journal", ["tiny"], seed=4)
    rows = [r for r in got["results"] if r["model"] == "tiny"]
    plain = [result_from_row({k: v for k, v in r.items() if "pairs" in r or k not in ("low", "high")})
             for r in rows]  # as stored: pair retrieval alone had its bounds
    shown = [(r, interval_of(p)) for r, p in zip(rows, plain)]
    assert any(bounds for _, bounds in shown)
    for row, bounds in shown:
        if bounds is not None:
            assert (row.get("low"), row.get("high")) == pytest.approx(bounds), row["metric"]
    table, _ = figure_table([result_from_row(r) for r in rows])
    other = figure_table(plain)[0]
    assert table.equals(other), table.compare(other)
