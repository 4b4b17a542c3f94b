"""A year column reads `2019` on every page and in every CLI output, never `2019.0` (issue 13)."""

from __future__ import annotations

import json

import pytest

from core import cli
from core.embedding import embed_corpus
from core.store import Store
from tests.app.map_component import card_years, legend_names, map_sent
from tests.app.test_pages import open_app, widget
from tests.helpers import make_papers, register_tiny


def year_papers():
    """Papers whose year column has holes, so pandas stores it as floats (2019.0)."""
    papers = make_papers()
    for i, paper in enumerate(papers):
        paper.fields["year"] = None if i % 9 == 4 else (2019 if i % 2 else 2020)
    return papers


@pytest.fixture()
def years(tmp_path, monkeypatch, tiny_model_dir) -> Store:
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    store = Store(tmp_path / "ws")
    store.import_papers("y", year_papers(), source="years")
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, "y", "tiny")
    assert store.papers_frame("y")["year"].dtype.kind == "f"  # the case that used to print 2019.0
    return store


def test_the_map_colours_by_year_on_a_scale_and_cards_read_2019(years):
    at = open_app("app_pages/map.py")
    widget(at.selectbox, "Colour by").set_value("year").run()
    sent = map_sent(at)
    names = legend_names(at)
    # the year is a time axis: viridis bins even with two years, papers without one grey as (none), last
    assert names[-1] == "(none)" and not any(".0" in n for n in names) and len(names) >= 3
    palette = sent["page"]["state"]["palette"]
    assert palette[0] == "#440154" and palette[-1] == "#c7c7c7"
    years = card_years(sent)
    assert "2019" in years and not any("2019.0" in y for y in years)


def test_similar_papers_results_read_2019(years):
    at = open_app("app_pages/similar.py")
    paper = year_papers()[1]
    at.text_input(key="similar_title").set_value(paper.title)
    at.text_area(key="similar_abstract").set_value(paper.abstract)
    widget(at.button, "Find similar papers").click().run()
    shown = [v for v in at.dataframe[0].value["year"].tolist() if v is not None]
    assert shown and set(shown) <= {"2019", "2020"}


def test_the_journals_page_suggests_journals_never_years(years):
    at = open_app("app_pages/journals.py")
    target = at.selectbox(key="journal_target")
    assert target.value == "journal" and "year" not in target.options  # a year is a time axis, not a class
    paper = year_papers()[1]
    at.text_input(key="journal_title").set_value(paper.title)
    at.text_area(key="journal_abstract").set_value(paper.abstract)
    widget(at.button, "Suggest journals").click().run()
    labels = [e.label.split(" — ")[0] for e in at.expander if " — " in e.label]
    assert labels and set(labels) <= {"J. Astro", "J. Bio", "J. Econ"}


def test_cli_outputs_read_2019(years, capsys):
    root = str(years.root)
    paper = year_papers()[1]
    assert cli.main(["--workspace", root, "search", "--corpus", "y", "--model", "tiny", "--title", paper.title,
                     "--abstract", paper.abstract, "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["results"]
    assert {r["year"] for r in found if r["year"] is not None} <= {2019, 2020}
    assert all(type(r["year"]) is int for r in found if r["year"] is not None)
    assert cli.main(["--workspace", root, "predict", "--corpus", "y", "--label", "year", "--model", "tiny",
                     "--title", paper.title, "--abstract", paper.abstract, "--json"]) == 0
    predicted = json.loads(capsys.readouterr().out)["predictions"]
    assert {p["label"] for p in predicted} <= {"2019", "2020"}
    assert cli.main(["--workspace", root, "search", "--corpus", "y", "--model", "tiny", "--title", paper.title,
                     "--abstract", paper.abstract]) == 0
    assert "2019.0" not in capsys.readouterr().out
