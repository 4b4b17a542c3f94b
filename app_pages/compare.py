"""Compare models: one corpus's maps under two models side by side (B aligned onto A), the papers whose
neighbourhood changed most, and the two models' evaluation figures. Logic: core.explore.compare."""

from __future__ import annotations

import time
from functools import partial

import numpy as np
import streamlit as st

from core.display import clipped
from core.embedding import get_model, list_models, vectors_fingerprint
from core.embedding.hub import needs_hub
from core.evaluation import (
    QUICK_SAMPLE,
    QUICK_TASKS,
    SharedSample,
    evaluation_figures,
    held_out_papers,
    shared_sample,
)
from core.evaluation.job import EvaluateConfig
from core.evaluation.report import CITE_NOTE
from core.explore import DEFAULT_PARAMS
from core.explore.compare import (
    NEIGHBOURS,
    align_maps,
    change_summary,
    default_partner,
    map_or_preview,
    moved_papers,
    neighbour_ranks,
    neighbourhood_scores,
    paper_neighbours,
    usable,
)
from core.labels import default_label_column
from core.plots.map_data import colour_codes, highlight_bits
from core.records import md_escape
from ui.embedding import need_embeddings
from ui.errors import guarded, show_error
from ui.jobs import running_evaluation, start_job, start_map, watch_job
from ui.map.component import MapEvents, linked_events, push_state, show_map
from ui.resources import hub_reachable, papers_frame, settings, store
from ui.shared_view import link_problems, write_link
from ui.sidebar import current_corpus, current_model, sticky
from ui.table_download import table_download
from ui.views import METHODS

SELECTED = "compare_selected"  # ids of the papers highlighted in both maps
SELECTED_IN = "compare_selected_corpus"  # the corpus those ids belong to
TABLE_ROUND = "compare_table_round"  # bumped to clear the table's own check marks when a map selection takes over
SIDEBAR_SEEN = "_compare_sidebar_model"
EVALUATING = "compare_evaluation_running"  # the id of the evaluation job this page follows (ui.jobs)
EVALUATED = "compare_evaluated"  # its duration, said once after it ends
MAX_TABLE = 1000
HUBS = ("compare_a", "compare_b")  # the two map instances' registry entries (a hover in one rings the paper in both)
MAP_HEIGHT = 480  # px


def pick_from_map(events: MapEvents, corpus: str, ids: list[str]) -> None:
    """A click (one paper) or a box/lasso selection in one map becomes the highlight of both."""
    rows = [events.clicked] if events.clicked is not None else events.selected
    if rows is None:
        return
    st.session_state[SELECTED], st.session_state[SELECTED_IN] = [ids[i] for i in rows if 0 <= i < len(ids)], corpus
    st.session_state[TABLE_ROUND] = st.session_state.get(TABLE_ROUND, 0) + 1


def pick_from_table(key: str, corpus: str, ids: list[str]) -> None:
    """Rows checked in the moved-papers table become the highlight of both maps."""
    event = st.session_state.get(key)
    rows = event.selection.rows if event and event.get("selection") else []
    st.session_state[SELECTED], st.session_state[SELECTED_IN] = [ids[i] for i in rows if i < len(ids)], corpus


def quick_evaluation(corpus: str, label: str, model: str, shared: SharedSample | None,
                     held: tuple[str, list[str]] | None = None) -> None:
    """The Evaluate page's default protocols for one model, as a job of the workspace (the page stays usable; every tab
    and a reload see it; while an evaluation of this corpus runs, a click follows that one instead of starting a
    second); its progress shows at the top of the page until the figures replace it. On the papers of the other
    model's stored evaluation when there is one (`shared`): two columns of figures on different papers compare
    nothing. Without one, on a fine-tuned model's held-out test papers (`held`) when either model has them: a random
    sample would hold its training papers."""
    if (other := running_evaluation(corpus)) is not None:
        st.session_state[EVALUATING] = other
        st.info("An evaluation of this corpus is already running; its figures appear here when it is done.")
        return
    conf = settings()
    sample, seed, papers = (shared.sample, shared.seed, shared.papers) if shared else \
        (QUICK_SAMPLE, 0, held[1] if held else None)
    start_job(EVALUATING, EvaluateConfig(corpus, label, [model], list(QUICK_TASKS), sample, seed, papers,
                                         conf.device, conf.batch_size))


@st.cache_data(show_spinner=False, max_entries=32)
def papers_of_partner(workspace: str, corpus: str, version: int, label: str, partners: tuple[str, ...],
                      newest: str | None) -> SharedSample | None:
    """shared_sample, once per stored evaluation (`newest`: the newest one's key): it draws the sample again, ~0.4 s
    on 3,000 papers, and this page reruns on every map gesture."""
    return shared_sample(store(), corpus, label, list(partners))


def evaluate_help(corpus: str, label: str, model: str, shared: SharedSample | None,
                  held: tuple[str, list[str]] | None = None) -> str:
    """What the Evaluate button runs, on which papers, and the shell command that runs the same."""
    sample, seed = (shared.sample, shared.seed) if shared else (QUICK_SAMPLE, 0)
    where = (f"on the same {shared.n:,} papers (seed {seed}) as the stored evaluation of {md_escape(shared.model)}, "
             "so that the two columns compare" if shared else
             f"on the {len(held[1]):,} held-out test papers of {md_escape(held[0])} (never trained on)" if held else
             f"on up to {QUICK_SAMPLE:,} papers")
    shell = (" (the held-out test papers: --held-out with the fine-tuned model first)"
             if (shared and shared.papers) or (not shared and held) else "")
    return (f"The Evaluate page's quick protocols ({', '.join(QUICK_TASKS)}) {where}, usually under a minute. From a "
            "shell: " + md_escape(f"python -m core evaluate --corpus {corpus} --label {label} --models {model} "
                                  f"--sample {sample} --seed {seed}") + shell)


def evaluated(job: dict, seconds: float) -> None:
    """Say how long the evaluation took: the whole wait, model load included."""
    st.session_state[EVALUATED] = f"Evaluated {', '.join(job['config']['models'])} in {seconds:.1f} s."


st.title("Compare models")
# Everything that comes and goes above the maps (warnings, a progress bar) lives in `top`, so the maps' place on the
# page never moves: a moved element is remounted, and both maps would be drawn again from scratch.
top = st.container()
with top:
    for problem in link_problems():
        st.warning(problem)
    # a model's quick evaluation (started from the panel below, in another tab or by the CLI): its bar, then its figures
    watch_job(EVALUATING, evaluated, adopt=lambda: running_evaluation(current_corpus() or ""))
    if message := st.session_state.pop(EVALUATED, None):
        st.success(md_escape(message))
corpus = current_corpus()
if corpus is None:
    st.info("Import a corpus on the **Library** page first.")
    st.page_link("app_pages/library.py", label="Go to the Library", icon=":material/library_books:")
    st.stop()
s = store()
info = s.corpus(corpus)
specs = [m for m in list_models(s) if usable(m)]
names = [m.name for m in specs]
current = current_model().name
if len(names) < 2:
    st.info("Only one model is available here: install or fine-tune another one (Train page) to compare.")
    st.stop()
# a hub model this machine cannot load is no partner unless the corpus has its vectors already (offline, the demo's
# other models all need the hub: B was scibert, with an Embed button that could only fail)
embedded = set(s.embedded_models(corpus))
unavailable = {m.name for m in specs if needs_hub(m, hub_reachable()) and vectors_fingerprint(m) not in embedded}
loadable = [n for n in names if n not in unavailable]
if len(loadable) < 2:
    st.info(f"Only **{md_escape(loadable[0] if loadable else current)}** can be compared here: the other models "
            f"({md_escape(', '.join(sorted(unavailable - set(loadable[:1]))))}) need the Hugging Face hub, which this "
            "machine cannot reach. Fine-tune a model on the **Train** page, or install one, to compare two.")
    st.stop()

for key in ("compare_a", "compare_b", "compare_method", "compare_colour"):
    sticky(key)
if st.session_state.get(SIDEBAR_SEEN) not in (None, current) or st.session_state.get("compare_a") not in names:
    before = st.session_state.get("compare_a")
    st.session_state["compare_a"] = current if current in names else names[0]  # A follows the sidebar's model
    if st.session_state.get("compare_b") == st.session_state["compare_a"] and before in names:
        st.session_state["compare_b"] = before  # the sidebar chose B's model: the two swap
st.session_state[SIDEBAR_SEEN] = current
if st.session_state.get("compare_b") not in names:
    partner = default_partner([m for m in specs if m.name in loadable], st.session_state["compare_a"],
                              lambda m: vectors_fingerprint(m) in embedded)
    st.session_state["compare_b"] = partner or next(n for n in loadable if n != st.session_state["compare_a"])
colours = [*info.labels, "(none)"]
if st.session_state.get("compare_colour") not in colours:
    wanted = st.session_state.get("map_colour")  # the Domain map's colour when it is a label column
    st.session_state["compare_colour"] = wanted if wanted in colours else default_label_column(colours[:-1]) or "(none)"
if st.session_state.get("compare_method") not in METHODS:
    wanted = st.session_state.get("map_method")
    st.session_state["compare_method"] = wanted if wanted in METHODS else "umap"

c1, c2, c3, c4 = st.columns([3, 3, 3, 2], vertical_alignment="bottom")
name_a = c1.selectbox("Model A", names, key="compare_a", help="The reference: model B's map is turned onto this one.")
name_b = c2.selectbox("Model B", names, key="compare_b",
                      help="Default: a model fine-tuned from A (or A's base), else another model with vectors.")
colour = c3.selectbox("Colour by", colours, key="compare_colour", help="A label column, as on the Domain map.")
method = c4.selectbox("Method", list(METHODS), key="compare_method", format_func=str.upper,
                      help="The maps' method; its settings are the Domain map's.")
if name_a == name_b:
    st.info("Choose two different models to compare.")
    st.stop()
spec_a, spec_b = get_model(name_a, s), get_model(name_b, s)
with top:
    ready = [need_embeddings(corpus, spec) for spec in (spec_a, spec_b)]  # each: one sentence + an Embed button
if not all(ready):
    st.stop()

params: dict = {}
if method == "umap":
    params = {"n_neighbors": st.session_state.get("map_n_neighbors", DEFAULT_PARAMS["umap"]["n_neighbors"]),
              "min_dist": float(st.session_state.get("map_min_dist", DEFAULT_PARAMS["umap"]["min_dist"]))}
elif method == "tsne":
    params = {"perplexity": st.session_state.get("map_perplexity", int(DEFAULT_PARAMS["tsne"]["perplexity"]))}
write_link(corpus=corpus, model=name_a, method=method, colour=colour if colour != "(none)" else None,
           compare=name_b, params=params)

with top, st.spinner("Loading both maps…"):
    maps = [guarded(map_or_preview, s, corpus, spec, method, params, start_map) for spec in (spec_a, spec_b)]
with top, st.spinner(f"Comparing each paper's {NEIGHBOURS} nearest neighbours under both models…"):
    scores = guarded(neighbourhood_scores, s, corpus, spec_a, spec_b, NEIGHBOURS)
if any(m is None for m in maps) or scores is None:
    st.stop()
waiting = [m.job for m in maps if not m.final and m.job is not None]
if waiting:

    @st.fragment(run_every=1.5)
    def watch_background_maps() -> None:
        """Progress of the background maps; swaps them in (full rerun) when both are ready."""
        failed = [job.error for job in waiting if job.error]
        if failed:
            show_error(f"{failed[0].rstrip('.')}. The PCA previews stay on screen.")
        elif all(job.done for job in waiting):
            st.rerun(scope="app")
        else:
            job = min(waiting, key=lambda j: j.fraction)
            st.progress(job.fraction, text=f"Preview: PCA. Computing the {method.upper()} maps in the background "
                                           f"({job.message}, {time.time() - job.started:.0f} s)…")

    with top:
        watch_background_maps()

frame = papers_frame(corpus).copy(deep=False)  # its own column below: the cached frame is shared
ids = frame["id"].astype(str).tolist()
frame["card_note"] = [f"neighbours changed: {round(float(v) * NEIGHBOURS)} of {NEIGHBOURS}" for v in scores]
aligned = align_maps(maps[0].coords, maps[1].coords)
kind = method.upper() if all(m.final for m in maps) else "PCA preview"
left, right, panel = st.columns([4, 4, 3])
units = []
for column, coords, name, tag, hub in ((left, maps[0].coords, name_a, "a", HUBS[0]),
                                       (right, aligned.coords, name_b, "b", HUBS[1])):
    with column:
        st.caption(f"**{tag.upper()}**: {md_escape(name)}")
        units.append(show_map(corpus, coords, frame, hub=hub, key=f"compare_map_{tag}",
                              link=[h for h in HUBS if h != hub], height=MAP_HEIGHT, zoom=False))  # sent once
        pick_from_map(linked_events(hub, key=f"compare_events_{tag}"), corpus, ids)

selected = set(st.session_state.get(SELECTED, [])) if st.session_state.get(SELECTED_IN, corpus) == corpus else set()
mask = np.fromiter((i in selected for i in ids), dtype=bool, count=len(ids)) if selected else None
colours = colour_codes(frame[colour].tolist() if colour != "(none)" else None, len(ids), 10)
one = np.flatnonzero(mask) if mask is not None and mask.sum() == 1 else []
near = [guarded(paper_neighbours, s, corpus, spec, int(one[0])) for spec in (spec_a, spec_b)] if len(one) else []
chosen = np.flatnonzero(mask).tolist() if mask is not None else []
for i, (column, coords, name, tag) in enumerate(((left, maps[0].coords, name_a, "a"),
                                                 (right, aligned.coords, name_b, "b"))):
    marks = mask
    if len(one) and near[i] is not None:  # one paper: a star, and its neighbours under this map's model
        marks = np.zeros(len(ids), dtype=bool)
        marks[near[i]] = True
    stars = [{"x": float(xy[0]), "y": float(xy[1]), "label": clipped(frame["title"].iloc[one[0]], 120)}
             for xy in units[i].to_unit(coords[one])] if len(one) else []
    state = {"name": f"{corpus}-{tag}-{name}-{method}", "palette": colours.palette, "legend": colours.legend,
             "grow": marks is not None, "stars": stars, "select": chosen}
    with column:
        push_state(state, colours.codes, highlight_bits(marks, len(ids)), None, hub=HUBS[i],
                   key=f"compare_state_{tag}")

summary = change_summary(scores, NEIGHBOURS)
with panel:
    st.markdown(f"**Neighbourhoods** ({NEIGHBOURS} nearest papers)")
    m1, m2 = st.columns(2)
    m1.metric("Mean overlap", f"{summary['mean_overlap']:.0%}",
              help="Share of a paper's nearest neighbours that both models agree on, averaged over the corpus.")
    m2.metric("Unchanged", f"{summary['unchanged']:.0%}", help="Papers with exactly the same neighbours.")
    m1.metric("All changed", f"{summary['all_changed']:.0%}", help="Papers that share no neighbour at all.")
    m2.metric("Map residual", f"{aligned.disparity:.2f}",
              help="What the alignment could not remove (0: same layout up to rotation, mirror and scale; ~1: "
                   "unrelated layouts).")
    label = default_label_column(info.labels, spec_a.label_column or spec_b.label_column)
    st.markdown("**Evaluation**" + (f" (label `{md_escape(label)}`)" if label else ""))
    figures_table, missing = evaluation_figures(s, corpus, label, [name_a, name_b])  # stored: computes nothing
    if label is None:
        st.caption("This corpus has no label column to evaluate the models against"
                   + (": their stored citation figures are below the maps." if not figures_table.empty else "."))
    elif not figures_table.empty:
        st.caption("Their stored figures are below the maps, as wide as the page.")
    if label is not None:
        for model in missing:
            shared = papers_of_partner(str(s.root), corpus, info.version, label,
                                       tuple(m for m in (name_a, name_b) if m not in missing),
                                       next(iter(s.cache_keys("evaluation:")), None))
            held = None if shared else held_out_papers(s, corpus, [name_a, name_b])
            none = (f"No stored run of the quick protocols ({', '.join(QUICK_TASKS)}) of **{md_escape(model)}** "
                    "on this corpus yet" if model in figures_table.columns else
                    f"No stored evaluation of **{md_escape(model)}** on this corpus yet")  # its cite figures: below
            st.caption(none + (
                f": it is evaluated on the same {shared.n:,} papers (seed {shared.seed}) as "
                f"**{md_escape(shared.model)}**." if shared else
                f": it is evaluated on the {len(held[1]):,} held-out test papers of **{md_escape(held[0])}**."
                if held else "."))
            if st.button(f"Evaluate {md_escape(model)}", key=f"compare_eval_{model}", icon=":material/analytics:",
                         help=evaluate_help(corpus, label, model, shared, held),
                         on_click=quick_evaluation, args=(corpus, label, model, shared, held)):
                pass  # started by the callback, before this page's maps rerun: its bar is at the top at once

shown = int(mask.sum()) if mask is not None else 0
if shown:
    c1, c2 = st.columns([5, 1], vertical_alignment="center")
    c1.caption(f"{kind} · **{shown:,}** selected paper{'s' * (shown != 1)} highlighted in both maps." if shown > 1
               else f"{kind} · the chosen paper is starred (★) in both maps.")
    if c2.button("Clear selection", width="stretch"):
        st.session_state[SELECTED] = []
        st.session_state[TABLE_ROUND] = st.session_state.get(TABLE_ROUND, 0) + 1
        st.rerun()
else:
    st.caption(f"{kind} · B is turned, mirrored and scaled onto A (Procrustes). Select papers with the box or lasso "
               "in either map, or tick them in the table, to highlight them in both.")
if len(one) and all(n is not None for n in near):
    st.markdown(f"**{md_escape(frame['title'].iloc[one[0]])}**: its {NEIGHBOURS} nearest papers under each model, "
                f"highlighted in that model's map; {len(set(near[0]) & set(near[1]))} of {NEIGHBOURS} shared.")
    ranks = neighbour_ranks(frame, near[0], near[1])
    for column in ("rank under A", "rank under B"):  # blank where the paper is not a neighbour under that model
        ranks[column] = ranks[column].astype("string").fillna("")
    st.dataframe(ranks, width="stretch", hide_index=True,
                 column_config={"title": st.column_config.TextColumn("title", width="large")})
    table_download(ranks, "compare_ranks_csv", corpus, "neighbours")

if not figures_table.empty:  # as on the Evaluate page (readable measures, 95 % intervals, n), as wide as the page
    st.subheader("Evaluation of the two models" + (f" (label `{md_escape(label)}`)" if label else ""))
    st.dataframe(figures_table, width="stretch")
    if figures_table["n"].str.contains(" / ").any():  # each model's newest run, on samples of their own
        st.caption("The models were evaluated on different papers (n: each model's): compare them on one "
                   "sample on the **Evaluate** page.")
    if figures_table.index.str.startswith(("Citations", "Co-citations")).any():
        st.caption(CITE_NOTE)
    table_download(figures_table.reset_index(), "compare_eval_csv", corpus, name_a, "vs", name_b, "evaluation")

st.subheader("Papers whose neighbourhood changed most")
moved = moved_papers(frame, scores, [c for c in info.labels if c in frame.columns][:2], top=MAX_TABLE)
if len(frame) > MAX_TABLE:
    st.caption(f"The {MAX_TABLE:,} of {len(frame):,} papers that moved most.")
table_key = f"compare_table_{st.session_state.get(TABLE_ROUND, 0)}"
st.dataframe(moved.drop(columns=["row"]), width="stretch", hide_index=True, key=table_key,
             on_select=partial(pick_from_table, table_key, corpus, moved["id"].astype(str).tolist()),
             selection_mode="multi-row", column_config={
                 "changed": st.column_config.ProgressColumn(
                     "neighbourhood changed", min_value=0.0, max_value=1.0, format="%.1f",
                     help=f"1 − shared / {NEIGHBOURS} of the paper's {NEIGHBOURS} nearest neighbours under A and B."),
                 "title": st.column_config.TextColumn("title", width="large")})
table_download(moved.drop(columns=["row"]), "compare_moved_csv", corpus, name_a, "vs", name_b, "moved")
