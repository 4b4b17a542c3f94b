"""The Domain map's two-level topic map: the level switch changes the labels, and renamed topics persist."""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

from tests.app.map_component import legend_names, map_sent
from tests.app.test_pages import (  # noqa: F401 (fixtures)
    APP,
    chart,
    empty_workspace,
    open_app,
    widget,
    workspace,
)


def labels(at) -> list[str]:
    """The label texts drawn on the map (markup stripped)."""
    return [label["text"] for label in map_sent(at)["page"]["state"]["labels"]]


def topic_map(k: int = 8):
    at = open_app()
    widget(at.selectbox, "Colour by").set_value("topics").run()
    widget(at.number_input, "Clusters (k)").set_value(k).run()
    assert not at.exception and not at.error
    return at


def test_the_level_switch_changes_the_labels_and_fine_ones_nest_in_coarse(workspace):  # noqa: F811
    at = topic_map()
    coarse = labels(at)
    assert len(coarse) == 2 and all(re.match(r"^[A-Z]: \w", t) for t in coarse)
    assert not any(re.search(r"\bcells?, cells?\b", t) for t in coarse)
    assert set(legend_names(at)) == set(coarse)  # legend entries are the labels

    at.radio(key="map_level").set_value("fine").run()
    assert not at.exception
    fine = labels(at)
    assert fine[:2] == coarse and len(fine) == 2 + 8  # the coarse names stay, the fine ones are drawn inside
    letters = {t[0] for t in coarse}
    assert all(re.match(r"^[A-Z]\d+: ", t) and t[0] in letters for t in fine[2:])
    assert set(legend_names(at)) == set(fine[2:])
    assert at.query_params["level"] == "fine" and at.query_params["colour"] == "topics"


def pick(at, label_start: str) -> None:
    box = at.selectbox(key="map_topic_pick")
    shown = box.format_func  # options are cluster numbers shown by their tag and keywords
    box.set_value(next(c for c in range(200) if str(shown(c) or "").startswith(label_start))).run()


def rename(at, label_start: str, name: str) -> None:
    pick(at, label_start)
    at.text_input(key="map_topic_name").set_value(name)
    widget(at.button, "Save name").click().run()
    assert not at.exception and not at.error


def test_a_renamed_topic_shows_on_the_map_persists_and_an_empty_name_resets(workspace):  # noqa: F811
    at = topic_map()
    before = labels(at)
    rename(at, "B:", "Economics and trade")
    assert "B: Economics and trade" in labels(at)
    assert "B: Economics and trade" in legend_names(at)  # the legend (and the hover card's colour line) too

    fresh = topic_map()  # a new browser session on the same workspace
    assert "B: Economics and trade" in labels(fresh)
    pick(fresh, "B:")
    assert "Now named “Economics and trade”." in [c.value for c in fresh.caption]
    rename(fresh, "B:", "")
    assert labels(fresh) == before


def test_an_old_cluster_link_opens_the_topic_map_and_an_unknown_level_is_one_sentence(workspace):  # noqa: F811
    at = AppTest.from_file(APP, default_timeout=90)
    for key, value in {"corpus": "c", "model": "tiny", "method": "pca", "colour": "k-means cluster", "k": "8",
                       "level": "medium"}.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    assert widget(at.selectbox, "Colour by").value == "topics"
    assert at.radio(key="map_level").value == "coarse" and len(labels(at)) == 2
    assert [w.value for w in at.warning] == [
        "The link's topic level 'medium' is not one of coarse, fine; showing coarse topics."]
    assert at.query_params["colour"] == "topics" and at.query_params["k"] == "8"
