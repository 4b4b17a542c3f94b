"""A map of more papers than the draw limit (issue 42 §4) opens as a density overview: the page says so in one
sentence, the map gets the density grid and the papers of the zoomed window only, with their corpus rows."""

from __future__ import annotations

import numpy as np
import pytest

from tests.app.map_component import column, map_sent
from tests.app.test_pages import PAPERS, empty_workspace, open_app, workspace  # noqa: F401 (fixtures)
from ui.map.packing import unpack
from ui.map.zoom import ZOOM


def test_under_the_limit_every_paper_is_drawn_as_before(workspace):  # noqa: F811
    at = open_app()
    sent = map_sent(at)
    assert len(sent["points"]) == len(PAPERS) and "row" not in sent["points"]
    assert "overview" not in sent["meta"] and "base" not in sent["meta"]
    assert any(f"drawing all **{len(PAPERS)}** papers" in c.value for c in at.caption)


def test_the_points_say_a_page_state_follows_and_the_run_sends_it_for_the_same_map(workspace):  # noqa: F811
    """The browser draws the points once, with their colours, only because their data says the page's state follows
    (`meta.state`, BENCHMARKS §31s): a run that sent the points without that part would leave them undrawn 15 s."""
    at = open_app()
    sent = map_sent(at)
    assert sent["meta"]["state"] is True
    assert sent["page"]["state"]["map"] == sent["meta"]["key"] and sent["page"]["state"]["palette"]


def test_the_hover_text_goes_in_its_own_instance_after_the_page_state(workspace):  # noqa: F811
    """An open's first message holds only what the first draw needs (x, y, the year number): the hover text (80 % of
    the bytes at 1M papers) comes in a second instance of the bundle mounted after the page's state, so the browser
    draws the coloured points without waiting for it (BENCHMARKS §31u)."""
    at = open_app()
    order, heavy, text = [], None, None
    for element in at.get("bidi_component"):
        proto = element.proto
        if proto.component_name.endswith("miread_map"):
            meta, table = unpack(proto.bytes)
            if meta.get("role") == "text":
                order.append("text")
                text = (meta, table)
            elif meta.get("hub", "map") == "map":
                order.append("points")
                heavy = (meta, table)
        elif proto.component_name.endswith("miread_map_control") and '"role": "page"' in proto.mixed.json:
            order.append("state")
    assert heavy is not None and text is not None
    assert heavy[1].column_names == ["x", "y", "yearnum"]
    assert order.index("points") < order.index("state") < order.index("text")
    assert text[0]["key"] == heavy[0]["key"] and text[0]["hub"] == "map"
    assert text[1].num_rows == heavy[1].num_rows and {"title", "author", "journal"} <= set(text[1].column_names)
    assert text[1].column("title").to_pylist() == map_sent(at)["points"]["title"].tolist()
    assert sorted(text[1].column("title").to_pylist()) == sorted(p.title for p in PAPERS)


def test_the_raster_override_goes_to_the_browser_in_the_points_meta(workspace, monkeypatch: pytest.MonkeyPatch):  # noqa: F811
    """MIREAD_MAP_RASTER=cpu|gl (tests, benchmarks) reaches the map as `meta.raster` (frontend/map/src/raster.js);
    unset, the browser chooses (no `raster`)."""
    assert "raster" not in map_sent(open_app())["meta"]
    monkeypatch.setenv("MIREAD_MAP_RASTER", "cpu")
    assert map_sent(open_app())["meta"]["raster"] == "cpu"


def test_over_the_limit_the_map_opens_as_a_density_overview_and_a_zoom_sends_its_window(
        workspace, monkeypatch: pytest.MonkeyPatch):  # noqa: F811
    monkeypatch.setenv("MIREAD_MAP_DRAW_LIMIT", "20")
    at = open_app()
    assert not at.exception
    sent = map_sent(at)
    total = len(PAPERS)
    assert sent["meta"]["overview"]["size"] == 512 and sent["meta"]["total"] == total
    density = column(sent, "density")
    assert density.shape == (512 * 512,) and density.dtype == np.uint8 and density.max() == 255
    assert sent["points"]["row"].tolist() == list(range(total))  # the whole map: every paper (under the cap)
    captions = [c.value for c in at.caption]
    assert any(f"**{total:,}** papers: density overview; zoom in to see papers — **{total:,}** in the whole map drawn."
               in c for c in captions), captions
    assert not any("drawing all" in c for c in captions)

    x, y = sent["points"]["x"].to_numpy(), sent["points"]["y"].to_numpy()
    unit = sent["meta"]["unit"]  # map coordinates = centre + unit * half
    at.session_state[ZOOM] = (unit[0], unit[0] + unit[2], unit[1], unit[1] + unit[2])  # the upper right quarter
    at.run()
    zoomed = map_sent(at)
    inside = np.flatnonzero((x >= 0) & (y >= 0))
    assert 0 < len(inside) < total
    assert zoomed["points"]["row"].tolist() == inside.tolist()  # only the window's papers, as corpus rows
    assert zoomed["meta"]["base"] == sent["meta"]["base"] and zoomed["meta"]["key"] != sent["meta"]["key"]
    assert any(f"— **{len(inside):,}** in this view drawn." in c.value for c in at.caption)
    titles = zoomed["points"]["title"].tolist()
    assert titles == [sent["points"]["title"][r] for r in inside]  # each point's card is its own paper's
    # the colour codes go for the drawn window's papers only, named by the window they colour
    whole_codes, window_codes = column(sent["page"], "codes"), column(zoomed["page"], "codes")
    assert len(whole_codes) == total and sent["page"]["state"]["window"] == sent["meta"]["key"]
    assert window_codes.tolist() == whole_codes[inside].tolist()
    assert zoomed["page"]["state"]["window"] == zoomed["meta"]["key"]


def test_a_density_overview_exports_the_papers_of_its_view_in_the_whole_maps_frame():
    """The HTML export of an overview holds the drawn window's papers (a file of every paper of a corpus above the
    draw limit would be gigabytes), their own codes and highlight, placed as on the page."""
    import json
    import re

    import pandas as pd

    from core.plots.map_data import Colours, highlight_bits, unit_frame
    from ui.map.component import DrawnWindow
    from ui.map.controls import DrawnMap, _export

    rng = np.random.default_rng(0)
    coords = rng.normal(size=(40, 2))
    frame = pd.DataFrame({"id": [f"p{i}" for i in range(40)], "title": [f"paper {i}" for i in range(40)]})
    codes = (np.arange(40) % 3).astype(np.uint8)
    drawn = DrawnMap("c", frame, coords, Colours(codes, ["#111111", "#222222", "#333333"], []), {"name": "c"}, None,
                     None, {}, False)
    rows = np.array([3, 7, 8, 30])
    highlight = np.zeros(40, dtype=bool)
    highlight[[7, 12]] = True
    html = _export(drawn, {"name": "c"}, highlight_bits(highlight, 40), DrawnWindow("k@w", 40, rows)).decode("utf-8")
    data = json.loads(re.search(r'id="miread-data">(.*?)</script>', html, re.S).group(1))
    assert data["points"]["title"] == ["paper 3", "paper 7", "paper 8", "paper 30"]
    assert data["state"]["codes"] == [0, 1, 2, 0]
    assert np.unpackbits(np.array(data["state"]["mask"], dtype=np.uint8))[:4].tolist() == [0, 1, 0, 0]
    whole = unit_frame(coords).to_unit(coords[rows])  # the whole map's frame, not one fitted to the four papers
    assert np.allclose(data["points"]["x"], whole[:, 0], atol=1e-4)
    every = json.loads(re.search(r'id="miread-data">(.*?)</script>',
                                 _export(drawn, {"name": "c"}, None, None).decode("utf-8"), re.S).group(1))
    assert len(every["points"]["title"]) == 40  # under the draw limit: every paper


def test_an_overviews_highlight_bits_are_its_windows(workspace, monkeypatch: pytest.MonkeyPatch):  # noqa: F811
    """A highlight on a density overview sends one bit per drawn paper (not per paper of the corpus), in the order the
    window draws them."""
    from tests.app.map_component import highlighted_rows

    monkeypatch.setenv("MIREAD_MAP_DRAW_LIMIT", "20")
    at = open_app()
    at.text_input(key="map_highlight").set_value("number 1").run()
    whole = map_sent(at)
    marked = set(highlighted_rows(whole))  # the whole map draws every paper here: window row = corpus row
    assert 0 < len(marked) < len(PAPERS)
    x, y = whole["points"]["x"].to_numpy(), whole["points"]["y"].to_numpy()
    unit = whole["meta"]["unit"]
    at.session_state[ZOOM] = (unit[0], unit[0] + unit[2], unit[1], unit[1] + unit[2])
    at.run()
    zoomed = map_sent(at)
    inside = np.flatnonzero((x >= 0) & (y >= 0)).tolist()
    assert zoomed["points"]["row"].tolist() == inside and zoomed["page"]["state"]["window"] == zoomed["meta"]["key"]
    assert len(column(zoomed["page"], "mask")) == (len(inside) + 7) // 8
    assert highlighted_rows(zoomed) == [i for i, row in enumerate(inside) if row in marked]


def test_a_later_page_run_sends_the_points_and_text_meta_only_until_the_browser_asks(workspace):  # noqa: F811
    """The browser keeps the points and hover text it was sent under a map's key: a later page run of the session (a
    Colour by change) mounts both heavy instances with their meta alone, not hashed and sent again (BENCHMARKS §31x);
    when the browser asks again (`missing`: its map let go), the next run sends them whole."""
    at = open_app()
    first = map_sent(at)
    assert len(first["points"]) == len(PAPERS) and "kept" not in first["meta"] and first["text_bytes"] > 1000
    at.selectbox(key="map_colour").set_value("year").run()
    assert not at.exception
    later = map_sent(at)
    assert later["meta"]["kept"] is True and later["meta"]["key"] == first["meta"]["key"]
    assert later["bytes"] < 1000 and later["text_bytes"] < 1000  # the meta alone, no Arrow stream
    assert later["page"]["state"]["map"] == later["meta"]["key"]
    from ui.map.component import SENT, _forget
    marks = dict(at.session_state[SENT])
    assert set(marks) == {"map/corpus_map", "map/map_state_text"}
    at.session_state[SENT] = {k: v for k, v in marks.items() if k != "map/corpus_map"}  # as `_forget` leaves it
    at.run()
    again = map_sent(at)
    assert "kept" not in again["meta"] and again["bytes"] > 1000 and again["text_bytes"] < 1000
    assert callable(_forget)
