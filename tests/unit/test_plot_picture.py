"""The faded map as a picture: dots where Plotly would draw the points, in their colours, stacked like markers."""

from __future__ import annotations

import base64
import io

import numpy as np
import pytest
from PIL import Image

from core.errors import MireadError
from core.plots.picture import PAD, points_picture


def pixels(uri: str) -> np.ndarray:
    head, data = uri.split(",", 1)
    assert head == "data:image/png;base64"
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(data))).convert("RGBA"))


def test_a_dot_lands_at_its_data_position_in_its_colour_and_opacity():
    coords = np.array([[0.0, 0.0], [10.0, 5.0], [10.0, 5.0]])
    picture = points_picture(coords, np.array(["#ff0000", "#0000ff", "#0000ff"]), 0.2, radius=1, size=(101, 51))
    image = pixels(picture.uri)
    assert image.shape == (51, 101, 4)
    span_x, span_y = 10 * (1 + 2 * PAD), 5 * (1 + 2 * PAD)
    assert picture.x == pytest.approx((-10 * PAD, 10 + 10 * PAD)) and picture.y == pytest.approx((-5 * PAD, 5 + 5 * PAD))

    def at(x: float, y: float) -> np.ndarray:  # the pixel of a data point (rows go down)
        col = round((x - picture.x[0]) / span_x * 100)
        row = round((picture.y[1] - y) / span_y * 50)
        return image[row, col]

    assert list(at(0, 0)) == [255, 0, 0, round(255 * 0.2)]  # one red dot at 20 %
    assert list(at(10, 5)) == [0, 0, 255, round(255 * (1 - 0.8 ** 2))]  # two blue dots stack
    assert image[25, 50, 3] == 0  # nothing between them
    assert (image[..., 3] > 0).sum() == 2 * 5  # two dots of radius 1: five pixels each


def test_a_layout_image_covers_the_pictures_rectangle_under_the_traces():
    picture = points_picture(np.array([[1.0, 2.0], [3.0, 6.0]]), np.array(["red", "rgb(0, 128, 0)"]), 0.5)
    image = picture.layout_image()
    assert (image["x"], image["y"]) == (picture.x[0], picture.y[1]) and image["layer"] == "below"
    assert image["sizex"] == pytest.approx(picture.x[1] - picture.x[0]) and image["xref"] == "x"


def test_bad_input_is_one_sentence():
    with pytest.raises(MireadError, match="3 colours for 2 points"):
        points_picture(np.zeros((2, 2)), np.array(["red"] * 3), 0.1)
    with pytest.raises(MireadError, match="cannot draw the colour"):
        points_picture(np.zeros((1, 2)), np.array(["not-a-colour"]), 0.1)
