"""ui.shared.browser_data: Plotly figures as JSON text for the browser's modules, and the
checks of what a browser sends back (point lists, axis ranges)."""

import json
import math

import numpy as np
import pytest

from svm_engine import datasets
from ui.shared import browser_data, figures, fitting
from ui.shared.settings import Settings


def test_point_lists_are_checked_in_one_place():
    X, y = browser_data.parse_point_list([[1, 2.5, -1]], max_points=1)
    np.testing.assert_array_equal(X, [[1, 2.5]])
    assert y.tolist() == [-1] and y.dtype == np.int64
    with pytest.raises(browser_data.CanvasError, match="point 2 from the plot has label 0"):
        browser_data.parse_point_list([[0, 0, 1], [0, 0, 0]], max_points=5)
    with pytest.raises(browser_data.CanvasError, match="^point 1 is not two finite numbers"):
        browser_data.parse_point_list([[0, math.nan, 1]], max_points=5, source="")
    with pytest.raises(browser_data.CanvasError, match=r"too many points: 2 \(at most 1\)"):
        browser_data.parse_point_list([[0, 0, 1]] * 2, max_points=1)


@pytest.mark.parametrize(
    "xr, yr, want",
    [
        ([3, 1], [0, 2], ((1.0, 3.0), (0.0, 2.0))),
        ([0, 0], [0, 1], None),
        ([0, 1], [0, math.inf], None),
        ([0, 2e9], [0, 1], None),
        ([0, 1, 2], [0, 1], None),
        ([0, True], [0, 1], None),
        ("0,1", [0, 1], None),
    ],
)
def test_axis_ranges_are_validated(xr, yr, want):
    assert browser_data.parse_ranges(xr, yr) == want


def test_figure_json_encodes_arrays_as_typed_arrays_and_nan_as_null():
    text = browser_data.figure_json(
        {"data": [{"x": np.array([1.0, np.nan]), "y": np.arange(2), "z": np.ones((2, 3))}]}
    )
    t = json.loads(text)["data"][0]
    assert t["x"] == [1.0, None]
    assert t["y"]["dtype"] == "i4"
    assert t["z"]["dtype"] == "f8" and t["z"]["shape"] == "2,3"


def test_canvas_figure_json_shares_the_grid_between_shading_and_contours():
    d = datasets.d2()
    m = fitting.fit_points(d.X, d.y, Settings.from_dataset(d.settings)).model
    full = json.loads(browser_data.figure_json(figures.decision_figure_dict(m)))
    slim = json.loads(browser_data.canvas_figure_json(figures.decision_figure_dict(m)))
    contours = [t for t in slim["data"] if t["type"] == "contour"]
    assert contours and all(t["meta"]["z_from"] == "regions" and "z" not in t for t in contours)
    regions = next(t for t in slim["data"] if t["meta"]["role"] == "regions")
    full_contour = next(t for t in full["data"] if t["type"] == "contour")
    assert regions["z"] == full_contour["z"]  # the JS restores exactly this grid
    assert len(json.dumps(slim)) < 0.7 * len(json.dumps(full))


def test_a_plain_point_list_reads_as_the_loop_reads_it():
    # numpy reads a list of plain triples at once; ints, floats and a float label ±1.0 as
    # the loop does, and one bad point anywhere still gets the loop's message naming it
    pts = [[0.5, 1, 1], [2, -3.25, -1], [1e308, -0.0, 1.0], [7, 8, -1]]
    X, y = browser_data.parse_point_list(pts, max_points=10)
    assert X.dtype == np.float64 and X.shape == (4, 2) and X.flags.c_contiguous
    assert y.dtype == np.int64 and y.tolist() == [1, -1, 1, -1]
    assert X.tolist() == [[0.5, 1.0], [2.0, -3.25], [1e308, -0.0], [7.0, 8.0]]
    for bad, words in (([0, 0, True], "point 5 from the plot has label True"),
                       ([0, float("nan"), 1], "point 5 from the plot is not two finite"),
                       ([0, 0, 2], "point 5 from the plot has label 2")):
        with pytest.raises(browser_data.CanvasError, match=words):
            browser_data.parse_point_list(pts + [bad], max_points=10)
    X, y = browser_data.parse_point_list([], max_points=10)
    assert X.shape == (0, 2) and y.shape == (0,)
