"""ui.shared.chart: what every chart element is sent (the figure, the words of its saved image,
its Plotly config), and ui.shared.plotly_config.no_cloud: no config handed to Plotly offers to
send a chart to Plotly's cloud. What the pages send is tests/test_chart_exports.py; the saved
files themselves, tests/browser/test_chart_export.py."""

from __future__ import annotations

import json
import math

import numpy as np
import plotly.graph_objects as go
import pytest

from svm_engine import datasets
from tests.plotly_json import decoded
from ui.playground import canvas
from ui.shared import browser_data, click_plot
from ui.shared import chart as CH
from ui.shared.figures import PLOTLY_CONFIG
from ui.shared.plotly_config import no_cloud
from ui.step_through import player as SP
from ui.step_through import plot as step_plot

FIG = {"data": [{"type": "scatter", "x": np.array([1.0, 2.0]), "y": [3.0, 4.0]}],
       "layout": {"title": {"text": "<b>Kᵢⱼ</b> = K(xᵢ,<br>xⱼ)"}, "height": 300}}


def test_the_saved_image_says_the_given_title_or_the_figures_own():
    assert CH.export_text(FIG, "Gram matrix", "n = 14") == {"title": "Gram matrix",
                                                            "settings": "n = 14"}
    assert CH.export_text(FIG, None, "")["title"] == "Kᵢⱼ = K(xᵢ, xⱼ)"   # tags dropped
    assert CH.export_text({"data": []}, None, "")["title"] == "SVM Lab"
    assert CH.export_text(go.Figure(FIG), None, "")["title"] == "Kᵢⱼ = K(xᵢ, xⱼ)"


def test_the_settings_line_joins_its_parts_on_one_line():
    words = CH.export_text(FIG, "t", ("Book D1, n = 14", "", None, "C = 4\n(soft)", "  "))
    assert words["settings"] == "Book D1, n = 14 · C = 4 (soft)"
    assert CH.export_text(FIG, "a\n  b", "x\ty")["title"] == "a b"


@pytest.mark.parametrize(("settings", "kw", "words"), [
    ({"kernel": "linear", "C": 1.0, "hard_margin": False, "loss": "hinge", "bias": "free"}, {},
     "kernel linear · C = 1 · loss hinge (k = 1) · free b"),
    ({"kernel": "gaussian", "sigma": 0.5, "C": 10.0, "hard_margin": True, "loss": "quadratic",
      "bias": "augmented"}, {"solver": "SMO"},
     "kernel Gaussian σ = 0.5 · C = ∞ (hard margin) · loss quadratic (k = 2) · augmented b · SMO"),
    ({"kernel": "polynomial", "degree": 3, "coef0": 1.0, "C": 0.25, "epsilon": 0.2}, {},
     "kernel polynomial q = 3, c = 1 · C = 0.25 · ε = 0.2"),
    ({"kernel": "linear", "C": 2.0, "bias": "free"}, {"bias": False}, "kernel linear · C = 2"),
])
def test_model_words_name_the_settings_a_fit_used(settings, kw, words):
    assert CH.model_words(settings, **kw) == words


def test_a_chart_is_sent_as_st_plotly_chart_sent_it_with_its_export():
    p = CH.chart_payload(FIG, key="ker.fig.gram", title=None, settings=["Book D1", "C = 4"])
    fig = decoded(json.loads(p["fig"]))
    assert fig["data"][0]["x"] == [1.0, 2.0] and fig["layout"]["height"] == 300
    # the colours st.plotly_chart(theme=None) gave (its browser code's placeholders for a
    # figure without colours): Plotly's colour way and Plasma; nothing else of a template
    template = fig["layout"]["template"]
    assert template["layout"]["colorway"][:3] == ["#636efa", "#EF553B", "#00cc96"]
    assert template["data"]["heatmap"][0]["colorscale"][0] == [0.0, "#0d0887"]
    assert "plot_bgcolor" not in template["layout"] and "font" not in template["layout"]
    assert p["export"] == {"title": "Kᵢⱼ = K(xᵢ, xⱼ)", "settings": "Book D1 · C = 4"}
    assert p["config"]["scrollZoom"] is False          # the wheel scrolls the page
    assert p["config"]["toImageButtonOptions"] == {"format": "png", "filename":
                                                   "svm_lab_ker_fig_gram", "scale": 2}
    assert p["plotly_url"] == browser_data.PLOTLY_URL
    # a figure dict is sent as it is (the page tests check each sent figure with plotly:
    # tests/plotly_json.plotly_keeps), and left as it was
    odd = {"data": [{"type": "scatter", "x": (1, math.inf)}], "layout": {"nonsense": 1}}
    sent = decoded(json.loads(CH.chart_payload(odd, key="k", title="t", settings="")["fig"]))
    assert sent["data"] == [{"type": "scatter", "x": [1, None]}]
    assert sent["layout"]["nonsense"] == 1 and "template" in sent["layout"]
    assert odd == {"data": [{"type": "scatter", "x": (1, math.inf)}], "layout": {"nonsense": 1}}


def _hides_share(config: dict) -> None:
    assert config["showSendToCloud"] is False, config
    assert {"sendChartToCloud", "sendDataToCloud"} <= set(config["modeBarButtonsToRemove"])
    assert config["plotlyServerURL"] == ""
    assert not {"sendChartToCloud", "sendDataToCloud"} & set(config.get("modeBarButtonsToAdd", []))


def _every_config_handed_to_plotly() -> dict:
    d = datasets.d1()
    sneaky = {"showSendToCloud": True, "modeBarButtonsToAdd": ["sendChartToCloud"]}
    return {
        "canvas": canvas.canvas_payload(d.X, d.y, epoch=1, seq=0, view_rev=0, max_points=9,
                                        config=PLOTLY_CONFIG)["config"],
        "canvas, no config": canvas.canvas_payload(d.X, d.y, epoch=1, seq=0, view_rev=0,
                                                   max_points=9)["config"],
        "chart": CH.chart_payload(FIG, key="k", title="t", settings="")["config"],
        "chart, its own config": CH.chart_payload(FIG, key="k", title="t", settings="",
                                                  config=sneaky)["config"],
        "click plot": click_plot.payload(FIG, CH.CHART_CONFIG)["config"],
        "click plot, its own config": click_plot.payload(FIG, sneaky)["config"],
        "step plot": step_plot.plot_payload(FIG, CH.CHART_CONFIG)["config"],
        "step plot, no config": step_plot.plot_payload(FIG)["config"],
        "step player": SP.player_data("r", None, start=0, show_slack=False,
                                      need_seen=0)["config"],
        "no_cloud": no_cloud(sneaky),
    }


@pytest.mark.parametrize("name", list(_every_config_handed_to_plotly()))
def test_no_config_handed_to_plotly_offers_to_share_the_chart(name):
    _hides_share(_every_config_handed_to_plotly()[name])


def test_no_cloud_keeps_the_rest_and_leaves_its_argument_alone():
    config = {"displaylogo": False, "modeBarButtonsToRemove": ["lasso2d"]}
    out = no_cloud(config)
    assert out["displaylogo"] is False and out["modeBarButtonsToRemove"][0] == "lasso2d"
    assert config == {"displaylogo": False, "modeBarButtonsToRemove": ["lasso2d"]}
    assert PLOTLY_CONFIG["showSendToCloud"] is False and no_cloud(PLOTLY_CONFIG) == {
        **PLOTLY_CONFIG, "modeBarButtonsToRemove": [*PLOTLY_CONFIG["modeBarButtonsToRemove"],
                                                    "sendDataToCloud"]}


def test_the_step_player_titles_both_of_its_charts_images():
    d = SP.player_data("r", None, start=0, show_slack=False, need_seen=0,
                       settings="Book D1 · n = 14 · SMO")
    assert set(d["export"]) == {"decision", "curves"}
    for words in d["export"].values():
        assert words["title"].startswith("SMO, step by step") and words["settings"] == (
            "Book D1 · n = 14 · SMO")
    assert d["config"]["toImageButtonOptions"]["filename"] == "svm_lab_smo_step"


def test_infinite_numbers_travel_as_null_as_plotly_sends_them():
    fig = {"data": [{"type": "scatter", "x": [0.0, 1.0], "y": [1.0, 2.0],
                     "customdata": [[float("inf")], [float("nan")]]}],
           "layout": {"xaxis": {"range": [0.0, 1.0]}}}
    back = decoded(json.loads(CH.chart_payload(fig, key="k", title="t", settings="")["fig"]))
    assert back["data"][0]["customdata"] == [[None], [None]]
    assert CH.json_safe({"a": (1.0, -float("inf")), "b": "inf"}) == {"a": [1.0, None], "b": "inf"}
