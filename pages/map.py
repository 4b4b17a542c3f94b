"""Domain map: UMAP / t-SNE / PCA of a corpus, coloured by label, cluster or predicted journal."""

from __future__ import annotations

import time

import numpy as np
import streamlit as st

from core.demo import DEMO_CORPUS
from core.explore import (
    DEFAULT_PARAMS,
    cached_map,
    cluster_centres_2d,
    cluster_names,
    highlight_mask,
    hover_frame,
    kmeans,
    map_coordinates,
    map_fitted,
    place_points,
    start_map,
)
from core.labels import default_label_column
from core.plots import export_html, map_figure, selected_rows
from core.records import md_escape
from pages import state
from pages.common import (
    current_corpus,
    current_model,
    embeddings,
    guarded,
    need_embeddings,
    papers_frame,
    show_error,
    store,
)

st.title("Domain map")
corpus, spec = current_corpus(), current_model()
if corpus == DEMO_CORPUS and state.SEEN_DEMO_NOTE not in st.session_state:
    st.info(f"You are exploring the demo corpus **{DEMO_CORPUS}** (real PubMed records) with the packaged model "
            f"**{spec.name}**. Load your own papers on the **Library** page.")
    st.session_state[state.SEEN_DEMO_NOTE] = True
if not need_embeddings(corpus, spec):
    st.stop()

frame = papers_frame(corpus)
info = store().corpus(corpus)

colour_options = list(info.labels) + ["k-means cluster", "predicted journal", "(none)"]
d1, d2, d3 = st.columns([3, 4, 2], vertical_alignment="bottom")
colour = d1.selectbox("Colour by", colour_options, help="Any label column, clusters, or predicted journal.")
query = d2.text_input("Highlight papers matching", placeholder="e.g. malaria, transformer, 10.1103/…",
                      help="Case-insensitive match in title, abstract or any column.")
with d3.popover("Map settings", icon=":material/tune:", width="stretch"):
    method = st.selectbox("Method", ["umap", "tsne", "pca"], format_func=str.upper, key="map_method",
                          help="UMAP keeps local and global structure; t-SNE local only; PCA is instant but coarse.")
    params: dict = {}
    if method == "umap":
        params["n_neighbors"] = st.slider("Neighbours", 5, 100, DEFAULT_PARAMS["umap"]["n_neighbors"],
                                          help="Small values show fine local groups, large values the big picture.")
        params["min_dist"] = st.slider("Min distance", 0.0, 0.99, float(DEFAULT_PARAMS["umap"]["min_dist"]), 0.05,
                                       help="How tightly points may pack together.")
    elif method == "tsne":
        params["perplexity"] = st.slider("Perplexity", 5, 100, int(DEFAULT_PARAMS["tsne"]["perplexity"]),
                                         help="Roughly the number of neighbours each point pays attention to.")
    k = st.number_input("Clusters (k)", 2, 200, 12, disabled=colour != "k-means cluster",
                        help="How many k-means clusters when colouring by cluster.")
    legend = st.number_input("Legend entries", 1, 60, 12, key="map_legend",
                             help="The most frequent labels get their own colour; the rest are drawn grey as "
                                  "'other' (hover cards always show the real label). Click a legend entry to hide it.")

final = guarded(cached_map, store(), corpus, spec, method, params)
background = None
if final is None and method != "pca":
    # Preview first: PCA takes under a second even at 200k papers; the chosen map follows in the background.
    background = guarded(start_map, store(), corpus, spec, method, params)
    if background is None:
        st.stop()
    if background.done and not background.error:
        final = guarded(cached_map, store(), corpus, spec, method, params)
if final is None:  # the PCA map itself, or the preview of a map still being computed
    with st.spinner("Computing the PCA map…"):
        result = guarded(map_coordinates, store(), corpus, spec, "pca", {})
    if result is None:
        st.stop()
    coords = result[0]
    if method == "pca":
        final = coords
else:
    coords = final

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
colour_values, cluster_text = None, None
if colour == "k-means cluster":
    labels = kmeans(np.asarray(vectors), int(k))
    names = cluster_names((frame["title"].fillna("") + ". " + frame["abstract"].fillna("")).tolist(), labels)
    colour_values = [names[c] for c in labels]
    cluster_text = {names[c]: xy for c, xy in cluster_centres_2d(coords, labels).items()}
elif colour == "predicted journal":
    from core.explore import predict_corpus_labels

    column = spec.label_column or default_label_column(info.labels) or ""
    if not column and not spec.has_head:
        st.warning("This corpus has no label column to vote with, and the model has no journal head.")
    else:
        with st.spinner("Predicting journals…"):
            colour_values = guarded(predict_corpus_labels, store(), corpus, spec, column)
elif colour != "(none)":
    colour_values = frame[colour].tolist()

highlight = None
if query.strip():
    highlight = highlight_mask(frame, query)
    st.caption(f"{int(highlight.sum()):,} papers match “{md_escape(query.strip())}”.")

query_points, query_labels = None, None
placed = st.session_state.get(state.MAP_QUERY)
if isinstance(placed, state.MapQuery) and (placed.corpus, placed.model) == (corpus, spec.name):
    query_points = place_points(coords, np.asarray(vectors), np.asarray([placed.vector], dtype=np.float32))
    query_labels = [placed.title]

hover = hover_frame(frame).drop(columns=[colour], errors="ignore")  # the colour label is already on the card
fig = map_figure(coords, color=colour_values, color_name=colour, hover=hover, highlight=highlight,
                 query_points=query_points, query_labels=query_labels, cluster_labels=cluster_text,
                 max_legend=int(legend))
shown = fig.layout.meta or {"drawn": len(coords), "total": len(coords)}
kind = "PCA preview" if final is None else method.upper()
if shown["drawn"] < shown["total"]:
    st.caption(f"{kind}: drawing **{shown['drawn']:,} of {shown['total']:,}** papers, a random sample (every "
               f"highlighted paper kept): more points than a browser map stays responsive with. Highlight, "
               f"search or export to reach the others.")
else:
    st.caption(f"{kind}: drawing all **{len(coords):,}** papers (WebGL). Drag to lasso-select; double-click to "
               f"reset the zoom.")
fitted = guarded(map_fitted, store(), corpus, spec, method, params) if final is not None else None
if fitted is not None:
    st.caption(f"{method.upper()} fitted on a seeded sample of **{int(fitted.sum()):,}** papers; the other "
               f"**{int((~fitted).sum()):,}** were placed at the weighted mean of their 10 most similar fitted "
               f"papers, as a pasted paper (★) is.")
event = st.plotly_chart(fig, width="stretch", on_select="rerun", selection_mode=("points", "box", "lasso"),
                        key="corpus_map", config={"toImageButtonOptions": {"format": "png", "filename": f"{corpus}-map",
                                                                           "scale": 2}, "displaylogo": False})

selected = selected_rows(event.selection) if event and event.selection else np.array([], dtype=int)
c1, c2 = st.columns(2)
c1.download_button("Export map (HTML)", export_html(fig).encode("utf-8"), file_name=f"{corpus}-{method}-map.html",
                   mime="text/html", help="A standalone interactive file; use the camera icon on the map for PNG.")
if len(selected):
    chosen = frame.iloc[selected].copy()
    chosen.insert(0, "x", coords[chosen.index, 0])
    chosen.insert(1, "y", coords[chosen.index, 1])
    st.subheader(f"{len(chosen):,} selected papers")
    st.dataframe(chosen.drop(columns=["abstract"]), width="stretch", hide_index=True)
    c2.download_button("Export selection (CSV)", chosen.to_csv(index=False).encode("utf-8"),
                       file_name=f"{corpus}-selection.csv", mime="text/csv")
else:
    st.caption("Select points with the lasso or box tool to list them here.")
