"""The click plot (ui/shared/click_plot.py): what it sends to the browser and what it
accepts back from it."""

import json
import math

import numpy as np
import pytest

from tests.plotly_json import decoded
from ui.shared import click_plot as cp

XR, YR = (-1.0, 3.0), (0.0, 2.0)


def test_the_payload_carries_the_figure_as_plotly_json():
    fig = {"data": [{"type": "scatter", "x": np.array([1.0, 2.0]), "y": [3, 4]}],
           "layout": {"xaxis": {"range": XR}}}
    p = cp.payload(fig, {"displaylogo": False}, key="mc.plot", title="More classes",
                   settings=("Iris", "n = 150"))
    back = decoded(json.loads(p["fig"]))
    assert back["data"][0]["x"] == [1.0, 2.0] and back["layout"]["xaxis"]["range"] == [-1, 3]
    assert p["config"]["displaylogo"] is False and p["plotly_url"].endswith("plotly.min.js")
    assert p["config"]["toImageButtonOptions"] == {"filename": "svm_lab_mc_plot"}
    assert p["export"] == {"title": "More classes", "settings": "Iris · n = 150"}


def test_a_click_in_the_plot_is_read_back():
    assert cp.parse_click({"click": {"x": 0.5, "y": 1.25, "seq": 3}}, XR, YR) == (0.5, 1.25)
    assert cp.parse_click({"click": {"x": 3.02, "y": 0.0}}, XR, YR) == (3.02, 0.0)  # the edge


@pytest.mark.parametrize("value", [
    None, {}, {"click": None}, {"click": "1,2"}, {"click": {"x": "1", "y": 1.0}},
    {"click": {"x": True, "y": 1.0}}, {"click": {"x": math.nan, "y": 1.0}},
    {"click": {"x": 1.0, "y": math.inf}}, {"click": {"x": 50.0, "y": 1.0}},
    {"click": {"x": 1.0}}, ["click"],
])
def test_anything_else_from_the_browser_adds_nothing(value):
    assert cp.parse_click(value, XR, YR) is None
