"""Journals: which journals fit an abstract, with probabilities and evidence papers; a corpus-wide check."""

from __future__ import annotations

import streamlit as st

from core.display import plural
from core.evaluation import (
    METHOD_NAMES,
    head_and_vote,
    head_temperature,
    journal_accuracy,
    measurably_better,
    method_summary,
    papers_measured,
    proportion_interval,
)
from core.evaluation.journal_finder import held_out_phrase
from core.explore import KNN_PRIOR_STRENGTH, KNN_TEMPERATURE, predict_journals, prediction_balance
from core.explore.search.similar import asked_like_a_title
from core.plots import journal_bar_figure, prediction_balance_figure
from core.records import md_escape
from ui import state
from ui.collection_filter import collection_choice
from ui.embedding import need_embeddings
from ui.errors import guarded
from ui.journal_balance import balance_table
from ui.journal_names import spellings_table
from ui.resources import encoder, papers_frame, store
from ui.sidebar import current_corpus, current_model, sticky, sticky_choice
from ui.tables import papers_table

st.title("Journals")
st.caption("Paste a title and abstract to see the journals that fit it best.")
corpus, spec = current_corpus(), current_model()
if not spec.has_head and not need_embeddings(corpus, spec):
    st.stop()
info = store().corpus(corpus) if corpus else None

# the page suggests journals from the corpus's journal field; another label only when the user names it so
journal = info.journal if info else None
targets = ([journal] if journal else []) + [c for c in (info.labels if info else []) if c != journal]
if corpus and not journal:
    st.info(f"Corpus **{md_escape(corpus)}** has no journal field, so this page cannot suggest journals"
            + (f"; it can suggest a value of one of its label columns instead ({md_escape(', '.join(targets))})."
               if targets else "; import papers with a journal (source title) column to use it."))
c1, c2 = st.columns([3, 1])
column = c1.selectbox("Suggest", targets, format_func=lambda c: "journals" if c == journal else f"a value of label {c}",
                      key=sticky_choice("journal_target", targets, targets[0] if targets else None),
                      help="Journals come from the corpus's journal field; the other choices suggest a value of a "
                           "label column, named as such.") if targets else None
k = c2.number_input("Suggestions", 1, 20, key=sticky("journal_k", 5))  # kept across pages, as the text is
what = "journals" if column is not None and column == journal else f"values of {md_escape(column)}"

# a trained head and the neighbour vote, measured on the same papers: the higher top-5 is the default
has_head = spec.has_head and column is not None and column == spec.label_column
measured = guarded(head_and_vote, store(), corpus, spec, column) if has_head and corpus else None
method = None
if measured:
    methods = ["head", "knn"]
    method = st.radio("Suggest with", methods, horizontal=True,
                      format_func=lambda m: METHOD_NAMES[m] + (
                          (f" (better on {papers_measured(measured)})" if measurably_better(measured)
                           else " (higher top-5, not measurably better)") if m == measured["best"] else ""),
                      key=sticky_choice(f"journal_method_{spec.name}", methods, measured["best"]),
                      help=f"Both were measured on the same {papers_measured(measured)}; the higher top-5 is the "
                           "default, and called better only when the paired difference's 95 % interval excludes 0.")
    st.caption(f"Measured on {papers_measured(measured)} of **{md_escape(corpus)}**: "
               f"{md_escape(method_summary(measured, 'head'))}"
               f"; {md_escape(method_summary(measured, 'knn'))}. Top-5 difference (head − vote): "
               f"{100 * measured['difference']['change']:+.1f} points (95 % interval "
               f"{100 * measured['difference']['low']:+.1f} to {100 * measured['difference']['high']:+.1f}).")
elif has_head and corpus:
    st.caption(f"Only the trained head can answer until **{md_escape(corpus)}** is embedded with "
               f"**{md_escape(spec.name)}**; then the page measures it against the neighbour vote on its "
               "held-out test papers (else a sample) and uses the one with the higher top-5.")

collection = collection_choice(corpus, "journal_collection", "the vote to the nearest papers of that collection "
                               "(the trained head cannot be limited)") if corpus and column else None
if collection is not None:
    method = "knn"
    st.caption(f"Suggestions from the similarity-weighted vote of the nearest papers in collection "
               f"**{md_escape(collection[0])}** ({plural(len(collection[1]), 'paper')}). The accuracies measured above "
               f"are for the whole corpus, not for this collection.")
title = st.text_input("Title", key=sticky("journal_title"))
abstract = st.text_area("Abstract", key=sticky("journal_abstract"), height=180)
inputs = {"title": title, "abstract": abstract, "column": column, "k": int(k), "method": method,
          "collection": collection[0] if collection else None}
if st.button(f"Suggest {what}" if column else "Suggest journals", type="primary", key="suggest_button"):
    state.forget(state.JOURNALS)
    ready = corpus is not None and column is not None
    made = guarded(predict_journals, store(), spec, title=title, abstract=abstract, corpus=corpus if ready else None,
                   label_column=column, k=int(k), encoder=encoder(spec),
                   frame=papers_frame(corpus) if ready else None, method=method,
                   within=collection[1] if collection else None)
    if made is not None:
        state.keep(state.JOURNALS, state.Answer(corpus, spec.name, inputs, made))

# a suggestion is shown only under the corpus, model and inputs it was made for
answer = state.kept(state.JOURNALS, corpus, spec.name)
if answer is not None and answer.inputs != inputs:
    st.caption(f"The title, abstract or settings changed: press **Suggest {what}** for new suggestions.")
pred = answer.value if answer is not None and answer.inputs == inputs else None
if pred is not None:
    if pred.warning:
        st.warning(pred.warning)
    column_name = md_escape(pred.label_column)
    if pred.method == "head":
        temperature = head_temperature(spec)
        st.info(f"Probabilities from the trained journal head of **{md_escape(pred.model)}**"
                + (f", calibrated on its validation papers (temperature {temperature:.2f})." if temperature else
                   ", not calibrated: it was trained before heads were calibrated, so its percentages may be "
                   "surer than it is right; train it again to calibrate them."))
        if pred.nearest:
            st.caption(f"Beside each journal: how many of the {pred.nearest} nearest corpus papers carry it.")
    elif measured:
        st.info(f"A similarity-weighted vote of the {pred.nearest} nearest papers' **{column_name}** in "
                f"**{md_escape(corpus)}**, chosen above instead of the trained head.")
    else:
        why = (f"has a head for **{md_escape(spec.label_column)}**, not for **{column_name}**"
               if spec.has_head else "has no trained journal head")
        st.info(f"**{md_escape(pred.model)}** {why}, so these are a similarity-weighted vote "
                f"of the {pred.nearest} nearest papers' **{column_name}** in **{md_escape(corpus)}**.")
        st.caption(f"A calibrated vote with a prior: the nearest paper counts as one vote, a paper "
                   f"{KNN_TEMPERATURE:g} less similar as about a third of one, and {KNN_PRIOR_STRENGTH:g} extra "
                   f"votes are shared among all values of {column_name} by their size in the corpus, so one paper "
                   f"alone gives little more than {1 / (1 + KNN_PRIOR_STRENGTH):.0%}. On held-out arXiv papers "
                   "these probabilities match how often the top journal is right (BENCHMARKS.md, journal "
                   "calibration).")
    # a query without an abstract is measured as one: held-out papers asked by their titles alone (journals-title)
    title_only = asked_like_a_title(title, abstract)
    with st.spinner("Measuring how often suggestions from a title alone are right (once per corpus and model)…"
                    if title_only else "Measuring how often the suggestions are right (once per corpus and model)…"):
        found = (journal_accuracy(store(), corpus, spec.name, pred.label_column, pred.method, title_only=title_only)
                 if corpus and (not measured or title_only) else None)
    if measured and not title_only:
        st.success(f"How often it is right: {md_escape(method_summary(measured, pred.method))}.")
    elif found and "unmeasured" in found:  # a percentage without a measured accuracy must say so
        st.info(f"How often it is right is not measured on **{md_escape(corpus)}**: "
                f"{md_escape(found['unmeasured'])}. Its percentages are unchecked on held-out papers of this "
                "corpus.")
    elif found:
        def interval(share: float) -> str:  # every figure with its 95 % interval over the same papers
            band = proportion_interval(share / 100 * found["papers"], int(found["papers"]))
            return f" (95 % interval {100 * band[0]:.0f}–{100 * band[1]:.0f} %)" if band else ""
        baseline = (f"; a BM25 text search, as JANE-style finders use, {found['bm25']:.0f} %"
                    f"{interval(found['bm25'])}") if found["bm25"] is not None else ""
        where = held_out_phrase(int(found["papers"]), found.get("left_out", 0), f" of **{md_escape(corpus)}**")
        st.success(f"How often it is right: on {where}, "
                   f"each queried by {found['queried_by']}, the true {column_name} is among the top 5 "
                   f"suggestions **{found['top5']:.0f} %** of the time"
                   f"{interval(found['top5'])}{baseline} (Evaluate page, task *{found['task']}*).")
    if pred.disagreement:
        st.warning(pred.disagreement)
    if pred.note:
        st.caption(md_escape(pred.note))
    labels = [p["label"] for p in pred.predictions]
    probs = [p["probability"] for p in pred.predictions]
    st.plotly_chart(journal_bar_figure(labels, probs), width="stretch", key="journal_bars")
    for p in pred.predictions:
        evidence = (f" · {p['neighbours']} of {pred.nearest} nearest papers ({p['weight_share']:.0%} of the vote)"
                    if pred.nearest else "")
        with st.expander(f"{md_escape(p['label'])} — {p['probability']:.1%}{evidence}",
                         expanded=p is pred.predictions[0]):
            if p["evidence_papers"]:
                st.caption(f"The nearest papers of the corpus from {md_escape(p['label'])}:")
                papers_table(p["evidence_papers"], ["score", "title", "year"])
            else:
                st.caption("No nearby corpus paper from this journal.")

if corpus and journal:
    spellings_table(corpus)  # the journals exported under several spellings, shown under one name

if corpus and column:
    st.divider()
    st.subheader("Corpus-wide check")
    st.caption("How often each journal is predicted (leave-one-out) versus how often it really occurs: a journal "
               "whose predicted bar towers over its actual bar swallows papers that belong elsewhere.")
    if st.button("Run the check"):
        with st.spinner("Predicting a sample of the corpus…"):
            table = guarded(prediction_balance, store(), corpus, spec, column)
        if table is not None:
            state.keep(state.BALANCE, state.Answer(corpus, spec.name, {"column": column}, table))
    balance = state.kept(state.BALANCE, corpus, spec.name, {"column": column})
    if balance is not None:
        table = balance.value
        st.plotly_chart(prediction_balance_figure(table.head(25)), width="stretch", key="balance_chart")
        balance_table(table, corpus, "journal" if column == journal else column)
