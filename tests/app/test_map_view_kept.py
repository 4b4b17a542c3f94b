"""The Domain map's view is the user's (issue 42 §5): colour, topic level, clusters and legend size survive a visit to
another page; a zoom belongs to its corpus and map; a kept selection is drawn selected again."""

from __future__ import annotations

import numpy as np

from core.embedding import embed_corpus
from tests.app.map_component import map_sent
from tests.app.test_pages import PAPERS, empty_workspace, open_app, widget, workspace  # noqa: F401 (fixtures)
from tests.app.test_topics_map import topic_map
from ui.map.side import SELECTED
from ui.map.zoom import ZOOM, map_name

UMAP = {"n_neighbors": 15, "min_dist": 0.1}  # the page's default UMAP settings


def test_colour_topic_level_clusters_and_legend_survive_another_page(workspace):  # noqa: F811
    at = topic_map(k=8)
    at.radio(key="map_level").set_value("fine").run()
    widget(at.number_input, "Legend entries").set_value(5).run()
    at.switch_page("app_pages/journals.py").run()
    assert not at.exception
    at.switch_page("app_pages/map.py").run()
    assert not at.exception and not at.warning
    assert at.selectbox(key="map_colour").value == "topics"
    assert at.radio(key="map_level").value == "fine"
    assert at.number_input(key="map_k").value == 8
    assert at.number_input(key="map_legend").value == 5
    assert at.query_params["level"] == "fine"


def test_a_zoom_stays_with_its_corpus_and_comes_back_with_it(workspace):  # noqa: F811
    workspace.import_papers("other", PAPERS[:20], source="make_papers")
    embed_corpus(workspace, "other", "tiny")
    at = open_app()
    at.selectbox(key="corpus").set_value("c").run()
    at.session_state[ZOOM] = (0.0, 0.1, 0.0, 0.1)  # as Find's fly-to leaves it
    at.run()
    assert map_sent(at)["events"]["state"]["zoom"] is not None
    at.selectbox(key="corpus").set_value("other").run()
    assert not at.exception
    assert map_sent(at)["events"]["state"]["zoom"] is None  # the other corpus's map opens whole
    assert "zoom" not in at.query_params
    at.selectbox(key="corpus").set_value("c").run()
    assert at.session_state[ZOOM] == (0.0, 0.1, 0.0, 0.1)  # and the first corpus's window comes back


def test_a_kept_selection_is_drawn_selected_again(workspace):  # noqa: F811
    at = open_app()
    assert "select" not in map_sent(at)["events"]["state"]
    view = at.session_state[SELECTED][0] if SELECTED in at.session_state else None
    assert view is None
    # a lasso's selection as the side column keeps it (the view names the drawn map), then a visit elsewhere
    at.session_state[SELECTED] = (map_name("c", "tiny", "pca", {}), [1, 4, 9])
    at.switch_page("app_pages/journals.py").run()
    at.switch_page("app_pages/map.py").run()
    assert map_sent(at)["events"]["state"]["select"] == [1, 4, 9]
    assert any(s.value == "3 selected papers" for s in at.subheader)


def test_a_zoom_on_the_pca_preview_stays_with_it_when_the_umap_map_arrives(workspace):  # noqa: F811
    """While the UMAP map is computed the page shows the PCA preview; a window zoomed there is in the preview's
    coordinates and means nothing on the UMAP map: that one opens whole (it used to open on the preview's window,
    an empty corner of the UMAP map), and the PCA map keeps its window."""
    from core.embedding import get_model
    from core.explore.maps.cached import map_coordinates
    from core.explore.maps.job import MapConfig
    from tests.app.test_jobs_panel import job_row

    job_row(workspace, "map-1", MapConfig("c", "tiny", "umap", UMAP), 0.3)  # the fit runs: the page shows the preview
    at = open_app()
    at.session_state["map_method"] = "umap"
    at.run()
    assert any("Preview: PCA" in p.proto.text for p in at.get("progress"))
    at.session_state[ZOOM] = (0.0, 0.1, 0.0, 0.1)  # zoomed on the preview
    at.run()
    assert map_sent(at)["events"]["state"]["zoom"] is not None
    map_coordinates(workspace, "c", get_model("tiny", workspace), "umap", UMAP)  # the UMAP map is ready
    at.run()
    assert not at.exception
    assert not any("Preview: PCA" in p.proto.text for p in at.get("progress"))
    assert at.session_state[ZOOM] is None and map_sent(at)["events"]["state"]["zoom"] is None
    at.session_state["map_method"] = "pca"
    at.run()
    assert at.session_state[ZOOM] == (0.0, 0.1, 0.0, 0.1)  # the PCA map's own window comes back


def test_a_link_shared_during_the_preview_carries_no_window_of_the_preview(workspace):  # noqa: F811
    """A link copied while the UMAP map is computed names the UMAP map (`method=umap`); a window zoomed on the PCA
    preview is in the preview's coordinates, so the link must not carry it (whoever opened it saw that window on the
    UMAP map: an empty corner). Once the UMAP map is drawn, its own window goes into the link again."""
    from core.embedding import get_model
    from core.explore.maps.cached import map_coordinates
    from core.explore.maps.job import MapConfig
    from tests.app.test_jobs_panel import job_row

    job_row(workspace, "map-1", MapConfig("c", "tiny", "umap", UMAP), 0.3)
    at = open_app()
    at.session_state["map_method"] = "umap"
    at.run()
    at.session_state[ZOOM] = (0.0, 0.1, 0.0, 0.1)  # zoomed on the preview
    at.run()
    assert not at.exception
    assert at.query_params["method"] == "umap" and "zoom" not in at.query_params
    map_coordinates(workspace, "c", get_model("tiny", workspace), "umap", UMAP)
    at.run()
    at.session_state[ZOOM] = (0.2, 0.3, 0.2, 0.3)  # zoomed on the UMAP map
    at.run()
    assert at.query_params["zoom"] == "0.2,0.3,0.2,0.3"


def test_a_link_opened_while_its_map_is_computed_keeps_its_window_in_the_address_bar(workspace):  # noqa: F811
    """A link's window belongs to the UMAP map it names: while that map is computed the preview opens whole, and the
    address bar still carries the link's window (a reload or a copy of it loses nothing); the UMAP map opens on it."""
    from streamlit.testing.v1 import AppTest

    from core.embedding import get_model
    from core.explore.maps.cached import map_coordinates
    from core.explore.maps.job import MapConfig
    from tests.app.test_jobs_panel import job_row
    from tests.app.test_pages import APP

    job_row(workspace, "map-1", MapConfig("c", "tiny", "umap", UMAP), 0.3)
    at = AppTest.from_file(APP, default_timeout=90)
    for key, value in {"corpus": "c", "model": "tiny", "method": "umap", "zoom": "0.2,0.3,0.2,0.3"}.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    assert any("Preview: PCA" in p.proto.text for p in at.get("progress"))
    assert map_sent(at)["events"]["state"]["zoom"] is None  # the preview opens whole
    assert at.query_params["zoom"] == "0.2,0.3,0.2,0.3"
    map_coordinates(workspace, "c", get_model("tiny", workspace), "umap", UMAP)
    at.run()
    assert at.session_state[ZOOM] == (0.2, 0.3, 0.2, 0.3)
    assert at.query_params["zoom"] == "0.2,0.3,0.2,0.3"


def test_a_selection_builds_its_csv_only_when_it_is_downloaded(workspace, monkeypatch):  # noqa: F811
    """The side column's "Map table with x, y (CSV)" held the selection's whole CSV (abstracts included), built on
    every run of the side column while a selection was kept: at 15,000 selected real papers megabytes a click. The
    file is made when its button is pressed (Streamlit's deferred download), as the export menu's files are."""
    import ui.map.side as side

    built = []
    monkeypatch.setattr(side, "csv_bytes", lambda frame: built.append(len(frame)) or b"x")
    at = open_app()
    at.session_state[SELECTED] = (map_name("c", "tiny", "pca", {}), [1, 4, 9])
    at.run()
    assert any(s.value == "3 selected papers" for s in at.subheader)
    assert any(b.proto.label == "Map table with x, y (CSV)" for b in at.get("download_button"))
    assert built == []


def test_the_selection_list_sends_the_figures_of_its_papers_only(workspace, monkeypatch):  # noqa: F811
    """The list is drawn by the map bundle in the browser (its `list` role, BENCHMARKS §31ad): of the selection's
    papers Python sends only the visual summaries of those that have one (by row), no table, no page box; the
    export still takes all 3."""
    from tests.app.map_component import map_sent

    frame = workspace.papers_frame("c")
    ranked = {str(frame["id"].iloc[4]): [{"label": "Figure 2", "caption": "a <b>bold</b> plot"}],
              str(frame["id"].iloc[5]): [{"label": "Figure 1", "caption": "not selected"}]}
    import ui.figures_view

    monkeypatch.setattr(ui.figures_view, "ranked_figures", lambda corpus, spec, ids=None: ranked)
    at = open_app()
    at.session_state[SELECTED] = (map_name("c", "tiny", "pca", {}), [1, 4, 9])
    at.run()
    assert any(s.value == "3 selected papers" for s in at.subheader)
    assert not at.dataframe and "Page of the list" not in [n.label for n in at.number_input]
    sent = map_sent(at)
    figures = sent["list"]["figures"]
    assert list(figures) == ["4"] and "Figure 2" in figures["4"], figures
    assert any("Export the 3 selected papers" in str(p.proto) for p in at.get("popover"))


def test_a_large_kept_selection_goes_to_the_map_as_bits(workspace, monkeypatch):  # noqa: F811
    """A lasso over 30 % of 50,000 papers came back to the browser as a JSON list of ~15,000 row numbers in every
    side-column run (~100 kB of BENCHMARKS §31l's 244 kB a lasso). Above `SELECT_LISTED` rows the selection goes as a
    bitmask, one bit a paper (6 kB at 50k), the first paper in the top bit as the highlight's."""
    import ui.map.component as component
    from tests.app.map_component import column

    monkeypatch.setenv(component.SELECT_LISTED, "2")
    at = open_app()
    at.session_state[SELECTED] = (map_name("c", "tiny", "pca", {}), [1, 4, 9])
    at.run()
    sent = map_sent(at)
    assert "select" not in sent["events"]["state"]
    bits = column(sent["events"], "select")
    n = len(sent["points"])
    assert bits is not None and len(bits) == -(-n // 8)
    assert np.flatnonzero(np.unpackbits(bits.astype(np.uint8))[:n]).tolist() == [1, 4, 9]
