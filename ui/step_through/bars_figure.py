"""α as bars (x₁ … xₙ), the entries a step changed highlighted."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ui.shared import palette as P
from ui.shared.figures import NEG_COLOR, POS_COLOR
from ui.shared.numbers import fmt_num
from ui.step_through.figure_style import NEW_COLOR, axis, base_layout


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
    layout = base_layout(height, title)
    layout["bargap"] = 0.15 if n <= 60 else 0.0
    layout["xaxis"] = axis(
        "point", range=[0.5, n + 0.5], showgrid=False, dtick=1 if n <= 20 else None
    )
    layout["yaxis"] = axis("α", range=[0, 1.12 * top if top > 0 else 1.0])
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

