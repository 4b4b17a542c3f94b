"""The Library's import report names the rows it warns about: fields not read whole and id conflicts, each one
sentence over an expander that lists them."""

from __future__ import annotations

from tests.app.test_pages import empty_workspace, open_app, workspace  # noqa: F401 (fixtures)
from ui import state


def test_the_report_lists_the_fields_not_read_whole_and_the_id_conflicts(workspace):  # noqa: F811
    at = open_app("app_pages/library.py")
    at.session_state[state.IMPORT_REPORT] = {
        "corpus": "c", "imported": 5, "added": 3, "merged": 0, "skipped": 0, "errors": [],
        "warnings": [{"row": 2, "field": "abstract", "reason": "an undecodable byte"}],
        "conflicts": [{"row": 5, "id": "p1", "kept_as": "p1~5"}, {"row": 9, "id": "p2", "kept_as": "p2~9"}],
    }
    at.run()
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert any(w.startswith("1 field could not be read whole") for w in warnings), warnings
    assert any(w.startswith("2 rows reused an id of a paper with another title and abstract") for w in warnings)
    labels = [e.label for e in at.expander]
    assert "Fields not read whole (1)" in labels and "Id conflicts (2)" in labels
