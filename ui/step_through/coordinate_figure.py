"""SGA's one-coordinate update (slide 33, lines 12–14) on the number line, [0, C] shaded."""

from __future__ import annotations

import math

from ui.shared.numbers import fmt_num
from ui.step_through.figure_style import (
    NEW_COLOR,
    OLD_COLOR,
    TEXT_OF,
    UNCLIPPED_COLOR,
    axis,
    base_layout,
    sub,
)


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
    layout = base_layout(height, f"Sweep {rec['sweep']}, coordinate k = {k + 1}: α{sub(k)}")
    layout["xaxis"] = axis(f"α{sub(k)}", range=[lo, hi])
    layout["yaxis"] = {"visible": False, "range": [-1.0, 1.25], "fixedrange": True}
    layout["shapes"] = shapes
    layout["annotations"] = ann
    layout["meta"] = {"role": "coordinate", "k": k + 1}
    return {"data": data, "layout": layout}

