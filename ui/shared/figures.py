"""Plotly figures for SVM Lab: pure functions (fitted model → ``plotly.graph_objects.Figure``).

Never imports streamlit. ``decision_figure`` is the Playground's plot and is meant to be reused
by the other pages (worked examples, step-through, compare solvers):

- decision regions shaded by h(x) on a grid; h(x) = 0 solid, h(x) = ±1 dashed (any kernel);
- support vectors ringed, ring size by α/C; free (0 < α < C) and bound (α = C) SVs differ;
- slack: a segment from each point with ξ > 0 to its own margin h(x) = yᵢ, labelled with ξ
  (``ui.shared.slack_drawing``);
- misclassified points (ξ > 1) crossed out;
- optional overlays (other models or literal hyperplanes w·x + b = 0) and highlighted points.

Class colours are the Okabe–Ito blue/vermillion pair (colour-blind safe) and the classes also
differ in marker shape (circle / square).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from ui.shared import palette as P
from ui.shared.fitting import decision_grid
from ui.shared.numbers import MINUS
from ui.shared.plotly_config import PLOTLY_CONFIG  # noqa: F401  (the pages' import)
from ui.shared.points import default_range as padded_range
from ui.shared.slack_drawing import slack_traces
from ui.shared.sv_labels import ON_MARGIN_ZERO, point_labels

POS_COLOR = P.BLUE  # class +1
NEG_COLOR = P.VERMILLION  # class −1
POS_SYMBOL = "circle"
NEG_SYMBOL = "square"
FREE_SV_COLOR = P.BLACK
BOUND_SV_COLOR = P.PURPLE
HIGHLIGHT_COLOR = P.GREEN
OVERLAY_COLORS = (P.GREEN, P.PURPLE, P.SKY, P.ORANGE, P.BLACK)
#: every overlay differs from the others by its dash too, not by colour alone (issue 28)
OVERLAY_DASHES = ("longdash", "dashdot", "longdashdot", "dot", "dash")
# pale region colours: h < 0 (class −1 side), 0, h > 0 (class +1 side)
REGION_COLORSCALE = [[0.0, P.REGION_NEG], [0.5, P.WHITE], [1.0, P.REGION_POS]]
REGION_ZMAX = 2.0  # |h| at which the shading saturates
FONT_SIZE = 18
POINT_SIZE = 12



@dataclass(frozen=True)
class Overlay:
    """An extra decision boundary drawn over the main one.

    Give either ``model`` (any fitted model with ``decision_function``) or a literal
    hyperplane ``w`` (w1, w2) and ``b`` (w·x + b = 0). ``margins`` also draws h = ±1.
    """

    name: str
    model: Any = None
    w: tuple[float, float] | None = None
    b: float | None = None
    color: str | None = None
    dash: str | None = None  # None: the overlay's own from OVERLAY_DASHES
    width: float = 3.0
    margins: bool = False

    def decision_function(self, Z: np.ndarray) -> np.ndarray:
        if self.model is not None:
            return np.asarray(self.model.decision_function(Z), dtype=float)
        if self.w is None or self.b is None:
            raise ValueError(f"overlay {self.name!r} needs a model or both w and b")
        return np.asarray(Z, dtype=float) @ np.asarray(self.w, dtype=float) + float(self.b)


# ----------------------------------------------------------------------------- helpers


def class_label(v: float) -> str:
    return "+1" if v > 0 else f"{MINUS}1"


def alpha_scale(model) -> float:
    """What α is compared with for ring sizes: C for a finite box, else the largest α."""
    C = float(model.C)
    if model.loss == "hinge" and math.isfinite(C) and C > 0:
        return C
    a = float(np.max(model.alpha)) if len(model.alpha) else 0.0
    return a if a > 0 else 1.0


def ring_sizes(model, idx: np.ndarray, base: float = 20.0, extra: float = 18.0) -> np.ndarray:
    """Marker sizes (px) of the SV rings: base + extra·min(α/scale, 1)."""
    frac = np.clip(np.asarray(model.alpha, dtype=float)[idx] / alpha_scale(model), 0.0, 1.0)
    return base + extra * frac


# ------------------------------------------------------------------------------ traces


def region_scale() -> dict:
    """How h is coloured: the region heatmap's colorscale and its range (the canvases that
    paint h themselves get these too)."""
    return {"colorscale": REGION_COLORSCALE, "zmin": -REGION_ZMAX, "zmax": REGION_ZMAX}


def _region_traces(xs, ys, H) -> list[dict]:
    return [
        {
            "type": "heatmap",
            "x": xs,
            "y": ys,
            "z": H,
            **region_scale(),
            "zsmooth": "fast",
            "showscale": False,
            "hoverinfo": "skip",
            "name": "h(x) shading",
            "meta": {"role": "regions"},
        }
    ]


def _contour(xs, ys, H, *, level_lo, level_hi, size, color, width, dash, name, role, legend):
    return {
        "type": "contour",
        "x": xs,
        "y": ys,
        "z": H,
        "autocontour": False,
        "contours": {"start": level_lo, "end": level_hi, "size": size, "coloring": "none"},
        "line": {"color": color, "width": width, "dash": dash, "smoothing": 0.6},
        "showscale": False,
        "hoverinfo": "skip",
        "name": name,
        "showlegend": legend,
        "meta": {"role": role},
    }


def _overlay_traces(xs, ys, overlays: Sequence[Overlay], margins: bool) -> list[dict]:
    """Each overlay's h = 0 on the grid (and h = ±1 where it asks, if ``margins``), in its
    own colour and dash (or the k-th of OVERLAY_COLORS / OVERLAY_DASHES)."""
    gx, gy = np.meshgrid(xs, ys)
    Z = np.column_stack([gx.ravel(), gy.ravel()])
    traces = []
    for k, ov in enumerate(overlays):
        Ho = ov.decision_function(Z).reshape(len(ys), len(xs)).astype(np.float32)
        color = ov.color or OVERLAY_COLORS[k % len(OVERLAY_COLORS)]
        lo, hi = (-1, 1) if margins and ov.margins else (0, 0)
        traces.append(
            _contour(xs, ys, Ho, level_lo=lo, level_hi=hi, size=1, color=color,
                     width=ov.width, dash=ov.dash or OVERLAY_DASHES[k % len(OVERLAY_DASHES)],
                     name=ov.name, role="overlay", legend=True)
        )  # fmt: skip
    return traces


def _point_traces(X, y, names=("x1", "x2"), scale: float = 1.0) -> list[dict]:
    traces = []
    for label, color, symbol in ((1, POS_COLOR, POS_SYMBOL), (-1, NEG_COLOR, NEG_SYMBOL)):
        idx = np.flatnonzero(y == label)
        traces.append(
            marker_trace(
                X, idx, name=f"class {class_label(label)}", role="points", label=label,
                marker={"color": color, "symbol": symbol, "size": POINT_SIZE * scale,
                        "line": {"color": "#FFFFFF", "width": 1.5 * scale}},
                hover=(f"x<sub>%{{customdata}}</sub> = (%{{x:.4g}}, %{{y:.4g}})"
                       f"<extra>y = {class_label(label)}</extra>"),
            )
        )
    return traces


def marker_trace(X, idx, *, name: str, role: str, marker: dict, hover: str | None = None,
                 customdata=None, **meta) -> dict:
    """A scatter trace of markers at the points X[idx] (X: n × 2): its legend name, marker,
    role (with any other fields of ``meta``) and hover template (None: no hover).
    customdata: the points' 1-based numbers unless given."""
    trace = {
        "type": "scatter",
        "mode": "markers",
        "x": X[idx, 0],
        "y": X[idx, 1],
        "customdata": idx + 1 if customdata is None else customdata,
        "name": name,
        "marker": marker,
        "meta": {"role": role, **meta},
    }
    if hover is None:
        trace["hoverinfo"] = "skip"
    else:
        trace["hovertemplate"] = hover
    return trace


def _sv_traces(model, scale: float = 1.0) -> list[dict]:
    X = np.asarray(model.X, dtype=float)
    alpha = np.asarray(model.alpha, dtype=float)
    traces = []
    free = np.asarray(model.free_support, dtype=int)
    bound = np.asarray(model.bound_support, dtype=int)
    bounded_box = model.loss == "hinge" and math.isfinite(float(model.C))
    free_name = "free SV (α < C)" if bounded_box else "SV (α > 0)"
    # on the margin with α = 0: a support vector by slide 6 (sv_labels' rule), ringed thinly
    idle = np.flatnonzero(np.asarray(point_labels(model)) == ON_MARGIN_ZERO)
    for idx, name, color, width in (
        (free, free_name, FREE_SV_COLOR, 2.5),
        (bound, "bound SV (α = C)", BOUND_SV_COLOR, 4.0),
        (idle, ON_MARGIN_ZERO, FREE_SV_COLOR, 1.0),
    ):
        if len(idx) == 0:
            continue
        traces.append(
            marker_trace(
                X, idx, name=name, role="sv",
                marker={"symbol": "circle-open", "size": ring_sizes(model, idx) * scale,
                        "color": color, "line": {"color": color, "width": width * scale}},
                hover=("x<sub>%{customdata[0]}</sub>: α = %{customdata[1]:.4g}"
                       f"<extra>{name}</extra>"),
                customdata=np.column_stack([idx + 1, alpha[idx]]),
            )
        )
    return traces


LEGEND_PX = 50  # the legend's rows above the top margin, at scale 1 (Chromium, 1400 px)


def _px_per_unit(x_range, y_range, height: float, margin: dict, scale: float) -> float:
    """The plot's pixels per data unit, estimated before the browser lays it out: the
    height of the plot area over the y range (the axes are scaled 1:1), unless the x range
    is much wider than the plot is likely to be (a column about 1.3 times as wide as high).
    The legend's rows (two or three) take about LEGEND_PX more than the top margin."""
    h_px = max(height - margin["t"] - margin["b"] - LEGEND_PX * scale, 100.0)
    xs = max(float(x_range[1] - x_range[0]), 1e-12)
    ys = max(float(y_range[1] - y_range[0]), 1e-12)
    return min(h_px / ys, 1.3 * h_px / xs)


def _obstacle_boxes(model, X, unit: float, scale: float) -> np.ndarray:
    """The boxes (px) of what a ξ label must not cover: every point, ring and cross."""
    pts = np.asarray(X, dtype=float) * unit
    r_pt = np.full(len(pts), POINT_SIZE * scale / 2 + 1)
    alpha = np.asarray(model.alpha, dtype=float)
    sv = np.flatnonzero(alpha > 0)
    r_sv = ring_sizes(model, sv) * scale / 2 + 2 * scale
    mis = np.flatnonzero(np.asarray(model.category) == "misclassified")
    centres = np.concatenate([pts, pts[sv], pts[mis]])
    r = np.concatenate([r_pt, r_sv, np.full(len(mis), 11 * scale + 1)])
    return np.column_stack([centres[:, 0] - r, centres[:, 1] - r, centres[:, 0] + r,
                            centres[:, 1] + r])


def _misclassified_trace(model, scale: float = 1.0) -> list[dict]:
    cat = np.asarray(model.category)
    idx = np.flatnonzero(cat == "misclassified")
    if len(idx) == 0:
        return []
    X = np.asarray(model.X, dtype=float)
    return [
        marker_trace(
            X, idx, name="misclassified", role="misclassified",
            marker={"symbol": "x-thin-open", "size": 22 * scale, "color": "#000000",
                    "line": {"color": "#000000", "width": 3 * scale}},
        )
    ]


def _highlight_trace(X: np.ndarray, highlight: Sequence[int], scale: float = 1.0) -> list[dict]:
    idx = np.array([i for i in highlight if 0 <= int(i) < len(X)], dtype=int)
    if len(idx) == 0:
        return []
    return [
        marker_trace(
            X, idx, name="selected", role="highlight",
            marker={"symbol": "circle-open", "size": 42 * scale, "color": HIGHLIGHT_COLOR,
                    "line": {"color": HIGHLIGHT_COLOR, "width": 5 * scale}},
            hover="x<sub>%{customdata}</sub><extra>selected</extra>",
        )
    ]


# ------------------------------------------------------------------------------ figure


def decision_figure(model: Any = None, **kwargs: Any) -> go.Figure:
    """The SVM picture for a fitted model (or just the points when ``model`` is None).

    Keyword arguments as ``decision_figure_dict``; returns a ``plotly.graph_objects.Figure``.
    """
    return go.Figure(decision_figure_dict(model, **kwargs))


def decision_figure_dict(
    model: Any = None,
    *,
    X: np.ndarray | None = None,
    y: np.ndarray | None = None,
    grid: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    x_range: tuple[float, float] | None = None,
    y_range: tuple[float, float] | None = None,
    resolution: int = 100,
    highlight: Sequence[int] = (),
    overlays: Sequence[Overlay] = (),
    show_regions: bool = True,
    show_margins: bool = True,
    show_sv: bool = True,
    show_slack: bool = True,
    show_misclassified: bool = True,
    max_slack_labels: int = 30,
    feature_names: Sequence[str] = ("x1", "x2"),
    title: str | None = None,
    height: int | None = None,
    uirevision: Any = None,
    scale: float = 1.0,
) -> dict:
    """The SVM picture as a plain plotly figure dict ({"data": [...], "layout": {...}}, numpy
    arrays inside); ``decision_figure`` wraps it in a ``go.Figure``.

    ``X``/``y`` default to the model's training points (y as ±1). ``grid`` = (xs, ys, H) may
    be passed when already computed (see ``ui.shared.fitting.decision_grid``); otherwise it is
    computed over ``x_range`` × ``y_range`` (default: around the points). ``highlight`` are
    0-based point indices to ring. ``scale`` multiplies fonts, markers, line widths and
    margins (the Playground's present mode, for a projector); ``height`` defaults to
    620 px × √scale. Traces carry ``meta["role"]``
    ("regions", "boundary", "margins", "points", "sv", "slack", "misclassified", "highlight",
    "overlay").
    """
    if model is None and X is None:
        raise ValueError("decision_figure needs a model or the points X, y")
    if X is None:
        X = np.asarray(model.X, dtype=float)
        y = np.asarray(model.y)
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y if y is not None else np.ones(len(X))).reshape(-1)
    if y.shape != (len(X),):
        raise ValueError(f"need one label per point: {len(X)} points, {y.size} labels")
    y = np.where(y > 0, 1, -1)
    if x_range is None or y_range is None:
        xr, yr = padded_range(X)
        x_range = x_range or xr
        y_range = y_range or yr

    height = height if height is not None else round(620 * math.sqrt(scale))
    margin = {"l": 60 * scale, "r": 10, "t": (95 if title else 70) * scale, "b": 55 * scale}
    traces: list[dict] = []
    if model is not None:
        if grid is None:
            grid = decision_grid(model, x_range, y_range, resolution)
        xs, ys, H = grid
        if show_regions:
            traces += _region_traces(xs, ys, H)
        if show_margins:
            traces.append(
                _contour(xs, ys, H, level_lo=-1, level_hi=1, size=2, color=P.INK,
                         width=2 * scale, dash="dash", name="h(x) = ±1", role="margins",
                         legend=True)
            )  # fmt: skip
        traces.append(
            _contour(xs, ys, H, level_lo=0, level_hi=0, size=1, color=P.BLACK,
                     width=3.5 * scale, dash="solid", name="h(x) = 0", role="boundary",
                     legend=True)
        )  # fmt: skip
        traces += _overlay_traces(xs, ys, overlays, margins=True)
        if show_slack:
            traces += slack_traces(model, max_slack_labels, scale,
                                   _px_per_unit(x_range, y_range, height, margin, scale),
                                   lambda unit: _obstacle_boxes(model, X, unit, scale))
        if show_sv:
            traces += _sv_traces(model, scale)
    elif overlays:
        xs, ys = np.linspace(*x_range, resolution), np.linspace(*y_range, resolution)
        traces += _overlay_traces(xs, ys, overlays, margins=False)
    traces += _highlight_trace(X, highlight, scale)
    traces += _point_traces(X, y, scale=scale)
    if model is not None and show_misclassified:
        traces += _misclassified_trace(model, scale)

    layout = {
        "height": height,
        "margin": margin,
        "font": {"size": FONT_SIZE * scale, "family": "Source Sans Pro, Arial, sans-serif"},
        "plot_bgcolor": "#FFFFFF",
        "paper_bgcolor": "#FFFFFF",
        "xaxis": {
            "title": {"text": feature_names[0]},
            "range": list(x_range),
            "zeroline": False,
            "showgrid": False,
            "constrain": "domain",
            "ticks": "outside",
            "mirror": True,
            "showline": True,
            "linecolor": "#444444",
        },
        "yaxis": {
            "title": {"text": feature_names[1]},
            "range": list(y_range),
            "zeroline": False,
            "showgrid": False,
            "scaleanchor": "x",
            "scaleratio": 1,
            "constrain": "domain",
            "ticks": "outside",
            "mirror": True,
            "showline": True,
            "linecolor": "#444444",
        },
        "legend": {
            "orientation": "h",
            "x": 0,
            "xanchor": "left",
            "y": 1.01,
            "yanchor": "bottom",
            "font": {"size": 14 * scale},
            "tracegroupgap": 0,
            "itemclick": False,
            "itemdoubleclick": False,
        },
        "hovermode": "closest",
        "dragmode": "zoom",
    }
    if title:
        layout["title"] = {"text": title, "x": 0.01, "y": 0.98, "font": {"size": 20 * scale}}
    if uirevision is not None:
        layout["uirevision"] = uirevision
    return {"data": traces, "layout": layout}


def points_figure(X: np.ndarray, y: np.ndarray, **kwargs: Any) -> go.Figure:
    """Just the points (no model): ``decision_figure(None, X=X, y=y, ...)``."""
    return decision_figure(None, X=X, y=y, **kwargs)
