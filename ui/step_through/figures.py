"""Plotly figures of the Step-through page: pure functions returning plain figure dicts
({"data": [...], "layout": {...}}; ``st.plotly_chart`` takes them as they are).

Never imports streamlit. Every trace carries ``meta["role"]`` so tests (and the browser test)
can find it:

- ``step_decision_figure``: the Playground's picture (``ui.shared.figures.decision_figure_dict``) of
  the state after a step, with the pair ringed and labelled i, j, the boundary before the
  step drawn faint, and the points that violate the KKT conditions marked;
- ``box_figure``: SMO's two-variable subproblem in the (αᵢ, αⱼ) plane (the KKT/SMO note's picture):
  the box [0, C]², the line yᵢαᵢ + yⱼαⱼ = const, the segment [L, H], the old point, the
  unclipped optimum and the clipped new point; for C = ∞ the box is drawn open;
- ``coordinate_figure``: SGA's one-coordinate update (slide 33, lines 12–14) on [0, C];
- ``alpha_bars_figure``: α as bars, the entries this step changed highlighted;
- ``curves_figure``: dual and primal objective, and the maximal KKT violation (log scale),
  over the iterations with a marker at the current step.

Indices are shown 1-based (x₁ … xₙ as in the book).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ui.shared import palette as P
from ui.shared.figures import (
    FONT_SIZE,
    HIGHLIGHT_COLOR,
    NEG_COLOR,
    POS_COLOR,
    Overlay,
    decision_figure_dict,
    marker_trace,
)
from ui.shared.numbers import MINUS, fmt_num
from ui.shared.points import default_range

VIOLATOR_COLOR = P.ORANGE
OLD_COLOR = P.DARK_GREY
UNCLIPPED_COLOR = P.PURPLE
NEW_COLOR = HIGHLIGHT_COLOR
SEGMENT_COLOR = P.GREEN
BEFORE_COLOR = P.GREY
DUAL_COLOR = P.BLUE
PRIMAL_COLOR = P.VERMILLION
KKT_COLOR = P.BLACK
EXTRA_COLOR = P.PURPLE
#: labels darker than their marks where the mark's colour is under 4.5:1 on the pale fill
TEXT_OF = {"new": P.PAIR_TEXT, "unclipped": P.PURPLE_TEXT}
MAX_CURVE_POINTS = 1500  # longer curves are thinned (every m-th step, plus the last)


def sub(i: int) -> str:
    """'α<sub>4</sub>' style index (1-based) for plotly text."""
    return f"<sub>{int(i) + 1}</sub>"


def _base_layout(height: int, title: str | None = None) -> dict:
    layout: dict[str, Any] = {
        "height": height,
        "margin": {"l": 70, "r": 20, "t": 60 if title else 30, "b": 60},
        "font": {"size": FONT_SIZE, "family": "Source Sans Pro, Arial, sans-serif"},
        "plot_bgcolor": "#FFFFFF",
        "paper_bgcolor": "#FFFFFF",
        "showlegend": False,
        "hovermode": "closest",
    }
    if title:
        layout["title"] = {"text": title, "x": 0.01, "y": 0.97, "font": {"size": 20}}
    return layout


def _axis(title: str, **extra) -> dict:
    ax = {
        "title": {"text": title},
        "zeroline": False,
        "showgrid": True,
        "gridcolor": P.GRID_LINE,
        "ticks": "outside",
        "mirror": True,
        "showline": True,
        "linecolor": "#444444",
    }
    ax.update(extra)
    return ax


# ----------------------------------------------------------------- decision figure


def step_decision_figure(
    state,
    prev_model=None,
    *,
    pair: Sequence[int] = (),
    pair_labels: Sequence[str] = ("i", "j"),
    x_range=None,
    y_range=None,
    resolution: int = 70,
    show_slack: bool = False,
    show_violators: bool = True,
    violator_label: str = "violates KKT",
    height: int = 600,
    uirevision: Any = None,
    step: int | None = None,
    legend: bool = True,
) -> dict:
    """The SVM picture after the step: regions, h(x) = 0 and ±1, SVs ringed (the Playground's
    figure), plus the pair ringed and labelled, the boundary before the step (faint, dotted)
    and the KKT violators marked (orange diamonds). ``layout.meta`` names the step shown
    (``step``, default ``state.k``) and the pair (1-based), for the browser test and benchmark.
    ``legend=False`` leaves the legend out (the page explains the marks in a caption: Plotly
    lays the legend out again on every redraw, a third of the figure's drawing time)."""
    model = state.model
    X = np.asarray(model.X, dtype=float)
    if x_range is None or y_range is None:
        x_range, y_range = default_range(X)
    overlays = []
    if prev_model is not None:
        overlays.append(
            Overlay(
                name="h(x) = 0 before this step",
                model=prev_model,
                color=BEFORE_COLOR,
                dash="dot",
                width=3.0,
            )
        )
    fig = decision_figure_dict(
        model,
        x_range=x_range,
        y_range=y_range,
        resolution=resolution,
        highlight=[int(i) for i in pair],
        overlays=overlays,
        show_slack=show_slack,
        max_slack_labels=8,
        height=height,
        uirevision=uirevision,
    )
    data = fig["data"]
    viol = np.asarray(state.violators, dtype=int)
    if show_violators and len(viol):
        data.append(
            marker_trace(
                X, viol, name=violator_label, role="violators",
                marker={"symbol": "diamond-open", "size": 24, "color": VIOLATOR_COLOR,
                        "line": {"color": VIOLATOR_COLOR, "width": 3}},
                hover=f"x<sub>%{{customdata}}</sub><extra>{violator_label}</extra>",
            )
        )
    if len(pair):
        idx = [int(i) for i in pair]
        data.append(
            {
                "type": "scatter",
                "mode": "text",
                "x": X[idx, 0],
                "y": X[idx, 1],
                "text": [f"<b>{lab}</b>" for lab in pair_labels[: len(idx)]],
                "textposition": "top right",
                "textfont": {"size": 22, "color": P.PAIR_TEXT},
                "showlegend": False,
                "hoverinfo": "skip",
                "name": "pair",
                "meta": {"role": "pair_labels", "pair": [i + 1 for i in idx]},
            }
        )
    for tr in data:
        if tr.get("meta", {}).get("role") == "highlight":
            tr["name"] = "the pair (i, j)" if len(pair) == 2 else "updated point"
    if not legend:
        fig["layout"]["showlegend"] = False
        fig["layout"]["margin"] = {**fig["layout"]["margin"], "t": 20}
    fig["layout"]["meta"] = {
        "role": "decision",
        "step": int(state.k if step is None else step),
        "pair": [int(i) + 1 for i in pair],
    }
    return fig


def decision_frame_figure(X, y, x_range, y_range, *, height: int = 600) -> dict:
    """The static part of the SMO player's scatter plot: axes and the points (the
    Playground's marks, hover included), on a transparent background. The step player
    (``ui/browser/step_player.js``) draws what changes per step under and over it: the shading, the
    lines h(x) = 0, ±1 now and h(x) = 0 before the step, the support-vector rings, the pair,
    the KKT violators and the misclassified points."""
    fig = decision_figure_dict(None, X=X, y=y, x_range=x_range, y_range=y_range, height=height)
    lay = fig["layout"]
    lay["showlegend"] = False
    lay["margin"] = {**lay["margin"], "t": 20}
    lay["paper_bgcolor"] = "rgba(0,0,0,0)"
    lay["plot_bgcolor"] = "rgba(0,0,0,0)"
    lay["meta"] = {"role": "frame"}
    return fig


# ---------------------------------------------------------------------- box diagram


def box_view(rec: dict) -> tuple[float, float, bool]:
    """(lo, hi, unclipped_visible): the square view of the (αᵢ, αⱼ) plane.

    Finite C: the box with a margin, widened to show the unclipped optimum when it is
    within 2C of the box. C = ∞: the quadrant up to 1.3× the largest α involved."""
    C = float(rec["C"])
    pts = [rec["ai_old"], rec["aj_old"], rec["ai_new"], rec["aj_new"]]
    unc = [rec["ai_unclipped"], rec["aj_unclipped"]]
    if math.isfinite(C):
        R = C
        lo, hi = -0.12 * R, 1.12 * R
        visible = all(-2 * R <= v <= 3 * R for v in unc)
        if visible:
            lo = min(lo, min(unc) - 0.08 * R)
            hi = max(hi, max(unc) + 0.08 * R)
    else:
        R = max([abs(v) for v in pts] + [1e-9])
        visible = all(-R <= v <= 3 * R for v in unc)
        cands = pts + (unc if visible else [])
        if not all(math.isfinite(v) for v in cands):
            cands = pts
        R = max([v for v in cands if v > 0] + [R])
        lo, hi = -0.12 * R, 1.3 * R
        if visible:
            lo = min(lo, min(unc) - 0.08 * R)
    return float(lo), float(hi), bool(visible)


def _arrow(tip, tail, **style) -> dict:
    """An arrow in data coordinates from ``tail`` to ``tip`` on the pair chart."""
    return {"x": tip[0], "y": tip[1], "ax": tail[0], "ay": tail[1], "xref": "x", "yref": "y",
            "axref": "x", "ayref": "y", "showarrow": True, **style}


def _labelled_point(xy, label: str, name: str, colour: str, text_colour: str, position: str,
                    role: str, marker: dict, text: bool = True, **meta) -> dict:
    """One (αᵢ, αⱼ) of the pair chart: a marker with its label and hover, and its role."""
    hover = name.split(" ")[0]
    return {
        "type": "scatter",
        "mode": "markers+text" if text else "markers",
        "x": [xy[0]],
        "y": [xy[1]],
        "text": [label],
        "textposition": position,
        "textfont": {"size": 18, "color": text_colour},
        "name": name,
        "marker": {"color": colour, **marker},
        "hovertemplate": f"{hover}: (%{{x:.4g}}, %{{y:.4g}})<extra></extra>",
        "meta": {"role": role, **meta},
    }


def box_figure(rec: dict, *, height: int = 520) -> dict:
    """SMO step ``rec`` (ui.step_through.state.step_record) in the (αᵢ, αⱼ) plane."""
    i, j = int(rec["i"]), int(rec["j"])
    C = float(rec["C"])
    s = rec["yi"] * rec["yj"]
    gamma = rec["ai_old"] + s * rec["aj_old"]  # αᵢ + s·αⱼ = γ on the line

    def ai_of(aj):
        return gamma - s * aj

    lo, hi, unc_visible = box_view(rec)
    # labels sit off the line (slope −s), on the side with room in the view
    up_side, down_side = ("top right", "bottom left") if s > 0 else ("top left", "bottom right")

    def place(x, y, prefer_up):
        fy = (y - lo) / (hi - lo)
        fx = (x - lo) / (hi - lo)
        if fy < 0.2 or (s > 0 and fx < 0.2) or (s < 0 and fx > 0.8):
            return up_side
        if fy > 0.8 or (s > 0 and fx > 0.8) or (s < 0 and fx < 0.2):
            return down_side
        return up_side if prefer_up else down_side

    data: list[dict] = []
    shapes: list[dict] = []
    annotations: list[dict] = []
    finite = math.isfinite(C)
    if finite:
        shapes.append(
            {
                "type": "rect",
                "x0": 0,
                "y0": 0,
                "x1": C,
                "y1": C,
                "layer": "below",
                "line": {"color": "#222222", "width": 3},
                "fillcolor": "rgba(0, 114, 178, 0.07)",
            }
        )
        annotations.append(
            {
                "x": C,
                "y": C,
                "text": "C",
                "showarrow": False,
                "xanchor": "left",
                "yanchor": "bottom",
                "font": {"size": 20},
            }
        )
    else:
        # open box: the quadrant αᵢ ≥ 0, αⱼ ≥ 0, no upper bound
        shapes.append(
            {
                "type": "rect",
                "x0": 0,
                "y0": 0,
                "x1": hi,
                "y1": hi,
                "layer": "below",
                "line": {"width": 0},
                "fillcolor": "rgba(0, 114, 178, 0.07)",
            }
        )
        for x0, y0, x1, y1 in ((0, 0, hi, 0), (0, 0, 0, hi)):
            shapes.append(
                {
                    "type": "line",
                    "x0": x0,
                    "y0": y0,
                    "x1": x1,
                    "y1": y1,
                    "line": {"color": "#222222", "width": 3},
                }
            )
    # the constraint line over the whole view: αⱼ from lo to hi, αᵢ = γ − s·αⱼ
    ys = np.array([lo - (hi - lo), hi + (hi - lo)])
    data.append(
        {
            "type": "scatter",
            "mode": "lines",
            "x": ai_of(ys),
            "y": ys,
            "name": "yᵢαᵢ + yⱼαⱼ = const",
            "hoverinfo": "skip",
            "line": {"color": "#777777", "width": 2, "dash": "dash"},
            "meta": {"role": "line"},
        }
    )
    L, H = rec["L"], rec["H"]
    # C = ∞ with yᵢ ≠ yⱼ: H = ∞, the segment is a ray; draw it to beyond the view
    H_end = H if math.isfinite(H) else hi + (hi - lo)
    # the new point on an end of the segment: the new point's label names that end (a second
    # label "H" or "L" on the same spot overlapped it)
    new_end = next((n for n, v in (("L", L), ("H", H)) if math.isfinite(v)
                    and abs(rec["aj_new"] - v) <= 1e-9 * max(1.0, hi - lo)), None)
    data.append(
        {
            "type": "scatter",
            "mode": "lines+markers+text",
            "x": [ai_of(L), ai_of(H_end)],
            "y": [L, H_end],
            "text": ["L" if new_end != "L" else "",
                     "H" if math.isfinite(H) and new_end != "H" else ""],
            "textposition": [place(ai_of(L), L, False), place(ai_of(H_end), H_end, False)],
            "textfont": {"size": 20, "color": P.PAIR_TEXT},  # green text: 4.5:1 on the fill
            "name": "feasible segment αⱼ ∈ [L, H]",
            "line": {"color": SEGMENT_COLOR, "width": 7},
            "marker": {
                "size": 12,
                "color": SEGMENT_COLOR,
                "symbol": "line-ns-open",
                "line": {"width": 3, "color": SEGMENT_COLOR},
            },
            "hovertemplate": "αⱼ = %{y:.4g}<extra>[L, H]</extra>",
            "meta": {"role": "segment", "L": L, "H": H},
        }
    )
    old = (rec["ai_old"], rec["aj_old"])
    unc = (rec["ai_unclipped"], rec["aj_unclipped"])
    new = (rec["ai_new"], rec["aj_new"])
    same = math.hypot(unc[0] - new[0], unc[1] - new[1]) <= 1e-9 * max(1.0, hi - lo)
    if unc_visible:
        data.append(_labelled_point(unc, "unclipped", "unclipped optimum", UNCLIPPED_COLOR,
                                    P.PURPLE_TEXT, place(*unc, True), "unclipped",
                                    {"symbol": "diamond-open", "size": 22,
                                     "line": {"width": 4, "color": UNCLIPPED_COLOR}},
                                    text=not same))
    else:
        # off the chart: an arrow at the edge pointing towards it
        dx, dy = unc[0] - old[0], unc[1] - old[1]
        norm = math.hypot(dx, dy) or 1.0
        ex = min(max(old[0] + dx / norm * (hi - lo) * 0.45, lo), hi)
        ey = min(max(old[1] + dy / norm * (hi - lo) * 0.45, lo), hi)
        annotations.append(_arrow((ex, ey), old, arrowhead=2, arrowwidth=2,
                                  arrowcolor=UNCLIPPED_COLOR,
                                  text=f"unclipped αⱼ = {fmt_num(unc[1])} (off the chart)",
                                  font={"size": 15, "color": P.PURPLE_TEXT}, xanchor="left"))
        data.append(
            {
                "type": "scatter",
                "mode": "markers",
                "x": [],
                "y": [],
                "name": "unclipped optimum",
                "meta": {"role": "unclipped", "off_chart": True},
            }
        )
    data.append(_labelled_point(old, "old", "old (αᵢ, αⱼ)", OLD_COLOR, OLD_COLOR,
                                place(*old, True), "old",
                                {"symbol": "circle", "size": 16,
                                 "line": {"width": 2, "color": "#FFFFFF"}}))
    clipped = bool(rec.get("clipped"))
    new_label = ("new (clipped)" if clipped else "new = unclipped") + (
        f" at {new_end}" if new_end else "")
    new_point = _labelled_point(new, new_label,
                                "new (clipped)" if clipped else "new", NEW_COLOR, P.PAIR_TEXT,
                                place(*new, False), "new",
                                {"symbol": "star", "size": 24,
                                 "line": {"width": 1.5, "color": P.PAIR_EDGE}},
                                pair=[i + 1, j + 1])
    new_point["cliponaxis"] = False      # a label near the box's edge is not cut by it
    data.append(new_point)
    if math.hypot(new[0] - old[0], new[1] - old[1]) > 1e-9 * max(1.0, hi - lo):
        annotations.append(_arrow(new, old, arrowhead=3, arrowsize=1.3, arrowwidth=2.5,
                                  arrowcolor="#333333", text=""))
    box_text = f"box [0, {fmt_num(C)}]²" if finite else "no upper bound on α: the box is open"
    layout = _base_layout(height, f"Step {rec['it']}: the pair (α{sub(i)}, α{sub(j)}) · {box_text}")
    layout["margin"]["b"] = 70
    layout["xaxis"] = _axis(
        f"α{sub(i)}  (i = {i + 1}, y<sub>i</sub> = {_sign(rec['yi'])})",
        range=[lo, hi],
        constrain="domain",
    )
    layout["yaxis"] = _axis(
        f"α{sub(j)}  (j = {j + 1}, y<sub>j</sub> = {_sign(rec['yj'])})",
        range=[lo, hi],
        scaleanchor="x",
        scaleratio=1,
        constrain="domain",
    )
    layout["shapes"] = shapes
    layout["annotations"] = annotations
    layout["meta"] = {"role": "box", "step": int(rec["it"]), "pair": [i + 1, j + 1]}
    return {"data": data, "layout": layout}


def _sign(v: float) -> str:
    return "+1" if v > 0 else f"{MINUS}1"


def coordinate_figure(rec: dict, *, height: int = 300) -> dict:
    """SGA, one coordinate: α_k on the number line with the interval [0, C] shaded, and three
    rows: the old value, the unclipped α_k + η_k ∂J/∂α_k and the clipped new value
    (slide 33, lines 12–14)."""
    k = int(rec["k"])
    C = float(rec["C"])
    vals = [rec["a_old"], rec["a_unclipped"], rec["a_new"]]
    R = C if math.isfinite(C) else max([abs(v) for v in vals] + [1e-9]) * 1.2
    lo = min([-0.1 * R] + [v - 0.05 * R for v in vals])
    hi = max([1.1 * R] + [v + 0.05 * R for v in vals])
    right = C if math.isfinite(C) else hi
    rows = (
        ("old", rec["a_old"], 0.6, "circle", OLD_COLOR, 16),
        ("unclipped: α + η·∂J/∂α", rec["a_unclipped"], 0.0, "diamond-open", UNCLIPPED_COLOR, 20),
        (
            "new (clipped)" if rec.get("clipped") else "new",
            rec["a_new"],
            -0.6,
            "star",
            NEW_COLOR,
            22,
        ),
    )
    roles = ("old", "unclipped", "new")
    data: list[dict] = []
    for (label, v, yy, symbol, color, size), role in zip(rows, roles):
        data.append(
            {
                "type": "scatter",
                "mode": "markers+text",
                "x": [v],
                "y": [yy],
                "text": [f"{label} = {fmt_num(v)}"],
                "textposition": "middle right" if v < lo + 0.6 * (hi - lo) else "middle left",
                "textfont": {"size": 17, "color": TEXT_OF.get(role, color)},
                "name": label,
                "marker": {
                    "symbol": symbol,
                    "size": size,
                    "color": color,
                    "line": {"width": 3, "color": color},
                },
                "hovertemplate": f"{label}: %{{x:.5g}}<extra></extra>",
                "meta": {"role": role},
            }
        )
    shapes = [
        {
            "type": "rect",
            "x0": 0,
            "x1": right,
            "y0": -1,
            "y1": 1,
            "layer": "below",
            "line": {"width": 0},
            "fillcolor": "rgba(0, 114, 178, 0.08)",
        },
        {
            "type": "line",
            "x0": 0,
            "x1": 0,
            "y0": -1,
            "y1": 1,
            "line": {"color": "#222222", "width": 3},
        },
    ]
    if math.isfinite(C):
        shapes.append(
            {
                "type": "line",
                "x0": C,
                "x1": C,
                "y0": -1,
                "y1": 1,
                "line": {"color": "#222222", "width": 3},
            }
        )
    ann = [
        {"x": 0, "y": 1, "text": "0", "showarrow": False, "yanchor": "bottom"},
        {
            "x": right,
            "y": 1,
            "text": "C" if math.isfinite(C) else "no upper bound →",
            "showarrow": False,
            "yanchor": "bottom",
            "xanchor": "center" if math.isfinite(C) else "right",
        },
    ]
    for (_, v0, y0, *_r), (_, v1, y1, *_s) in ((rows[0], rows[1]), (rows[1], rows[2])):
        if abs(v1 - v0) > 1e-12 * max(1.0, R):
            ann.append(
                {
                    "x": v1,
                    "y": y1 + 0.12,
                    "ax": v0,
                    "ay": y0 - 0.12,
                    "xref": "x",
                    "yref": "y",
                    "axref": "x",
                    "ayref": "y",
                    "showarrow": True,
                    "arrowhead": 3,
                    "arrowwidth": 2,
                    "arrowcolor": "#555555",
                    "text": "",
                }
            )
    layout = _base_layout(height, f"Sweep {rec['sweep']}, coordinate k = {k + 1}: α{sub(k)}")
    layout["xaxis"] = _axis(f"α{sub(k)}", range=[lo, hi])
    layout["yaxis"] = {"visible": False, "range": [-1.0, 1.25], "fixedrange": True}
    layout["shapes"] = shapes
    layout["annotations"] = ann
    layout["meta"] = {"role": "coordinate", "k": k + 1}
    return {"data": data, "layout": layout}


# ------------------------------------------------------------------------- α bars


def alpha_bars_figure(
    alpha: np.ndarray,
    y: np.ndarray,
    changed: Sequence[int] = (),
    *,
    alpha_before: np.ndarray | None = None,
    C: float = math.inf,
    title: str | None = None,
    height: int = 300,
    step: int | None = None,
) -> dict:
    """α as bars (x₁ … xₙ), class colours pale, the changed entries solid green with their
    old value marked; a dashed line at C for a finite box. ``step`` goes into ``layout.meta``."""
    alpha = np.asarray(alpha, dtype=float)
    y = np.asarray(y)
    n = len(alpha)
    idx = np.arange(1, n + 1)
    changed = np.asarray(sorted({int(c) for c in changed}), dtype=int)
    colors = np.where(y > 0, POS_COLOR, NEG_COLOR).astype(object)
    edges = colors.copy()  # a pale bar's edge in its full colour: its height at 3:1 (issue 28)
    opac = np.full(n, 0.45)
    line_w = np.full(n, 1.5)
    if len(changed):
        colors[changed] = NEW_COLOR
        edges[changed] = P.PAIR_EDGE
        opac[changed] = 1.0
    data = [
        {
            "type": "bar",
            "x": idx,
            "y": alpha,
            "marker": {
                "color": colors.tolist(),
                "opacity": opac,
                "line": {"color": edges.tolist(), "width": line_w},
            },
            "hovertemplate": "α<sub>%{x}</sub> = %{y:.5g}<extra></extra>",
            "name": "α",
            "meta": {"role": "alpha", "changed": (changed + 1).tolist()},
        }
    ]
    if alpha_before is not None and len(changed):
        data.append(
            {
                "type": "scatter",
                "mode": "markers",
                "x": changed + 1,
                "y": np.asarray(alpha_before, dtype=float)[changed],
                "marker": {
                    "symbol": "line-ew-open",
                    "color": "#000000",
                    "size": max(8, min(30, 600 // max(n, 1))),
                    "line": {"width": 3, "color": "#000000"},
                },
                "hovertemplate": "α<sub>%{x}</sub> before = %{y:.5g}<extra></extra>",
                "name": "before this step",
                "meta": {"role": "alpha_before"},
            }
        )
    top = float(np.max(alpha, initial=0.0))
    shapes = []
    if math.isfinite(C):
        shapes.append(
            {
                "type": "line",
                "xref": "paper",
                "x0": 0,
                "x1": 1,
                "y0": C,
                "y1": C,
                "line": {"color": "#444444", "width": 2, "dash": "dash"},
            }
        )
        top = max(top, C)
    layout = _base_layout(height, title)
    layout["bargap"] = 0.15 if n <= 60 else 0.0
    layout["xaxis"] = _axis(
        "point", range=[0.5, n + 0.5], showgrid=False, dtick=1 if n <= 20 else None
    )
    layout["yaxis"] = _axis("α", range=[0, 1.12 * top if top > 0 else 1.0])
    layout["shapes"] = shapes
    if math.isfinite(C):
        layout["annotations"] = [
            {
                "xref": "paper",
                "x": 1,
                "y": C,
                "text": f"C = {fmt_num(C)}",
                "showarrow": False,
                "xanchor": "right",
                "yanchor": "bottom",
                "font": {"size": 15},
            }
        ]
    layout["meta"] = {"role": "alpha_bars", "step": step}
    return {"data": data, "layout": layout}


# ------------------------------------------------------------------------- curves


def _thin(n_points: int, keep: int) -> np.ndarray:
    """Indices 0..n_points−1 thinned to about MAX_CURVE_POINTS (always keeping ``keep`` and
    the last)."""
    if n_points <= MAX_CURVE_POINTS:
        return np.arange(n_points)
    step = math.ceil(n_points / MAX_CURVE_POINTS)
    idx = set(range(0, n_points, step)) | {n_points - 1, int(keep)}
    return np.array(sorted(i for i in idx if 0 <= i < n_points))


def _finite_or_none(v: np.ndarray) -> list:
    return [float(x) if math.isfinite(x) else None for x in np.asarray(v, dtype=float)]



def _curve(xs, y, name: str, color: str, width: float, panel: str, role: str, *,
           mode: str = "lines", dash: str | None = None, marker: dict | None = None) -> dict:
    """One curve of the convergence panels (``panel`` "" the objectives, "2" the KKT)."""
    line = {"color": color, "width": width, **({"dash": dash} if dash else {})}
    return {"type": "scatter", "mode": mode, **({"marker": marker} if marker else {}),
            "x": xs, "y": _finite_or_none(y), "name": name, "line": line,
            "xaxis": "x" + panel, "yaxis": "y" + panel, "meta": {"role": role}}

def curves_figure(
    dual: np.ndarray,
    primal: np.ndarray,
    kkt: np.ndarray,
    k: float,
    *,
    step_name: str = "step",
    kkt_name: str = "max KKT violation",
    tol: float | None = None,
    tol_name: str = "tol",
    extra: np.ndarray | None = None,
    extra_name: str | None = None,
    current: tuple[float, float, float] | None = None,
    height: int = 460,
    marker: bool = True,
) -> dict:
    """Two stacked panels over the iterations 0..T: dual and primal objective (top), the
    maximal KKT violation on a log scale (bottom); a vertical marker at the current step k
    (k may be fractional: SGA's coordinate steps). ``current`` overrides the marker values
    (dual, primal, kkt) when they are not on the recorded curve. ``marker=False`` leaves the
    marker out (the step player draws it over the static curves)."""
    dual = np.asarray(dual, dtype=float)
    primal = np.asarray(primal, dtype=float)
    kkt = np.asarray(kkt, dtype=float)
    T1 = len(dual)
    kk = min(max(float(k), 0.0), T1 - 1)
    ki = int(round(kk))
    sel = _thin(T1, ki)
    xs = sel.tolist()
    pos_kkt = np.where(kkt > 0, kkt, np.nan)
    gaps = bool(np.isnan(primal).any())  # hard margin: primal = ∞ while a margin is violated
    data = [
        _curve(xs, dual[sel], "dual objective", DUAL_COLOR, 3, "", "dual"),
        _curve(xs, primal[sel], "primal objective", PRIMAL_COLOR, 3, "", "primal", dash="dash",
               mode="lines+markers" if gaps and T1 <= 300 else "lines",
               marker={"size": 5, "color": PRIMAL_COLOR}),
        _curve(xs, pos_kkt[sel], kkt_name, KKT_COLOR, 2.5, "2", "kkt"),
    ]
    if extra is not None:
        ex = np.asarray(extra, dtype=float)
        ex = np.where(ex > 0, ex, np.nan)
        data.append(_curve(xs, ex[sel], extra_name or "", EXTRA_COLOR, 2.5, "2", "extra",
                           dash="dot"))
    cd, cp, ck = current if current is not None else (dual[ki], primal[ki], kkt[ki])
    marker_traces = [
        {
            "type": "scatter",
            "mode": "markers",
            "x": [kk, kk],
            "y": _finite_or_none(np.array([cd, cp])),
            "name": "now",
            "marker": {
                "size": 14,
                "color": [DUAL_COLOR, PRIMAL_COLOR],
                "line": {"width": 2, "color": "#FFFFFF"},
            },
            "xaxis": "x",
            "yaxis": "y",
            "showlegend": False,
            "meta": {"role": "marker", "k": kk},
        },
        {
            "type": "scatter",
            "mode": "markers",
            "x": [kk],
            "y": _finite_or_none(np.array([ck if ck > 0 else np.nan])),
            "name": "now",
            "marker": {"size": 14, "color": KKT_COLOR, "line": {"width": 2, "color": "#FFFFFF"}},
            "xaxis": "x2",
            "yaxis": "y2",
            "showlegend": False,
            "meta": {"role": "marker_kkt", "k": kk},
        },
    ]
    if marker:
        data += marker_traces
    # objective panel range: the dual's range with room above for the primal coming down
    fin_d = dual[np.isfinite(dual)]
    lo = float(fin_d.min()) if len(fin_d) else 0.0
    hi = float(fin_d.max()) if len(fin_d) else 1.0
    fin_p = primal[np.isfinite(primal)]
    if len(fin_p):
        lo = min(lo, float(fin_p.min()))
    span = max(hi - lo, 1e-9 * max(1.0, abs(hi)))
    y_top = hi + 0.9 * span
    if len(fin_p):
        y_top = min(y_top, max(float(fin_p.max()), hi) + 0.05 * span)
    shapes = [
        {
            "type": "line",
            "xref": "x",
            "yref": "paper",
            "x0": kk,
            "x1": kk,
            "y0": 0,
            "y1": 1,
            "line": {"color": HIGHLIGHT_COLOR, "width": 2},
        }
    ]
    if not marker:
        shapes = []
    if tol is not None and tol > 0:
        data.append(
            {
                "type": "scatter",
                "mode": "lines",
                "x": [0, T1 - 1],
                "y": [tol, tol],
                "name": tol_name,
                "line": {"color": "#888888", "width": 1.5, "dash": "dash"},
                "xaxis": "x2",
                "yaxis": "y2",
                "hoverinfo": "skip",
                "meta": {"role": "tol"},
            }
        )
    layout = _base_layout(height)
    layout["showlegend"] = True
    layout["legend"] = {
        "orientation": "h",
        "x": 0,
        "y": 1.02,
        "yanchor": "bottom",
        "font": {"size": 15},
    }
    layout["margin"]["t"] = 50
    layout["xaxis"] = _axis(
        "", range=[0, max(T1 - 1, 1)], anchor="y", domain=[0, 1], showticklabels=False, matches="x2"
    )
    layout["yaxis"] = _axis("objective", domain=[0.55, 1.0], range=[lo - 0.05 * span, y_top])
    layout["xaxis2"] = _axis(step_name, range=[0, max(T1 - 1, 1)], anchor="y2", domain=[0, 1])
    layout["yaxis2"] = _axis("log scale", type="log", domain=[0.0, 0.45], exponentformat="power")
    layout["margin"]["l"] = 90
    layout["shapes"] = shapes
    layout["meta"] = {"role": "curves", "k": kk if marker else None}
    return {"data": data, "layout": layout}
