"""The Train page's settings for a new run: each widget's value is the user's and survives a visit to another page
(ui.sidebar.sticky); the corpus follows the sidebar when the sidebar's corpus changes."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import streamlit as st

from core.embedding import list_models
from core.records import md_escape
from core.store import Store
from core.training import CITATION_OBJECTIVES, CITE_LOSSES, OBJECTIVES, TrainConfig, class_limits
from ui.resources import settings
from ui.sidebar import current_corpus, sticky, sticky_choice

HELP = TrainConfig.HELP
DEFAULTS = {f.name: f.default for f in fields(TrainConfig) if f.name not in ("corpus", "label")}
SEEN_CORPUS = "_train_sidebar_corpus"  # the sidebar's corpus when the Train page last ran


def _number(column: Any, label: str, field: str, low: float | None, high: float | None, step: float | None = None,
            cast: type = float, **kwargs: Any) -> Any:
    """A number box whose starting value is the TrainConfig default, kept across pages under 'train_<field>'."""
    default = DEFAULTS[field]
    key = sticky(f"train_{field}", None if default is None else cast(default))
    return column.number_input(label, low, high, step=step, key=key, help=HELP[field],
                               **({"value": None} if default is None else {}), **kwargs)


def _corpus(names: list[str]) -> str:
    """The corpus box: kept across pages, but a corpus newly chosen in the sidebar is followed here too."""
    sidebar = current_corpus()
    if sidebar in names and st.session_state.get(SEEN_CORPUS) != sidebar:
        st.session_state[SEEN_CORPUS] = sidebar
        st.session_state.pop("_kept_train_corpus", None)
        st.session_state["train_corpus"] = sidebar
    return sticky_choice("train_corpus", names, sidebar if sidebar in names else names[0])


def train_settings(s: Store) -> TrainConfig:
    """Draw the settings of a new run (stops the page when the corpus cannot be trained on); the config they give."""
    names = [c.name for c in s.corpora()]
    c1, c2, c3 = st.columns(3)
    corpus = c1.selectbox("Corpus", names, key=_corpus(names), help=HELP["corpus"])
    info = s.corpus(corpus)
    label_options = list(info.labels)  # the journal and label columns only: never a year, a count or an id
    if not label_options:
        st.warning(f"Corpus **{md_escape(corpus)}** has no label column to predict; import papers with a journal, or "
                   "mark a label column on the **Library** page.")
        st.stop()
    label = c2.selectbox("Label column", label_options,
                         key=sticky_choice("train_label", label_options, label_options[0]), help=HELP["label"])
    models = [m.name for m in list_models(s)]
    base = c3.selectbox("Base model", models,
                        key=sticky_choice("train_base", models, "minilm" if "minilm" in models else models[0]),
                        help=HELP["base"])
    d1, d2, d3, d4 = st.columns(4)
    name = d1.text_input("New model name", placeholder="automatic", key=sticky("train_name"), help=HELP["name"])
    objectives = [o for o in OBJECTIVES if info.links or o not in CITATION_OBJECTIVES]
    objective = d2.selectbox("Objective", objectives,
                             key=sticky_choice("train_objective", objectives, DEFAULTS["objective"]),
                             help=HELP["objective"])
    if not info.links:
        st.caption(f"The citation objectives ({', '.join(CITATION_OBJECTIVES)}) need citation links, and "
                   f"**{md_escape(corpus)}** has none: import a file with a references column to use them.")
    else:
        st.caption(f"**{md_escape(corpus)}** has {info.links:,} citation links: the objectives specter and "
                   "cos+specter learn from them; the live plot then shows cite MAP on held-out query papers.")
    values: dict[str, Any] = {}
    values["epochs"] = _number(d3, "Epochs", "epochs", 0.1, 100.0, 0.5)
    values["batch_size"] = _number(d4, "Batch size", "batch_size", 1, 1024, cast=int)
    e1, e2, e3, e4 = st.columns(4)
    values["lr"] = _number(e1, "Encoder learning rate", "lr", 1e-7, 1e-2, 1e-5, format="%.1e")
    values["head_lr"] = _number(e2, "Head learning rate", "head_lr", 1e-6, 1.0, 1e-4, format="%.1e")
    values["head_warmup_epochs"] = _number(e3, "Head warm-up epochs", "head_warmup_epochs", 0.0, 50.0, 0.5)
    values["max_length"] = _number(e4, "Max length (tokens)", "max_length", 16, 512, 16, cast=int)
    low_auto, high_auto = class_limits(info.papers)
    f1, f2, f3, f4 = st.columns(4)
    values["min_per_class"] = _number(f1, "Min papers per class", "min_per_class", 2, None,
                                      placeholder=f"auto ({low_auto})")
    values["max_per_class"] = _number(f2, "Max papers per class", "max_per_class", 2, None,
                                      placeholder=f"auto ({high_auto})")
    values["max_papers"] = _number(f3, "Max papers", "max_papers", 4, None, placeholder="all")
    values["val_fraction"] = _number(f4, "Validation share", "val_fraction", 0.01, 0.5, 0.05)
    with st.expander("More settings"):
        g1, g2, g3, g4 = st.columns(4)
        values["grad_accum"] = _number(g1, "Gradient accumulation", "grad_accum", 1, 64, cast=int)
        values["warmup_ratio"] = _number(g2, "Warmup ratio", "warmup_ratio", 0.0, 0.9, 0.05)
        values["layer_decay"] = _number(g3, "Layer decay", "layer_decay", 0.1, 1.0, 0.05)
        values["clip"] = _number(g4, "Gradient clipping", "clip", 0.0, 100.0, 0.5)
        h1, h2, h3, h4 = st.columns(4)
        values["supcon_weight"] = _number(h1, "SupCon weight", "supcon_weight", 0.0, 10.0, 0.1,
                                          disabled="supcon" not in objective)
        values["temperature"] = _number(h2, "Temperature", "temperature", 0.01, 1.0, 0.01, disabled=objective == "ce")
        values["classes_per_batch"] = _number(h3, "Classes per batch", "classes_per_batch", 0, 512, cast=int,
                                              disabled="supcon" not in objective)
        values["eval_every"] = _number(h4, "Evaluate every (steps)", "eval_every", 0, 100_000, cast=int)
        k1, k2, k3, k4 = st.columns(4)
        cite_loss = k4.selectbox("Citation loss", CITE_LOSSES,
                                 key=sticky_choice("train_cite_loss", list(CITE_LOSSES), DEFAULTS["cite_loss"]),
                                 help=HELP["cite_loss"], disabled=objective not in CITATION_OBJECTIVES)
        values["cite_weight"] = _number(k1, "Cite weight", "cite_weight", 0.0, 100.0, 0.1,
                                        disabled=objective != "cos+specter")
        values["hard_ratio"] = _number(k2, "Hard negative share", "hard_ratio", 0.0, 1.0, 0.1,
                                       disabled=objective not in CITATION_OBJECTIVES)
        values["cite_held_out"] = _number(k3, "Held-out citing papers", "cite_held_out", 0.05, 0.9, 0.05,
                                          disabled=objective not in CITATION_OBJECTIVES)
        i1, i2, i3 = st.columns(3)
        values["distill_weight"] = _number(i1, "Distill weight", "distill_weight", 0.0, 100.0, 0.5)
        values["seed"] = _number(i2, "Seed", "seed", 0, 2**31 - 1, cast=int)
        values["test_fraction"] = _number(i3, "Test share", "test_fraction", 0.0, 0.5, 0.05)
    ints = {"batch_size", "max_length", "grad_accum", "classes_per_batch", "eval_every", "seed", "min_per_class",
            "max_per_class", "max_papers"}
    numbers = {k: (None if v is None else int(v) if k in ints else float(v)) for k, v in values.items()}
    return TrainConfig(corpus=corpus, label=label, base=base, name=(name or "").strip(), objective=objective,
                       cite_loss=cite_loss, device=settings().device, **numbers)
