"""The map's bundle travels by path, not inline in each instance's element (issue 42, BENCHMARKS §31aa)."""

from __future__ import annotations

from tests.app.test_pages import empty_workspace, open_app, workspace  # noqa: F401
from ui.map.component import BUNDLE


def test_the_map_elements_name_the_bundle_served_by_the_app_instead_of_carrying_it(workspace):  # noqa: F811
    at = open_app()
    assert not at.exception
    heavy = [e.proto for e in at.get("bidi_component") if e.proto.component_name.endswith("miread_map")]
    assert len(heavy) >= 2  # the points and the hover text (role: text): the same bundle twice on one page
    for proto in heavy:
        assert proto.js_content == ""  # ~490 KB of script in every instance's message, every page, before
        assert proto.js_source_path == BUNDLE.name

    # the browser loads it from /_stcore/bidi-components/<name>/map_component.js (tests/e2e/test_map_*.py draw it)
