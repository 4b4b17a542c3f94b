"""Checking a training config against the workspace: the corpus, the base model, a free model name, enough classes
for the split and, for the citation objectives, citation links. `prepare_config` fills in the name, then checks."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from core.embedding import PRESETS, ModelSpec, get_model
from core.errors import CorpusError, MireadError, TrainingError
from core.store import check_name
from core.training.config import CITATION_OBJECTIVES, TrainConfig, check_numbers
from core.training.data import select

if TYPE_CHECKING:
    from core.store import Store


_WEIGHTS = ("model.safetensors", "model.safetensors.index.json", "pytorch_model.bin", "pytorch_model.bin.index.json")
_TOKENIZER = ("tokenizer.json", "vocab.txt", "tokenizer_config.json", "sentencepiece.bpe.model", "spiece.model")


def base_spec(store: Store, base: str) -> ModelSpec:
    """The base model's spec, or TrainingError naming it."""
    try:
        spec = get_model(base, store)
    except MireadError as exc:
        raise TrainingError(f"unknown base model {base!r}: {exc}") from exc
    folder = Path(spec.location)
    if spec.source == "checkpoint" and not (  # checked before the job is queued, not by its tokenizer later
            (folder / "config.json").is_file()
            and any((folder / w).is_file() for w in _WEIGHTS) and any((folder / t).is_file() for t in _TOKENIZER)):
        raise TrainingError(f"base {base!r} is a folder that holds no model (a model folder has config.json, "
                            "model.safetensors and a tokenizer); name a model of the sidebar's list, a Hugging Face "
                            "id or a fine-tuned model's folder")
    return spec


def taken_names(store: Store) -> set[str]:
    """Model names already in use: presets, saved models, and the targets of queued or running jobs."""
    names = set(PRESETS) | {m["name"] for m in store.saved_models()}
    for row in store.active_job_rows():
        names.add(json.loads(row["args"] or "{}").get("config", {}).get("name", ""))
    return names - {""}


def default_name(store: Store, cfg: TrainConfig) -> str:
    """A free model name like 'minilm-journal-arxiv'."""
    base = Path(cfg.base).name if os.sep in cfg.base else cfg.base.split("/")[-1]
    stem = "".join(c if c.isalnum() or c in "._-" else "-" for c in f"{base}-{cfg.label}-{cfg.corpus}")
    stem = stem.strip("-._")[:56] or "model"
    taken, name, n = taken_names(store), stem, 1
    while name in taken:
        n += 1
        name = f"{stem}-{n}"
    return name


def validate_config(store: Store, cfg: TrainConfig) -> None:
    """Refuse an impossible configuration with one TrainingError sentence, before anything runs."""
    check_numbers(cfg)
    if not store.has_corpus(cfg.corpus):
        known = ", ".join(c.name for c in store.corpora()) or "none yet"
        raise TrainingError(f"there is no corpus named {cfg.corpus!r} (corpora: {known})")
    base_spec(store, cfg.base)
    if cfg.name:
        try:
            check_name(cfg.name, "model name")
        except CorpusError as exc:
            raise TrainingError(str(exc)) from exc
        if cfg.name.strip() in taken_names(store):
            raise TrainingError(f"a model named {cfg.name.strip()!r} already exists; choose another name")
    frame = store.papers_frame(cfg.corpus, with_abstract=False)
    if cfg.label not in frame.columns:
        labels = ", ".join(store.corpus(cfg.corpus).labels) or "none"
        raise TrainingError(f"corpus {cfg.corpus!r} has no column {cfg.label!r} (label columns: {labels})")
    select(frame, cfg)
    if cfg.objective in CITATION_OBJECTIVES:
        check_citations(store, cfg, frame["id"].astype(str).tolist())


def check_citations(store: Store, cfg: TrainConfig, ids: list[str]) -> None:
    """One sentence when a citation objective cannot run on the corpus: no links, or no training triplets."""
    from core.training.citations import CitationData

    pairs = store.links(cfg.corpus)
    if not pairs:
        raise TrainingError(f"objective {cfg.objective} needs citation links, and corpus {cfg.corpus!r} has none: "
                            "import a file with a references column (or JATS reference lists), or choose cos")
    data = CitationData.build(ids, pairs, cfg.seed, cfg.cite_held_out)
    if not data.train:
        raise TrainingError(f"corpus {cfg.corpus!r} has {len(pairs)} citation links, but all its citing papers are "
                            "held out for evaluation; lower the held-out share or add papers with references")


def prepare_config(store: Store, cfg: TrainConfig) -> TrainConfig:
    """The config with its model name filled in, validated."""
    cfg = replace(cfg, name=cfg.name.strip() or default_name(store, cfg))
    validate_config(store, cfg)
    return cfg
