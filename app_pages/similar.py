"""Similar papers: type a few words or paste a title and abstract (words and meaning fused), or pick a corpus paper."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.display import clipped
from core.explore import citation_relation, hybrid_search, paper_citations, similar_papers
from core.explore.search.authors import matching_authors
from core.explore.search.hybrid import NO_PAPER_PASSES
from core.records import md_escape
from ui import state
from ui.collection_add import add_to_collection
from ui.collection_filter import collection_choice
from ui.embedding import need_embeddings
from ui.errors import guarded
from ui.export_menu import export_menu
from ui.figures_view import ranked_figures, show_figures, summaries
from ui.resources import encoder, papers_frame, store
from ui.search_view import highlighted, why_line, why_plain
from ui.sidebar import current_corpus, current_model, sticky
from ui.tables import papers_table, show_citations

SEARCH_NOW = "similar_search_now"  # set by Enter in the Title box (or leaving it changed): search on this run

st.title("Similar papers")
corpus, spec = current_corpus(), current_model()
if not need_embeddings(corpus, spec):
    st.stop()
frame = papers_frame(corpus)
info = store().corpus(corpus)

mode = st.radio("Query", ["Paste a title and abstract", "Pick a paper from the corpus"], horizontal=True,
                label_visibility="collapsed", key=sticky("similar_mode"))
paper_id = None
title = abstract = ""
if mode == "Paste a title and abstract":
    title = st.text_input("Title", key=sticky("similar_title"),
                          placeholder="A few words, or the title of a paper (Enter searches)",
                          on_change=state.ask_now, args=(SEARCH_NOW,),
                          help='Words are matched in titles and abstracts (any inflection); "quoted phrases" must '
                               "occur as written. Papers close in meaning are found too. Enter searches at once; "
                               "with an abstract, press Find similar papers.")
    abstract = st.text_area("Abstract", key=sticky("similar_abstract"), height=180,
                            placeholder="Paste the abstract here (optional)")
else:
    key = sticky(f"similar_paper_{corpus}")
    if st.session_state.get(key) not in frame.index:  # a row the corpus no longer has
        st.session_state.pop(key, None)
    choice = st.selectbox("Paper", frame.index, format_func=lambda i: clipped(frame.at[i, "title"], 140),
                          help="Type to search titles.", key=key)
    paper_id = str(frame.at[choice, "id"])
    if info.links:
        with st.expander("Its citations in this corpus"):
            show_citations(paper_citations(store(), corpus, paper_id, frame))

with st.expander("Filters and number of results"):
    k = st.slider("Results (k)", 1, 100, key=sticky("similar_k", 10))
    filters = {}
    for column in info.labels[:3]:
        if column == "year":
            continue
        values = sorted(frame[column].dropna().astype(str).unique().tolist())
        key = sticky(f"filter_{corpus}_{column}")
        if key in st.session_state:  # drop kept choices the corpus no longer has
            st.session_state[key] = [v for v in st.session_state[key] if v in values]
        filters[column] = st.multiselect(f"Only {md_escape(column)}", values, key=key, filter_mode="contains",
                                         help="Type part of a name: the list keeps the names that contain it, so "
                                              "'Select all matches' selects only those.")
    if "authors" in frame.columns:  # part of a name: the papers whose author list holds a name that matches
        author = st.text_input("Only papers by", key=sticky(f"similar_author_{corpus}"),
                               placeholder="part of an author's name, e.g. Smith J",
                               help="Each word must begin a word of the author's name (any order, case or accents).")
        if author.strip():
            filters["authors"] = matching_authors(frame, author) or [author.strip()]  # no such name: no paper
    collection = collection_choice(corpus, "similar_collection", "the results")
    if collection is not None:
        filters["id"] = collection[1]
    year_range = None
    if "year" in frame.columns:
        years = pd.to_numeric(frame["year"], errors="coerce").dropna()
        if len(years) and years.min() < years.max():
            lo, hi = int(years.min()), int(years.max())
            key = sticky(f"similar_years_{corpus}")
            kept_years = st.session_state.get(key)
            if kept_years is not None and not (lo <= kept_years[0] <= kept_years[1] <= hi):
                del st.session_state[key]
            chosen = st.slider("Years", lo, hi, (lo, hi) if key not in st.session_state else None, key=key)
            year_range = chosen if chosen != (lo, hi) else None

# What the results on screen must belong to: a result made from other inputs is never shown.
inputs = {"mode": mode, "title": title, "abstract": abstract, "paper": paper_id, "k": k, "filters": filters,
          "years": year_range, "collection": collection[0] if collection else None}
typed = st.session_state.pop(SEARCH_NOW, False) and bool(title.strip())  # Enter in Title: people type and press it
if st.button("Find similar papers", type="primary") or typed:
    state.forget(state.SIMILAR)
    if paper_id is not None:
        found = guarded(similar_papers, store(), corpus, spec, paper_id=paper_id, k=k, filters=filters,
                        year_range=year_range, encoder=encoder(spec), frame=frame)
    else:  # words and meaning: any text from one word to a pasted abstract
        found = guarded(hybrid_search, store(), corpus, spec, abstract, title=title, k=k, filters=filters,
                        year_range=year_range, encoder=encoder(spec), frame=frame)
    if found is not None:
        state.keep(state.SIMILAR, state.Answer(corpus, spec.name, inputs, found))
    if found is not None and (found.results or not getattr(found, "notice", None)):  # a DOI no paper has: no ★
        st.session_state[state.MAP_QUERY] = state.MapQuery(corpus, spec.name, found.vector.tolist(),
                                                           found.query.get("title") or "your paper")
    elif found is not None:
        st.session_state.pop(state.MAP_QUERY, None)  # nor is the ★ of the search before it

answer = state.kept(state.SIMILAR, corpus, spec.name)
if answer is not None and answer.inputs != inputs:
    st.caption("The query or its settings changed: press **Find similar papers** for new results.")
elif answer is not None:
    result = answer.value
    if result.warning:
        st.warning(result.warning)
    notice = getattr(result, "notice", None)
    if notice and notice != NO_PAPER_PASSES:
        st.info(md_escape(notice[:1].upper() + notice[1:]) + ".")
    if not result.results and (not notice or notice == NO_PAPER_PASSES):  # else the notice says why there are none
        st.info("No paper passes the filters" + (f" (collection **{md_escape(answer.inputs['collection'])}**)"
                                                 if answer.inputs.get("collection") else "") + ".")
    elif result.results:
        ranked = ranked_figures(corpus, spec, [str(r["id"]) for r in result.results])
        rows = [dict(r, figure=f) for r, f in zip(result.results, summaries(ranked, [r["id"] for r in result.results]))]
        tie = []
        if info.links and answer.inputs.get("paper"):  # does each result cite the query paper, or is it cited by it?
            ties = citation_relation(store(), corpus, answer.inputs["paper"], [str(r["id"]) for r in rows])
            rows = [dict(r, citation=t) for r, t in zip(rows, ties)]
            tie = ["citation"]
        if any(r.get("why") for r in rows):
            rows = [dict(r, why=why_plain(r)) for r in rows]
            tie = [*tie, "why"]
        by = ["authors"] if answer.inputs["filters"].get("authors") else []  # whose name matched, beside each
        papers_table(rows, ["rank", "score", "title", *tie, *(["figure"] if ranked else []), *by, "journal",
                            *info.labels[:3], "year"])
        st.caption("Your query is placed on the **Domain map** among its neighbours (a ★).")
        st.page_link("app_pages/map.py", label="See it on the map", icon=":material/scatter_plot:")
        for item in result.results:
            with st.expander(f"{item['rank']}. {md_escape(item['title'])}  ·  {item['score']:.3f}"):
                show_figures(ranked.get(str(item["id"])))
                words = (item.get("why") or {}).get("words") or []
                if words:  # the query's words in bold; the data text escaped first
                    st.caption(why_line(item))
                    st.markdown(highlighted(item["title"], words))
                    st.markdown(highlighted(item.get("abstract") or "", words))
                else:
                    if item.get("why"):
                        st.caption(why_line(item))
                    st.text(item.get("abstract") or "(title only: imported without an abstract)")
        with st.expander(f"Save these {len(rows)} results as a collection"):  # after the results, which come first
            add_to_collection(corpus, [str(r["id"]) for r in rows], key="similar_collect", what="search results")
        with st.expander(f"Export these {len(rows)} results"):  # formulas neutralised (Streamlit's table CSV is off)
            export_menu(corpus, [str(r["id"]) for r in rows], "similar", key="similar_export")
