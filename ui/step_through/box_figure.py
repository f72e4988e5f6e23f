"""SMO's two-variable subproblem in the (αᵢ, αⱼ) plane (the KKT/SMO note's picture): the box
[0, C]², the line yᵢαᵢ + yⱼαⱼ = const, the segment [L, H], the old point, the unclipped
optimum and the clipped new point; for C = ∞ the box is drawn open. Used by the Step-through
page and the Worked examples page."""

from __future__ import annotations

import math

import numpy as np

from ui.shared import palette as P
from ui.shared.numbers import fmt_num
from ui.step_through.figure_style import (
    NEW_COLOR,
    OLD_COLOR,
    SEGMENT_COLOR,
    UNCLIPPED_COLOR,
    axis,
    base_layout,
    sign,
    sub,
)


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


#: label sides of the geometry ("t"/"b": above/below, "r"/"l": right/left) as Plotly names them
PLACES = {"tr": "top right", "tl": "top left", "br": "bottom right", "bl": "bottom left"}


def box_geometry(rec: dict) -> dict:
    """Where everything of the (αᵢ, αⱼ) picture goes, from a step's numbers: the view [lo, hi]²,
    the constraint line's and the segment's ends, which end of [L, H] the new point is on, the
    off-chart arrow's tip, and each label's side. ``box_figure`` (Plotly) draws it, and the step
    player's box (ui/browser/step_box.js, boxGeometry) is its port: tests/test_step_box.py runs
    both on every step of real runs and holds them equal."""
    lo, hi, visible = box_view(rec)
    span = hi - lo
    tol = 1e-9 * max(1.0, span)
    s = rec["yi"] * rec["yj"]
    gamma = rec["ai_old"] + s * rec["aj_old"]  # αᵢ + s·αⱼ = γ on the line

    def ai_of(aj):
        return gamma - s * aj

    # labels sit off the line (slope −s), on the side with room in the view
    up_side, down_side = ("tr", "bl") if s > 0 else ("tl", "br")

    def place(x, y, prefer_up):
        fy = (y - lo) / span
        fx = (x - lo) / span
        if fy < 0.2 or (s > 0 and fx < 0.2) or (s < 0 and fx > 0.8):
            return up_side
        if fy > 0.8 or (s > 0 and fx > 0.8) or (s < 0 and fx < 0.2):
            return down_side
        return up_side if prefer_up else down_side

    L, H = rec["L"], rec["H"]
    # C = ∞ with yᵢ ≠ yⱼ: H = ∞, the segment is a ray; drawn to beyond the view
    H_end = H if math.isfinite(H) else hi + span
    # the new point on an end of the segment: its label names that end (a second label "H"
    # or "L" on the same spot overlapped it)
    new_end = next((name for name, v in (("L", L), ("H", H))
                    if math.isfinite(v) and abs(rec["aj_new"] - v) <= tol), None)
    old = (rec["ai_old"], rec["aj_old"])
    unc = (rec["ai_unclipped"], rec["aj_unclipped"])
    new = (rec["ai_new"], rec["aj_new"])
    arrow = None
    if not visible:  # the unclipped optimum off the chart: an arrow at the edge towards it
        dx, dy = unc[0] - old[0], unc[1] - old[1]
        norm = math.hypot(dx, dy) or 1.0
        arrow = (min(max(old[0] + dx / norm * span * 0.45, lo), hi),
                 min(max(old[1] + dy / norm * span * 0.45, lo), hi))
    return {
        "lo": lo, "hi": hi, "unc_visible": visible,
        "line": ((ai_of(lo - span), lo - span), (ai_of(hi + span), hi + span)),
        "segment": ((ai_of(L), L), (ai_of(H_end), H_end)),
        "new_end": new_end,
        "same": math.hypot(unc[0] - new[0], unc[1] - new[1]) <= tol,
        "moved": math.hypot(new[0] - old[0], new[1] - old[1]) > tol,
        "arrow": arrow,
        "places": {"L": place(ai_of(L), L, False), "H": place(ai_of(H_end), H_end, False),
                   "unclipped": place(*unc, True), "old": place(*old, True),
                   "new": place(*new, False)},
    }


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
    """SMO step ``rec`` (ui.step_through.snapshot.step_record) in the (αᵢ, αⱼ) plane."""
    i, j = int(rec["i"]), int(rec["j"])
    C = float(rec["C"])
    g = box_geometry(rec)
    lo, hi, unc_visible = g["lo"], g["hi"], g["unc_visible"]
    places = {key: PLACES[v] for key, v in g["places"].items()}

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
    (x0, y0), (x1, y1) = g["line"]
    data.append(
        {
            "type": "scatter",
            "mode": "lines",
            "x": np.array([x0, x1]),
            "y": np.array([y0, y1]),
            "name": "yᵢαᵢ + yⱼαⱼ = const",
            "hoverinfo": "skip",
            "line": {"color": "#777777", "width": 2, "dash": "dash"},
            "meta": {"role": "line"},
        }
    )
    L, H = rec["L"], rec["H"]
    (xL, yL), (xH, yH) = g["segment"]  # C = ∞ with yᵢ ≠ yⱼ: a ray, drawn past the view
    new_end = g["new_end"]
    data.append(
        {
            "type": "scatter",
            "mode": "lines+markers+text",
            "x": [xL, xH],
            "y": [yL, yH],
            "text": ["L" if new_end != "L" else "",
                     "H" if math.isfinite(H) and new_end != "H" else ""],
            "textposition": [places["L"], places["H"]],
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
    if unc_visible:
        data.append(_labelled_point(unc, "unclipped", "unclipped optimum", UNCLIPPED_COLOR,
                                    P.PURPLE_TEXT, places["unclipped"], "unclipped",
                                    {"symbol": "diamond-open", "size": 22,
                                     "line": {"width": 4, "color": UNCLIPPED_COLOR}},
                                    text=not g["same"]))
    else:
        # off the chart: an arrow at the edge pointing towards it
        annotations.append(_arrow(g["arrow"], old, arrowhead=2, arrowwidth=2,
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
                                places["old"], "old",
                                {"symbol": "circle", "size": 16,
                                 "line": {"width": 2, "color": "#FFFFFF"}}))
    clipped = bool(rec.get("clipped"))
    new_label = ("new (clipped)" if clipped else "new = unclipped") + (
        f" at {new_end}" if new_end else "")
    new_point = _labelled_point(new, new_label,
                                "new (clipped)" if clipped else "new", NEW_COLOR, P.PAIR_TEXT,
                                places["new"], "new",
                                {"symbol": "star", "size": 24,
                                 "line": {"width": 1.5, "color": P.PAIR_EDGE}},
                                pair=[i + 1, j + 1])
    new_point["cliponaxis"] = False      # a label near the box's edge is not cut by it
    data.append(new_point)
    if g["moved"]:
        annotations.append(_arrow(new, old, arrowhead=3, arrowsize=1.3, arrowwidth=2.5,
                                  arrowcolor="#333333", text=""))
    box_text = f"box [0, {fmt_num(C)}]²" if finite else "no upper bound on α: the box is open"
    layout = base_layout(height, f"Step {rec['it']}: the pair (α{sub(i)}, α{sub(j)}) · {box_text}")
    layout["margin"]["b"] = 70
    layout["xaxis"] = axis(
        f"α{sub(i)}  (i = {i + 1}, y<sub>i</sub> = {sign(rec['yi'])})",
        range=[lo, hi],
        constrain="domain",
    )
    layout["yaxis"] = axis(
        f"α{sub(j)}  (j = {j + 1}, y<sub>j</sub> = {sign(rec['yj'])})",
        range=[lo, hi],
        scaleanchor="x",
        scaleratio=1,
        constrain="domain",
    )
    layout["shapes"] = shapes
    layout["annotations"] = annotations
    layout["meta"] = {"role": "box", "step": int(rec["it"]), "pair": [i + 1, j + 1]}
    return {"data": data, "layout": layout}
