"""A click on the map opens its paper by the row the click gave (BENCHMARKS §31p): the corpus's id → row index
(`row_of`, 1.4–2.2 s on the first click at 1M papers) is not made for a paper whose row is known."""

from __future__ import annotations

import pytest

import ui.map.panel as panel
from tests.app.test_pages import PAPERS, empty_workspace, open_app, texts, workspace  # noqa: F401


@pytest.fixture
def no_lookup(monkeypatch) -> list[str]:
    """Each id looked up through the corpus's index (`row_of`), recorded; the lookup still answers."""
    asked: list[str] = []
    real = panel.row_of

    def counted(frame, pid):
        asked.append(pid)
        return real(frame, pid)

    monkeypatch.setattr(panel, "row_of", counted)
    return asked


def test_a_clicked_paper_opens_by_its_row_without_the_id_index(workspace, no_lookup):  # noqa: F811
    at = open_app()
    frame = workspace.papers_frame("c")
    at.session_state["map_events"] = {"clicked": 3}  # what the map component reports for a click on row 3
    at.run()
    assert not at.exception
    pid = str(frame["id"].iloc[3])
    assert at.session_state["map_paper"] == pid and at.session_state["map_paper_row"] == (pid, 3)
    assert str(frame["title"].iloc[3]) in texts(at.markdown)  # the panel shows the clicked paper
    assert no_lookup == []  # neither the page nor the side panel looked its row up by id
    at.session_state["map_colour"] = "(none)"  # a page run after the click: the star's row, still no lookup
    at.run()
    assert not at.exception and no_lookup == []


def test_a_paper_opened_by_id_alone_is_still_found(workspace, no_lookup):  # noqa: F811
    """A shared link names the paper, not its row: it is looked up by id once and shown."""
    at = open_app()
    pid = PAPERS[5].id
    at.session_state["map_paper"] = pid
    at.run()
    assert not at.exception and pid in no_lookup
    assert PAPERS[5].title in texts(at.markdown)


def test_a_known_row_of_another_paper_is_not_taken() -> None:
    """The kept (id, row) is taken only when that row holds that id (a frame of a new corpus version moves rows)."""
    import pandas as pd

    frame = pd.DataFrame({"id": ["a", "b", "c"], "title": ["A", "B", "C"]})
    assert panel.paper_row(frame, "b", ("b", 1)) == 1
    assert panel.paper_row(frame, "c", ("c", 1)) == 2  # row 1 holds "b" now: looked up
    assert panel.paper_row(frame, "c", ("c", 7)) == 2  # out of the frame
    assert panel.paper_row(frame, "c", ("b", 1)) == 2  # another paper's row
    assert panel.paper_row(frame, "z", ("z", 0)) is None
    assert panel.paper_row(frame, None, ("a", 0)) is None


def test_a_selection_takes_no_rows_of_the_frame_for_its_list(workspace, monkeypatch):  # noqa: F811
    """A lasso at 1M papers selects hundreds of thousands: the list is drawn in the browser from the text it holds
    (the map bundle's `list` role, BENCHMARKS §31ad), so a run of the side column takes no rows of the frame (a
    page of them cost ~2 s a lasso at first, §31p; the browser's table 0.3-0.5 s more, §31ac); the ids of all are
    taken for export and collections only when asked."""
    import ui.map.side as side
    from tests.app.map_component import map_sent
    from ui.map.zoom import map_name

    taken: list[int] = []
    real = side.selection_table

    def counted(frame, coords, rows, ranked):
        taken.append(len(rows))
        return real(frame, coords, rows, ranked)

    monkeypatch.setattr(side, "selection_table", counted)
    at = open_app()
    at.session_state[side.SELECTED] = (map_name("c", "tiny", "pca", {}), [1, 4, 9])
    at.run()
    assert not at.exception
    assert taken == []
    assert "3 selected papers" in [h.value for h in at.subheader]
    assert not at.dataframe and "Page of the list" not in [n.label for n in at.number_input]  # no table, no page box
    sent = map_sent(at)
    assert sent["list"]["meta"]["role"] == "list" and sent["list"]["figures"] == {}
    assert sent["events"]["state"]["select"] == [1, 4, 9]  # the rows the browser lists: the map's selection
