"""Topics already computed among the colours the browser answers by itself (ui/map/colours.py, BENCHMARKS §31j):
each level's codes, palette and legend are the ones a page run makes, its labels the page's own (unit space, cluster
centres), packed once beside the column options; the level the session shows is named in the head."""

from __future__ import annotations

import numpy as np
import pandas as pd

from core.explore.topics.hierarchy import LEVELS, Topics
from core.explore.topics.labels import nested_names
from core.plots.map_data import UnitFrame, colour_codes
from ui.map.colours import NONE, colour_choices, pack_choices, topic_choices, unpack_choices
from ui.map.topics import TopicMap
from ui.views import TOPICS


def _topics(n: int = 400) -> tuple[pd.DataFrame, np.ndarray, TopicMap]:
    rng = np.random.default_rng(5)
    fine = rng.integers(0, 6, n)
    parent = np.array([0, 0, 1, 1, 2, 2])
    keywords = {"coarse": {c: [f"<b>w{c}</b>", "cell"] for c in range(3)},
                "fine": {f: [f"f{f}", "gene"] for f in range(6)}}
    topics = Topics(fine=fine, coarse=parent[fine], parent=parent, keywords=keywords)
    names = nested_names(topics, {"coarse": {1: "Protein <i>folding</i>"}, "fine": {}})
    coords = rng.normal(size=(n, 2)) * 3 + fine[:, None]
    frame = pd.DataFrame({"id": [str(i) for i in range(n)]})
    return frame, coords, TopicMap("fine", topics, names)


def test_each_level_has_the_codes_legend_and_labels_a_page_run_makes():
    frame, coords, topic_map = _topics()
    unit = UnitFrame(cx=0.5, cy=0.5, half=9.0)
    levels = topic_choices(frame, topic_map, "clu", coords, unit, 12, "c:1")
    assert set(levels) == set(LEVELS)
    for level in LEVELS:
        shown = topic_map.at_level(level)
        page = colour_codes(shown.colour_values, len(frame), 12)
        colours, labels = levels[level]
        assert np.array_equal(colours.codes, page.codes)
        assert colours.palette == page.palette and colours.legend == page.legend
        assert labels == shown.unit_labels(coords, unit)  # the labels the page's own state draws
    assert {label["level"] for label in levels["coarse"][1]} == {"coarse"}
    assert {label["level"] for label in levels["fine"][1]} == {"coarse", "fine"}  # fine: shown once zoomed in
    assert "B: Protein <i>folding</i>" in {label["text"] for label in levels["coarse"][1]}  # as typed (drawn as text)
    assert topic_choices(frame, topic_map, "clu", coords, unit, 12, "c:1") is levels  # computed once per map


def test_a_rename_or_another_legend_size_is_computed_again():
    frame, coords, topic_map = _topics()
    unit = UnitFrame(cx=0.0, cy=0.0, half=10.0)
    first = topic_choices(frame, topic_map, "clu", coords, unit, 12, "c:1")
    renamed = TopicMap("fine", topic_map.topics,
                       {**topic_map.names, "coarse": {**topic_map.names["coarse"], 0: "Renamed"}})
    again = topic_choices(frame, renamed, "clu", coords, unit, 12, "c:1")
    assert again is not first and "Renamed" in {label["text"] for label in again["coarse"][1]}
    assert topic_choices(frame, topic_map, "clu", coords, unit, 3, "c:1") is not first


def test_packed_beside_the_column_options_with_the_sessions_level():
    frame, coords, topic_map = _topics()
    unit = UnitFrame(cx=0.0, cy=0.0, half=10.0)
    choices = colour_choices(frame.assign(journal="J"), ("journal", NONE), 12, None)
    levels = topic_choices(frame, topic_map, "clu", coords, unit, 12, "c:1")
    head, codes = unpack_choices(pack_choices(choices, len(frame), "map", "c:1", topics=("fine", levels)))
    assert len(codes) == 4 * len(frame)  # one byte a paper an option: journal, none, coarse and fine topics
    assert head["topics"] == {"option": TOPICS, "level": "fine", "control": "map_level",
                              "texts": {"coarse": "coarse topics", "fine": "fine topics"}}
    for level in LEVELS:
        option = head["options"][f"{TOPICS}:{level}"]
        assert option["legend"] == levels[level][0].legend and option["labels"] == levels[level][1]
        assert np.array_equal(codes[option["offset"]:option["offset"] + len(frame)], levels[level][0].codes)
    plain = unpack_choices(pack_choices(choices, len(frame), "map", "c:1"))[0]
    assert "topics" not in plain and set(plain["options"]) == {"journal", NONE}
