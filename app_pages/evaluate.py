"""Evaluate: compare models on a corpus's labels with the MIReAD protocols; probe one abstract's robustness."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.embedding import get_model, list_models
from core.errors import MireadError
from core.evaluation import METRIC_NAMES, TASKS, Verdict, held_out_papers, robustness_for_abstract
from core.evaluation.job import EvaluateConfig
from core.evaluation.journal_finder import held_out_phrase
from core.evaluation.perturb import FAMILY_TEXT
from core.evaluation.report import CITE_NOTE, TASK_NAMES, chance_text, figure_rows, figure_table, result_from_row
from core.evaluation.task_names import JOURNAL_TASKS, QUERIED_BY
from core.io.formulas import csv_bytes
from core.plots import purity_figure, robustness_figure
from core.records import md_escape
from ui import state
from ui.embedding import need_embeddings
from ui.errors import guarded
from ui.jobs import running_evaluation, start_job, watch_job
from ui.resources import embeddings, encoder, papers_frame, settings, store
from ui.sidebar import current_corpus, current_model, sticky, sticky_choice

TASK_LABELS = {
    "probe": "Linear probe (macro-F1, accuracy)",
    "purity": "Clustering purity (k = 10, 20, 50, 100)",
    "retrieval": "Pair retrieval (AP, ROC-AUC)",
    "knn": "Nearest neighbours (kNN accuracy, precision@10)",
    "self": "Alternative self: find a paper from its title (MRR, T100)",
    "neighbours": "Textual neighbours: perturbation robustness (slow: encodes ~16 variants of 500 papers)",
    "figures": "Figures: the caption a referencing sentence points to (acc@1, acc@3, MRR on held-out papers)",
    "cite": "Citations: rank a held-out paper's cited papers (MAP, nDCG; recall@10, nDCG@10 over the corpus)",
    "cocite": "Co-citations: rank papers cited together with a held-out paper (MAP, nDCG, recall@10, nDCG@10)",
    "journals": "Journal finder: is the right journal suggested? (top-1/5/10, mean rank; kNN, BM25, trained head)",
    "journals-title": "Journal finder from a title alone: the same, each held-out paper asked by its title only",
    "short": "Short queries: a paper from its title or 2-4 of its keywords (recall@1/@10, MRR; dense, words, fused)",
}
DEFAULT_TASKS = ["probe", "purity", "retrieval", "knn"]
RUNNING = "evaluation_running"  # the id of the evaluation job this session watches (ui.jobs)


HELD_OUT = "the model's held-out test papers"
OWN_PAPERS = {  # the protocols that pick their own papers: the Papers choice does not apply to them
    "figures": "its own held-out papers, 30 % split by paper with the seed",
    "cite": "its own held-out query papers, 20 % of the citing papers split with the seed",
    "cocite": "its own held-out query papers, 20 % of the citing papers split with the seed",
    "short": "its own queries, drawn from the whole corpus with the seed",
}


def bold_best(row: pd.Series, best: dict[str, str]) -> list[str]:
    """CSS for one table row (a measure): the cell of the model that measurably beats the others in bold."""
    return ["font-weight: bold" if best.get(row.name) == model else "" for model in row.index]


def run(corpus: str, label: str, models: list[str], tasks: list[str], sample: int, seed: int,
        papers: list[str] | None = None) -> None:
    """Start the suite as a job of the workspace (the page stays usable; every tab and a reload see it; the same
    request while it runs joins it); its progress shows below until its results replace it."""
    conf = settings()
    start_job(RUNNING, EvaluateConfig(corpus, label, models, tasks, sample, seed, papers, conf.device,
                                      conf.batch_size, extra={"sidebar_model": current_model().name}))


def finished(job: dict, seconds: float) -> None:
    """Keep a finished evaluation as the page's answer; its duration is the whole wait (model loads included)."""
    config = job["config"]
    state.keep(state.EVALUATION, state.Answer(config["corpus"], config.get("extra", {}).get("sidebar_model", ""), {},
                                              {**job["result"]["evaluation"], "seconds": seconds}))


MIN_PER_CLUSTER = 5  # fewer papers per k-means cluster than this: purity says more about k than about the model


def probe_notes(results: list, sample: int, several: bool) -> None:
    """Under the table: the papers and labels the linear probe left out (labels with fewer papers than folds)."""
    seen = set()
    for r in results:
        if r.task != "probe" or not r.n or not sample or r.n >= sample or (r.model, r.n) in seen:
            continue
        seen.add((r.model, r.n))
        who = f"**{md_escape(r.model)}**: " if several else ""
        st.caption(f"{who}Linear probe on {r.n:,} of the {sample:,} sampled papers: the other {sample - r.n:,} carry "
                   f"a label too rare for its folds ({md_escape(r.note)}).")


def journal_notes(results: list, several: bool) -> None:
    """Under the table: the journals task's held-out papers and those it left out (their journal unseen), in the
    Journals page's and the MCP tool's words."""
    seen = set()
    for r in results:
        if r.task not in JOURNAL_TASKS or r.metric != "top-5" or r.method == "bm25" or (r.model, r.task) in seen:
            continue
        seen.add((r.model, r.task))
        who = f"**{md_escape(r.model)}**: " if several else ""
        st.caption(f"{who}{TASK_NAMES[r.task]} on {held_out_phrase(int(r.n or 0), int(r.left_out or 0))}, each "
                   f"queried by {QUERIED_BY[r.task]}.")


def show_results(doc: dict) -> None:
    """Errors, the table with the best in bold, charts, notes and exports of one evaluation."""
    st.caption((f"{doc['sample']:,} of {doc['labelled']:,} labelled papers sampled (seed {doc['seed']})"
                + (", all of them held-out test papers of a fine-tuned model" if doc.get("held_out") else "") + "; "
                if doc["sample"] else f"Seed {doc['seed']}; ")
               + (f"{doc['cached']} of {len(doc['timings'])} results from the cache; " if doc["timings"] else "")
               + f"{doc['seconds']:.1f} s.")  # the figures, cite and short tasks keep no timings
    if "figures" in doc["tasks"]:
        st.caption("**figures**: on held-out papers (30%, split by paper with the seed; only those every "
                   "evaluated figure scorer held out too), each referencing sentence "
                   "(its figure mention masked) ranks its paper's captions; the (baseline) rows are the floors: "
                   "random (expected value) and pick-first (figures in article order). *top figure = …*: how often "
                   "a model picks the same top figure for the abstract as the first model.")
    if {"cite", "cocite"} & set(doc["tasks"]):
        st.caption(CITE_NOTE)
    if "short" in doc["tasks"] and (chance := chance_text(int(doc.get("papers") or 0))):
        st.caption(chance)  # on a few papers a random ranking scores high: the figures say little beyond it
    for error in doc["errors"]:
        where = f" ({error['task']})" if error.get("task") else ""
        st.warning(f"**{md_escape(error['model'])}**{where}: {md_escape(error['error'])}")
    if not doc["table"]:
        return
    results = [result_from_row(r) for r in doc["results"]]
    figures, best = figure_table(results)
    if not figures.empty:
        st.subheader("Results")
        st.dataframe(figures.style.apply(bold_best, best=best, axis=1), width="stretch")
        probe_notes(results, int(doc["sample"] or 0), len(doc["models"]) > 1)
        journal_notes(results, len(doc["models"]) > 1)
        st.caption("Each figure with its 95 % interval in brackets where one follows from its papers (n): Wilson for "
                   "shares of papers (accuracies, purity, precision, top-k), a t interval over the linear probe's 4 "
                   "folds, a bootstrap over papers for pair retrieval's AP and ROC-AUC (a paper is in many pairs, "
                   "so n counts the papers, and the pairs beside them) and for means over papers (MRR, mean rank). "
                   "A model is in bold only where it beats "
                   "every other model beyond chance: the 95 % interval of the paired per-paper difference excludes "
                   "0 (where the task scores each paper), else the two 95 % intervals do not overlap; higher is "
                   "better, except mean rank. No bold: no measurable winner.")
    for name in doc["models"]:
        verdict = Verdict.from_dict(_spec_verdict(name))
        if verdict is not None:
            st.info(f"**{md_escape(name)}**, from its training run: {md_escape(verdict.sentence('its base'))}")
    purity = pd.DataFrame(doc["purity"])
    robustness = pd.DataFrame(doc["robustness"])
    left, right = st.columns(2)
    if not purity.empty:
        left.markdown("**Clustering purity against k**")
        left.plotly_chart(purity_figure(purity), width="stretch", key="purity_chart")
        papers = int(doc["sample"] or doc["labelled"] or 0)
        crowded = sorted(int(k) for k in purity["k"].unique() if papers and papers < MIN_PER_CLUSTER * k)
        if crowded:  # small clusters are purer whatever the model (one paper: pure)
            left.caption(f"k = {', '.join(map(str, crowded))} on {papers:,} papers leave fewer than "
                         f"{MIN_PER_CLUSTER} papers per cluster: purity there rises with k whatever the model (a "
                         "cluster of one paper is always pure), so it says little about the model.")
    if not robustness.empty:
        right.markdown("**Textual neighbours: NN10_Ret per category**")
        right.plotly_chart(robustness_figure(robustness), width="stretch", key="robustness_chart")
        st.subheader("Robustness")
        st.caption("LL = lexical edits, LO = organisation edits; HS/PS/DS = highly / partially similar / dissimilar "
                   "meaning. LO-DS perturbations destroy the text, so a good model should NOT keep their neighbours.")
        st.dataframe(robustness.rename(columns=METRIC_NAMES), hide_index=True, width="stretch",
                     column_config={m: st.column_config.NumberColumn(format="%.3f") for m in METRIC_NAMES.values()})
        with st.expander("Per perturbation family"):
            families = pd.DataFrame(doc["families"])
            if "family" in families:
                families.insert(families.columns.get_loc("family") + 1, "what it does",
                                [FAMILY_TEXT.get(f, f) for f in families["family"]])
            st.dataframe(families.rename(columns=METRIC_NAMES), hide_index=True, width="stretch",
                         column_config={m: st.column_config.NumberColumn(format="%.3f") for m in METRIC_NAMES.values()})
    for note in doc["notes"]:
        st.info(f"**{md_escape(note['model'])}**: {note['text']}")
    name = f"evaluation-{doc['corpus']}-{doc['label']}"
    c1, c2 = st.columns(2)
    c1.download_button("Export CSV", csv_bytes(figure_rows(results)),
                       file_name=f"{name}.csv", mime="text/csv")
    c2.download_button("Export markdown", doc["markdown"].encode("utf-8"), file_name=f"{name}.md",
                       mime="text/markdown")


def _spec_verdict(name: str) -> dict | None:
    """A model's stored verdict against its base (None for presets, hub models and runs without a base score)."""
    try:
        return get_model(name, store()).verdict or None
    except MireadError:
        return None


def settings_changed(doc: dict, label: str, models: list[str], tasks: list[str], sample: int, seed: int,
                     held_out: bool) -> list[str]:
    """What the run behind `doc` had that the settings on screen do not, e.g. 'sample size 30 (not 20)'."""
    said = []
    if doc["label"] != label and set(doc["tasks"]) - {"figures", "cite", "cocite"}:
        said.append(f"label column {doc['label']} (not {label})")
    if list(doc["models"]) != list(models):
        said.append(f"models {', '.join(doc['models'])} (not {', '.join(models) or 'none'})")
    if set(doc["tasks"]) != set(tasks):
        said.append(f"protocols {', '.join(doc['tasks'])} (not {', '.join(tasks) or 'none'})")
    if doc.get("requested_sample") != sample:
        said.append(f"sample size {doc.get('requested_sample')} (not {sample})")
    if doc["seed"] != seed:
        said.append(f"seed {doc['seed']} (not {seed})")
    if bool(doc.get("held_out")) != held_out:
        said.append(f"{HELD_OUT if doc.get('held_out') else 'a random sample'} (not "
                    f"{HELD_OUT if held_out else 'a random sample'})")
    return said


def compare_tab(corpus: str) -> None:
    """Pick label, models, protocols and sample; run; show the last results for this corpus."""
    info = store().corpus(corpus)
    figures = ["figures"] if store().figure_count(corpus) else []
    cites = ["cite", "cocite"] if info.links else []
    if not info.labels and not figures and not cites:  # the short-query task needs neither
        st.caption("This corpus has no label column (journal, category, …) and no citation links: of these "
                   "protocols only **Short queries** (a paper from its own title or keywords) can run on it.")
    c1, c2 = st.columns(2)
    label = c1.selectbox("Label column", info.labels,
                         key=sticky_choice("eval_label", info.labels, info.labels[0] if info.labels else None)) or ""
    names = [m.name for m in list_models(store())]
    current = current_model().name
    models = c2.multiselect("Models", names, key=sticky_choice("eval_models", names, [current] if current in names
                                                               else []),
                            help="Models that cannot be loaded here (hub models offline) are reported and skipped.")
    options = [*TASKS, *figures, *cites, "short"]
    default = DEFAULT_TASKS if info.labels else [*figures, *cites] or ["short"]
    tasks = st.multiselect("Protocols", options, format_func=TASK_LABELS.get,
                           key=sticky_choice("eval_tasks", options, default))
    d1, d2 = st.columns(2)
    most = max(2, info.papers)
    if st.session_state.get("eval_sample", st.session_state.get("_kept_eval_sample", 2)) > most:  # another corpus's
        st.session_state.pop("_kept_eval_sample", None)
        st.session_state["eval_sample"] = most
    sample = d1.number_input("Sample size (papers)", min_value=2, max_value=most, step=100,
                             key=sticky("eval_sample", min(2000, most)),
                             help="Labelled papers drawn at random (seeded) for the protocols; only these are "
                                  "embedded with a model that has no vectors yet.")
    seed = d2.number_input("Seed", min_value=0, max_value=1_000_000, key=sticky("eval_seed", 0))
    held = held_out_papers(store(), corpus, models or [])
    papers = None
    own = [t for t in tasks if t in OWN_PAPERS]  # these pick their own papers, whatever the Papers choice
    theirs = "; ".join(f"**{t}**: {OWN_PAPERS[t]}" for t in own)
    if held is not None and own and len(own) == len(tasks):
        st.caption(f"The held-out test papers of **{md_escape(held[0])}** are not used: the chosen protocols pick "
                   f"their own papers ({theirs}).")
    elif held is not None:
        source = st.radio("Papers", ["a random sample", HELD_OUT], horizontal=True,
                          key=sticky_choice("eval_papers", ["a random sample", HELD_OUT], HELD_OUT),
                          help=f"The held-out test papers of **{held[0]}** (the default): never trained on, never used "
                               "for its head warm-up or validation; a random sample holds its training papers. Every "
                               "model is evaluated on the same papers.")
        if source == HELD_OUT:
            papers = held[1]
            used = "all of them are used" if len(papers) <= int(sample) else \
                f"the sample size takes {int(sample):,} of them"
            st.caption(f"{len(papers):,} held-out test papers of **{md_escape(held[0])}**: {used}.")
        if own:
            st.caption(f"Papers applies to {', '.join(f'**{t}**' for t in tasks if t not in own)} only; the others "
                       f"pick their own papers ({theirs}).")
    if st.button("Run evaluation", type="primary", disabled=not models or not tasks):
        run(corpus, label, models, tasks, int(sample), int(seed), papers)
    watch_job(RUNNING, finished, adopt=lambda: running_evaluation(corpus))
    answer = st.session_state.get(state.EVALUATION)
    if isinstance(answer, state.Answer) and answer.corpus == corpus:  # results name their own models
        if changed := settings_changed(answer.value, label, models, tasks, int(sample), int(seed), papers is not None):
            st.warning(f"These results are of a run with {md_escape(', '.join(changed))}: not these settings. Press "
                       "**Run evaluation** for results of the settings above.")
        show_results(answer.value)


def robustness_tab(corpus: str) -> None:
    """One pasted abstract: its neighbours under each perturbation and their overlap with the original's."""
    spec = current_model()
    st.caption(f"Uses the sidebar model **{md_escape(spec.name)}**. Each perturbation of your text is searched in the "
               "corpus; the overlap is the share of the original's top neighbours that it still finds.")
    if not need_embeddings(corpus, spec):
        return
    title = st.text_input("Title", key="robust_title")
    abstract = st.text_area("Abstract", key="robust_abstract", height=160)
    k = st.slider("Neighbours (k)", 1, 50, 10, key="robust_k")
    if st.button("Probe robustness", type="primary", key="robust_run"):
        rows = guarded(robustness_for_abstract, encoder(spec), embeddings(corpus, spec), papers_frame(corpus), title,
                       abstract, k=int(k))
        if rows is not None:
            state.keep(state.ROBUSTNESS, state.Answer(corpus, spec.name, {}, {"rows": rows}))
    answer = state.kept(state.ROBUSTNESS, corpus, spec.name)
    if answer is None:
        return
    result = answer.value
    summary = pd.DataFrame([{"perturbation": r["family"], "what it does": FAMILY_TEXT.get(r["family"], r["family"]),
                             "category": r["category"],
                             "should": "keep" if r["expect_keep"] else "lose", "changed": r["changed"],
                             "overlap": r["overlap"]} for r in result["rows"]])
    st.dataframe(summary, hide_index=True, width="stretch", column_config={
        "overlap": st.column_config.ProgressColumn("overlap with the original's top k", min_value=0.0, max_value=1.0,
                                                   format="%.2f")})
    st.caption("A family marked changed = false leaves this text as it is (e.g. no digits to delete). LO-DS "
               "perturbations destroy the meaning: a good model should lose the original's neighbours there.")
    for row in result["rows"]:
        with st.expander(f"{FAMILY_TEXT.get(row['family'], row['family'])} ({row['family']}) · overlap "
                         f"{row['overlap']:.0%}"):
            st.text(f"{row['title']}\n\n{row['abstract']}"[:1500])
            st.dataframe(pd.DataFrame(row["neighbours"]).drop(columns=["row"]), hide_index=True, width="stretch",
                         column_config={"score": st.column_config.NumberColumn(format="%.3f"),
                                        "shared": st.column_config.CheckboxColumn("in original's top k")})


st.title("Evaluate")
corpus = current_corpus()
if corpus is None:
    st.info("Import a corpus on the **Library** page first.")
    st.page_link("app_pages/library.py", label="Go to the Library", icon=":material/library_books:")
    st.stop()
compare, robustness = st.tabs(["Compare models", "Robustness"])
with compare:
    compare_tab(corpus)
with robustness:
    robustness_tab(corpus)
