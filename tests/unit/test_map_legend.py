"""Issue 29 §5: the map's legend says what is on screen in a year window and while playing (every label keeps its
entry, in its own colour, never faded; the highlighted entry has its own swatch), and play skips empty years."""

from __future__ import annotations

import numpy as np

from core.plots import add_year_animation, map_figure, overlay_visible_rows, windows_with_papers, year_windows
from core.plots.style import PALETTE


def corpus() -> tuple[np.ndarray, np.ndarray, list[str]]:
    """60 papers: 'a' (30, years 2000-2004), 'b' (20, all from 2004), 'c' (10, 2000-2001)."""
    coords = np.random.default_rng(0).standard_normal((60, 2)).astype(np.float32)
    labels = ["a"] * 30 + ["b"] * 20 + ["c"] * 10
    years = np.array([2000 + i % 5 for i in range(30)] + [2004] * 20 + [2000 + i % 2 for i in range(10)], float)
    return coords, years, labels


def legend(fig) -> dict[str, dict]:
    """What the legend shows: each entry's name -> its marker (colour, opacity), as plotly.js draws the swatch."""
    shown = {}
    for trace in fig.data:
        if trace.showlegend is False or trace.legendgroup == "years" or trace.x is None or not len(trace.x):
            continue
        colour = trace.marker.color
        first = colour if isinstance(colour, str) or colour is None else list(colour)[0]  # plotly.js: the first
        opacity = 1.0 if trace.marker.opacity is None else trace.marker.opacity
        shown[trace.name] = {"colour": first, "opacity": opacity}
    return shown


def test_a_label_whose_papers_are_all_in_the_year_window_keeps_its_legend_entry():
    coords, years, labels = corpus()
    window = (years >= 2004) & (years <= 2004)  # every 'b' paper is in front
    fig = map_figure(coords, color=labels, color_name="journal", highlight=window)
    assert set(legend(fig)) == {"a", "b", "c", "highlighted"}
    assert legend(fig)["b"]["colour"] == PALETTE[1]


def test_the_highlighted_entry_has_its_own_swatch_not_the_first_papers_colour():
    coords, years, labels = corpus()
    fig = map_figure(coords, color=labels, color_name="journal", highlight=years == 2001)
    swatch = legend(fig)["highlighted"]["colour"]
    assert swatch not in {PALETTE[0], PALETTE[1], PALETTE[2]}
    real = [t for t in fig.data if t.name == "highlighted" and len(t.customdata)]
    assert sorted(int(r) for r in real[0].customdata) == np.flatnonzero(years == 2001).tolist()


def test_swatches_are_never_faded_while_playing():
    coords, years, labels = corpus()
    for picture in (False, True):
        fig = add_year_animation(map_figure(coords, color=labels, color_name="journal"), coords, years, width=None,
                                 picture=picture)
        shown = legend(fig)
        assert set(shown) == {"a", "b", "c"}, picture
        assert all(entry["opacity"] >= 0.8 for entry in shown.values()), (picture, shown)
        assert [shown[k]["colour"] for k in "abc"] == PALETTE[:3]
        faded = [t for t in fig.data if t.name == "a" and t.showlegend is False]
        assert faded and faded[0].marker.opacity < 0.2  # the map's own points are still faded


def test_play_never_steps_through_years_without_papers():
    coords, years, labels = corpus()
    years[0] = 1990  # one old paper, then nine years without any
    fig = add_year_animation(map_figure(coords, color=labels), coords, years, width=1)
    assert [f.name for f in fig.frames] == ["1990", "2000", "2001", "2002", "2003", "2004"]
    fig = add_year_animation(map_figure(coords, color=labels), coords, years, width=None)
    assert [f.name for f in fig.frames] == ["1990", "1990–2000", "1990–2001", "1990–2002", "1990–2003", "1990–2004"]
    assert np.array_equal(overlay_visible_rows(fig, (1990, 2000)), np.flatnonzero(years <= 2000))
    fig = add_year_animation(map_figure(coords, color=labels), coords, years, width=5)
    assert [f.name for f in fig.frames][:2] == ["1990–1994", "1996–2000"]  # 1991-1995 ... 1995-1999: empty


def test_windows_with_papers():
    windows = year_windows((1990, 1995), 2)
    assert windows_with_papers(windows, [1990, 1995], cumulative=False) == [(1990, 1991), (1994, 1995)]
    assert windows_with_papers(year_windows((1990, 1995), None), [1990, 1993, 1995], cumulative=True) == [
        (1990, 1990), (1990, 1993), (1990, 1995)]
