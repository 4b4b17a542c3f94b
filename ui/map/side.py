"""The map's side column, one fragment: Find a paper, the open paper's panel, and the papers selected with the lasso
or box. A click on a paper, a selection, a zoom or a button here reruns only this fragment; the chart (every paper's
point and hover card) is not rebuilt nor sent again. What does change the figure (a flight to a found paper, a
paper's citations drawn on the map, a new collection to colour by) asks for a run of the whole page."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import pandas as pd
import streamlit as st
from streamlit.errors import StreamlitAPIException

from core.display import clipped, plural
from core.embedding import ModelSpec
from core.io.formulas import csv_bytes
from core.plots.map_data import UnitFrame
from ui.collection_add import add_to_collection
from ui.export_menu import export_menu
from ui.figures_view import summaries
from ui.map.component import map_events, pending_click, selection_view
from ui.map.panel import PAGE_RUN, PAPER, PAPER_ROW, find_box, open_paper_at, opened, paper_panel, paper_row
from ui.map.zoom import FLY
from ui.timing import timed
from ui.views import TOPICS

SELECTED = "map_selected"  # (view, rows): the papers selected on the map drawn for `view`
SELECTION_COLLECT = "map_selection_collect_open"  # the selection's "Save as a collection" expander (open: its form)


@st.fragment
@timed("side_panel")
def side_panel(corpus: str, spec: ModelSpec, frame: pd.DataFrame, coords: np.ndarray, unit: UnitFrame, *, links: int,
               view: str,
               colour: str, colour_values: list | None, ranked: dict) -> None:
    """Find a paper, the open paper, the selected papers; `view` names the drawn figure (a selection made on another
    figure is dropped)."""
    st.session_state.pop(FLY, None)  # a flight is this fragment's: its map instance flies
    if st.session_state.pop(PAGE_RUN, False):
        st.rerun(scope="app")  # what the map draws must change (a paper's citations, a new collection)
    clicked = pending_click("map_events")  # opened before the star is sent: the star answers this click, not the last
    if clicked is not None:
        open_paper_at(frame, clicked)
    row = paper_row(frame, st.session_state.get(PAPER), st.session_state.get(PAPER_ROW))
    star = None if row is None else {"x": float(coords[row, 0]), "y": float(coords[row, 1]), "row": row,
                                     "label": clipped(frame["title"].iloc[row], 120)}
    kept = st.session_state.get(SELECTED)
    rows = kept[1] if isinstance(kept, tuple) and kept[0] == view else []
    events = map_events(unit, star, rows, coords=coords)  # the kept selection is drawn selected again on return
    if events.clicked is not None:  # the browser has starred it already; this run's panel shows it
        open_paper_at(frame, events.clicked)
        row = paper_row(frame, st.session_state.get(PAPER), st.session_state.get(PAPER_ROW))
    if events.selected is not None:
        st.session_state[SELECTED] = (view, events.selected)
    find_box(frame, coords, corpus, spec)
    if st.session_state.pop(FLY, False):  # the map instance above flies to the found paper and stars it
        try:
            st.rerun(scope="fragment")
        except StreamlitAPIException:  # a run of the whole page (a link, a test): no fragment to rerun alone
            st.rerun(scope="app")
    pid = st.session_state.get(PAPER)
    if row is not None:
        st.query_params["paper"] = str(pid)
        paper_panel(corpus, spec, frame, row, coords, links)
    else:
        st.query_params.pop("paper", None)
    if events.selected is not None:
        rows = events.selected
    if rows:
        selection_list(corpus, frame, coords, np.asarray(rows, dtype=np.int64), colour, colour_values, ranked)
    elif row is None:
        st.caption("Click a paper to read it here; select several with the lasso or box tool to list them.")


class SelectedIds(Sequence[str]):
    """The selected rows' paper ids as text, taken from the frame when first read (on an export's click, in an open
    "Save as a collection"), not on every run of the side column: 0.3 s for 300k selected at 1M papers (§31q)."""

    def __init__(self, frame: pd.DataFrame, rows: np.ndarray) -> None:
        self._frame, self._rows, self._ids = frame, rows, None

    def ids(self) -> list[str]:
        if self._ids is None:
            self._ids = selected_ids(self._frame, self._rows)
        return self._ids

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, index):  # noqa: ANN001, ANN204 - Sequence's int or slice
        return self.ids()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids())


def selected_ids(frame: pd.DataFrame, rows: np.ndarray) -> list[str]:
    """These rows' paper ids, as text."""
    return frame["id"].take(rows).astype(str).tolist()


def selection_table(frame: pd.DataFrame, coords: np.ndarray, rows: np.ndarray, ranked: dict) -> pd.DataFrame:
    """These rows of the map's frame with their x, y and each paper's figure (the selection's CSV)."""
    chosen = frame.iloc[rows].copy()
    chosen.insert(0, "x", coords[rows, 0])
    chosen.insert(1, "y", coords[rows, 1])
    if ranked:
        at = chosen.columns.get_loc("title") + 1 if "title" in chosen.columns else len(chosen.columns)
        chosen.insert(at, "figure", summaries(ranked, chosen["id"].astype(str).tolist()))
    return chosen


def selection_figures(frame: pd.DataFrame, rows: np.ndarray, ranked: dict) -> dict[str, str]:
    """The visual summary of each selected paper that has one, by row (as text: a JSON key): what the browser's list
    cannot know. Only the papers with figures are looked up, not every selected one."""
    if not ranked or not len(rows):
        return {}
    ids = frame["id"].astype(str)
    with_figures = np.flatnonzero(ids.isin(list(ranked)).to_numpy())
    chosen = np.intersect1d(with_figures, rows)
    return {str(int(r)): s for r, s in zip(chosen, summaries(ranked, ids.iloc[chosen].tolist())) if s}


def selection_list(corpus: str, frame: pd.DataFrame, coords: np.ndarray, rows: np.ndarray, colour: str,
                   colour_values: list | None, ranked: dict) -> None:
    """The selected papers: their count, their list (drawn in the browser by the map bundle from the text it holds:
    title, figure, year, journal, first author; sorted, scrolled and clicked there, BENCHMARKS §31ad), export, and
    save as a collection. No row of the frame is taken for the list (a lasso at 1M papers selects hundreds of
    thousands, §31p); the CSV takes them all when it is asked for."""
    rows = rows[(rows >= 0) & (rows < len(frame))]
    st.subheader(plural(len(rows), "selected paper"))
    selection_view(selection_figures(frame, rows, ranked))
    ids = SelectedIds(frame, rows)
    what = plural(len(rows), "selected paper")
    with st.popover(f"Export the {what}", icon=":material/download:", width="stretch"):
        # for a reference manager; a topic colouring adds each paper's topic as a keyword (both made on the click)
        topic_tags = ((lambda: {pid: {"keywords": [f"topic: {colour_values[r]}"]} for pid, r in zip(ids, rows)})
                      if colour == TOPICS and colour_values else None)
        export_menu(corpus, ids, "selection", key="map_selection", tags=topic_tags)
        st.download_button("Map table with x, y (CSV)",  # built on the click only
                           lambda: csv_bytes(selection_table(frame, coords, rows, ranked)),
                           file_name=f"{corpus}-selection.csv", mime="text/csv")
    if (box := opened(f"Save the {what} as a collection", SELECTION_COLLECT)) is not None:
        with box:
            add_to_collection(corpus, ids, key="map_selection_collect", what="selection")
