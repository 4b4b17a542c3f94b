"""The map page settles sooner (issue 42, BENCHMARKS §31n): a colour the browser knows is drawn by the quick
controls' fragment alone, without the page's run; the stored topics are read from disk once per version of their
files, not on every page run."""

from __future__ import annotations

import os

import numpy as np
from streamlit.testing.v1 import AppTest

from core.explore.topics.hierarchy import Topics
from core.plots.map_data import Colours
from ui.map.controls import colour_in_fragment
from ui.map.topics import _stored

CHOICES = {o: Colours(np.zeros(3, dtype=np.uint8), ["#000000"], []) for o in ("journal", "year", "(none)")}


def test_a_colour_the_browser_knows_is_drawn_without_the_pages_run():
    assert colour_in_fragment("journal", "(none)", CHOICES, chart_open=False)
    assert colour_in_fragment("(none)", "year", CHOICES, chart_open=False)
    assert colour_in_fragment("journal", "journal", CHOICES, chart_open=True)  # nothing chosen: nothing to run


def test_topics_journals_collections_and_an_open_chart_run_the_page():
    assert not colour_in_fragment("journal", "topics", CHOICES, chart_open=False)  # its controls, its computation
    assert not colour_in_fragment("topics", "journal", CHOICES, chart_open=False)  # the topic controls go away
    assert not colour_in_fragment("journal", "predicted journal", CHOICES, chart_open=False)
    assert not colour_in_fragment("journal", "collection", CHOICES, chart_open=False)
    assert not colour_in_fragment("journal", "(none)", CHOICES, chart_open=True)  # Topics over time groups by it
    assert not colour_in_fragment("journal", "(none)", {}, chart_open=False)  # a density overview: no browser colours


def _colour_script() -> None:
    """The quick controls' colour step in a run of its own: the page drew journal, the box now says "(none)"."""
    import numpy as np
    import pandas as pd
    import streamlit as st

    from core.plots.map_data import Colours
    from ui.map.controls import DrawnMap, _colour

    palette = {"journal": ["#111111", "#222222"], "(none)": ["#999999"]}
    choices = {o: Colours(np.full(4, k, dtype=np.uint8), palette[o], [{"label": o}]) for k, o in enumerate(palette)}
    st.session_state.setdefault("map_colour", "(none)")
    drawn = DrawnMap("c", pd.DataFrame({"id": list("abcd")}), np.zeros((4, 2)), choices["journal"],
                     {"name": "c-pca-map", "palette": palette["journal"], "colour": "journal", "stars": [1]}, None,
                     None, {"corpus": "c", "colour": "journal"}, False, "view", ("journal", "(none)"), choices)
    shown = _colour(drawn, st.container())
    st.session_state["shown"] = (shown.link, shown.state, shown.colours.codes.tolist(), shown.view)


def test_the_fragment_draws_the_chosen_colour_from_the_browsers_own_codes():
    at = AppTest.from_function(_colour_script).run()
    assert not at.exception
    link, state, codes, view = at.session_state["shown"]
    assert at.selectbox(key="map_colour").value == "(none)"
    assert link == {"corpus": "c", "colour": "(none)"}  # the shared link follows
    assert state["palette"] == ["#999999"] and state["legend"] == [{"label": "(none)"}] and state["colour"] == "(none)"
    assert state["stars"] == [1] and view == "view"  # what the page drew besides the colour is kept
    assert codes == [1, 1, 1, 1]


def _topics() -> Topics:
    return Topics(fine=np.array([0, 1]), coarse=np.array([0, 0]), parent=np.array([0, 0]),
                  keywords={"coarse": {0: ["a"]}, "fine": {0: ["b"], 1: ["c"]}})


def test_stored_topics_are_read_once_per_version_of_their_files(tmp_path):
    labels, meta = tmp_path / "t.npy", tmp_path / "t.json"
    reads = []

    def read() -> Topics:
        reads.append(1)
        return _topics()

    assert _stored(labels, meta, read) is None and reads == []  # not computed yet: nothing read, nothing kept
    labels.write_bytes(b"x")
    meta.write_text("{}")
    first = _stored(labels, meta, read)
    assert _stored(labels, meta, read) is first and len(reads) == 1  # the next page runs: no disk read
    meta.write_text("{} ")  # computed again (another size, a later stamp)
    os.utime(meta, ns=(meta.stat().st_atime_ns, meta.stat().st_mtime_ns + 10**9))
    assert _stored(labels, meta, read) is not first and len(reads) == 2
    assert _stored(labels, meta, lambda: None) is not None  # the kept one, not read again
