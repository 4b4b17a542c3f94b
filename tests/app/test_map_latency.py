"""What a map rerun must not do (issue 32): work nobody asked for on this click."""

from __future__ import annotations

from tests.app.test_pages import empty_workspace, open_app, workspace  # noqa: F401


def test_a_map_rerun_does_not_build_the_html_export_until_it_is_downloaded(workspace, monkeypatch):  # noqa: F811
    import ui.map.component

    built: list[int] = []
    real = ui.map.component.standalone_html
    monkeypatch.setattr(ui.map.component, "standalone_html", lambda *a, **k: built.append(1) or real(*a, **k))
    at = open_app()
    at.text_input(key="map_highlight").set_value("galaxy").run()  # a second run of the page
    assert not at.exception
    assert [b.label for b in at.get("download_button")] == ["Export map (HTML)"]
    assert built == []  # the standalone HTML (the map's bundle and every point inlined) is made on the click only
