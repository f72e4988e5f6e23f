"""The click layer (ui/shared/click_layer.py): the grid it draws and what it accepts from the
browser's selection state."""

import math

import pytest

from ui.shared import click_layer as cl

XR, YR = (-1.0, 3.0), (0.0, 2.0)


def test_the_layer_covers_the_ranges_with_invisible_markers():
    tr = cl.trace(XR, YR, steps=(5, 3))
    assert len(tr["x"]) == len(tr["y"]) == 15
    assert (min(tr["x"]), max(tr["x"]), min(tr["y"]), max(tr["y"])) == (-1.0, 3.0, 0.0, 2.0)
    assert tr["marker"]["opacity"] == 0 and tr["hoverinfo"] == "none"   # clickable, unseen
    fig = {"data": [{"type": "scatter"}, tr]}
    assert cl.layer_index(fig) == 1 and cl.layer_index({"data": [{}]}) is None


def event(*points):
    return {"selection": {"points": list(points), "point_indices": [], "box": [], "lasso": []}}


def test_a_click_on_the_layer_is_read_back():
    ev = event({"curve_number": 0, "x": 9.0, "y": 9.0},        # a data point: not the layer
               {"curve_number": 2, "x": 0.5, "y": 1.25})
    assert cl.clicked(ev, 2, XR, YR) == (0.5, 1.25)
    assert cl.clicked(ev, 0, XR, YR) is None                    # outside the ranges


@pytest.mark.parametrize("ev", [
    None, {}, {"selection": None}, {"selection": {"points": "x"}}, event(),
    event({"curve_number": 2, "x": "1", "y": 1.0}), event({"curve_number": 2, "x": True, "y": 1}),
    event({"curve_number": 2, "x": math.nan, "y": 1.0}),
    event({"curve_number": 2, "x": 1.0, "y": math.inf}),
    event({"curve_number": 2, "x": 50.0, "y": 1.0}), event({"curve_number": 1, "x": 1, "y": 1}),
    event(["not", "a", "dict"]),
])
def test_anything_else_from_the_browser_adds_nothing(ev):
    assert cl.clicked(ev, 2, XR, YR) is None
