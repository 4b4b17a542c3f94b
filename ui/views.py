"""Shareable map views: the URL's query parameters read into a checked view, and a view written back as parameters.

Parameters: ``corpus``, ``model``, ``method`` (umap, tsne, pca), ``colour``, ``highlight``, ``years`` (``1995-2005``),
``paper`` (an id), ``compare`` (a second model), ``k`` (fine topics), ``level`` (``coarse`` or ``fine`` topics),
``play`` (the time animation: ``1y``, ``2y``, ``3y``, ``5y`` windows or ``cumulative``), ``zoom`` (the map's
window, ``x0,x1,y0,y1`` in map coordinates) and the method's own (``n_neighbors``, ``min_dist``, ``perplexity``).
Each value is checked against the workspace; one that does not fit (an unknown corpus, a column the corpus lacks, a
malformed range) is dropped with one sentence saying what was wrong and what is shown instead. Pure functions: the
pages read and write ``st.query_params`` and apply the result.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from core.explore.topics.hierarchy import LEVELS
from core.frames import derived

METHODS = ("umap", "tsne", "pca")
TOPICS = "topics"
COLLECTIONS = "collection"  # colour by the user's collections
SPECIAL_COLOURS = (TOPICS, "predicted journal", COLLECTIONS, "(none)")
OLD_COLOURS = {"k-means cluster": TOPICS}  # links shared before the topic hierarchy still open its map
_NUMBERS: dict[str, tuple[type, float, float, str | None]] = {  # name -> (type, low, high, method it belongs to)
    "n_neighbors": (int, 5, 100, "umap"), "min_dist": (float, 0.0, 0.99, "umap"),
    "perplexity": (int, 5, 100, "tsne"), "k": (int, 2, 200, None),
}
PLAY_MODES = ("1y", "2y", "3y", "5y", "cumulative")  # a moving window of so many years, or all years so far
PAGE_PARAMS = ("job",)  # a page's own parameters (the Train page's job), not part of the view but not unknown
KNOWN = ("corpus", "model", "method", "colour", "highlight", "years", "paper", "compare", "level", "play", "zoom",
         *_NUMBERS, *PAGE_PARAMS)
Zoom = tuple[float, float, float, float]  # x0, x1, y0, y1: the map's visible window
_YEARS = re.compile(r"^\s*(\d{4})\s*[-–:]\s*(\d{4})\s*$")


@dataclass
class View:
    """A checked view: the values that fit (None: the default) and one sentence per value that did not."""

    corpus: str | None = None
    model: str | None = None
    method: str | None = None
    colour: str | None = None
    highlight: str | None = None
    years: tuple[int, int] | None = None
    paper: str | None = None
    compare: str | None = None
    level: str | None = None
    play: str | None = None
    zoom: Zoom | None = None
    numbers: dict[str, float] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def _number(name: str, text: str) -> float | None:
    kind, low, high, _ = _NUMBERS[name]
    try:
        value = kind(float(text)) if kind is int else float(text)
    except ValueError:
        return None
    return value if low <= value <= high else None


def parse_view(
    query: Mapping[str, str], *, corpora: Sequence[str], models: Sequence[str],
    columns: Callable[[str], Sequence[str]], papers: Callable[[str], Sequence[str]] | None = None,
    default_corpus: str | None = None,
) -> View:
    """Check a URL's parameters against the workspace (``columns(corpus)``: its label columns, ``papers(corpus)``:
    its ids); what does not fit is left out of the view and said in ``problems``."""
    view = View()
    unknown = sorted(k for k in query if k not in KNOWN)
    if unknown:
        view.problems.append(f"The link has parameters this app does not know ({', '.join(unknown)}); they were "
                             "ignored.")
    corpus = query.get("corpus")
    if corpus is not None:
        if corpus in corpora:
            view.corpus = corpus
        else:
            view.problems.append(f"The link names corpus '{corpus}', which is not in this workspace; showing "
                                 f"{repr(default_corpus) if default_corpus else 'the current one'} instead.")
    for key in ("model", "compare"):
        name = query.get(key)
        if name is not None:
            if name in models:
                setattr(view, key, name)
            else:
                view.problems.append(f"The link names model '{name}' ({key}), which is not registered here; "
                                     "using the current model instead." if key == "model" else
                                     f"The link compares with model '{name}', which is not registered here; "
                                     "showing one map.")
    method = query.get("method")
    if method is not None:
        if method.lower() in METHODS:
            view.method = method.lower()
        else:
            view.problems.append(f"The link's map method '{method}' is not one of {', '.join(METHODS)}; using UMAP.")
    shown = view.corpus or default_corpus
    colour = query.get("colour")
    if colour is not None:
        choices = [*(columns(shown) if shown else []), *SPECIAL_COLOURS]
        if colour not in choices:
            colour = OLD_COLOURS.get(colour, colour)
        if colour in choices:
            view.colour = colour
        else:
            view.problems.append(f"Corpus '{shown}' has no column '{colour}' to colour by; using its first label "
                                 "column.")
    if query.get("highlight"):
        view.highlight = query["highlight"][:200]
    years = query.get("years")
    if years is not None:
        match = _YEARS.match(years)
        if match and int(match[1]) <= int(match[2]):
            view.years = (int(match[1]), int(match[2]))
        else:
            view.problems.append(f"The link's years '{years}' are not a range like 1995-2005; showing all years.")
    for name, choices, what, instead in (("level", LEVELS, "topic level", "showing coarse topics"),
                                         ("play", PLAY_MODES, "play mode", "the map is not playing")):
        value = query.get(name)
        if value is not None:
            if value.lower() in choices:
                setattr(view, name, value.lower())
            else:
                view.problems.append(f"The link's {what} '{value}' is not one of {', '.join(choices)}; {instead}.")
    paper = query.get("paper")
    if paper is not None:
        if papers is None or (shown and paper in set(papers(shown))):
            view.paper = paper
        else:
            view.problems.append(f"Corpus '{shown}' has no paper with id '{paper}'; no paper is selected.")
    if query.get("zoom") is not None:
        view.zoom = parse_zoom(query["zoom"])
        if view.zoom is None:
            view.problems.append(f"The link's zoom '{query['zoom'][:80]}' is not a window like x0,x1,y0,y1 (four "
                                 "numbers, each pair increasing); showing the whole map.")
    for name in _NUMBERS:
        if name in query:
            value = _number(name, query[name])
            if value is None:
                _, low, high, _ = _NUMBERS[name]
                view.problems.append(f"The link's {name} '{query[name]}' is not a number from {low:g} to "
                                     f"{high:g}; using the default.")
            else:
                view.numbers[name] = value
    return view


def view_query(*, corpus: str | None, model: str | None, method: str, colour: str | None, highlight: str = "",
               years: tuple[int, int] | None = None, paper: str | None = None, compare: str | None = None,
               params: Mapping[str, Any] | None = None, k: int | None = None,
               level: str | None = None, play: str | None = None, zoom: Zoom | None = None) -> dict[str, str]:
    """The query parameters of a view, for the page's URL (empty and default-free values left out)."""
    out: dict[str, str] = {}
    for key, value in (("corpus", corpus), ("model", model), ("method", method), ("colour", colour),
                       ("highlight", highlight), ("paper", paper), ("compare", compare)):
        if value:
            out[key] = str(value)
    if years:
        out["years"] = f"{years[0]}-{years[1]}"
    if play in PLAY_MODES:
        out["play"] = play
    if zoom is not None:
        out["zoom"] = zoom_text(zoom)
    for name, value in (params or {}).items():
        if name in _NUMBERS and _NUMBERS[name][3] == method:
            out[name] = f"{value:g}" if isinstance(value, float) else str(value)
    if colour == TOPICS:
        if k is not None:
            out["k"] = str(k)
        if level in LEVELS:
            out["level"] = level
    return out


def parse_zoom(text: str) -> Zoom | None:
    """A zoom window from ``x0,x1,y0,y1`` (finite numbers, x0 < x1 and y0 < y1); None when it is not one."""
    import math

    try:
        values = [float(v) for v in str(text).split(",")]
    except ValueError:
        return None
    if len(values) != 4 or not all(math.isfinite(v) for v in values):
        return None
    x0, x1, y0, y1 = values
    return (x0, x1, y0, y1) if x0 < x1 and y0 < y1 else None


def zoom_text(zoom: Zoom) -> str:
    """A zoom window as the URL writes it: four numbers, five significant digits each."""
    return ",".join(f"{v:.5g}" for v in zoom)


def year_bounds(frame: Any) -> tuple[int, int] | None:
    """The first and last year of a corpus's numeric ``year`` column (None without two distinct years), found once per
    frame object (`core.frames.derived`: the app's frames are never changed in place)."""
    if "year" not in frame.columns:
        return None

    def bounds(f: Any) -> tuple[int, int] | None:
        years = _years(f)
        with np.errstate(invalid="ignore"):
            years = years[(years >= 1000) & (years <= 2999)]
        return (int(years.min()), int(years.max())) if len(years) and years.min() < years.max() else None

    return derived(frame, "year_bounds", bounds)


def year_mask(frame: Any, years: tuple[int, int]) -> Any:
    """Which papers' year lies in the range (both ends included); papers without a year are outside it."""
    values = _years(frame)
    with np.errstate(invalid="ignore"):
        return (values >= years[0]) & (values <= years[1])


def _years(frame: Any) -> np.ndarray:
    """Each paper's year as a number (NaN: none or not a number), parsed once per frame object: a map page run asked
    two or three times, 0.05–0.1 s each at 1M papers (BENCHMARKS §31y). Read-only."""
    import pandas as pd

    def parse(f: Any) -> np.ndarray:
        values = pd.to_numeric(f["year"], errors="coerce").to_numpy(dtype=float)
        values.flags.writeable = False
        return values

    return derived(frame, "years_numeric", parse)


def clamp_years(wanted: Any, bounds: tuple[int, int]) -> tuple[int, int]:
    """A wanted year range (e.g. from a link) inside a corpus's bounds; the whole span when it does not overlap."""
    try:
        low, high = max(int(wanted[0]), bounds[0]), min(int(wanted[1]), bounds[1])
    except (TypeError, ValueError, IndexError):
        return bounds
    return (low, high) if low <= high else bounds
