"""The map's time controls (issue 17): Play appears only with years; topics over time counts every dated paper."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from core.embedding import embed_corpus
from core.store import Store
from tests.app.map_component import map_sent
from tests.app.test_pages import APP, chart, open_app, widget
from tests.helpers import make_papers, register_tiny
from ui.map.time import TIME_OPEN
from ui.views import TOPICS


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
    assert "Topics over time" not in [e.label for e in at.expander]


def open_topics_over_time(at: AppTest) -> None:
    """The user opens the Topics-over-time expander (its state is the widget's, under its key)."""
    at.session_state[TIME_OPEN] = True
    at.run()
    assert not at.exception and not at.error


def test_topics_over_time_counts_every_dated_paper(dated: Store):
    at = open_app("app_pages/map.py")
    open_topics_over_time(at)
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


def test_topics_over_time_waits_closed_and_opened_follows_the_colour(dated: Store):
    """BENCHMARKS §31h: closed, the chart is neither built nor drawn (a colour change's page run no longer waits for
    Plotly to draw a new figure); opened, it is drawn for the colour shown, and follows the next colour."""
    at = open_app("app_pages/map.py")
    assert "Topics over time" in [e.label for e in at.expander]
    assert not at.get("plotly_chart")  # closed until the user opens it
    open_topics_over_time(at)
    journals = set(dated.papers_frame("c")["journal"])
    assert {t["name"] for t in chart(at, 0)["data"]} == journals
    widget(at.selectbox, "Colour by").set_value(TOPICS).run()
    assert not at.exception and not at.error
    legend = {entry["label"] for entry in map_sent(at)["page"]["state"]["legend"]}
    topics = {t["name"] for t in chart(at, 0)["data"]}
    assert topics and not topics & journals and topics <= legend | {"other"}  # the map's groups, not the journals
    widget(at.selectbox, "Colour by").set_value("(none)").run()
    assert not at.get("plotly_chart")  # nothing to group by: no chart, the expander says why
    assert any("Colour the map" in str(c.value) for c in at.caption)
    widget(at.selectbox, "Colour by").set_value("journal").run()
    assert at.session_state[TIME_OPEN] and {t["name"] for t in chart(at, 0)["data"]} == journals  # still open


def test_topics_over_time_stays_open_after_another_page(dated: Store):
    """The user's choice is kept in the session: leaving the map and coming back, it is open as it was left."""
    at = open_app("app_pages/map.py")
    open_topics_over_time(at)
    at.switch_page("app_pages/similar.py").run()
    at.switch_page("app_pages/map.py").run()
    assert not at.exception and at.get("plotly_chart")
