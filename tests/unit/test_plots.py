"""Tests for the plotly figures: structure of fig.to_dict() and escaping of user text."""

import base64
import json

import numpy as np
import pandas as pd
import pytest

from core.errors import MireadError
from core.plots import (
    export_html,
    journal_bar_figure,
    map_figure,
    prediction_balance_figure,
    purity_figure,
    robustness_figure,
    selected_rows,
    top_labels,
    training_curves_figure,
)

EVIL = "<script>alert(1)</script><img src=x onerror=alert(2)>"


def _values(value) -> list:
    """Decode plotly's typed-array dicts ({dtype, bdata}) or plain lists into a list."""
    if isinstance(value, dict) and "bdata" in value:
        return np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"]).tolist()
    return list(np.asarray(value).tolist())


def _dump(fig) -> str:
    """JSON of fig.to_dict() without plotly's own HTML-safe escaping of '<'."""
    return json.dumps(fig.to_dict(), default=lambda o: np.asarray(o).tolist())


def _map(n: int = 60, **kwargs):
    rng = np.random.default_rng(0)
    coords = rng.standard_normal((n, 2)).astype(np.float32)
    return coords, map_figure(coords, **kwargs)


def _customdata(data: list[dict]) -> list[int]:
    return [i for trace in data for i in _values(trace["customdata"])]


def test_top_labels_keeps_the_most_frequent_and_groups_the_rest():
    values = ["a"] * 5 + ["b"] * 4 + ["c"] * 3 + ["d", "e"]
    assert top_labels(values, max_labels=2) == ["a"] * 5 + ["b"] * 4 + ["other"] * 5
    assert top_labels(values, max_labels=2, other="rest")[-1] == "rest"
    assert top_labels(values, max_labels=5) == values


def test_top_labels_names_missing_values_and_prints_whole_numbers_cleanly():
    assert top_labels([None, float("nan"), pd.NA, 2019.0, "x"]) == ["(none)"] * 3 + ["2019", "x"]


def test_map_figure_draws_one_trace_per_top_label_plus_other():
    labels = [f"journal {i % 20}" for i in range(200)]
    coords, fig = _map(200, color=labels, color_name="journal", max_legend=5)
    data = fig.to_dict()["data"]
    names = [t["name"] for t in data]
    assert len(data) == 6 and names[-1] == "other"
    assert all(t["type"] == "scattergl" for t in data)
    assert sum(len(_values(t["x"])) for t in data) == 200
    assert sorted(_customdata(data)) == list(range(200))


def test_map_figure_customdata_points_back_to_the_right_coordinates():
    coords, fig = _map(50, color=["a", "b"] * 25)
    for trace in fig.to_dict()["data"]:
        rows = _values(trace["customdata"])
        assert np.allclose(_values(trace["x"]), coords[rows, 0])
        assert np.allclose(_values(trace["y"]), coords[rows, 1])


def test_map_figure_without_colour_has_a_single_trace():
    _, fig = _map(30)
    data = fig.to_dict()["data"]
    assert len(data) == 1 and sorted(_customdata(data)) == list(range(30))


def test_map_figure_uses_a_colour_scale_for_many_numeric_values():
    years = [2000 + i % 20 for i in range(100)]
    years[0] = None
    _, fig = _map(100, color=years, color_name="year")
    data = fig.to_dict()["data"]
    assert [t["name"] for t in data] == ["(none)", "year"]
    assert "colorbar" in data[1]["marker"]
    assert sorted(_customdata(data)) == list(range(100))


def test_map_figure_escapes_titles_labels_and_annotations():
    n = 4
    hover = pd.DataFrame({"title": [EVIL, "ok", None, "x " * 200], "year": [2020, None, 2021, 1999],
                          "doi": ["10.1/<b>", "", "10.2/x", None]})
    _, fig = _map(n, color=[EVIL, "b", "b", None], color_name="<i>journal</i>", hover=hover,
                  cluster_labels={EVIL: (0.0, 0.0)}, query_points=np.zeros((1, 2)),
                  query_labels=[EVIL], title=EVIL)
    dumped = _dump(fig)
    assert "<script>" not in dumped and "<img" not in dumped and "<i>" not in dumped
    assert "&lt;script&gt;" in dumped
    texts = [s for t in fig.to_dict()["data"] for s in t.get("hovertext", [])]
    first = next(s for s in texts if "alert(1)" in s and "journal" in s)
    assert first.startswith("<b>&lt;script&gt;alert(1)")
    assert "year: 2020" in first and "doi: 10.1/&lt;b&gt;" in first and "title:" not in first
    long = next(s for s in texts if s.startswith("<b>x x"))
    assert "<br>" in long and "…" in long and len(long) < 400


def test_map_figure_draws_highlighted_points_once_on_top():
    mask = np.zeros(40, dtype=bool)
    mask[[3, 7, 11]] = True
    _, fig = _map(40, color=["a", "b"] * 20, highlight=mask)
    data = fig.to_dict()["data"]
    assert data[-1]["name"] == "highlighted" and data[-2]["name"] == "highlighted"  # its legend entry, then it
    assert sorted(_values(data[-2]["customdata"])) == [3, 7, 11]
    assert data[-2]["marker"]["size"] > data[0]["marker"]["size"]
    assert data[0]["marker"]["opacity"] < data[-2]["marker"]["opacity"]
    assert sorted(_customdata(data)) == list(range(40))


def test_map_figure_marks_query_points_as_stars():
    _, fig = _map(20, query_points=np.array([[0.5, 0.5], [1.0, 1.0]]))
    query = fig.to_dict()["data"][-1]
    assert query["marker"]["symbol"] == "star"
    assert query["text"] == ["your paper", "your paper"]
    assert _values(query["customdata"]) == [-1, -1]


def test_map_figure_layout_is_a_clean_lasso_map():
    _, fig = _map(10, cluster_labels={"graphs, networks": (1.0, 2.0)})
    layout = fig.to_dict()["layout"]
    assert layout["dragmode"] == "lasso" and layout["uirevision"] == "map"
    assert layout["xaxis"]["showticklabels"] is False and layout["height"] == 720
    assert layout["annotations"][0]["text"] == "graphs, networks"


def test_map_figure_rejects_mismatched_inputs():
    with pytest.raises(MireadError, match="3 colour values for 10"):
        map_figure(np.zeros((10, 2)), color=["a", "b", "c"])
    with pytest.raises(MireadError, match=r"\[papers, 2\]"):
        map_figure(np.zeros((10, 3)))


def test_selected_rows_reads_customdata_and_drops_query_points():
    selection = {"points": [{"customdata": 4}, {"customdata": [2]}, {"customdata": -1}, {"x": 0}]}
    assert selected_rows(selection).tolist() == [2, 4]
    assert selected_rows({}).tolist() == []


def test_journal_bar_figure_puts_the_most_likely_journal_on_top():
    fig = journal_bar_figure(["B", EVIL, "A"], [0.2, 0.1, 0.7], title="fit")
    bar = fig.to_dict()["data"][0]
    assert bar["orientation"] == "h" and bar["y"][0] == "A"
    assert bar["text"][0] == "70.0%"
    assert fig.to_dict()["layout"]["yaxis"]["autorange"] == "reversed"
    assert "<script>" not in _dump(fig)


def test_prediction_balance_figure_groups_predicted_and_actual_shares():
    df = pd.DataFrame({"label": ["a", "b"], "predicted_share": [0.1, 0.9], "actual_share": [0.5, 0.5]})
    data = prediction_balance_figure(df).to_dict()["data"]
    assert [t["name"] for t in data] == ["predicted", "actual"]
    assert _values(data[0]["x"]) == ["b", "a"] and _values(data[0]["y"]) == [0.9, 0.1]


def test_prediction_balance_figure_names_missing_columns():
    with pytest.raises(MireadError, match="actual_share"):
        prediction_balance_figure(pd.DataFrame({"label": [], "predicted_share": []}))


def test_training_curves_figure_draws_one_line_per_split_for_the_chosen_metric():
    metrics = pd.DataFrame({
        "step": [2, 1, 1, 2, 2],
        "split": ["train", "train", "val", "val", "train"],
        "name": ["loss", "loss", "loss", "loss", "accuracy"],
        "value": [0.5, 0.9, 1.0, 0.7, 0.3],
    })
    data = training_curves_figure(metrics, "loss").to_dict()["data"]
    assert [t["name"] for t in data] == ["train", "val"]
    assert _values(data[0]["x"]) == [1, 2] and _values(data[0]["y"]) == [0.9, 0.5]
    assert training_curves_figure(metrics.iloc[:0]).to_dict()["layout"]["annotations"]


def test_purity_figure_draws_one_line_per_model():
    df = pd.DataFrame({"model": ["m1", "m1", "m2", "m2"], "k": [10, 100, 10, 100], "purity": [.5, .4, .6, .5]})
    fig = purity_figure(df)
    assert [t["name"] for t in fig.to_dict()["data"]] == ["m1", "m2"]
    assert fig.to_dict()["layout"]["xaxis"]["type"] == "log"


def test_robustness_figure_groups_bars_by_model():
    df = pd.DataFrame({"model": ["m1", "m2"], "category": ["typo", "typo"], "nn10_ret": [0.8, 0.6]})
    fig = robustness_figure(df)
    assert [t["type"] for t in fig.to_dict()["data"]] == ["bar", "bar"]
    assert fig.to_dict()["layout"]["barmode"] == "group"


def test_export_html_inlines_plotly_and_keeps_titles_escaped():
    _, fig = _map(5, hover=pd.DataFrame({"title": [EVIL] * 5}))
    page = export_html(fig)
    assert page.lstrip().lower().startswith("<!doctype html>")
    assert "cdn.plot.ly/plotly" not in page.split("<body>")[0] and 'src="http' not in page
    assert len(page) > 1_000_000 and "Plotly.newPlot" in page
    decoded = page.replace("\\u003c", "<").replace("\\u003e", ">").replace("\\u0026", "&")
    assert "&lt;script&gt;alert(1)" in decoded
    assert "<script>alert" not in decoded and "<img src=x" not in decoded


def test_map_figure_samples_big_maps_keeps_highlighted_papers_and_says_how_many_it_draws():
    n = 500
    coords = np.random.default_rng(1).standard_normal((n, 2)).astype(np.float32)
    highlight = np.zeros(n, dtype=bool)
    highlight[[3, 499]] = True
    labels = ["odd" if i % 2 else "even" for i in range(n)]
    hover = pd.DataFrame({"title": [f"paper {i}" for i in range(n)]})
    fig = map_figure(coords, color=labels, color_name="parity", hover=hover, highlight=highlight, max_points=50,
                     query_points=np.zeros((1, 2)))
    assert fig.layout.meta == {"drawn": 50, "total": n}
    rows = [r for r in _customdata(fig.to_dict()["data"]) if r >= 0]
    assert len(rows) == len(set(rows)) == 50 and {3, 499} <= set(rows)
    for trace in fig.data:  # every drawn point still carries its own corpus row, position and card
        for row, x, y, card in zip(trace.customdata, trace.x, trace.y, trace.hovertext):
            if row >= 0:
                assert (x, y) == tuple(coords[row])
                assert card.startswith(f"<b>paper {row}</b>") and labels[row] in card
    assert map_figure(coords, color=labels, max_points=None).layout.meta == {"drawn": n, "total": n}
    again = map_figure(coords, color=labels, highlight=highlight, max_points=50)
    assert sorted(_customdata(again.to_dict()["data"])) == sorted(rows)  # seeded: the same sample each time


def test_a_title_only_paper_says_so_on_its_hover_card() -> None:
    hover = pd.DataFrame({"title": ["With abstract", "Without"], "title_only": [None, True], "journal": ["J", "K"]})
    fig = map_figure(np.zeros((2, 2)), hover=hover)
    cards = [text for trace in fig.data for text in trace.hovertext]
    assert "title only, no abstract" not in cards[0] and "title only, no abstract" in cards[1]
    assert all("title_only" not in card for card in cards)  # the marker, not the raw column


def test_an_accuracy_curve_on_counted_papers_draws_its_95_percent_band_and_says_n():
    """Every verdict says how sure it is: the live val accuracy carries its Wilson interval over the papers counted."""
    from core.evaluation.verdict import proportion_interval

    metrics = pd.DataFrame({
        "step": [1, 1, 2, 2, 1, 2],
        "split": ["val", "val", "val", "val", "train", "train"],
        "name": ["accuracy", "papers", "accuracy", "papers", "accuracy", "accuracy"],
        "value": [0.5, 40, 0.6, 40, 0.7, 0.8],
    })
    from core.training.curves import interval_bands

    data = training_curves_figure(metrics, "accuracy", bands=interval_bands(metrics, "accuracy")).to_dict()["data"]
    val = next(t for t in data if t["name"].startswith("val"))
    assert val["name"] == "val (n = 40 papers)"
    band = next(t for t in data if t.get("fill") == "toself")
    low, high = proportion_interval(0.6 * 40, 40)
    ys = _values(band["y"])
    assert min(ys) == pytest.approx(proportion_interval(0.5 * 40, 40)[0]) and high in ys and low in ys
    assert band["showlegend"] is False and not any(t["name"].startswith("train (") for t in data)


def test_a_loss_curve_and_a_curve_without_counts_draw_no_band():
    from core.training.curves import interval_bands

    metrics = pd.DataFrame({"step": [1, 1], "split": ["val", "val"], "name": ["loss", "papers"], "value": [0.4, 40]})
    assert interval_bands(metrics, "loss") == {}
    old = pd.DataFrame({"step": [1], "split": ["val"], "name": ["accuracy"], "value": [0.4]})
    assert interval_bands(old, "accuracy") == {}
    data = training_curves_figure(old, "accuracy", bands=interval_bands(old, "accuracy")).to_dict()["data"]
    assert [t["name"] for t in data] == ["val"] and not any(t.get("fill") for t in data)
