"""The single-file preview's Header row box: its 0 means "found", and the box says which row was found (it showed 0
beside "header on row 3", which read as a contradiction)."""

from __future__ import annotations

from tests.app.test_pages import empty_workspace, open_app  # noqa: F401 (fixtures)


def test_the_header_row_box_names_the_row_it_found(empty_workspace):  # noqa: F811
    at = open_app("app_pages/library.py", model=None)
    text = "Search: malaria AND vaccine\nExported 2026-11-30\ntitle,abstract\nA study,An abstract\nB study,More\n"
    at.file_uploader[0].set_value([("preamble.csv", text.encode(), "text/csv")]).run()
    assert not at.exception
    [box] = [n for n in at.number_input if n.label.startswith("Header row")]
    assert box.value == 0 and box.label == "Header row (0: found, row 3)"
    box.set_value(3).run()  # the user's own row: the label no longer claims a found one
    [box] = [n for n in at.number_input if n.label.startswith("Header row")]
    assert box.value == 3 and box.label == "Header row (0: find it)"
