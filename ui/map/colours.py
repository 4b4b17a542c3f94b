"""The colour options the browser can answer by itself (issue 42, BENCHMARKS §31f).

A colour by one of the corpus's label columns, its year or "(none)" is each paper's value of a column the page
already has: its codes (one byte a paper), palette and legend are computed once per corpus version's frame and
legend size, and sent to the browser once (one bytes object: a 4-byte little-endian length, that many bytes of JSON
head, then each option's codes one after another). The map follows the Colour by box and recolours from them at
once; the page run that follows (side column, Topics over time, the link) confirms the same codes and draws no second
frame. Topics already computed for the corpus and k (BENCHMARKS §31j) are options too: both levels' codes, palette,
legend and labels (at cluster centres, in the map's unit space) travel the same way; the Topic level radio and the
head's level say which one the map draws. Topics not computed yet, predicted journal and collections keep the page
run alone.
"""

from __future__ import annotations

import hashlib
import json
import struct
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from core.explore.topics.hierarchy import LEVELS
from core.frames import derived
from core.plots.map_data import Colours, UnitFrame, colour_codes
from ui.map.topics import LEVEL_KEY, LEVEL_TEXT, TopicMap
from ui.views import TOPICS

COLOUR_BOX = "map_colour"  # the Colour by box's widget key: the map watches it (class st-key-map_colour)
NONE = "(none)"

_JS = """
export default function (component) {
    const raw = component.data;
    const view = raw instanceof Uint8Array ? raw : new Uint8Array(raw || []);
    if (view.length < 4) return;
    const length = new DataView(view.buffer, view.byteOffset, 4).getUint32(0, true);
    const head = JSON.parse(new TextDecoder().decode(view.subarray(4, 4 + length)));
    const all = window.__mireadMaps = window.__mireadMaps || {};
    const entry = all[head.hub] = all[head.hub] || { map: null, state: null, listeners: {} };
    entry.colours = { ...head, codes: view.subarray(4 + length) };
}
"""
_component = st.components.v2.component("miread_map_colours", js=_JS)


def cheap_options(options: list[str], labels: list[str], year: str | None) -> tuple[str, ...]:
    """The options whose colours are a column's values as they are: label columns, the year, "(none)"."""
    plain = set(labels) | ({year} if year else set()) | {NONE}
    return tuple(o for o in options if o in plain)


def colour_choices(frame: pd.DataFrame, options: tuple[str, ...], legend: int, year: str | None) -> dict[str, Colours]:
    """Each cheap option's colours, computed once per frame object, options, legend size and year column (the page's
    own `colour_codes` call, so the codes are the ones a page run would make)."""

    def compute(f: pd.DataFrame) -> dict[str, Colours]:
        return {o: colour_codes(None if o == NONE else column_values(f, o), len(f), legend,
                                scale=bool(year) and o == year) for o in options if o == NONE or o in f}

    return derived(frame, f"map_colour_choices:{legend}:{year}:{json.dumps(options)}", compute)


def column_values(frame: pd.DataFrame, column: str) -> list:
    """A column's values as a list, made once per frame object (a page run coloured by a label listed 1M values
    again, BENCHMARKS §31y): shared by every run, never changed."""
    return derived(frame, f"map_column_values:{column}", lambda f: f[column].tolist())


TopicLevels = dict[str, tuple[Colours, list[dict]]]  # per level: its colours and its labels (unit space)


def topic_choices(frame: pd.DataFrame, topic_map: TopicMap, clustering: str, coords: np.ndarray, unit: UnitFrame,
                  legend: int, key: str) -> TopicLevels:
    """Both levels' colours (the page's own `colour_codes` of the papers' topic names) and labels (`unit_labels`),
    computed once per frame, map `key`, clustering, names and legend size."""
    names = hashlib.blake2b(json.dumps(topic_map.names, sort_keys=True).encode("utf-8"), digest_size=8).hexdigest()

    def compute(f: pd.DataFrame) -> TopicLevels:
        levels = {level: topic_map.at_level(level) for level in LEVELS}
        return {level: (colour_codes(shown.colour_values, len(f), legend), shown.unit_labels(coords, unit))
                for level, shown in levels.items()}

    return derived(frame, f"map_topic_choices:{key}:{legend}:{clustering}:{names}", compute)


def pack_choices(choices: dict[str, Colours], n: int, hub: str, key: str,
                 topics: tuple[str, TopicLevels] | None = None) -> bytes:
    """The options' palettes, legends and codes as one buffer (`key`: the map version they belong to); with `topics`
    (the session's level, both levels' colours and labels) the options "topics:coarse" and "topics:fine" too."""
    head: dict[str, Any] = {"hub": hub, "key": key, "n": n, "control": COLOUR_BOX, "options": {}}
    everything: dict[str, tuple[Colours, list[dict] | None]] = {name: (c, None) for name, c in choices.items()}
    if topics is not None:
        head["topics"] = {"option": TOPICS, "level": topics[0], "control": LEVEL_KEY, "texts": LEVEL_TEXT}
        everything.update({f"{TOPICS}:{level}": pair for level, pair in topics[1].items()})
    parts = []
    for k, (name, (colours, labels)) in enumerate(everything.items()):
        head["options"][name] = {"palette": colours.palette, "legend": colours.legend, "offset": k * n,
                                 **({"labels": labels} if labels is not None else {})}
        parts.append(np.asarray(colours.codes, dtype=np.uint8).tobytes())
    # keys in the page state's order: the map compares legends as text (a new legend shows hidden groups again)
    text = json.dumps(head, separators=(",", ":")).encode("utf-8")
    return struct.pack("<I", len(text)) + text + b"".join(parts)


def unpack_choices(data: bytes) -> tuple[dict[str, Any], np.ndarray]:
    """`pack_choices`'s head and codes (for tests)."""
    (length,) = struct.unpack_from("<I", data)
    return json.loads(data[4:4 + length].decode("utf-8")), np.frombuffer(data[4 + length:], dtype=np.uint8)


def send_choices(frame: pd.DataFrame, choices: dict[str, Colours], hub: str, key: str,
                 topics: tuple[str, TopicLevels] | None = None) -> None:
    """Mount the instance that hands the browser the options' colours: bytes packed once per map, options and topic
    level, so a later page run sends a reference (Streamlit's message cache), not the codes again."""
    name = f"map_colour_packed:{key}:{id(choices)}:{id(topics[1]) if topics else 0}:{topics[0] if topics else ''}"
    packed = derived(frame, name, lambda f: pack_choices(choices, len(f), hub, key, topics))
    _component(key="map_colours", data=packed, height=0)
