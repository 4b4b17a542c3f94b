"""The Train page's figure-scorer form: start the self-supervised figure scorer (Yamamoto et al. 2021) as a
background job on a corpus imported from JATS full text."""

from __future__ import annotations

import streamlit as st

from core.embedding import list_models
from core.store import Store
from core.training import FigureTrainConfig, jobs
from ui.errors import guarded
from ui.resources import settings

HELP = {
    "corpus": "A corpus imported from JATS / PubMed Central full text, so that its papers have figures.",
    "epochs": "Passes over the training papers (30% of papers are held out for the Evaluate page's figures task).",
    "frozen": "The embeddings and this many lowest layers stay fixed: fewer gradients, faster on a CPU.",
}


def figure_scorer_form(s: Store) -> str | None:
    """The form; the launched job's id when the button was pressed and the job started."""
    with_figures = [c.name for c in s.corpora() if s.figure_count(c.name)]
    if not with_figures:
        st.caption("Import JATS / PubMed Central full text on the **Library** page to train a figure scorer.")
        return None
    st.caption("Learns from the article bodies themselves: each sentence that references a figure (its mention "
               "masked) is paired with that figure's caption, the paper's other captions being the negatives. The "
               "new model then ranks every paper's figures against its abstract: its visual summary.")
    c1, c2, c3, c4 = st.columns(4)
    corpus = c1.selectbox("Corpus with figures", with_figures, key="fig_corpus", help=HELP["corpus"])
    models = [m.name for m in list_models(s)]
    base = c2.selectbox("Base model", models, index=models.index("minilm") if "minilm" in models else 0,
                        key="fig_base")
    epochs = c3.number_input("Epochs", 0.1, 20.0, 1.5, 0.5, key="fig_epochs", help=HELP["epochs"])
    name = c4.text_input("New model name", placeholder="automatic", key="fig_name")
    d1, d2, d3 = st.columns(3)
    lr = d1.number_input("Learning rate", 1e-7, 1e-2, 6e-5, 1e-5, format="%.1e", key="fig_lr")
    frozen = d2.number_input("Frozen layers", 0, 48, 3, key="fig_frozen", help=HELP["frozen"])
    seed = d3.number_input("Split seed", 0, 1_000_000, 0, key="fig_seed",
                           help="Which papers are held out; evaluate with the same seed.")
    if not st.button("Train the figure scorer", key="fig_start"):
        return None
    cfg = FigureTrainConfig(corpus=corpus, base=base, name=name.strip(), epochs=float(epochs), lr=float(lr),
                            frozen_layers=int(frozen), split_seed=int(seed), seed=int(seed),
                            device=settings().device)
    return guarded(jobs.launch, s, cfg)
