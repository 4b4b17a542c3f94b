"""The map as a reading tool: the paper a user clicked (or found by title or DOI) opens in a side panel — title,
authors, journal, year, DOI link, the abstract in its paragraphs, its figures, the papers nearest to it, its
citations, and "add to collection"."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from core.display import author_text, clipped, plural
from core.embedding import ModelSpec
from core.explore.search import find_papers, hybrid_search, similar_papers
from core.explore.search.hybrid import why_text
from core.explore.search.lookup import row_of
from core.labels import is_missing, label_text
from core.records import md_escape, safe_link
from ui.collection_add import add_to_collection
from ui.errors import guarded
from ui.figures_view import ranked_figures, show_figures
from ui.map.zoom import fly_to
from ui.paper_sources import sources_expander
from ui.resources import store

PAPER = "map_paper"  # the id of the paper open in the panel (also the URL's ``paper``)
PAPER_ROW = "map_paper_row"  # (id, row) of the paper a click, a flight or a pick opened: its row without a lookup
PAGE_RUN = "map_page_run"  # a button of the side panel changed what the figure draws: the whole page runs again
PANEL_COLLECT = "map_panel_collect_open"  # the open paper's "Add to a collection" expander (open: its form is drawn)
FIND_OFFERED = 20  # Find offers this many matches to pick from; it says how many there are
_FLOWN = "map_find_flown"  # (query, id) of the last paper "find" flew to, so a rerun does not fly again


def paper_row(frame: pd.DataFrame, pid: str | None, known: object = None) -> int | None:
    """The row of the paper with this id, None when there is none. `known`: the (id, row) a click gave
    (`PAPER_ROW`), taken when that row of `frame` holds this id; only otherwise is the corpus's id → row index
    made (`row_of`: ~1.4–2.2 s at 1M papers on its first use, BENCHMARKS §31p)."""
    if not pid:
        return None
    if isinstance(known, tuple) and len(known) == 2 and known[0] == pid and isinstance(known[1], int) \
            and 0 <= known[1] < len(frame) and str(frame["id"].iloc[known[1]]) == pid:
        return known[1]
    return row_of(frame, pid)


def open_paper(pid: str, row: int) -> None:
    """Open this paper (at this row of the map's frame) in the panel."""
    st.session_state[PAPER] = pid
    st.session_state[PAPER_ROW] = (pid, int(row))


def open_paper_at(frame: pd.DataFrame, row: int) -> None:
    """Open the paper of a clicked map point in the panel."""
    if 0 <= row < len(frame):
        open_paper(str(frame["id"].iloc[row]), row)


def _searched(corpus: str, spec: ModelSpec, frame: pd.DataFrame,
              query: str) -> tuple[list[int], str | None, dict[int, str]]:
    """The rows the word + meaning search gives for `query` (core.explore.search.hybrid), its notice, and why each
    row matched (as the Similar papers page says it)."""
    found = guarded(hybrid_search, store(), corpus, spec, query, k=20, frame=frame)
    if found is None:
        return [], None, {}
    return ([int(r["row"]) for r in found.results], found.notice,
            {int(r["row"]): why_text(r.get("why") or {}) for r in found.results})


def find_box(frame: pd.DataFrame, coords: np.ndarray, corpus: str | None = None, spec: ModelSpec | None = None) -> None:
    """'Find a paper' by title words or DOI: one match flies there and opens it; several are offered to pick. When no
    title or DOI holds the text, the search by words and meaning (the Similar page's) offers its best 20."""
    query = st.text_input("Find a paper", key="map_find", placeholder="title words, a DOI or a topic",
                          help="The map zooms onto the paper, marks it with a star and opens it beside the map. "
                               "Text no title holds is searched by words and meaning.")
    if not query.strip():
        return
    rows = find_papers(frame, query, limit=None)  # every match counted, 20 offered
    label = (f"{plural(len(rows), 'paper')} match{'es' * (len(rows) == 1)} by title or DOI"  # Highlight counts more
             + ("" if len(rows) <= FIND_OFFERED else f" (the first {FIND_OFFERED} offered)"))
    rows = rows[:FIND_OFFERED]
    why: dict[int, str] = {}
    if not len(rows) and corpus is not None and spec is not None:
        searched, notice, why = _searched(corpus, spec, frame, query.strip())
        rows = np.asarray(searched, dtype=np.int64)
        label = "No title or DOI holds it; the closest by words and meaning"
        if notice:
            st.caption(md_escape(notice[0].upper() + notice[1:]) + ".")
    if not len(rows):
        st.caption(f"No paper's title or DOI matches “{md_escape(query.strip())}”.")
        return
    row = int(rows[0])
    if len(rows) > 1 or label.startswith("No title"):
        row = st.selectbox(label, rows.tolist(), key="map_find_pick", format_func=lambda r: _short(frame, int(r))
                           + (f" · {why[int(r)]}" if why.get(int(r)) else ""))
    pid = str(frame["id"].iloc[int(row)])
    if st.session_state.get(_FLOWN) != (query, pid):
        st.session_state[_FLOWN] = (query, pid)
        open_paper(pid, int(row))
        fly_to(coords, int(row))


def _short(frame: pd.DataFrame, row: int) -> str:
    year = frame["year"].iloc[row] if "year" in frame.columns else None
    title = str(frame["title"].iloc[row])
    return clipped(title, 110) + ("" if is_missing(year) else f" ({label_text(year)})")


def _paragraphs(text: str) -> list[str]:
    """An abstract's paragraphs as the source gave them (blank lines, or line breaks between sentences)."""
    parts = re.split(r"\n\s*\n|\n(?=[A-Z][A-Z /&-]{2,}:)|\n", text.strip())
    return [p.strip() for p in parts if p.strip()]


def paper_panel(corpus: str, spec: ModelSpec, frame: pd.DataFrame, row: int, coords: np.ndarray,
                links: int) -> None:
    """The side panel of one paper; its buttons change the session (open another paper, show citations)."""
    record = frame.iloc[row]
    pid = str(record["id"])
    top, close = st.columns([5, 1], vertical_alignment="top")
    top.markdown(f"##### {md_escape(record['title'])}")
    close.button("", icon=":material/close:", key="map_panel_close", help="Close the panel",
                 on_click=lambda: st.session_state.pop(PAPER, None))
    authors = author_text(record.get("authors"), limit=None) if "authors" in frame.columns else ""
    if authors and record.get("author_role") == "editors":  # an edited book's editors, as Zotero shows them
        authors += " (eds.)" if ";" in authors else " (ed.)"
    if authors:
        st.markdown(md_escape(authors))
    where = [label_text(record[c]) for c in ("journal", "year") if c in frame.columns and not is_missing(record[c])]
    link = safe_link(record.get("doi"), record.get("url"))
    line = " · ".join(md_escape(w) for w in where)
    if link:
        shown = label_text(record.get("doi")) or link
        line += (" · " if line else "") + f"[{md_escape(shown)}]({link})"
    if line:
        st.markdown(line)
    abstract = str(record.get("abstract") or "")
    if abstract.strip():
        with st.container(height=320, border=False):
            for paragraph in _paragraphs(abstract):
                st.markdown(md_escape(paragraph))
    else:
        st.caption("No abstract (imported title-only).")
    figures = ranked_figures(corpus, spec, [pid])
    if figures.get(pid) and (box := opened(f"Figures ({len(figures[pid])})", "map_panel_figures")) is not None:
        with box:
            show_figures(figures[pid])
    if (box := opened("Similar to this", "map_panel_similar")) is not None:
        with box:
            found = guarded(similar_papers, store(), corpus, spec, paper_id=pid, k=5, frame=frame)
            for item in (found.results if found else []):
                st.button(f"{item['score']:.2f} · {md_escape(clipped(item['title'], 90))}",
                          key=f"map_similar_{item['id']}", on_click=_open,
                          args=(str(item["id"]), coords, int(item["row"])), width="stretch")
    if links:
        st.button("Show its citations on the map", key="map_panel_citations", icon=":material/share:",
                  on_click=_show_citations, args=(corpus, row))
    sources_expander(corpus, pid, key="map_panel_sources")
    if (box := opened("Add to a collection", PANEL_COLLECT)) is not None:
        with box:
            add_to_collection(corpus, [pid], key="map_panel_collect")


def opened(label: str, key: str) -> Any | None:
    """An expander whose contents are made only while it is open (its state under `key`; opening it reruns the
    side fragment): a click draws the panel without hidden elements (forms, buttons, a data grid) the user has not
    asked for (BENCHMARKS §31n). None while it is closed."""
    box = st.expander(label, key=key, on_change="rerun")
    return box if box.open else None


def _show_citations(corpus: str, row: int) -> None:
    """Draw the paper's citations on the map (the figure changes: the whole page runs)."""
    st.session_state[f"map_cite_{corpus}"] = row
    st.session_state[PAGE_RUN] = True


def _open(pid: str, coords: np.ndarray, row: int) -> None:
    """Open another paper in the panel and fly to it."""
    open_paper(pid, row)
    fly_to(coords, row)
