"""A map selection's ids are taken from the frame when an export or a collection needs them, not on every run of the
side column (BENCHMARKS §31q: 0.3 s for 300k selected at 1M papers); the export and "Save as a collection" still
take every selected paper, not the listed page."""

from __future__ import annotations

import io

import pytest

import ui.export_menu as export_menu
import ui.map.side as side
from tests.app.test_pages import empty_workspace, open_app, workspace  # noqa: F401 (fixtures)
from ui.map.zoom import map_name

SELECTED_ROWS = [1, 4, 9]


@pytest.fixture
def taken(monkeypatch) -> list[int]:
    """How many ids each taking of the selection's ids took."""
    counts: list[int] = []
    real = side.selected_ids

    def counted(frame, rows):
        counts.append(len(rows))
        return real(frame, rows)

    monkeypatch.setattr(side, "selected_ids", counted)
    return counts


@pytest.fixture
def downloads(monkeypatch) -> dict:
    """The export menu's deferred download functions, by key, as Streamlit keeps them for the click."""
    found: dict = {}
    real = export_menu.st.download_button

    def kept(label, data, *args, **kwargs):
        found[kwargs.get("key")] = data
        return real(label, data, *args, **kwargs)

    monkeypatch.setattr(export_menu.st, "download_button", kept)
    return found


def test_the_export_takes_every_selected_paper_on_its_click_only(workspace, taken, downloads, monkeypatch):  # noqa: F811
    exported: list[dict] = []

    def export(store, corpus, buffer: io.BytesIO, fmt, pids=None, tags=None):
        exported.append({"pids": pids, "tags": tags})
        buffer.write(b"x")

    monkeypatch.setattr(export_menu, "export_corpus_file", export)
    at = open_app()
    at.session_state[side.SELECTED] = (map_name("c", "tiny", "pca", {}), SELECTED_ROWS)
    at.run()
    assert not at.exception
    assert any("Export the 3 selected papers" in str(p.proto) for p in at.get("popover"))
    assert any(b.proto.label == "Download 3 papers" for b in at.get("download_button"))
    assert taken == []  # listed, counted, offered: no id taken yet
    assert downloads["map_selection-export-download"]() == b"x"  # the click
    frame = workspace.papers_frame("c")
    assert exported[0]["pids"] == [str(frame["id"].iloc[r]) for r in SELECTED_ROWS]  # all 3, in selection order
    assert taken == [3]


def test_a_topic_colouring_tags_every_exported_paper_on_the_click(workspace, taken, downloads, monkeypatch):  # noqa: F811
    from tests.app.test_topics_map import topic_map

    exported: list[dict] = []
    monkeypatch.setattr(export_menu, "export_corpus_file",
                        lambda store, corpus, buffer, fmt, pids=None, tags=None: exported.append(tags))
    at = topic_map(k=3)
    at.session_state[side.SELECTED] = (map_name("c", "tiny", "pca", {}), SELECTED_ROWS)
    at.run()
    assert not at.exception and any("Export the 3 selected papers" in str(p.proto) for p in at.get("popover"))
    assert taken == []
    downloads["map_selection-export-download"]()
    frame = workspace.papers_frame("c")
    tagged = exported[0]
    assert [pid for pid in tagged if any(k.startswith("topic: ") for k in tagged[pid].get("keywords", []))] == [
        str(frame["id"].iloc[r]) for r in SELECTED_ROWS]


def test_save_as_a_collection_takes_every_selected_paper(workspace, taken):  # noqa: F811
    at = open_app()
    at.session_state[side.SELECTED] = (map_name("c", "tiny", "pca", {}), SELECTED_ROWS)
    at.session_state[side.SELECTION_COLLECT] = True  # the user opens "Save the 3 selected papers as a collection"
    at.run()
    assert not at.exception
    assert taken == [3]
    form = [b for b in at.button if "Add 3 papers" in b.label]
    assert form, [b.label for b in at.button]
    at.text_input(key="map_selection_collect_name").set_value("picked")
    form[0].click().run()
    assert not at.exception
    frame = workspace.papers_frame("c")
    assert sorted(workspace.collection_ids("c", "picked")) == sorted(str(frame["id"].iloc[r]) for r in SELECTED_ROWS)
