"""ui.shared.describe: every chart's words (WCAG 1.1.1). A model's description prints the
numbers the numbers panel prints (ui.shared.tables.model_summary) and changes with the data;
any figure gets a description from its own data; the chart elements carry a name and a
description (ui.shared.chart.a11y_words); the browser's describe.js is checked against
Python's texts (tests/js/describe_cases.json, fresh here)."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest

from svm_engine import datasets
from ui.classroom import figures as CF
from ui.classroom.model import Task
from ui.playground import canvas
from ui.shared import chart as CH
from ui.shared import click_plot, fitting, tables
from ui.shared import describe as D
from ui.shared.settings import DEFAULTS
from ui.step_through import plot as step_plot

JS = Path(__file__).resolve().parent / "js"


def _fit(X, y, **extra):
    out = fitting.fit_points(X, y, {**DEFAULTS, **extra})
    assert out.ok, out.error
    return out.model


def _panel(model) -> dict:
    return dict(tables.model_summary(model))


@pytest.mark.parametrize("name, extra", [("d1", {}), ("d2", {"C": 0.5}),
                                         ("nonlinear", {"kernel": "gaussian", "sigma": 0.7})])
def test_a_models_words_are_the_numbers_panels_numbers(name, extra):
    ds = datasets.load(name)
    m = _fit(ds.X, ds.y, **extra)
    text = D.describe_model(ds.X, ds.y, m)
    panel = _panel(m)
    assert f"Margin {panel['margin 1/‖w‖']};" in text
    if m.w is not None:
        assert f"on the side where {panel['hyperplane'].removesuffix(' = 0')} > 0" in text
    else:
        assert "curved" in text and "Gaussian (RBF) kernel" in text
    npos = int((ds.y > 0).sum())
    assert text.startswith(f"{len(ds.y)} points: {npos} of class +1 (circles)")
    assert f"{len(ds.y) - npos} of class −1 (squares)" in text
    # the support vectors: as many as the panel counts (α > 0), named as the tables name them
    n_sv = int(panel["support vectors"].split()[0])
    listed = re.search(r"support vectors ([^;]*);", text).group(1)
    named = re.findall(r"x\d+", listed)
    more = re.search(r"and (\d+) more", listed)
    assert len(named) + (int(more.group(1)) if more else 0) == n_sv
    sv = sorted([*m.free_support, *m.bound_support])
    assert named == [f"x{i + 1}" for i in sv[:D.MAX_NAMES]]
    xi = np.asarray(m.xi)
    if (xi > D.MIN_SLACK).any():
        assert f"(Σξ {panel['total slack Σξ']})" in text
    else:
        assert "no slack" in text


def test_the_words_change_with_the_data():
    ds = datasets.d1()
    before = D.describe_model(ds.X, ds.y, _fit(ds.X, ds.y))
    X = np.vstack([ds.X, [[3.0, 2.0]]])
    y = np.append(ds.y, -1)
    m = _fit(X, y)
    after = D.describe_model(X, y, m)
    assert before.startswith("14 points: 8 of class +1") and "no slack" in before
    assert after.startswith("15 points: 8 of class +1") and "7 of class −1" in after
    assert f"Margin {_panel(m)['margin 1/‖w‖']}" in after and after != before
    assert "x15" in after                             # inside the margin: slack on x15


def test_points_without_a_model_and_the_tables_sentence():
    assert D.describe_points([1, 1, -1]) == ("3 points: 2 of class +1 (circles), "
                                             "1 of class −1 (squares).")
    assert D.describe_points([1], "add a point").endswith(". No model: add a point")
    assert D.table_note("α", "beside") == "The numbers are in the table 'α' beside."
    assert D.point_names(range(14)) == ", ".join(f"x{i}" for i in range(1, 13)) + " and 2 more"


def test_any_figure_is_described_from_its_own_data():
    fig = go.Figure([go.Scatter(x=[0, 1, 2], y=[3, -1.5, 7], mode="lines", name="hinge"),
                     go.Scatter(x=[1, 2], y=[0, 0], mode="markers", name="<b>points</b>"),
                     go.Heatmap(z=[[1, 2], [3, 4]], name="Gram")],
                    layout={"title": {"text": "Losses"},
                            "xaxis": {"title": {"text": "m"}, "range": [-2, 3]}})
    text = D.describe_figure(fig)
    assert text.startswith("Chart 'Losses' of 3 series:")
    assert "'hinge' line (3 points, y from −1.5 to 7)" in text
    assert "'points' 2 points" in text and "'Gram' shading" in text
    assert "x axis 'm' from −2 to 3" in text
    three = D.describe_figure({"data": [{"type": "scatter3d", "mode": "markers", "name": "φ",
                                         "x": np.zeros(5), "y": np.zeros(5), "z": np.zeros(5)}],
                               "layout": {"scene": {"zaxis": {"title": {"text": "x1²"}}}}})
    assert "'φ' 5 points in 3-D" in three and "z axis 'x1²'" in three
    bars = D.describe_figure({"data": [{"type": "bar", "x": ["a", "b"], "y": [2, 5]}]})
    assert "unnamed bars (2, heights 2 to 5)" in bars
    assert D.describe_figure({"data": []}) == "Chart, empty."
    many = {"data": [{"type": "scatter", "x": [i], "y": [i]} for i in range(11)]}
    assert D.describe_figure(many).count("unnamed") == D.MAX_SERIES
    assert "3 more series" in D.describe_figure(many)


def test_every_chart_element_carries_a_name_and_a_description():
    fig = {"data": [{"type": "scatter", "x": [1, 2], "y": [3, 4], "name": "a"}],
           "layout": {"title": {"text": "<b>The curve</b>"}}}
    words = CH.chart_payload(fig, key="ker.fig.gram", title=None, settings="")["a11y"]
    assert words == {"name": "The curve", "description": D.describe_figure(fig)}
    named = CH.chart_payload(fig, key="k", title="Gram", settings="", table="Eigenvalues")
    assert named["a11y"]["name"] == "Gram"
    assert named["a11y"]["description"].endswith("The numbers are in the table 'Eigenvalues' "
                                                 "below.")
    untitled = CH.a11y_words({"data": []}, key="ker.fig.gram_matrix")
    assert untitled["name"] == "Chart: ker gram matrix"
    own = D.with_description({"data": [], "layout": {"meta": {"step": 3}}}, "my words")
    assert own["layout"]["meta"] == {"step": 3, "description": "my words"}
    assert CH.a11y_words(own, key="k", description="given")["description"] == "given"
    assert CH.a11y_words(own, key="k")["description"] == "my words"
    assert click_plot.payload(fig, key="c", table="T")["a11y"]["description"].endswith(
        "The numbers are in the table 'T' below.")
    assert step_plot.plot_payload(fig, key="s")["a11y"]["name"] == "The curve"


def test_the_live_class_picture_says_the_shared_words():
    task = Task(kind="mark", form="points", prompt="", slide="", X=((0, 0), (1, 1), (2, 2)),
                y=(1, 1, -1))
    assert CF.describe(task) == "3 points: 2 of class +1 (circles), 1 of class −1 (squares)."
    assert CF.describe(task, [2, 0]).endswith("; marked: x1, x3.")


def test_the_playground_canvas_is_named_and_told_its_words():
    words = canvas.a11y_words({"kernel": "gaussian"}, "Book D1")
    assert words == {"name": "Playground plot: Book D1", "kernel": "Gaussian (RBF)",
                     "table": canvas.NUMBERS_HEADING, "where": "beside"}
    html = (Path(canvas.__file__).parents[1] / "browser" / "canvas.html").read_text()
    assert f'aria-label="{canvas.NUMBERS_HEADING}"' in html
    p = canvas.canvas_payload(np.zeros((1, 2)), [1], epoch=0, seq=0, view_rev=0,
                              max_points=5, a11y=words)
    assert p["a11y"] == words


def test_the_browsers_cases_are_what_python_says_now():
    spec = importlib.util.spec_from_file_location("describe_cases", JS / "describe_cases.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    assert gen.OUT.read_text(encoding="utf-8") == gen.render(), (
        "tests/js/describe_cases.json is stale: run .venv/bin/python tests/js/describe_cases.py")
    cases = json.loads(gen.OUT.read_text(encoding="utf-8"))["cases"]
    assert {"d1 linear", "one class"} <= {c["name"] for c in cases}
    assert any("misclassified" in c["want"] for c in cases)
    assert any("curved" in c["want"] for c in cases)


def test_the_losses_and_the_solvers_boundaries_in_words():
    from ui.compare import figures as CPF
    from ui.losses import compute as LC

    m = np.array([2.0, 1.0, 0.5, -0.25])
    text = LC.loss_words(m)
    assert "Of 4 points, 2 have m ≥ 1" in text and "1 have 0 < m < 1" in text
    assert "1 have m ≤ 0" in text
    for row in LC.loss_rows(m):                       # the sums the table below prints
        assert f"{row['loss']} {row['Σ over the points']}" in text
    assert LC.loss_words(m + 1) != text
    ds = datasets.d1()
    model = _fit(ds.X, ds.y)

    class Row:  # a Comparison row's parts the words read
        class spec:
            label = "SMO (Platt)"

        class run:
            pass

    Row.run.model = model
    words = CPF.boundary_words([Row], ds.y)
    assert words.startswith(D.class_counts(ds.y) + "; every solver's boundary h(x) = 0: ")
    assert f"SMO (Platt): {_panel(model)['hyperplane']}." in words
