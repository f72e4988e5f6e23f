"""Plotly figures for SVM Lab: pure functions (fitted model → ``plotly.graph_objects.Figure``).

Never imports streamlit. ``decision_figure`` is the Playground's plot and is meant to be reused
by the other pages (worked examples, step-through, compare solvers):

- decision regions shaded by h(x) on a grid; h(x) = 0 solid, h(x) = ±1 dashed (any kernel);
- support vectors ringed, ring size by α/C; free (0 < α < C) and bound (α = C) SVs differ;
- slack: a segment from each point with ξ > 0 to its own margin h(x) = yᵢ, labelled with ξ;
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
from ui.shared.numbers import MINUS, fmt_num
from ui.shared.plotly_config import PLOTLY_CONFIG  # noqa: F401  (the pages' import)
from ui.shared.points import default_range as padded_range
from ui.shared.sv_labels import ON_MARGIN_ZERO, point_labels

POS_COLOR = P.BLUE  # class +1
NEG_COLOR = P.VERMILLION  # class −1
POS_SYMBOL = "circle"
NEG_SYMBOL = "square"
FREE_SV_COLOR = P.BLACK
BOUND_SV_COLOR = P.PURPLE
HIGHLIGHT_COLOR = P.GREEN
SLACK_COLOR = P.SLACK
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


#: slacks below this are solver round-off (tolerance 1e-3), not drawn
MIN_SLACK = 0.005


def slack_segments(model, idx: Sequence[int] | None = None, max_iter: int = 30):
    """For points with ξ > MIN_SLACK: the foot of each point on its own margin h(x) = yᵢ.

    Returns (idx, feet) where feet[k] is None when no foot was found. The linear kernel is
    exact in one Newton step (h is affine); other kernels use Newton steps along the
    numerical gradient of h.
    """
    X = np.asarray(model.X, dtype=float)
    y = np.asarray(model.y, dtype=float)
    if idx is None:
        idx = np.flatnonzero(np.asarray(model.xi) > MIN_SLACK)
    idx = np.asarray(idx, dtype=int)
    if len(idx) == 0:
        return idx, []
    P = X[idx].copy()
    target = y[idx]
    span = float(np.ptp(X, axis=0).max()) if len(X) > 1 else 1.0
    span = span if span > 0 else 1.0
    eps = 1e-5 * span
    ok = np.ones(len(idx), dtype=bool)
    for _ in range(max_iter):
        h = model.decision_function(P)
        r = target - h
        if np.all(np.abs(r) < 1e-6):
            break
        shifts = np.array([[eps, 0.0], [-eps, 0.0], [0.0, eps], [0.0, -eps]])
        Q = (P[None, :, :] + shifts[:, None, :]).reshape(-1, 2)
        hq = model.decision_function(Q).reshape(4, len(P))
        g = np.column_stack([(hq[0] - hq[1]) / (2 * eps), (hq[2] - hq[3]) / (2 * eps)])
        gg = np.einsum("ij,ij->i", g, g)
        safe = gg > 1e-18
        step = np.zeros_like(P)
        step[safe] = (r[safe] / gg[safe])[:, None] * g[safe]
        # never jump further than the data span in one step
        norm = np.linalg.norm(step, axis=1)
        big = norm > span
        step[big] *= (span / norm[big])[:, None]
        ok &= safe
        P = P + step
    h = model.decision_function(P)
    ok &= np.abs(target - h) < 1e-3 * max(1.0, float(np.max(np.abs(target))))
    ok &= np.linalg.norm(P - X[idx], axis=1) < 3 * span
    feet = [P[k] if ok[k] else None for k in range(len(idx))]
    return idx, feet


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


#: ξ labels: their font size (px, times the figure's scale) and its rough text metrics
SLACK_FONT = 14
_CHAR_EM = 0.56  # the width of a label's character in em (digits, "ξ", "=" of Source Sans Pro)
_LINE_EM = 1.25
_GAP_PX = 3  # Plotly's "middle right" text starts this far right of its anchor
#: more points than this: the ξ labels stay at their segments' middles (a plot that crowded
#: has no free spot to find, and the search grows with the points: ~40 ms at 2,000)
PLACE_LABELS_MAX_POINTS = 400
LEGEND_PX = 50  # the legend's rows above the top margin, at scale 1 (Chromium, 1400 px)


def _overlaps(boxes, others) -> np.ndarray:
    """The area each of ``boxes`` (c, 4: x0, y0, x1, y1) shares with ``others`` (k, 4), summed
    over the others: (c,)."""
    b, o = np.asarray(boxes, dtype=float), np.asarray(others, dtype=float).reshape(-1, 4)
    if len(o) == 0:
        return np.zeros(len(b))
    w = np.minimum(b[:, None, 2], o[None, :, 2]) - np.maximum(b[:, None, 0], o[None, :, 0])
    h = np.minimum(b[:, None, 3], o[None, :, 3]) - np.maximum(b[:, None, 1], o[None, :, 1])
    np.maximum(w, 0, out=w)
    np.maximum(h, 0, out=h)
    return np.einsum("ij,ij->i", w, h)


#: where a label may go, in order of preference: the points of its segment (fractions from
#: the point to its margin) and, around each, its offsets (right, left, above, below and the
#: corners, in the label's width w and height h and these px further out)
_ALONG = (0.5, 0.35, 0.65, 0.2, 0.8, 0.05, 0.95)
_FURTHER_PX = (0, 10, 20, 32)


def _candidate_offsets(w: float, h: float) -> np.ndarray:
    """(c, 2) px offsets of a label's anchor from a point of its segment, nearest first."""
    out = []
    for d in _FURTHER_PX:
        left = -w - 2 * _GAP_PX - d
        out += [(d, 0), (left, 0), (-w / 2, h / 2 + 4 + d), (-w / 2, -h / 2 - 4 - d),
                (d, h / 2 + d), (d, -h / 2 - d), (left, h / 2 + d), (left, -h / 2 - d)]
    return np.array(out, dtype=float)


def place_labels(segments, sizes, obstacles, unit: float) -> list[tuple[float, float]]:
    """Anchors (data) for text labels, each near its own segment and clear of the obstacles
    and of the labels placed before it as far as the candidates allow (issue 32: ξ labels
    over each other, the rings and the points).

    ``segments``: [(p, q)] in data units (a label goes beside a point of p→q, the middle
    first); ``sizes``: [(w, h)] in px; ``obstacles``: boxes (x0, y0, x1, y1) in px (data
    times ``unit``, the plot's pixels per data unit, estimated); each label is drawn "middle
    right" of its anchor (its box starts _GAP_PX right of it). Greedy, in the order given
    (the largest ξ first): the first candidate that covers nothing, else the one that
    covers least."""
    obstacles = np.asarray(obstacles, dtype=float).reshape(-1, 4)
    placed = np.zeros((0, 4))
    t = np.asarray(_ALONG)[:, None]
    out = []
    for (p, q), (w, h) in zip(segments, sizes, strict=True):
        p, q = np.asarray(p, dtype=float) * unit, np.asarray(q, dtype=float) * unit
        spots = p + t * (q - p)
        off = _candidate_offsets(w, h).reshape(len(_FURTHER_PX), -1, 2)
        best, best_cost = None, math.inf
        for ring in off:  # the nearest ring of offsets first; the first free spot wins
            anchors = (spots[:, None, :] + ring[None, :, :]).reshape(-1, 2)
            boxes = np.column_stack([anchors[:, 0] + _GAP_PX, anchors[:, 1] - h / 2,
                                     anchors[:, 0] + _GAP_PX + w, anchors[:, 1] + h / 2])
            # only the obstacles within reach (thousands of points)
            lo, hi = boxes[:, :2].min(axis=0), boxes[:, 2:].max(axis=0)
            near = obstacles[(obstacles[:, 2] > lo[0]) & (obstacles[:, 0] < hi[0])
                             & (obstacles[:, 3] > lo[1]) & (obstacles[:, 1] < hi[1])]
            cost = _overlaps(boxes, near) + 2 * _overlaps(boxes, placed)
            k = int(np.argmin(cost))  # the first of the least
            if cost[k] < best_cost - 1e-9:
                best, best_cost = (anchors[k], boxes[k]), cost[k]
            if best_cost <= 1e-9:
                break
        placed = np.vstack([placed, best[1]])
        out.append((float(best[0][0] / unit), float(best[0][1] / unit)))
    return out


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


def _slack_traces(model, max_labels: int, scale: float = 1.0, unit: float | None = None
                  ) -> list[dict]:  # fmt: skip
    """The slack segments and their ξ labels (the largest ``max_labels`` ξ), the labels
    placed clear of the points, rings and each other for ``unit`` px per data unit (None, or
    more than PLACE_LABELS_MAX_POINTS points: beside each segment's middle)."""
    xi = np.asarray(model.xi, dtype=float)
    idx, feet = slack_segments(model)
    if len(idx) == 0:
        return []
    X = np.asarray(model.X, dtype=float)
    lx: list[float | None] = []
    ly: list[float | None] = []
    segments = {}
    for k, (i, foot) in enumerate(zip(idx, feet, strict=True)):
        p = X[i]
        if foot is not None:
            lx += [float(p[0]), float(foot[0]), None]
            ly += [float(p[1]), float(foot[1]), None]
        segments[k] = (p, foot if foot is not None else p)
    labelled = np.argsort(-xi[idx], kind="stable")[:max_labels].tolist()
    text = [f"ξ={fmt_num(xi[idx[k]], 3)}" for k in labelled]
    font = SLACK_FONT * scale
    if unit is None or len(X) > PLACE_LABELS_MAX_POINTS:
        anchors = [tuple((segments[k][0] + segments[k][1]) / 2) for k in labelled]
    else:
        sizes = [(_CHAR_EM * font * len(t), _LINE_EM * font) for t in text]
        anchors = place_labels([segments[k] for k in labelled], sizes,
                               _obstacle_boxes(model, X, unit, scale), unit)
    traces = [
        {
            "type": "scatter",
            "mode": "lines",
            "x": lx,
            "y": ly,
            "name": "slack ξ",
            "line": {"color": SLACK_COLOR, "width": 2 * scale, "dash": "dot"},
            "hoverinfo": "skip",
            "meta": {"role": "slack"},
        }
    ]
    if text:
        traces.append(
            {
                "type": "scatter",
                "mode": "text",
                "x": [float(a[0]) for a in anchors],
                "y": [float(a[1]) for a in anchors],
                "text": text,
                "textposition": "middle right",
                "textfont": {"size": font, "color": "#111111"},
                "showlegend": False,
                "hoverinfo": "skip",
                "name": "ξ labels",
                "meta": {"role": "slack_labels"},
            }
        )
    return traces


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
        for k, ov in enumerate(overlays):
            gx, gy = np.meshgrid(xs, ys)
            Z = np.column_stack([gx.ravel(), gy.ravel()])
            Ho = ov.decision_function(Z).reshape(len(ys), len(xs)).astype(np.float32)
            color = ov.color or OVERLAY_COLORS[k % len(OVERLAY_COLORS)]
            lo, hi, size = (-1, 1, 1) if ov.margins else (0, 0, 1)
            traces.append(
                _contour(xs, ys, Ho, level_lo=lo, level_hi=hi, size=size, color=color,
                         width=ov.width, dash=ov.dash or OVERLAY_DASHES[k % len(OVERLAY_DASHES)],
                         name=ov.name, role="overlay", legend=True)
            )  # fmt: skip
        if show_slack:
            traces += _slack_traces(model, max_slack_labels, scale,
                                    _px_per_unit(x_range, y_range, height, margin, scale))
        if show_sv:
            traces += _sv_traces(model, scale)
    elif overlays:
        xs, ys = np.linspace(*x_range, resolution), np.linspace(*y_range, resolution)
        gx, gy = np.meshgrid(xs, ys)
        Z = np.column_stack([gx.ravel(), gy.ravel()])
        for k, ov in enumerate(overlays):
            Ho = ov.decision_function(Z).reshape(len(ys), len(xs)).astype(np.float32)
            color = ov.color or OVERLAY_COLORS[k % len(OVERLAY_COLORS)]
            traces.append(
                _contour(xs, ys, Ho, level_lo=0, level_hi=0, size=1, color=color,
                         width=ov.width, dash=ov.dash or OVERLAY_DASHES[k % len(OVERLAY_DASHES)],
                         name=ov.name, role="overlay", legend=True)
            )  # fmt: skip
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
