"""What the pages say about themselves matches what the app does (QA walk qa21): the map's caption does not name a
drawing method the browser may not use (a large map's points are drawn on the CPU in a GPU-less browser, BENCHMARKS
§31w), and the Library's list of formats names EBSCO, whose exports it reads (core/io/ebsco_xml.py, EBSCO CSV)."""

from __future__ import annotations

from tests.app.test_pages import PAPERS, empty_workspace, open_app, texts, workspace  # noqa: F401 (fixtures)


def test_the_map_caption_does_not_claim_webgl(workspace):  # noqa: F811
    captions = [str(c.value) for c in open_app().caption]
    drawn = [c for c in captions if f"drawing all **{len(PAPERS)}** papers" in c]
    assert drawn, captions
    assert not [c for c in drawn if "WebGL" in c], drawn  # the browser picks WebGL or its CPU raster, not the page
    assert "in your browser" in drawn[0]


def test_the_library_names_ebsco_among_the_formats_it_reads(empty_workspace):  # noqa: F811
    at = open_app("app_pages/library.py", model=None)
    assert "EBSCO" in texts(at.caption), texts(at.caption)
    assert "EBSCO" in (at.get("file_uploader")[0].proto.help if at.get("file_uploader") else "")
