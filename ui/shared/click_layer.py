"""Click (or tap) to add a point on a plain ``st.plotly_chart``: an invisible grid of markers
over the plot and Streamlit's point selection (pure; no streamlit here).

The Playground's click canvas knows two classes only (±1, ``ui/browser/canvas.js``); the
More classes and Regression pages need k classes or a 1-D target, so they use this instead:
``st.plotly_chart(fig, on_select=..., selection_mode="points")`` reports the marker a click
selected, and the clicked place is that marker's grid cell (its resolution: ``STEPS``
cells across). ``trace`` draws the layer; ``clicked`` reads the selection (the browser is not
trusted: only finite numbers inside the layer's ranges are accepted).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

NAME = "click to add a point"
STEPS = (70, 45)            # grid markers across x and y
KEEP = {"marker": {"opacity": 1.0}}   # the data traces' look while a grid marker is selected


def trace(x_range, y_range, steps=STEPS) -> dict:
    """The layer: steps[0] × steps[1] invisible markers over the ranges (put it last, so
    hover labels of the data stay on top)."""
    xs = np.linspace(float(x_range[0]), float(x_range[1]), steps[0])
    ys = np.linspace(float(y_range[0]), float(y_range[1]), steps[1])
    xx, yy = np.meshgrid(xs, ys)
    return {"type": "scatter", "mode": "markers", "name": NAME, "x": xx.ravel().tolist(),
            "y": yy.ravel().tolist(), "hoverinfo": "none", "showlegend": False,
            "marker": {"size": 14, "opacity": 0.0, "color": "#000000"},
            "selected": {"marker": {"opacity": 0.0}}, "unselected": {"marker": {"opacity": 0.0}},
            "meta": {"role": "click_layer"}}


def layer_index(fig: Mapping[str, Any]) -> int | None:
    """The curve number of the layer in a figure dict (None: no layer)."""
    for k, tr in enumerate(fig.get("data", ())):
        if (tr.get("meta") or {}).get("role") == "click_layer":
            return k
    return None


def clicked(event: Any, layer: int | None, x_range, y_range) -> tuple[float, float] | None:
    """(x, y) of the grid marker a click selected, from the chart's selection state
    (``st.session_state[key]``), or None when it holds no valid click on the layer."""
    if layer is None:
        return None
    try:
        points = event["selection"]["points"]
    except (KeyError, TypeError, IndexError):
        return None
    if not isinstance(points, list):
        return None
    for p in reversed(points):
        if not isinstance(p, Mapping) or p.get("curve_number") != layer:
            continue
        x, y = p.get("x"), p.get("y")
        if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                   for v in (x, y)):
            return None
        if not (_within(x, x_range) and _within(y, y_range)):
            return None
        return float(x), float(y)
    return None


def _within(v: float, r) -> bool:
    lo, hi = float(r[0]), float(r[1])
    slack = 1e-9 * max(1.0, abs(lo), abs(hi))
    return lo - slack <= v <= hi + slack
