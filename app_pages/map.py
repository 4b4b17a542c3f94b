"""Domain map: UMAP / t-SNE / PCA of a corpus, coloured by label, cluster or predicted journal."""

from __future__ import annotations

import time

import numpy as np
import streamlit as st

from core.demo import DEMO_CORPUS
from core.display import clipped, noun, plural
from core.explore import (
    DEFAULT_PARAMS,
    map_coordinates,
    map_fitted,
    paper_citations,
    place_points,
    warm_highlight,
)
from core.plots.map_data import colour_codes
from core.records import md_escape
from ui import state
from ui.embedding import need_embeddings
from ui.errors import guarded, show_error
from ui.figures_view import ranked_figures
from ui.jobs import start_map  # the fit is a job of the workspace: every tab, a reload and the CLI see it
from ui.journal_names import spellings_caption
from ui.map.colours import cheap_options, colour_choices, column_values, send_choices, topic_choices
from ui.map.component import show_map, watch_zoom
from ui.map.controls import DrawnMap, quick_controls
from ui.map.overview import OVERVIEW, is_overview, overview_sentence
from ui.map.panel import PAPER, PAPER_ROW, paper_row
from ui.map.points import map_key
from ui.map.side import side_panel
from ui.map.stable import marked, resolve_stable, show_stable_controls
from ui.map.time import fill_screen, topics_over_time
from ui.map.topics import known_topics, topic_colours
from ui.map.zoom import map_name, zoom_belongs_to
from ui.resources import embeddings, papers_frame, store
from ui.shared_view import link_problems
from ui.sidebar import current_corpus, current_model
from ui.tables import show_citations
from ui.views import COLLECTIONS, TOPICS

st.title("Domain map")
# Everything that comes and goes above the map (warnings, captions, a progress bar) lives in `top`, so the map's
# place on the page never moves: a moved element is remounted, and the map would be drawn again from scratch.
top = st.container()
map_box, side = st.columns([5, 2])  # the side column: Find, the open paper, the selection (a fragment)
with top:
    for problem in link_problems():
        st.warning(problem)
    corpus, spec = current_corpus(), current_model()
    if corpus == DEMO_CORPUS and state.SEEN_DEMO_NOTE not in st.session_state:
        st.info(f"You are exploring the demo corpus **{DEMO_CORPUS}** (real PubMed records) with the packaged model "
                f"**{spec.name}**. Load your own papers on the **Library** page.")
        st.session_state[state.SEEN_DEMO_NOTE] = True
    if not need_embeddings(corpus, spec):
        st.stop()

    frame = papers_frame(corpus)
    info = store().corpus(corpus)

    # the year colours the map too (a time axis); predicted journals need the journal field
    colour_options = (list(info.labels) + ([info.year] if info.year and info.year not in info.labels else [])
                      + [TOPICS] + (["predicted journal"] if info.journal else [])
                      + ([COLLECTIONS] if store().collections(corpus) else []) + ["(none)"])
    if st.session_state.get("map_colour") not in colour_options:  # a column of another corpus: the first, on screen too
        st.session_state["map_colour"] = colour_options[0]
    for key, default in (("map_n_neighbors", DEFAULT_PARAMS["umap"]["n_neighbors"]),
                         ("map_min_dist", float(DEFAULT_PARAMS["umap"]["min_dist"])),
                         ("map_perplexity", int(DEFAULT_PARAMS["tsne"]["perplexity"])), ("map_k", 12),
                         ("map_legend", 12)):
        st.session_state.setdefault(key, default)  # widget defaults set here, so a shared link can set them too
    d1, d2, d3 = st.container(key="map_controls").columns([3, 4, 2], vertical_alignment="bottom")  # one row on a phone
    colour = d1.selectbox("Colour by", colour_options, key="map_colour",
                          help="Any label column, topics (clusters, two levels), predicted journal, or your "
                               "collections.")
    highlight_box = d2.container()  # Highlight, Years and Play: a fragment of their own (ui/map/controls.py)
    with d3.popover("Map settings", icon=":material/tune:", width="stretch"):
        method = st.selectbox("Method", ["umap", "tsne", "pca"], format_func=str.upper, key="map_method",
                              help="UMAP keeps local and global structure; t-SNE local only; PCA is instant but "
                                   "coarse.")
        params: dict = {}
        if method == "umap":
            params["n_neighbors"] = st.slider("Neighbours", 5, 100, key="map_n_neighbors",
                                              help="Small values show fine local groups, large values the big picture.")
            params["min_dist"] = st.slider("Min distance", 0.0, 0.99, step=0.05, key="map_min_dist",
                                           help="How tightly points may pack together.")
        elif method == "tsne":
            params["perplexity"] = st.slider("Perplexity", 5, 100, key="map_perplexity",
                                             help="Roughly the number of neighbours each point pays attention to.")
        k = st.number_input("Clusters (k)", 2, 200, key="map_k", disabled=colour != TOPICS,
                            help="How many fine topics (k-means clusters) when colouring by topics; the coarse "
                                 "topics group them, about a quarter as many.")
        legend = st.number_input("Legend entries", 1, 60, key="map_legend",
                                 help="The most frequent labels get their own colour; the rest are drawn grey as "
                                      "'other' (hover cards always show the real label). Click a legend entry to "
                                      "hide it.")

    view = map_name(corpus, spec.name, method, params)  # a selection stays with its map (its rows: the same papers)
    # papers added since it was fitted are placed on it, not refit
    stable = resolve_stable(corpus, spec, method, params)
    final = None if stable is None else stable.coords
    background = None
    if final is None and method != "pca":
        # Preview first: PCA takes under a second even at 200k papers; the chosen map follows in the background.
        background = guarded(start_map, store(), corpus, spec, method, params)
        if background is None:
            st.stop()
        if background.done and not background.error:
            stable = resolve_stable(corpus, spec, method, params)
            final = None if stable is None else stable.coords
    if final is None:  # the PCA map itself, or the preview of a map still being computed
        with st.spinner("Computing the PCA map…"):
            result = guarded(map_coordinates, store(), corpus, spec, "pca", {})
        if result is None:
            st.stop()
        coords = result[0]
        if method == "pca":
            stable = resolve_stable(corpus, spec, method, params)
            final = coords = coords if stable is None else stable.coords
    else:
        coords = final
    # a zoom stays with the map it was made on: the PCA preview's window means nothing on the UMAP map that follows
    zoom_belongs_to(view if final is not None else map_name(corpus, spec.name, "pca", {}), first=view)

    if final is None:

        @st.fragment(run_every=1.5)
        def watch_background_map() -> None:
            """Progress of the background map; swaps it in (full rerun) when it is ready."""
            if background.error:
                show_error(f"{background.error.rstrip('.')}. The PCA preview stays on screen.")
            elif background.done:
                st.rerun(scope="app")
            else:
                elapsed = time.time() - background.started
                st.progress(background.fraction, text=f"Preview: PCA. Computing the {method.upper()} map in the "
                                                      f"background ({background.message}, {elapsed:.0f} s)…")

        watch_background_map()

    vectors = embeddings(corpus, spec)

    colour_values, topic_map = None, None
    if colour == TOPICS:
        topic_map = topic_colours(corpus, spec, int(k))
        colour_values = topic_map.colour_values if topic_map else None
    elif colour == "predicted journal":
        from core.explore import predict_corpus_labels

        column = info.journal or ""  # the head answers when it was trained on this field, else the neighbour vote
        if not column:
            st.warning(f"Corpus **{md_escape(corpus)}** has no journal field, so journals cannot be predicted.")
        else:
            with st.spinner("Predicting journals…"):
                colour_values = guarded(predict_corpus_labels, store(), corpus, spec, column)
    elif colour == COLLECTIONS:  # each paper's collections ("A + B" when it is in two); the rest have none
        member = store().collection_membership(corpus)
        colour_values = [" + ".join(member.get(str(pid), [])) or None for pid in frame["id"].astype(str)]
    elif colour != "(none)":
        colour_values = column_values(frame, colour)

    years_box = st.container()
    in_front = None  # the papers the citations put in front
    query_points, lines = [], []
    # its star is drawn by the side fragment's instance
    open_row = paper_row(frame, st.session_state.get(PAPER), st.session_state.get(PAPER_ROW))
    citations = None
    if info.links:  # a paper's references and citing papers drawn in front, joined to it by lines
        options = [None, *range(len(frame))]
        key = f"map_cite_{corpus}"
        if st.session_state.get(key) not in options:
            st.session_state.pop(key, None)
        cite_row = st.selectbox("Show the citations of", options, key=key,
                                placeholder="a paper (type to search titles)",
                                format_func=lambda i: "(none)" if i is None else clipped(frame["title"].iloc[i], 140),
                                help="Its references and the papers citing it are drawn in front and joined to it by "
                                     "lines; the lists follow under the map.")
        if cite_row is not None:
            citations = paper_citations(store(), corpus, str(frame["id"].iloc[cite_row]), frame)
            mask = np.zeros(len(frame), dtype=bool)
            mask[citations["rows"]] = True
            mask[cite_row] = True
            in_front = mask
            query_points.append((coords[cite_row], str(frame["title"].iloc[cite_row])))
            for part, dashed in (("references", False), ("cited_by", True)):
                lines += [(cite_row, int(r["row"]), dashed) for r in citations[part]]
            st.caption(f"{plural(len(citations['references']), 'reference')} and "
                       f"{plural(len(citations['cited_by']), 'citing paper')} "
                       "drawn in front (lines: to its references solid, from citing papers dotted).")
    placed = st.session_state.get(state.MAP_QUERY)
    if isinstance(placed, state.MapQuery) and (placed.corpus, placed.model) == (corpus, spec.name):
        star = place_points(coords, np.asarray(vectors), np.asarray([placed.vector], dtype=np.float32))
        query_points.append((star[0], placed.title))

    ranked = ranked_figures(corpus, spec)
    kind = "PCA preview" if final is None else method.upper()
    fitted = guarded(map_fitted, store(), corpus, spec, method, params) if final is not None else None
    fill_screen()
HOW = "Pan and zoom with the mouse or two fingers; Lasso or Box selects;"
with map_box:
    unit = show_map(corpus, coords, frame)  # the points: sent once per corpus version and map
    # the colours the browser answers by itself (label columns, year, none): sent once per map and legend size
    choices = {} if is_overview(len(coords)) else colour_choices(
        frame, cheap_options(colour_options, list(info.labels), info.year), int(legend), info.year)
    # topics already computed for this corpus and k: both levels' colours and labels too (never computed here)
    known = None if not choices else known_topics(corpus, spec, int(k))
    version = map_key(corpus, coords, frame)
    levels = None if known is None else topic_choices(frame, known[0], known[1], coords, unit, int(legend), version)
    if choices:
        send_choices(frame, choices, "map", version, None if levels is None else (known[0].level, levels))
    # what is drawn and how, under the map: above it they pushed a phone's map below its first screen (600 px down)
    if is_overview(len(coords)):
        st.caption(f"{kind}: {overview_sentence(st.session_state[OVERVIEW]['map'])} {HOW} **Whole map** returns to "
                   "the overview.")
    else:
        st.caption(f"{kind}: drawing all **{len(coords):,}** {noun(len(coords), 'paper')} in your browser. "
                   f"{HOW} **Whole map** returns to the whole map.")
    spellings_caption(corpus, colour)  # one colour per journal, whatever its spellings
    if fitted is not None:
        st.caption(f"{method.upper()} fitted on a seeded sample of **{int(fitted.sum()):,}** papers; the other "
                   f"**{int((~fitted).sum()):,}** were placed at the weighted mean of their 10 most similar fitted "
                   f"papers, as a pasted paper (★) is.")
shown_topics = levels.get(topic_map.level) if levels and topic_map else None  # the browser's own, as sent
colours = choices.get(colour) or (shown_topics[0] if shown_topics else None) or colour_codes(
    colour_values, len(coords), int(legend), scale=bool(info.year) and colour == info.year)
ends = sorted({row for a, b, _ in lines for row in (a, b)})  # the lines' papers in the map's unit space, not all 1M
at = dict(zip(ends, unit.to_unit(coords[ends]).tolist())) if ends else {}
ring_rows = None if (m := marked(stable)) is None else np.flatnonzero(m)
map_state = {
    "name": f"{corpus}-{method}-map", "palette": colours.palette, "legend": colours.legend, "colour": colour,
    "labels": [] if topic_map is None else shown_topics[1] if shown_topics else topic_map.unit_labels(coords, unit),
    "level": topic_map.level if topic_map else None,
    "stars": [{"x": float(xy[0]), "y": float(xy[1]), "label": clipped(title, 120)}
              for point, title in query_points for xy in unit.to_unit(np.asarray(point).reshape(1, 2))],
    "lines": [[*at[a], *at[b], dashed] for a, b, dashed in lines],
}
link = {"corpus": corpus, "model": spec.name, "method": method, "colour": colour, "params": params, "k": int(k),
        "level": topic_map.level if topic_map else None}
quick_controls(DrawnMap(corpus, frame, coords, colours, map_state, ring_rows, in_front, link, open_row is not None,
                        view), highlight_box, years_box, map_box)  # Highlight, Years, Play: fragment runs
show_stable_controls(stable if final is not None else None, corpus, spec, method, params)  # new papers, re-fit, undo
# zooms: the session and the address bar, in a fragment of their own
watch_zoom(unit, reload=is_overview(len(coords)), view=view)
with side:
    side_panel(corpus, spec, frame, coords, unit, links=info.links, view=view, colour=colour,
               colour_values=colour_values, ranked=ranked)
if citations is not None:
    show_citations(citations)
topics_over_time(frame, colour_values, colour)
if not is_overview(len(coords)):  # the first highlight word then finds its text built (BENCHMARKS §31y)
    warm_highlight(frame)
