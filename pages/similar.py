"""Similar papers: paste a title and abstract (or pick a corpus paper) and get its nearest papers."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.records import md_escape

from core.search import similar_papers
from pages.common import (
    current_corpus, current_model, encoder, guarded, need_embeddings, papers_frame, papers_table, store,
)

st.title("Similar papers")
corpus, spec = current_corpus(), current_model()
if not need_embeddings(corpus, spec):
    st.stop()
frame = papers_frame(corpus)
info = store().corpus(corpus)

mode = st.radio("Query", ["Paste a title and abstract", "Pick a paper from the corpus"], horizontal=True,
                label_visibility="collapsed")
paper_id = None
title = abstract = ""
if mode == "Paste a title and abstract":
    title = st.text_input("Title", key="similar_title", placeholder="Title of the paper")
    abstract = st.text_area("Abstract", key="similar_abstract", height=180, placeholder="Paste the abstract here")
else:
    choice = st.selectbox("Paper", frame.index, format_func=lambda i: str(frame.at[i, "title"])[:140],
                          help="Type to search titles.")
    paper_id = str(frame.at[choice, "id"])

with st.expander("Filters and number of results"):
    k = st.slider("Results (k)", 1, 100, 10)
    filters = {}
    for column in info.labels[:3]:
        if column == "year":
            continue
        values = sorted(frame[column].dropna().astype(str).unique().tolist())
        filters[column] = st.multiselect(f"Only {column}", values, key=f"filter_{column}")
    year_range = None
    if "year" in frame.columns:
        years = pd.to_numeric(frame["year"], errors="coerce").dropna()
        if len(years) and years.min() < years.max():
            lo, hi = int(years.min()), int(years.max())
            chosen = st.slider("Years", lo, hi, (lo, hi))
            year_range = chosen if chosen != (lo, hi) else None

if st.button("Find similar papers", type="primary"):
    result = guarded(similar_papers, store(), corpus, spec, title=title, abstract=abstract, paper_id=paper_id, k=k,
                     filters=filters, year_range=year_range, encoder=encoder(spec), frame=frame)
    if result is not None:
        st.session_state["similar_result"] = result
        st.session_state["map_query"] = {"corpus": corpus, "model": spec.name, "vector": result.vector.tolist(),
                                         "title": result.query.get("title") or "your paper"}

result = st.session_state.get("similar_result")
if result is not None:
    if result.warning:
        st.warning(result.warning)
    if not result.results:
        st.info("No paper passes the filters.")
    else:
        papers_table(result.results, ["rank", "score", "title", "journal", *info.labels[:3], "year"])
        st.caption("Your query is placed on the **Domain map** among its neighbours (a ★).")
        st.page_link("pages/map.py", label="See it on the map", icon=":material/scatter_plot:")
        for item in result.results:
            with st.expander(f"{item['rank']}. {md_escape(item['title'])}  ·  {item['score']:.3f}"):
                st.text(item.get("abstract") or "")
