"""The density overview of a map too large to draw point by point: the grid and the papers of a view window."""

from __future__ import annotations

import numpy as np

from core.explore.maps.density import density_grid, window_rows


def test_the_grid_counts_each_cell_log_scaled_with_the_top_row_at_the_top_of_the_map():
    xy = np.array([[-0.9, 0.9]] * 100 + [[0.9, -0.9]] * 10 + [[0.0, 0.0]], dtype=np.float32)
    grid = density_grid(xy, size=4)
    assert grid.shape == (4, 4) and grid.dtype == np.uint8
    assert grid[0, 0] == 255  # 100 papers top left: the densest cell
    assert 0 < grid[3, 3] < grid[0, 0]  # 10 papers bottom right, log-scaled: about half
    assert grid[3, 3] == 1 + int(np.log1p(10) / np.log1p(100) * 254)
    assert grid[2, 2] == 1 + int(np.log1p(1) / np.log1p(100) * 254)  # a single paper: visible, not 0
    assert np.count_nonzero(grid) == 3


def test_points_outside_the_square_and_nan_are_left_out_and_an_empty_map_is_blank():
    xy = np.array([[2.0, 0.0], [np.nan, 0.0], [0.5, 0.5]], dtype=np.float32)
    grid = density_grid(xy, size=8)
    assert np.count_nonzero(grid) == 1 and grid.max() == 255
    assert not density_grid(np.zeros((0, 2)), size=8).any()


def test_a_window_keeps_every_paper_inside_it_when_under_the_cap():
    xy = np.array([[0.0, 0.0], [0.5, 0.5], [-0.5, 0.2], [0.9, -0.9]])
    window = window_rows(xy, (-0.6, 0.6, -0.1, 0.6), cap=10)
    assert window.rows.tolist() == [0, 1, 2] and window.inside == 3 and window.left_out == 0
    assert window_rows(xy, None, cap=10).rows.tolist() == [0, 1, 2, 3]
    assert window_rows(xy, (0.6, -0.6, 0.6, -0.1), cap=10).rows.tolist() == [0, 1, 2]  # reversed bounds


def test_a_crowded_window_draws_a_seeded_sample_of_the_cap_and_counts_the_rest():
    rng = np.random.default_rng(1)
    xy = rng.uniform(-1, 1, size=(10_000, 2))
    box = (-0.5, 0.5, -0.5, 0.5)
    window = window_rows(xy, box, cap=500, seed=3)
    inside = np.flatnonzero((np.abs(xy[:, 0]) <= 0.5) & (np.abs(xy[:, 1]) <= 0.5))
    assert window.inside == len(inside) > 500
    assert len(window.rows) == 500 and window.left_out == len(inside) - 500
    assert np.all(np.diff(window.rows) > 0) and set(window.rows) <= set(inside)  # sorted, unique, all inside
    assert window_rows(xy, box, cap=500, seed=3).rows.tolist() == window.rows.tolist()  # deterministic
    assert window_rows(xy, box, cap=500, seed=4).rows.tolist() != window.rows.tolist()


def test_rows_in_polygon_are_the_points_a_lasso_encloses():
    from core.explore.maps.density import rows_in_polygon

    xy = np.array([[0.0, 0.0], [0.5, 0.5], [0.9, 0.1], [-0.5, 0.2], [0.3, -0.8], [0.25, 0.26]])
    square = [-0.2, -0.2, 0.6, -0.2, 0.6, 0.6, -0.2, 0.6]  # flat x, y pairs, as the browser sends them
    assert rows_in_polygon(xy, square).tolist() == [0, 1, 5]
    triangle = np.array([[-0.1, -0.1], [1.2, -0.1], [-0.1, 1.2]])  # x, y > -0.1 and x + y < 1.1
    assert rows_in_polygon(xy, triangle).tolist() == [0, 1, 2, 5]
    concave = np.array([[-1, -1], [1, -1], [1, 1], [0.6, 1], [0.6, -0.5], [-0.6, -0.5], [-0.6, 1], [-1, 1]])
    assert rows_in_polygon(xy, concave).tolist() == [2, 4]  # a U: the points in its notch are outside
    assert rows_in_polygon(xy, [0, 0, 1, 1]).tolist() == []  # fewer than three vertices: no area


def test_rows_in_polygon_agree_with_a_point_by_point_ray_cast():
    from core.explore.maps.density import rows_in_polygon

    rng = np.random.default_rng(3)
    xy = rng.uniform(-1, 1, size=(5_000, 2))
    angles = np.sort(rng.uniform(0, 2 * np.pi, 40))
    poly = np.c_[np.cos(angles), np.sin(angles)] * rng.uniform(0.3, 0.9, (40, 1))  # a star-shaped lasso

    def inside(px: float, py: float) -> bool:
        hit = False
        for (ax, ay), (bx, by) in zip(poly, np.roll(poly, -1, axis=0)):
            if (ay > py) != (by > py) and px < ax + (py - ay) * (bx - ax) / (by - ay):
                hit = not hit
        return hit

    expected = [i for i, (px, py) in enumerate(xy) if inside(px, py)]
    assert rows_in_polygon(xy, poly).tolist() == expected and 0 < len(expected) < len(xy)
