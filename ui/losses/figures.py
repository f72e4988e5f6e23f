"""Figures of the Losses & perceptron page: pure functions returning plotly figure dicts.

- ``loss_figure``: the five losses of ``svm_engine.losses`` against m = y·h(x), with every
  point's margin marked on every curve (marker shape: its class, as in the Playground);
- ``perceptron_figure``: the points, the maximum-margin SVM (h = 0 solid, h = ±1 dashed, its
  support vectors ringed: the Playground's drawing) and the perceptron's line after an
  update (long dashes: the SVM's is solid; dotted, before it), the updated point highlighted.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from svm_engine import losses as L
from ui.shared import figures as SF
from ui.shared import palette as P

#: colour per loss (Okabe–Ito; the classes keep their marker shapes)
LOSS_COLORS = {"zero_one": P.BLACK, "hinge": P.BLUE, "squared_hinge": P.GREEN,
               "logistic": P.PURPLE, "perceptron": P.ORANGE}
#: and a dash and width each: no two curves differ by colour alone (issue 28)
LOSS_LINES = {"zero_one": ("solid", 3.0), "hinge": ("longdash", 4.0),
              "squared_hinge": ("dash", 3.0), "logistic": ("dot", 3.5),
              "perceptron": ("dashdot", 3.0)}
PERCEPTRON_COLOR = P.ORANGE
Y_MAX = 4.0          # the plotted loss range: the squared hinge leaves it at m < −1
M_SPAN = (-3.0, 3.0)  # the smallest plotted margin range
M_LIMIT = 10.0        # the largest |m| plotted


def m_range(m) -> tuple[float, float]:
    """The plotted margin range: at least M_SPAN, wide enough for the points up to ±M_LIMIT."""
    m = np.asarray(m, dtype=float)
    lo, hi = M_SPAN
    if m.size:
        lo = max(-M_LIMIT, min(lo, float(m.min()) - 0.5))
        hi = min(M_LIMIT, max(hi, float(m.max()) + 0.5))
    return lo, hi


def _line(name: str) -> dict:
    dash, width = LOSS_LINES[name]
    return {"color": LOSS_COLORS[name], "width": width, "dash": dash}


def _curve(loss: L.Loss, lo: float, hi: float) -> dict:
    if loss.name == "zero_one":    # a step: drawn exactly, not sampled
        xs, ys = [lo, 0.0, 0.0, hi], [1.0, 1.0, 0.0, 0.0]
    else:
        xs = np.linspace(lo, hi, 601)
        ys = np.minimum(loss(xs), Y_MAX * 1.5)   # off the top: clipped, not drawn to 100
    return {"type": "scatter", "mode": "lines", "x": xs, "y": ys, "name": loss.label,
            "legendgroup": loss.name, "line": _line(loss.name),
            "hovertemplate": f"{loss.label}: L(%{{x:.3g}}) = %{{y:.3g}}<extra></extra>",
            "meta": {"role": "curve", "loss": loss.name}}


def _marks(loss: L.Loss, m: np.ndarray, y: np.ndarray) -> list[dict]:
    traces = []
    v = loss(m)
    for label, symbol in ((1, SF.POS_SYMBOL), (-1, SF.NEG_SYMBOL)):
        idx = np.flatnonzero(y == label)
        if not len(idx):
            continue
        traces.append({
            "type": "scatter", "mode": "markers", "x": m[idx], "y": v[idx],
            "customdata": idx + 1, "legendgroup": loss.name, "showlegend": False,
            "name": f"{loss.label}, class {SF.class_label(label)}",
            "marker": {"color": LOSS_COLORS[loss.name], "symbol": symbol, "size": 9,
                       "line": {"color": "#FFFFFF", "width": 1}},
            "hovertemplate": (f"x<sub>%{{customdata}}</sub> (y = {SF.class_label(label)}): "
                              f"m = %{{x:.4g}}, {loss.label} = %{{y:.4g}}<extra></extra>"),
            "meta": {"role": "points", "loss": loss.name, "label": label}})
    return traces


def loss_figure(m=None, y=None, *, title: str = "", height: int = 480,
                show: Sequence[str] = L.NAMES) -> dict:
    """The losses in ``show`` against m, and (when m is given) each point's (mᵢ, L(mᵢ)) on
    each curve, mᵢ = yᵢh(xᵢ) with y in ±1. Without m (no classifier h) no point is marked
    and y is not used."""
    if m is None:
        m, y = np.zeros(0), None
    m = np.asarray(m, dtype=float).reshape(-1)
    y = np.zeros(0) if y is None else np.where(np.asarray(y).reshape(-1) > 0, 1, -1)
    if y.shape != m.shape:
        raise ValueError(f"need one label per margin: {m.size} margins, {y.size} labels")
    lo, hi = m_range(m)
    traces: list[dict] = []
    for name in show:
        loss = L.get(name)
        traces.append(_curve(loss, lo, hi))
        traces += _marks(loss, m, y)
    layout = {
        "height": height,
        "margin": {"l": 60, "r": 10, "t": 80 if title else 50, "b": 55},
        "font": {"size": 16, "family": "Source Sans Pro, Arial, sans-serif"},
        "plot_bgcolor": "#FFFFFF", "paper_bgcolor": "#FFFFFF",
        "xaxis": {"title": {"text": "m = y·h(x)"}, "range": [lo, hi], "zeroline": False,
                  "showgrid": True, "gridcolor": P.GRID_LINE, "showline": True,
                  "linecolor": "#444444", "mirror": True, "ticks": "outside"},
        "yaxis": {"title": {"text": "loss L(m)"}, "range": [-0.1, Y_MAX], "zeroline": False,
                  "showgrid": True, "gridcolor": P.GRID_LINE, "showline": True,
                  "linecolor": "#444444", "mirror": True, "ticks": "outside"},
        "legend": {"orientation": "h", "x": 0, "y": 1.02, "yanchor": "bottom"},
        "shapes": [{"type": "line", "x0": x, "x1": x, "y0": 0, "y1": 1, "yref": "paper",
                    "line": {"color": "#888888", "width": 1.5, "dash": "dot"}}
                   for x in (0.0, 1.0)],
        "annotations": [
            {"x": 0.0, "y": 1.0, "yref": "paper", "text": "wrong side | right side",
             "showarrow": False, "yanchor": "top", "font": {"size": 13, "color": "#555555"}},
            {"x": 1.0, "y": 0.93, "yref": "paper", "text": "on the margin (m = 1)",
             "showarrow": False, "xanchor": "left", "yanchor": "top",
             "font": {"size": 13, "color": "#555555"}}],
        "hovermode": "closest",
    }
    if title:
        layout["title"] = {"text": title, "x": 0.01}
    return {"data": traces, "layout": layout}


def perceptron_figure(X, y, svm=None, *, before: tuple | None = None,
                      after: tuple | None = None, point: int | None = None,
                      title: str = "", x_range=None, y_range=None) -> dict:
    """The points, the SVM (a fitted linear model, or None) and the perceptron's line:
    ``after`` = (w, b) long-dashed, ``before`` = (w, b) dotted, ``point`` (0-based) ringed.
    A (w, b) with w = 0 has no line and is left out."""
    overlays = []
    if before is not None and np.any(before[0]):
        overlays.append(SF.Overlay(name="perceptron, before this update",
                                   w=tuple(map(float, before[0])), b=float(before[1]),
                                   color=P.GREY, dash="dot", width=2.5))
    if after is not None and np.any(after[0]):
        overlays.append(SF.Overlay(name="perceptron", w=tuple(map(float, after[0])),
                                   b=float(after[1]), color=PERCEPTRON_COLOR, dash="longdash",
                                   width=4))
    fig = SF.decision_figure_dict(
        svm, X=np.asarray(X, dtype=float), y=np.asarray(y), overlays=overlays,
        highlight=() if point is None else (int(point),), show_regions=False,
        show_slack=False, show_misclassified=False, title=title or None,
        x_range=x_range, y_range=y_range, height=560)
    for tr in fig["data"]:                       # the SVM's lines say whose they are
        role = (tr.get("meta") or {}).get("role")
        if role == "boundary":
            tr["name"] = "SVM h(x) = 0"
        elif role == "margins":
            tr["name"] = "SVM h(x) = ±1"
    return fig
