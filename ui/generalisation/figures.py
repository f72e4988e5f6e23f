"""The Generalisation page's figures, as plain plotly dicts (pure functions of the results):
the split's model with its test points, and the cross-validation grid as heatmaps."""

from __future__ import annotations

import numpy as np
from plotly.colors import get_colorscale

from svm_engine import model_selection as ms
from ui.generalisation.text import param_text
from ui.shared.describe import describe_model, point_names, with_description
from ui.shared.figures import NEG_COLOR, POS_COLOR, decision_figure_dict
from ui.shared.numbers import fmt_pct, fmt_setting

#: plotly.py's Viridis as its stops (Plotly.js reads the name with stops of its own)
CV_COLORSCALE = get_colorscale("Viridis")

BEST_COLOR = "#000000"


def split_figure(r: ms.SplitResult, X, y, height: int = 560) -> dict:
    """The model fitted on the training points (drawn as the Playground draws them), and the
    test points as open markers: the ones it must get right without having seen them."""
    X, y = np.asarray(X, float), np.asarray(y)
    fig = decision_figure_dict(r.model, X=X[r.train], y=r.model.y, height=height,
                               show_slack=False)
    y_pm = np.where(y == r.model.classes[1], 1, -1)
    pred = r.model.predict(X[r.test])
    wrong = pred != y[r.test]
    # open with a dot: not the support vectors' open rings (issue 28: not by colour alone)
    for label, color, symbol in ((1, POS_COLOR, "circle-open-dot"),
                                 (-1, NEG_COLOR, "square-open-dot")):
        idx = r.test[y_pm[r.test] == label]
        fig["data"].append({"type": "scatter", "mode": "markers", "x": X[idx, 0], "y": X[idx, 1],
                            "name": f"test, class {'+1' if label > 0 else '−1'}",
                            "marker": {"color": color, "symbol": symbol, "size": 13,
                                       "line": {"width": 2.5}},
                            "hovertemplate": "test point (%{x:.3g}, %{y:.3g})<extra></extra>",
                            "meta": {"role": "test", "label": label}})
    bad = r.test[wrong]
    fig["data"].append({"type": "scatter", "mode": "markers", "x": X[bad, 0], "y": X[bad, 1],
                        "name": "test point misclassified",
                        "marker": {"color": "#000000", "symbol": "x-thin", "size": 11,
                                   "line": {"width": 2}},
                        "hoverinfo": "skip", "meta": {"role": "test_wrong"}})
    return with_description(fig, (
        f"Trained on {len(r.train)} points: "
        f"{describe_model(X[r.train], r.model.y, r.model)} {len(r.test)} test points "
        f"(open markers), {int(wrong.sum())} misclassified"
        + (f": {point_names(r.test[wrong])}." if wrong.any() else ".")))


def cv_heatmap(grid: ms.GridResult, which: str = "held-out", height: int = 420) -> dict:
    """Mean accuracy per cell (rows C, columns σ or q); cells not done are blank; the best
    cell is framed."""
    z = grid.mean_accuracy if which == "held-out" else grid.mean_train_accuracy
    cols = [param_text(grid.param, v) for v in grid.values]
    rows = [f"C = {fmt_setting(c)}" for c in grid.Cs]
    text = [["—" if np.isnan(v) else fmt_pct(v) for v in row] for row in z]
    shapes = []
    if grid.best is not None:
        i, j = grid.best
        shapes.append({"type": "rect", "xref": "x", "yref": "y", "x0": j - 0.5, "x1": j + 0.5,
                       "y0": i - 0.5, "y1": i + 0.5, "line": {"color": BEST_COLOR, "width": 4}})
    return {"data": [{"type": "heatmap", "z": np.where(np.isnan(z), None, z).tolist(),
                      "x": list(range(len(cols))), "y": list(range(len(rows))),
                      "text": text, "texttemplate": "%{text}", "colorscale": CV_COLORSCALE,
                      "zmin": 0.5, "zmax": 1.0, "colorbar": {"title": {"text": "accuracy"}},
                      "hovertemplate": "%{text}<extra></extra>",
                      "meta": {"role": "cv", "which": which}}],
            "layout": {"height": height, "margin": {"l": 90, "r": 10, "t": 40, "b": 50},
                       "font": {"size": 14, "family": "Source Sans Pro, Arial, sans-serif"},
                       "title": {"text": f"{which} accuracy (mean over {grid.k} folds)",
                                 "x": 0.01},
                       "xaxis": {"tickvals": list(range(len(cols))), "ticktext": cols},
                       "yaxis": {"tickvals": list(range(len(rows))), "ticktext": rows},
                       "shapes": shapes}}


def chosen_figure(model, title: str, height: int = 520) -> dict:
    return with_description(decision_figure_dict(model, title=title, height=height,
                                                 show_slack=False),
                            describe_model(model.X, model.y, model))
