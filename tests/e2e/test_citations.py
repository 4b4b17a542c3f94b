"""Citations from the browser (issue 14): import a JSONL with references, train `specter` while the live plot shows
cite MAP, evaluate the cite task for the base and the trained model, and see a paper's references on the map."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import Tab, app_tab, tiny_store

pytestmark = pytest.mark.e2e

JSONL = Path(__file__).resolve().parents[1] / "fixtures" / "citations" / "arxiv_150.jsonl"
CORPUS = "cites"
MODEL = "tiny-specter"


@pytest.fixture(scope="module")
def tab(browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tab]:
    """An app on an empty workspace that knows the tiny random model."""
    with app_tab(browser, tiny_store(tmp_path_factory, "e2e-cite"), {"MIREAD_DEVICE": "cpu"}) as tab:
        yield tab


def add_option(tab: Tab, label: str, option: str) -> None:
    """Add an option to the multiselect with this label."""
    box = tab.page.locator("[data-testid=stMultiSelect]").filter(has_text=label).first
    box.locator("input").click()
    tab.page.get_by_role("option", name=option, exact=True).click()
    tab.page.keyboard.press("Escape")
    tab.idle()


def cite_points(tab: Tab) -> int:
    """Points on the cite MAP curve of the job at the top of the Train page (its second chart)."""
    charts = tab.charts()
    assert len(charts) >= 2, "no cite MAP chart yet"
    return sum(t["n"] for t in charts[1])


@pytest.mark.slow  # ~105 s of SPECTER training in the browser: in `make test-slow`, keeping `make test` near 20 min
def test_references_import_train_specter_with_a_live_cite_curve_evaluate_and_map(tab: Tab):
    # 1. import: the report counts the links kept inside the corpus
    tab.go("Library")
    tab.choose("Model", "tiny")
    tab.page.locator("[data-testid=stFileUploader] input[type=file]").set_input_files(str(JSONL))
    tab.see(f"Preview of {JSONL.name}", "[data-testid=stCaptionContainer]")
    tab.fill("Corpus name", CORPUS)
    tab.click("Import")
    tab.see(re.compile(rf"Read \d+ records? into {CORPUS}"))
    report = tab.see("Citation links:")
    kept = int(re.search(r"([\d,]+) kept", report).group(1).replace(",", ""))
    assert kept > 100, report

    # 2. train specter: the live plot carries the citation metric
    tab.go("Train")
    tab.choose("Base model", "tiny")
    tab.choose("Objective", "specter")
    tab.fill("New model name", MODEL)
    tab.see("citation links", "[data-testid=stCaptionContainer]")
    tab.click("Start training")
    tab.see(f"→ model {MODEL}", "[data-testid=stMarkdownContainer]")
    tab.eventually(lambda: _positive(cite_points(tab)))
    tab.see("completed · 100%", "[data-testid=stMarkdownContainer]")
    assert cite_points(tab) >= 2  # the validation before and after training at least
    tab.see("in-batch negatives", "[data-testid=stCaptionContainer]")  # the default citation term, named
    tab.snap("cite-train")

    # 3. evaluate the cite task for the base and the trained model
    tab.go("Evaluate")
    add_option(tab, "Models", MODEL)
    add_option(tab, "Protocols", "Citations: rank a held-out paper's cited papers (MAP, nDCG; recall@10, nDCG@10 "
                                 "over the corpus)")
    tab.click("Run evaluation")
    tab.page.get_by_role("heading", name="Results").wait_for()
    tab.idle()

    def results_shown() -> None:  # the grid fills its accessible rows a moment after the page is idle
        # one column per model, one row per readable measure (issue 29: "Citations MAP", with n and an interval)
        headers = " ".join(tab.page.locator("[data-testid=stDataFrame] [role=columnheader]").all_text_contents())
        assert "tiny" in headers and MODEL in headers, headers
        cells = tab.cells()
        assert any(c.startswith("Citations") and "MAP" in c for c in cells), cells

    tab.eventually(results_shown)
    tab.snap("cite-evaluate")

    # 4. the map: a paper's references and citing papers drawn in front
    tab.go("Library")  # the evaluation embedded the corpus with the base model on its way
    tab.see(f"0 papers of {CORPUS} still need embedding with tiny", "[data-testid=stCaptionContainer]")
    tab.go("Domain map")
    title, refs = most_citing()
    box = tab.page.get_by_role("combobox", name="Show the citations of", exact=True)
    box.click()
    box.type(title[:40])  # the option list is virtual: filter it to the paper
    tab.page.get_by_role("option", name=title[:140], exact=True).click()
    tab.idle()
    tab.see(re.compile(rf"{refs} references? and [\d,]+ citing papers? drawn in front"),
            "[data-testid=stCaptionContainer]")
    view = tab.map_view()
    assert view["lines"] >= refs and view["stars"] >= 1, view["lines"]  # lines to its references and citing papers
    tab.snap("cite-map")
    assert tab.errors == []


def most_citing() -> tuple[str, int]:
    """Title and in-corpus reference count of the fixture paper citing the most others of the fixture."""
    rows = [json.loads(line) for line in JSONL.read_text(encoding="utf-8").splitlines() if line.strip()]
    ids = {r["id"] for r in rows}
    best = max(rows, key=lambda r: len(set(r["references"]) & ids))
    return best["title"], len(set(best["references"]) & ids)


def _positive(value: int) -> int:
    assert value > 0, "no cite MAP point yet"
    return value
