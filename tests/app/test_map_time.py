"""The map's time controls (issue 17): Play appears only with years; topics over time counts every dated paper."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from core.embedding import embed_corpus
from core.store import Store
from tests.app.map_component import map_sent
from tests.app.test_pages import APP, chart, open_app, widget
from tests.helpers import make_papers, register_tiny


def workspace(tmp_path, monkeypatch, tiny_model_dir, dated: bool) -> Store:
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    papers = make_papers()  # years 2000-2004
    for i, paper in enumerate(papers):
        if not dated:
            paper.fields.pop("year")
        elif i % 7 == 3:
            paper.fields["year"] = None  # a paper without a year
    store = Store(tmp_path / "ws")
    store.import_papers("c", papers, source="test")
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, "c", "tiny")
    return store


@pytest.fixture()
def dated(tmp_path, monkeypatch, tiny_model_dir) -> Store:
    return workspace(tmp_path, monkeypatch, tiny_model_dir, dated=True)


@pytest.fixture()
def undated(tmp_path, monkeypatch, tiny_model_dir) -> Store:
    return workspace(tmp_path, monkeypatch, tiny_model_dir, dated=False)


def test_play_shows_a_play_button_on_the_map_with_the_years_to_run_through(dated: Store):
    at = open_app("app_pages/map.py")
    assert "play" not in map_sent(at)["page"]["state"]  # off by default: the plain map
    widget(at.selectbox, "Play through years").set_value("2-year window").run()
    assert not at.exception and not at.error
    play = map_sent(at)["page"]["state"]["play"]
    assert play["years"] == [2000, 2001, 2002, 2003, 2004] and play["width"] == 2  # the browser animates it
    assert map_sent(at)["points"]["yearnum"].max() == 2004


def test_play_runs_inside_the_chosen_years(dated: Store):
    at = open_app("app_pages/map.py")
    widget(at.slider, "Years").set_value((2001, 2003)).run()
    widget(at.selectbox, "Play through years").set_value("cumulative").run()
    state = map_sent(at)["page"]["state"]
    assert state["play"]["years"] == [2001, 2002, 2003] and state["play"]["width"] is None
    assert state["years"] == [2001, 2003]


def test_no_year_column_no_play_and_no_timeline(undated: Store):
    at = open_app("app_pages/map.py")
    assert not at.exception and not at.error
    labels = [w.label for w in [*at.selectbox, *at.slider]]
    assert "Play through years" not in labels and "Years" not in labels
    assert not at.get("plotly_chart") and "play" not in map_sent(at)["page"]["state"]
    assert "Topics over time" not in [h.value for h in at.subheader]


def test_topics_over_time_counts_every_dated_paper(dated: Store):
    at = open_app("app_pages/map.py")
    assert "Topics over time" in [h.value for h in at.subheader]
    bars = chart(at, 0)["data"]
    assert {t["type"] for t in bars} == {"bar"}
    papers = dated.papers_frame("c")
    total = sum(int(v) for t in bars for v in t["y"])
    assert total == int(papers["year"].notna().sum()) and total < len(papers)
    assert {t["name"] for t in bars} == set(papers["journal"])  # coloured by journal: one bar series each


def test_a_link_with_years_and_play_opens_the_map_playing(dated: Store):
    at = AppTest.from_file(APP, default_timeout=90)
    for key, value in {"corpus": "c", "model": "tiny", "method": "pca", "years": "2001-2003",
                       "play": "cumulative"}.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception and not at.warning
    assert widget(at.selectbox, "Play through years").value == "cumulative"
    assert map_sent(at)["page"]["state"]["play"] == {"years": [2001, 2002, 2003], "width": None, "ms": 700}
    widget(at.selectbox, "Play through years").set_value("3-year window").run()
    assert at.query_params["play"] == "3y" and at.query_params["years"] == "2001-2003"
    widget(at.selectbox, "Play through years").set_value("off").run()
    assert "play" not in at.query_params
