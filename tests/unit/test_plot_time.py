"""Time on the map: the play frames cover every year, each draws exactly its window's papers; topics over time."""

from __future__ import annotations

import numpy as np
import pytest

from core.errors import MireadError
from core.explore.timeline import papers_per_year
from core.plots import (
    add_year_animation,
    is_legend_entry,
    map_figure,
    overlay_visible_rows,
    topics_over_time_figure,
    year_windows,
)


def corpus(n: int = 300, seed: int = 0):
    rng = np.random.default_rng(seed)
    coords = rng.standard_normal((n, 2)).astype(np.float32)
    years = rng.integers(2000, 2011, n).astype(float)
    years[::17] = np.nan  # papers without a year
    labels = [f"journal {k}" for k in rng.integers(0, 20, n)]
    return coords, years, labels


def test_windows_move_one_year_at_a_time_or_grow():
    assert year_windows((2000, 2004), 2) == [(2000, 2001), (2001, 2002), (2002, 2003), (2003, 2004)]
    assert year_windows((2000, 2002), None) == [(2000, 2000), (2000, 2001), (2000, 2002)]
    assert year_windows((2000, 2001), 5) == [(2000, 2001)]  # wider than the span: one window of it all
    with pytest.raises(MireadError):
        year_windows((2000, 2001), 0)


@pytest.mark.parametrize("width", [1, 3, None])
def test_each_frame_draws_exactly_the_papers_of_its_window(width):
    coords, years, labels = corpus()
    fig = add_year_animation(map_figure(coords, color=labels, color_name="journal"), coords, years, width=width)
    windows = [tuple(w) for w in fig.layout.meta["windows"]]
    assert [f.name for f in fig.frames] == [s.label for s in fig.layout.sliders[0].steps]
    covered = {y for low, high in windows for y in range(low, high + 1)}
    assert covered == set(range(2000, 2011))  # every year is in some frame
    for window in windows:
        expected = np.flatnonzero((years >= window[0]) & (years <= window[1]))
        assert np.array_equal(overlay_visible_rows(fig, window), expected)
    for frame in fig.frames:  # a frame switches visibility only: it never carries points
        assert all(d.x is None and d.y is None for d in frame.data)
    assert [b.label for b in fig.layout.updatemenus[0].buttons] == ["▶ Play", "❚❚ Pause"]


def test_the_map_stays_put_faded_and_overlay_points_keep_their_colours():
    coords, years, labels = corpus()
    plain = map_figure(coords, color=labels, color_name="journal")
    fig = add_year_animation(map_figure(coords, color=labels, color_name="journal"), coords, years, width=2)
    base = [t for t in fig.data if t.legendgroup != "years" and not is_legend_entry(t)]
    assert len(base) == len(plain.data)
    for before, after in zip(plain.data, base):
        assert np.array_equal(np.asarray(before.x), np.asarray(after.x)) and after.marker.opacity < 0.2
    colour_of = {int(r): t.marker.color for t in plain.data for r in t.customdata}
    for trace in [t for t in fig.data if t.legendgroup == "years"]:
        assert [colour_of[int(r)] for r in trace.customdata] == list(trace.marker.color)
        assert np.allclose(np.asarray(trace.x), coords[np.asarray(trace.customdata), 0])


def test_a_sampled_map_animates_only_the_drawn_papers():
    coords, years, labels = corpus(500)
    fig = add_year_animation(map_figure(coords, color=labels, max_points=200), coords, years, width=1)
    drawn = {int(r) for t in fig.data if t.legendgroup != "years" for r in t.customdata}
    overlay = [int(r) for t in fig.data if t.legendgroup == "years" for r in t.customdata]
    assert len(drawn) == 200 and set(overlay) <= drawn and len(overlay) == len(set(overlay))


def test_no_years_is_one_sentence():
    coords, _, labels = corpus(20)
    with pytest.raises(MireadError, match="no paper has a year"):
        add_year_animation(map_figure(coords), coords, np.full(20, np.nan))


def test_topics_over_time_figure_stacks_one_bar_trace_per_group():
    table = papers_per_year([2001, 2002, 2002], ["<b>x</b>", "y", "y"])
    fig = topics_over_time_figure(table, "journal")
    assert fig.layout.barmode == "stack" and [t.name for t in fig.data] == ["y", "&lt;b&gt;x&lt;/b&gt;"]
    assert sum(int(v) for t in fig.data for v in t.y) == 3


def test_a_large_map_fades_into_a_picture_and_the_papers_in_front_carry_the_cards():
    import pandas as pd

    coords, years, labels = corpus(400)
    hover = pd.DataFrame({"title": [f"paper {i}" for i in range(400)]})
    plain = map_figure(coords, color=labels, color_name="journal", hover=hover)
    card = {int(r): text for t in plain.data for r, text in zip(t.customdata, t.hovertext)}
    fig = add_year_animation(map_figure(coords, color=labels, color_name="journal", hover=hover), coords, years,
                             width=2, picture=True)
    assert fig.layout.meta["picture"] and len(fig.layout.images) == 1
    assert fig.layout.images[0].source.startswith("data:image/png;base64,")
    base = [t for t in fig.data if t.legendgroup != "years"]
    assert all(list(t.x) == [None] for t in base)  # no points: the map's own traces and their legend entries
    entries = {t.name for t in base if is_legend_entry(t)}
    assert entries == {t.name for t in base if not is_legend_entry(t)} and len(entries) == 13  # 12 labels, 'other'
    assert fig.layout.legend.itemclick is False
    x0, x1 = fig.layout.xaxis.range  # fixed: the map does not move while the overlays change
    assert fig.layout.xaxis.autorange is False and x0 < coords[:, 0].min() and x1 > coords[:, 0].max()
    for window in [tuple(w) for w in fig.layout.meta["windows"]]:  # the frames are the same as without a picture
        assert np.array_equal(overlay_visible_rows(fig, window),
                              np.flatnonzero((years >= window[0]) & (years <= window[1])))
    for trace in [t for t in fig.data if t.legendgroup == "years"]:
        assert trace.hoverinfo == "text"
        assert list(trace.hovertext) == [card[int(r)] for r in trace.customdata]


def test_without_a_picture_the_faded_map_keeps_its_webgl_traces():
    coords, years, labels = corpus()
    fig = add_year_animation(map_figure(coords, color=labels), coords, years)
    assert not fig.layout.meta["picture"] and not fig.layout.images
