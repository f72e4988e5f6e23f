"""The picture of a live-class task (pure: a Plotly figure as a dict): the task's points
named x1, x2, … (class +1 circles, class −1 squares: told apart without colour), the points a
student marked ringed, a placed point as a star; for a task that may show its fit
(``Task.data["draw_fit"]``: mark, place) the hyperplane h(x) = 0 and the margins h(x) = ±1
of the engine's fit of the same points with the task's settings. Never the support vectors
(that would give the answer away). Also used by the teacher's overlay (``ui.teach``) and the
student's page (``ui.join``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ui.classroom.exercises import fits
from ui.classroom.model import Task
from ui.shared.describe import class_counts, point_names
from ui.shared.figures import HIGHLIGHT_COLOR, NEG_COLOR, NEG_SYMBOL, POS_COLOR, POS_SYMBOL

GRID = 80  # contour grid per axis
PAD = 1.0  # axis padding around the points (data units)
PICK_FRAC = 0.06  # a click picks the nearest point within this fraction of the plot's width


def ranges(task: Task) -> tuple[tuple[float, float], tuple[float, float]]:
    X = np.asarray(task.X, dtype=float).reshape(-1, 2)
    lo, hi = X.min(axis=0) - PAD, X.max(axis=0) + PAD
    if task.form == "point" and task.bounds != (0.0, 0.0):  # where a point may be placed
        lo = np.minimum(lo, task.bounds[0])
        hi = np.maximum(hi, task.bounds[1])
    return (float(lo[0]), float(hi[0])), (float(lo[1]), float(hi[1]))


def nearest(task: Task, xy: tuple[float, float]) -> int | None:
    """The point a click at ``xy`` means (None: too far from every point)."""
    X = np.asarray(task.X, dtype=float).reshape(-1, 2)
    (x0, x1), _ = ranges(task)
    d = np.hypot(X[:, 0] - xy[0], X[:, 1] - xy[1])
    i = int(np.argmin(d))
    return i if d[i] <= PICK_FRAC * (x1 - x0) else None


def _points(X: np.ndarray, y: np.ndarray, names: Sequence[str]) -> list[dict]:
    out = []
    for label, color, symbol, word in ((1, POS_COLOR, POS_SYMBOL, "class +1"),
                                       (-1, NEG_COLOR, NEG_SYMBOL, "class −1")):
        idx = np.flatnonzero(y == label)
        out.append({"type": "scatter", "mode": "markers+text", "name": word,
                    "x": X[idx, 0].tolist(), "y": X[idx, 1].tolist(),
                    "text": [names[i] for i in idx], "textposition": "top center",
                    "marker": {"color": color, "symbol": symbol, "size": 13,
                               "line": {"color": "#ffffff", "width": 1}},
                    "hovertemplate": "%{text} (%{x}, %{y})<extra>" + word + "</extra>"})
    return out


def _fit_traces(task: Task, ranges_) -> list[dict]:
    m = fits.fitted(np.asarray(task.X, float), np.asarray(task.y, int), task.settings)
    if m is None:
        return []
    (x0, x1), (y0, y1) = ranges_
    xs, ys = np.linspace(x0, x1, GRID), np.linspace(y0, y1, GRID)
    gx, gy = np.meshgrid(xs, ys)
    H = m.decision_function(np.column_stack([gx.ravel(), gy.ravel()])).reshape(gx.shape)
    out = []
    for level, dash, name in ((0.0, "solid", "h(x) = 0"), (1.0, "dash", "h(x) = +1"),
                              (-1.0, "dot", "h(x) = −1")):
        out.append({"type": "contour", "x": xs.tolist(), "y": ys.tolist(), "z": H.tolist(),
                    "contours": {"start": level, "end": level, "size": 1,
                                 "coloring": "lines"},
                    "colorscale": [[0, "#000000"], [1, "#000000"]], "showscale": False,
                    "line": {"width": 2, "dash": dash}, "name": name, "showlegend": True,
                    "hoverinfo": "skip"})
    return out


def task_figure(task: Task, *, marked: Sequence[int] = (), placed=None,
                counts: Sequence[int] | None = None, extra: Sequence[dict] = ()) -> dict:
    """The task's picture. ``marked``: indices ringed; ``placed``: ((x1, x2), label) shown as
    a star; ``counts``: how many students marked each point (the teacher's overlay: the ring
    grows with the count and the count is written beside it); ``extra``: more traces."""
    X = np.asarray(task.X, dtype=float).reshape(-1, 2)
    y = np.asarray(task.y, dtype=int)
    names = [f"x{i + 1}" for i in range(len(X))]
    xr, yr = ranges(task)
    data: list[dict] = _fit_traces(task, (xr, yr)) if task.data.get("draw_fit") else []
    data += _points(X, y, names)
    if marked:
        idx = sorted(set(marked))
        data.append({"type": "scatter", "mode": "markers", "name": "marked",
                     "x": X[idx, 0].tolist(), "y": X[idx, 1].tolist(),
                     "marker": {"symbol": "circle-open", "size": 26,
                                "color": HIGHLIGHT_COLOR, "line": {"width": 3}},
                     "hoverinfo": "skip"})
    if counts is not None and any(counts):
        idx = [i for i, c in enumerate(counts) if c]
        top = max(counts)
        data.append({"type": "scatter", "mode": "markers+text", "name": "marked by students",
                     "x": X[idx, 0].tolist(), "y": X[idx, 1].tolist(),
                     "text": [str(counts[i]) for i in idx], "textposition": "bottom right",
                     "marker": {"symbol": "circle-open", "color": HIGHLIGHT_COLOR,
                                "size": [16 + 20 * counts[i] / top for i in idx],
                                "line": {"width": 3}},
                     "hovertemplate": "%{text} students<extra></extra>"})
    if placed is not None:
        (px, py), lab = placed
        data.append({"type": "scatter", "mode": "markers", "name": "your point",
                     "x": [px], "y": [py],
                     "marker": {"symbol": "star", "size": 20,
                                "color": POS_COLOR if lab > 0 else NEG_COLOR,
                                "line": {"color": "#000000", "width": 1.5}}})
    data += list(extra)
    return {"data": data, "layout": {
        "xaxis": {"range": list(xr), "title": {"text": "x₁"}, "zeroline": False},
        "yaxis": {"range": list(yr), "title": {"text": "x₂"}, "zeroline": False,
                  "scaleanchor": "x", "scaleratio": 1},
        "height": 420, "margin": {"l": 50, "r": 10, "t": 30, "b": 40},
        "legend": {"orientation": "h", "y": 1.08}, "dragmode": False,
        "meta": {"description": describe(task, marked)}}}


def describe(task: Task, marked: Sequence[int] = ()) -> str:
    """The picture in words (its chart's description: ``ui.shared.chart.a11y_words`` reads
    ``layout.meta.description``), by the shared describer's rule (``ui.shared.describe``)."""
    words = class_counts(task.y)
    if marked:
        words += "; marked: " + point_names(sorted(set(marked)))
    return words + "."
