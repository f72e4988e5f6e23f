"""Every chart a student sees can be taken away: on every page (AppTest), each chart is drawn by
one of the app's chart elements (no st.plotly_chart, whose toolbar can save only one format and
no words), and each is sent the title and the settings line its saved PNG and SVG carry, and a
Plotly config without a "Share" button. The words name the points and settings the page shows.
The files themselves: tests/browser/test_chart_export.py; the Playground's canvas:
tests/browser/test_playground_takeaway.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from tests.plotly_json import CHART_ELEMENTS, chart_data, chart_specs, plotly_keeps
from tests.plotly_json import page_ok as ok

PAGES = Path(__file__).resolve().parents[1] / "pages"
TIMEOUT = 300

#: page → (how many charts its first view shows, what every chart's settings line must say:
#: the page's default points and settings)
EXPECTED = {
    "2_worked_examples.py": (1, ["Book D1: separable (slide 15)", "n = 14", "hard margin"]),
    "3_step_through.py": (1, ["Book D1: separable (slide 15)", "n = 14", "C = ∞", "SMO"]),
    "4_compare_solvers.py": (3, ["Book D1: separable (slide 15)", "n = 14", "C = ∞",
                                 "both forms"]),
    "5_kernels.py": (8, ["Book D1: separable (slide 15)", "n = 14", "C = 4"]),
    "6_generalisation.py": (4, ["Moons", "n = 200", "seed 0"]),
    "7_more_classes.py": (1, ["Iris", "n = 150", "3 classes", "C = 1"]),
    "8_regression.py": (2, ["sin", "n = 30", "ε = 0.2", "C = 10"]),
    "9_losses_perceptron.py": (2, ["Book D1: separable (slide 15)", "n = 14"]),
    "13_kernel_perceptron_knn.py": (2, ["n = 14"]),
    "14_kernel_kmeans_pca.py": (5, ["Rings (n=100"]),
}


def exports(at) -> list[tuple[str, dict, dict]]:
    """(key, export words, config) of every chart of the page; the step player's two charts
    count as two."""
    out = []
    for key, d in chart_data(at, CHART_ELEMENTS):
        if "config" not in d:         # the step player's listener: no chart
            continue
        words = d["export"]
        if "title" in words:
            out.append((key, words, d["config"]))
        else:
            out.extend((f"{key}.player.{part}", w, d["config"]) for part, w in words.items())
    return out


def check_charts(at, count: int, says: list[str]) -> list[tuple[str, dict, dict]]:
    assert not at.get("plotly_chart")
    charts = exports(at)
    assert len(charts) >= count, [k for k, _, _ in charts]
    for key, words, config in charts:
        assert words["title"] and words["title"] != "SVM Lab", key       # a title of its own
        for part in says:
            assert part in words["settings"], (key, part, words["settings"])
        assert config["showSendToCloud"] is False and "sendChartToCloud" in config[
            "modeBarButtonsToRemove"], key
        assert config["toImageButtonOptions"]["filename"].startswith("svm_lab_"), key
    for spec in chart_specs(at, arrays=True):   # the figures as sent: plotly accepts each
        plotly_keeps(spec)
    files = {k.split(".player.")[0]: c["toImageButtonOptions"]["filename"] for k, _, c in charts}
    assert len(set(files.values())) == len(files), files     # each chart's file its own name
    return charts


@pytest.mark.parametrize("page", list(EXPECTED))
def test_every_chart_carries_its_title_settings_and_a_download_config(page):
    at = ok(AppTest.from_file(str(PAGES / page), default_timeout=TIMEOUT).run())
    check_charts(at, *EXPECTED[page])


def test_the_settings_line_follows_the_sidebar():
    at = ok(AppTest.from_file(str(PAGES / "5_kernels.py"), default_timeout=TIMEOUT).run())
    at.select_slider(key="ker.C").set_value(2.0).run()
    ok(at)
    for key, words, _ in check_charts(at, 8, ["n = 14", "C = 2"]):
        assert "C = 4" not in words["settings"], key


def test_the_step_through_charts_drawn_on_the_server_say_their_step():
    at = AppTest.from_file(str(PAGES / "3_step_through.py"), default_timeout=TIMEOUT).run()
    at.radio(key="stp.solver").set_value("sga").run()
    ok(at)
    charts = check_charts(at, 3, ["Book D1: separable (slide 15)", "n = 14", "SGA"])
    assert {k for k, _, _ in charts} >= {"stp.fig.decision", "stp.fig.alpha", "stp.fig.curves"}
    words = dict((k, w) for k, w, _ in charts)
    total = words["stp.fig.decision"]["settings"].rsplit(" of ", 1)[-1]
    assert words["stp.fig.decision"]["settings"].endswith(f"sweep 0 of {total}")
    assert words["stp.fig.decision"]["title"] == "SGA (SVM-Dual): the decision function h(x)"


def test_the_plotly_check_of_the_sent_figures_can_fail():
    plotly_keeps({"data": [{"type": "scatter", "x": [1], "marker": {"color": "red"}}]})
    with pytest.raises(AssertionError, match="marker_color"):     # rewritten by plotly
        plotly_keeps({"data": [{"type": "scatter", "x": [1], "marker_color": "red"}]})
    with pytest.raises(AssertionError, match="RdBu"):            # Plotly.js's RdBu differs
        plotly_keeps({"data": [{"type": "heatmap", "z": [[1]], "colorscale": "RdBu"}]})
    plotly_keeps({"data": [{"type": "surface", "z": np.array([[1.0, np.nan], [2.0, 3.0]])}]})
    with pytest.raises(ValueError, match="colr"):                 # misspelt
        plotly_keeps({"data": [{"type": "scatter", "x": [1], "colr": 1}]})
