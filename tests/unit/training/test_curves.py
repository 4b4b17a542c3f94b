"""Where the live curves start (issue 44): a train loss of 0.000004 at step 0 rising to 1.38 reads as 'training made
it worse' unless the page says that point is the head warm-up's loss."""

from __future__ import annotations

import json

import pandas as pd

from core.plots import training_curves_figure
from core.training.curves import curve_start_note, start_annotation, warmup_start


def frame(rows: list[tuple[int, str, str, float]]) -> pd.DataFrame:
    return pd.DataFrame([{"step": s, "epoch": 0.0, "split": sp, "name": n, "value": v, "ts": 0.0}
                         for s, sp, n, v in rows])


ISSUE = frame([(0, "train", "loss", 0.000004), (1, "train", "loss", 1.38), (2, "train", "loss", 1.2),
               (0, "val", "loss", 0.9), (2, "val", "loss", 0.8)])


def test_the_step_0_train_point_is_named_the_head_warm_up_on_the_chart_and_in_a_sentence():
    assert warmup_start(ISSUE) == 0.000004
    note = curve_start_note(ISSUE)
    assert note.startswith("Where the curves start: the **train** loss at step 0 (4e-06) is the head warm-up's last")
    assert "(first 1.38)" in note and "not training making the model worse" in note
    figure = training_curves_figure(ISSUE, y="loss", start_note=start_annotation(ISSUE))
    annotations = json.loads(figure.to_json())["layout"]["annotations"]
    assert [a["text"] for a in annotations] == ["head warm-up (4e-06)"] and annotations[0]["x"] == 0


def test_no_note_without_a_warm_up_point_or_before_the_first_step():
    assert curve_start_note(frame([(1, "train", "loss", 1.0), (2, "train", "loss", 0.9)])) is None
    assert curve_start_note(frame([(0, "train", "loss", 0.01)])) is None
    assert start_annotation(frame([(0, "train", "loss", 0.01)])) is None
    with_accuracy = pd.concat([ISSUE, frame([(2, "val", "accuracy", 0.5)])])
    assert "annotations" not in json.loads(training_curves_figure(with_accuracy, y="accuracy").to_json())["layout"]
    assert "annotations" not in json.loads(training_curves_figure(with_accuracy, y="loss").to_json())["layout"]


def test_a_curve_of_one_point_is_drawn_as_a_point():
    """Right after the head warm-up the train loss has one point (step 0): drawn as a line only, the live chart was
    empty axes with no 'no metrics yet' either."""
    figure = json.loads(training_curves_figure(frame([(0, "train", "loss", 0.1)]), y="loss").to_json())
    [trace] = figure["data"]
    assert "markers" in trace["mode"] and trace["name"] == "train"
    assert json.loads(training_curves_figure(ISSUE, y="loss").to_json())["data"][0]["mode"] == "lines"
