"""Session-state keys of the pages, and the typed payloads kept under them.

Every result a page keeps is an `Answer`: the value together with the corpus, the model and the inputs it
answers. A page shows it only while those match what is on screen, so a prediction made on one corpus is never
shown, or labelled, under another.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import streamlit as st

T = TypeVar("T")

# sidebar
CORPUS = "corpus"
MODEL = "model"
PENDING_CORPUS = "pending_corpus"  # a corpus to select on the next run, before the sidebar's widget exists
# results, each an Answer
SIMILAR = "similar_result"
JOURNALS = "journal_prediction"
BALANCE = "balance"
EVALUATION = "evaluation"
ROBUSTNESS = "robustness"
IMPORT_REPORT = "last_report"
UPLOAD_ROUND = "upload_round"  # bumped after an import: the uploader starts empty again (it keeps files otherwise)
# other payloads
MAP_QUERY = "map_query"  # a MapQuery: the last similar-papers query, drawn as a star on its corpus's map
EMBED_DONE = "embed_done"  # a one-time success message
EMBED_TARGET = "embed_target"  # the Library's "corpus to embed" widget
SEEN_DEMO_NOTE = "seen_demo_note"
SETTINGS = "_settings"  # the Settings of this script run, built once by app.py (ui.resources.begin_run)


@dataclass(frozen=True)
class Answer(Generic[T]):
    """A kept result and what it answers: corpus, model and the page's inputs."""

    corpus: str | None
    model: str
    inputs: dict[str, Any]
    value: T

    def answers(self, corpus: str | None, model: str, inputs: dict[str, Any] | None = None) -> bool:
        """True when this result belongs to the corpus, model and inputs now on screen."""
        return (self.corpus, self.model) == (corpus, model) and (inputs is None or self.inputs == inputs)


@dataclass(frozen=True)
class MapQuery:
    """A query vector to place on the map of `corpus` embedded with `model`."""

    corpus: str
    model: str
    vector: list[float] = field(repr=False)
    title: str = "your paper"


def keep(key: str, answer: Answer[Any]) -> None:
    """Keep a result under `key`."""
    st.session_state[key] = answer


def kept(key: str, corpus: str | None, model: str, inputs: dict[str, Any] | None = None) -> Answer[Any] | None:
    """The result under `key` when it answers these corpus, model and inputs; else None."""
    answer = st.session_state.get(key)
    return answer if isinstance(answer, Answer) and answer.answers(corpus, model, inputs) else None


def forget(key: str) -> None:
    """Drop the result under `key`."""
    st.session_state.pop(key, None)


def ask_now(key: str) -> None:
    """A widget's on_change: mark that the page should answer on this run (Enter in a query box), as a button
    would."""
    st.session_state[key] = True
