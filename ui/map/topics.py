"""The Domain map's topic colouring (not a page): the level choice, the rename popover, and the nested labels.

The hierarchy comes from core.explore.topics.cache (computed once per corpus version, model vectors and k), the
names users give from the store; app_pages/map.py calls `topic_colours` where it computes the colour and draws the
labels onto its figure with `TopicMap.draw`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import streamlit as st

from core.embedding import ModelSpec
from core.errors import MireadError
from core.explore.topics.cache import cached_topics, corpus_topics, topics_files
from core.explore.topics.hierarchy import LEVELS, Topics, tag_order, topic_tags
from core.explore.topics.labels import given_names, nested_names, paper_labels
from core.plots import cluster_centres_2d
from core.plots.map_data import UnitFrame
from core.records import md_escape
from ui.collection_add import add_to_collection
from ui.errors import guarded, show_error
from ui.resources import papers_frame, store

LEVEL_KEY = "map_level"
TOPIC_KEY = "map_topic_pick"
NAME_KEY = "map_topic_name"
MESSAGE_KEY = "_map_topic_message"
LEVEL_TEXT = {"coarse": "coarse topics", "fine": "fine topics"}


@dataclass
class TopicMap:
    """What the map needs from the topics: each paper's label, the level shown, and how to draw the labels."""

    level: str
    topics: Topics
    names: dict[str, dict[int, str]]

    @cached_property
    def colour_values(self) -> list[str]:
        """Each paper's topic name at the level shown (made when first asked: one string a paper)."""
        return paper_labels(self.topics, self.level, self.names)

    def label_points(self, coords: np.ndarray) -> list[dict]:
        """Each topic's label at the median position of its papers: coarse ones (shown on the whole map) and, at the
        fine level, fine ones (shown once the map is zoomed in). Plain text: the browser draws it with fillText."""
        labels = [{"text": self.names["coarse"].get(c, str(c))[:60], "x": x, "y": y, "level": "coarse"}
                  for c, (x, y) in cluster_centres_2d(coords, self.topics.coarse).items()]
        if self.level == "fine":
            labels += [{"text": self.names["fine"].get(f, str(f))[:60], "x": x, "y": y, "level": "fine"}
                       for f, (x, y) in cluster_centres_2d(coords, self.topics.fine).items()]
        return labels

    def unit_labels(self, coords: np.ndarray, unit: UnitFrame) -> list[dict]:
        """`label_points` in the map component's unit space (what the page and the browser's own colour draw)."""
        return [{**label, "x": float(xy[0]), "y": float(xy[1])} for label in self.label_points(coords)
                for xy in unit.to_unit(np.array([[label["x"], label["y"]]]))]

    def at_level(self, level: str) -> TopicMap:
        """The same topics coloured at another level."""
        return TopicMap(level=level, topics=self.topics, names=self.names)


def known_topics(corpus: str, spec: ModelSpec, k: int) -> tuple[TopicMap, str] | None:
    """(the topics already computed for this corpus version, model and k at the session's level, their clustering
    key), never computed here (BENCHMARKS §31j: the browser's own colours); None when they are not."""
    try:
        labels_path, meta_path, clustering = topics_files(store(), corpus, spec, int(k))
        topics = _stored(labels_path, meta_path, lambda: cached_topics(store(), corpus, spec, int(k)))
    except MireadError:  # no vectors for this model yet: the page says so elsewhere
        return None
    if topics is None:
        return None
    names = nested_names(topics, given_names(store(), corpus, spec.name, clustering))
    level = st.session_state.get(LEVEL_KEY) if st.session_state.get(LEVEL_KEY) in LEVELS else "coarse"
    return TopicMap(level=level, topics=topics, names=names), clustering


def _stored(labels_path: Path, meta_path: Path, read: Callable[[], Topics | None]) -> Topics | None:
    """The stored hierarchy of these files, read from disk once per version of them (their paths name the corpus
    version, model vectors and k; their stamps a rewrite), not on every page run (an 8 MB .npy at 1M papers)."""
    try:
        stamp = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in (labels_path, meta_path))
    except OSError:  # not computed yet
        return None
    return _read_stored(stamp, read)


@st.cache_resource(show_spinner=False, max_entries=4)  # shared by the sessions, thread-safe; one a files' version
def _read_stored(stamp: tuple, _read: Callable[[], Topics | None]) -> Topics | None:
    return _read()


def _save_name(corpus: str, model: str, clustering: str, level: str) -> None:
    """The Save button: store the typed name (empty: back to the keywords), then clear the field."""
    cluster = st.session_state.get(TOPIC_KEY)
    if cluster is None:
        return
    try:
        name = store().rename_topic(corpus, model, clustering, level, int(cluster), st.session_state.get(NAME_KEY, ""))
    except MireadError as exc:
        st.session_state[MESSAGE_KEY] = ("error", str(exc))
        return
    st.session_state[NAME_KEY] = ""
    st.session_state[MESSAGE_KEY] = ("ok", f"Topic renamed to “{md_escape(name)}”." if name else
                                     "Name removed: the topic shows its keywords again.")


def topic_colours(corpus: str, spec: ModelSpec, k: int) -> TopicMap | None:
    """The level choice and rename popover, and the map colouring by topics; None when topics cannot be computed."""
    if st.session_state.get(LEVEL_KEY) not in LEVELS:
        st.session_state[LEVEL_KEY] = "coarse"
    with st.spinner("Finding topics…"):
        found = guarded(corpus_topics, store(), corpus, spec, int(k))
    if found is None:
        return None
    topics, clustering = found
    c1, c2, c3 = st.columns([3, 2, 2], vertical_alignment="center")
    level = c1.radio("Topic level", LEVELS, key=LEVEL_KEY, horizontal=True, format_func=LEVEL_TEXT.get,
                     label_visibility="collapsed",
                     help="Coarse topics group the fine ones (Ward clustering of their centres); a fine topic's tag "
                          "starts with its coarse topic's letter.")
    renamed = given_names(store(), corpus, spec.name, clustering)
    names = nested_names(topics, renamed)
    with c2.popover("Rename a topic", icon=":material/edit:", width="stretch"):
        keywords = nested_names(topics)[level]  # the choices read by tag and keywords, which a rename never changes
        tags = topic_tags(topics)[level]
        options = sorted(keywords, key=lambda c: tag_order(tags[c]))
        if st.session_state.get(TOPIC_KEY) not in options:
            st.session_state.pop(TOPIC_KEY, None)
        chosen = st.selectbox(f"Topic ({LEVEL_TEXT[level]})", options, key=TOPIC_KEY, format_func=keywords.get)
        given = renamed[level].get(chosen) if chosen is not None else None
        st.text_input("New name", key=NAME_KEY, max_chars=80, placeholder=given or "e.g. Protein folding",
                      help="Saved for this corpus and model; leave it empty and save to show the keywords again.")
        if given:
            st.caption(f"Now named “{md_escape(given)}”.")
        st.button("Save name", on_click=_save_name, args=(corpus, spec.name, clustering, level), type="primary")
    with c3.popover("Keep a topic", icon=":material/bookmark_add:", width="stretch"):
        labels = nested_names(topics, renamed)[level]
        tags = topic_tags(topics)[level]
        options = sorted(labels, key=lambda c: tag_order(tags[c]))
        kept = st.selectbox(f"Topic to keep as a collection ({LEVEL_TEXT[level]})", options, key="topic_to_keep",
                            format_func=lambda c: f"{tags[c]}: {labels[c]}")
        if kept is not None:
            ids = papers_frame(corpus)["id"].astype(str).to_numpy()[topics.labels(level) == kept].tolist()
            add_to_collection(corpus, ids, key="topic_collect", what=f"topic {tags[kept]}")
    message = st.session_state.pop(MESSAGE_KEY, None)
    if message:
        if message[0] == "error":
            show_error(message[1])
        else:
            st.toast(message[1], icon=":material/check:")
    return TopicMap(level=level, topics=topics, names=names)
