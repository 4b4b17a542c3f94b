"""Shareable views (issue 17): a link's parameters checked against the workspace, and a view written back."""

from __future__ import annotations

import pandas as pd

from ui.views import clamp_years, parse_view, view_query, year_bounds, year_mask

WORKSPACE = {"corpora": ["med", "arxiv"], "models": ["minilm", "med-ft"],
             "columns": lambda c: {"med": ["journal", "year"], "arxiv": ["category"]}[c],
             "papers": lambda c: ["p1", "p2"], "default_corpus": "med"}


def test_a_good_link_is_read_whole() -> None:
    view = parse_view({"corpus": "arxiv", "model": "med-ft", "method": "TSNE", "colour": "category",
                       "highlight": "quantum", "years": "1995-2005", "paper": "p2", "perplexity": "40"}, **WORKSPACE)
    assert (view.corpus, view.model, view.method, view.colour, view.highlight) == (
        "arxiv", "med-ft", "tsne", "category", "quantum")
    assert view.years == (1995, 2005) and view.paper == "p2" and view.numbers == {"perplexity": 40}
    assert view.problems == []


def test_each_stale_or_malformed_value_is_one_sentence_and_left_out() -> None:
    view = parse_view({"corpus": "gone", "model": "bert", "method": "mds", "colour": "field", "years": "2005-1995",
                       "paper": "p9", "n_neighbors": "7000", "tilt": "3", "zoom": "3", "play": "fast"},
                      **WORKSPACE)
    assert (view.corpus, view.model, view.method, view.colour, view.years, view.paper, view.play, view.zoom) == (
        None,) * 8
    assert view.numbers == {}
    assert view.problems == [
        "The link has parameters this app does not know (tilt); they were ignored.",
        "The link names corpus 'gone', which is not in this workspace; showing 'med' instead.",
        "The link names model 'bert' (model), which is not registered here; using the current model instead.",
        "The link's map method 'mds' is not one of umap, tsne, pca; using UMAP.",
        "Corpus 'med' has no column 'field' to colour by; using its first label column.",
        "The link's years '2005-1995' are not a range like 1995-2005; showing all years.",
        "The link's play mode 'fast' is not one of 1y, 2y, 3y, 5y, cumulative; the map is not playing.",
        "Corpus 'med' has no paper with id 'p9'; no paper is selected.",
        "The link's zoom '3' is not a window like x0,x1,y0,y1 (four numbers, each pair increasing); showing the "
        "whole map.",
        "The link's n_neighbors '7000' is not a number from 5 to 100; using the default.",
    ]
    assert all(p.count(".") >= 1 and "\n" not in p for p in view.problems)


def test_a_view_written_then_read_is_the_same_view() -> None:
    query = view_query(corpus="med", model="minilm", method="umap", colour="topics", highlight="malaria",
                       years=(2001, 2010), params={"n_neighbors": 30, "min_dist": 0.25, "perplexity": 10}, k=8,
                       level="fine", play="2y")
    assert query == {"corpus": "med", "model": "minilm", "method": "umap", "colour": "topics",
                     "highlight": "malaria", "years": "2001-2010", "play": "2y", "n_neighbors": "30",
                     "min_dist": "0.25", "k": "8", "level": "fine"}
    view = parse_view(query, **WORKSPACE)
    assert view.problems == [] and view.years == (2001, 2010) and view.numbers == {"n_neighbors": 30,
                                                                                    "min_dist": 0.25, "k": 8}
    assert view.colour == "topics" and view.level == "fine" and view.play == "2y"
    assert "play" not in view_query(corpus="med", model="m", method="pca", colour="journal", play=None)
    assert "level" not in view_query(corpus="med", model="m", method="pca", colour="journal", k=8, level="fine")


def test_old_cluster_links_open_the_topic_map_and_an_unknown_level_is_one_sentence() -> None:
    view = parse_view({"colour": "k-means cluster", "k": "20", "level": "medium"}, **WORKSPACE)
    assert view.colour == "topics" and view.numbers == {"k": 20} and view.level is None
    assert view.problems == ["The link's topic level 'medium' is not one of coarse, fine; showing coarse topics."]
    assert parse_view({"colour": "topics", "level": "Coarse"}, **WORKSPACE).level == "coarse"


def test_years_of_a_corpus() -> None:
    frame = pd.DataFrame({"year": [1999, "2003", None, 2010.0, "n.d."]})
    assert year_bounds(frame) == (1999, 2010) and year_bounds(pd.DataFrame({"x": [1]})) is None
    assert year_mask(frame, (2000, 2010)).tolist() == [False, True, False, True, False]
    assert clamp_years((1990, 2005), (1999, 2010)) == (1999, 2005)
    assert clamp_years((2020, 2030), (1999, 2010)) == (1999, 2010)


def test_a_page_own_parameter_is_not_an_unknown_one() -> None:
    # the Train page keeps its job in the URL (issue 29 §5): ordinary navigation must not read as a bad link
    view = parse_view({"corpus": "med", "job": "a1b2c3"}, **WORKSPACE)
    assert view.corpus == "med" and view.problems == []
    assert parse_view({"corpus": "med", "bogus": "1"}, **WORKSPACE).problems  # a truly unknown one still is


def test_the_years_are_parsed_once_per_frame(monkeypatch):
    """BENCHMARKS §31y: a map page run parsed 1M papers' years two or three times (the Years slider, Topics over
    time, the window's count). The numbers and the bounds are kept with the frame object; another frame (a new
    corpus version) is parsed on its own, and the answers are the same as before."""
    import pandas as pd

    frame = pd.DataFrame({"year": ["1999", 2010, None, "n.d.", 3100.0, 2004.0]})
    parsed: list[int] = []
    to_numeric = pd.to_numeric
    monkeypatch.setattr(pd, "to_numeric", lambda values, **kw: parsed.append(len(values)) or to_numeric(values, **kw))
    assert year_bounds(frame) == (1999, 2010)
    assert year_mask(frame, (2000, 2010)).tolist() == [False, True, False, False, False, True]
    assert year_bounds(frame) == (1999, 2010)
    assert year_mask(frame, (1999, 2004)).tolist() == [True, False, False, False, False, True]
    assert parsed == [6]
    other = frame.copy()
    assert year_bounds(other) == (1999, 2010) and parsed == [6, 6]
    assert year_bounds(pd.DataFrame({"year": [2001, 2001, None]})) is None  # one distinct year
    assert year_bounds(pd.DataFrame({"year": ["x", None]})) is None
