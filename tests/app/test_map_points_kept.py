"""The map's points and hover text kept in the workspace (ui/map/kept_points.py, BENCHMARKS §31z): a fresh server
sends what the first one made without making it again; another journal naming or corpus version is made anew."""

from __future__ import annotations

import sqlite3

import pandas as pd
import pytest
import streamlit as st

import ui.map.component as component
from tests.app.map_component import map_sent
from tests.app.test_pages import empty_workspace, open_app, workspace  # noqa: F401 (fixtures)


def _fresh_server() -> None:
    """Forget what this process made (a restarted server has only the workspace)."""
    st.cache_resource.clear()
    st.cache_data.clear()


def test_a_fresh_server_sends_the_points_the_first_one_kept(workspace, monkeypatch):  # noqa: F811
    first = map_sent(open_app())
    kept = sorted((workspace.arrays / "frames").glob("c-*-points.bin"))
    assert len(kept) == 1
    _fresh_server()
    real = component.points_table
    monkeypatch.setattr(component, "points_table", lambda *a, **k: pytest.fail("the points were made again"))
    again = map_sent(open_app())
    pd.testing.assert_frame_equal(again["points"], first["points"])  # the points and their hover text, as sent
    assert again["meta"] == first["meta"]
    monkeypatch.setattr(component, "points_table", real)


def test_a_new_corpus_version_makes_the_points_again(workspace, monkeypatch):  # noqa: F811
    """The same ids and positions (the same map key) in a new corpus version: its titles, not the kept ones."""
    first = map_sent(open_app())
    _fresh_server()
    with sqlite3.connect(workspace.db_path) as conn:  # an edit of every title: a new version, the same vectors
        conn.execute("UPDATE papers SET title = title || ' (corrected)' WHERE corpus = 'c'")
        conn.execute("UPDATE corpora SET version = version + 1 WHERE name = 'c'")
    sent = map_sent(open_app())
    assert sent["meta"]["key"] != first["meta"]["key"]  # another map key (ids and positions the same)...
    assert all(t.endswith("(corrected)") for t in sent["points"]["title"])  # ...and this version's titles


def test_an_edit_in_the_same_server_gives_a_new_map_key_and_its_titles(workspace):  # noqa: F811
    """A title edit keeps the ids and positions: the map's key still changes with the corpus version, so neither this
    server's cache nor a browser that drew the old version keeps the old hover text."""
    first = map_sent(open_app())
    with sqlite3.connect(workspace.db_path) as conn:  # an edit of every title, this server still running
        conn.execute("UPDATE papers SET title = title || ' (edited)' WHERE corpus = 'c'")
        conn.execute("UPDATE corpora SET version = version + 1 WHERE name = 'c'")
    sent = map_sent(open_app())
    assert sent["meta"]["key"] != first["meta"]["key"]
    assert all(t.endswith("(edited)") for t in sent["points"]["title"])
