"""Visual summaries on the pages: each paper's figures ranked by the current model, the top one as
"Figure N — caption" with its thumbnail when the upload held the image, the others below with their scores."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from core.embedding import ModelSpec
from core.explore import choice_margin, rank_figures, visual_summary
from core.records import md_escape
from ui.errors import guarded
from ui.resources import encoder, store


def ranked_figures(corpus: str, spec: ModelSpec, ids: Sequence[str] | None = None) -> dict[str, list[dict[str, Any]]]:
    """Papers' figures ranked by the model (cached in the workspace); {} when the corpus has no figures."""
    s = store()
    if not s.figure_count(corpus):
        return {}
    with st.spinner("Ranking figure captions…"):
        found = guarded(rank_figures, s, corpus, spec.name, list(ids) if ids is not None else None,
                        encoder_for=lambda _spec: encoder(spec))
    return found or {}


def summaries(ranked: dict[str, list[dict[str, Any]]], ids: Sequence[str], limit: int = 160) -> list[str | None]:
    """'Figure N — caption' of each paper's top figure, None for papers without figures."""
    return [visual_summary(ranked.get(str(pid)), limit) or None for pid in ids]


def show_figures(figures: list[dict[str, Any]] | None) -> None:
    """One paper's visual summary (thumbnail when there is one) and its other figures ranked with scores."""
    if not figures:
        return
    top = figures[0]
    image = store().figure_image(top.get("image"))
    if image is not None:
        left, right = st.columns([1, 3])
        left.image(str(image), width="stretch")
        box = right
    else:
        box = st.container()
    box.markdown(f"**Visual summary — {md_escape(top['label'])}** (score {top['score']:.3f}; "
                 f"{md_escape(choice_margin(figures))})")
    box.caption(md_escape(top["caption"]))
    if len(figures) > 1:
        st.dataframe([{"rank": f["rank"], "figure": f["label"], "score": f["score"], "caption": f["caption"]}
                      for f in figures[1:]], hide_index=True, width="stretch",
                     column_config={"score": st.column_config.NumberColumn(format="%.3f"),
                                    "caption": st.column_config.TextColumn(width="large")})
