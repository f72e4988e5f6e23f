"""What travels between the server and the browser's modules, on both sides pure (no streamlit):

- Plotly figures as JSON text (``figure_json``: numpy arrays as typed arrays), with the
  canvas's shared grid (``canvas_figure_json``) and an answer whose figure is already JSON
  text (``json_with_figure``); ``PLOTLY_URL``, where the browser loads plotly.min.js;
- the checks of what a browser sends back (it is not trusted): a point list
  (``parse_point_list``, raising ``CanvasError``) and axis ranges (``parse_ranges``), and the
  shading grid around a view (``grid_ranges``, ``GRID_RESOLUTION``).

Used by the Playground's canvas (``ui.playground.canvas``) and fit endpoint
(``ui.serving.fit_api``), the Step-through's plots and player, and the click plot of the More
classes and Regression pages (``ui.shared.click_plot``).
"""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

PLOTLY_URL = "app/static/plotly.min.js"  # relative: works under a server.baseUrlPath too
GRID_RESOLUTION = 80  # cells along the longer side of the shading grid (figure and endpoint)
MAX_SLACK_LABELS = 12  # the largest ξ get a label; more would bury the plot


class CanvasError(ValueError):
    """The browser sent something that is not a valid point list."""


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def parse_point_list(
    pts: Any, *, max_points: int, source: str = "from the plot"
) -> tuple[np.ndarray, np.ndarray]:
    """(X (n, 2) float, y (n,) ±1 int) from a JSON list [[x1, x2, ±1], ...] sent by a browser.

    The one check of a point list from the browser (the canvas's ``setStateValue`` and the
    fit endpoint ``ui.serving.fit_api``): a list of at most ``max_points`` triples of two finite
    numbers and a label ±1. Raises CanvasError naming the first bad point (``source`` says
    where the list came from, "" for nowhere).
    """
    where = f" {source}" if source else ""
    if not isinstance(pts, list):
        raise CanvasError(f"the points{where} are not a list")
    if len(pts) > max_points:
        raise CanvasError(f"too many points: {len(pts)} (at most {max_points})")
    fast = _plain_points(pts)
    if fast is not None:
        return fast
    X = np.empty((len(pts), 2))
    y = np.empty(len(pts), dtype=np.int64)
    for i, p in enumerate(pts):  # the first bad point, named
        if not (isinstance(p, list) and len(p) == 3 and _is_num(p[0]) and _is_num(p[1])):
            raise CanvasError(f"point {i + 1}{where} is not two finite numbers and a label")
        if p[2] not in (1, -1) or isinstance(p[2], bool):
            raise CanvasError(f"point {i + 1}{where} has label {p[2]!r}, not ±1")
        X[i] = (p[0], p[1])
        y[i] = p[2]
    return X, y


def _plain_points(pts: list) -> tuple[np.ndarray, np.ndarray] | None:
    """``parse_point_list``'s result at numpy's speed when every point is a triple of
    finite ints or floats with a label ±1 (228 points: 0.44 → 0.22 ms, twice a click in the
    endpoint's worker for the points and the warm start's), else None (the loop names
    the first bad point)."""
    if not all(type(p) is list and len(p) == 3 for p in pts):
        return None
    if not {type(v) for p in pts for v in p} <= {int, float}:  # no bool, str, list, None
        return None
    try:
        a = np.array(pts, dtype=float).reshape(-1, 3)
    except OverflowError:  # an integer no float holds
        return None
    if not (np.isfinite(a[:, :2]).all() and np.isin(a[:, 2], (1.0, -1.0)).all()):
        return None
    return np.ascontiguousarray(a[:, :2]), a[:, 2].astype(np.int64)


def parse_ranges(xr: Any, yr: Any) -> tuple[tuple, tuple] | None:
    """((x0, x1), (y0, y1)) sorted, from two [a, b] lists of finite numbers; None when they
    are not two non-empty ranges within ±1e9."""
    if not (isinstance(xr, list) and isinstance(yr, list) and len(xr) == 2 and len(yr) == 2):
        return None
    if not all(_is_num(v) for v in xr + yr):
        return None
    x0, x1 = sorted(float(v) for v in xr)
    y0, y1 = sorted(float(v) for v in yr)
    if not (x1 - x0 > 1e-9 and y1 - y0 > 1e-9) or max(abs(x0), abs(x1), abs(y0), abs(y1)) > 1e9:
        return None
    return (x0, x1), (y0, y1)


def grid_ranges(view: tuple[tuple, tuple], pad: float = 0.1) -> tuple[tuple, tuple]:
    """The view widened by ``pad`` on every side, so small pans stay shaded."""
    (x0, x1), (y0, y1) = view
    dx, dy = (x1 - x0) * pad, (y1 - y0) * pad
    return (x0 - dx, x1 + dx), (y0 - dy, y1 + dy)


def _plotly_json_default(obj: Any) -> Any:
    """numpy → JSON for Plotly.js: float/int arrays as typed-array specs
    ({"dtype": "f4", "bdata": base64}), which Plotly.js decodes natively."""
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind == "f":
            a = np.ascontiguousarray(obj, dtype="<f8" if obj.dtype.itemsize > 4 else "<f4")
            if not np.isfinite(a).all():       # nulls, in the array's shape (a surface's x)
                return np.where(np.isfinite(a), a, None).tolist()
        elif obj.dtype.kind in "iub":
            a = np.ascontiguousarray(obj, dtype="<i4")
        else:
            return obj.tolist()
        spec = {"dtype": {"<f8": "f8", "<f4": "f4", "<i4": "i4"}[a.dtype.str],
                "bdata": base64.b64encode(a.tobytes()).decode("ascii")}  # fmt: skip
        if a.ndim > 1:
            spec["shape"] = ",".join(str(k) for k in a.shape)
        return spec
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, (set, tuple)):
        return list(obj)
    raise TypeError(f"cannot send {type(obj).__name__} to the canvas")


def figure_json(fig: Any) -> str:
    """JSON text of a figure dict (or ``go.Figure``) for Plotly.js; numpy arrays become typed
    arrays, NaN/inf in float arrays become null."""
    if hasattr(fig, "to_plotly_json"):
        fig = fig.to_plotly_json()
    return json.dumps(fig, default=_plotly_json_default, allow_nan=False, separators=(",", ":"))


def canvas_figure_json(fig: Any, grid_from: str | None = None) -> str:
    """Plotly JSON for the canvas: contour traces that draw the same grid as the shading
    (``meta.role`` "margins"/"boundary") carry ``meta.z_from = "regions"`` instead of a copy
    of x, y, z; ``canvas.js`` puts the shared grid back. This halves what each refit sends.
    ``grid_from="grid"``: the shading too carries no x, y, z (``meta.z_from = "grid"``): the
    fit endpoint's answer sends that grid beside the figure (``fit_api.answer``)."""
    if hasattr(fig, "to_plotly_json"):
        fig = fig.to_plotly_json()
    data = [dict(t) for t in fig["data"]]
    regions = next((t for t in data if (t.get("meta") or {}).get("role") == "regions"), None)
    if regions is not None:
        for t in data:
            meta = dict(t.get("meta") or {})
            if (
                t.get("type") == "contour"
                and meta.get("role") in ("margins", "boundary")
                and all(np.array_equal(np.asarray(t[k]), np.asarray(regions[k])) for k in "xyz")
            ):
                meta["z_from"] = "regions"
                t["meta"] = meta
                for k in "xyz":
                    t.pop(k)
        if grid_from:
            regions["meta"] = {**(regions.get("meta") or {}), "z_from": grid_from}
            for k in "xyz":
                regions.pop(k)
    return figure_json({"data": data, "layout": fig["layout"]})


def json_with_figure(obj: Mapping[str, Any]) -> str:
    """``obj`` as JSON text; its "figure" (already JSON text) is spliced in, not quoted."""
    figure = obj.get("figure")
    rest = {k: v for k, v in obj.items() if k != "figure"}
    text = json.dumps(rest, allow_nan=False, separators=(",", ":"), ensure_ascii=False)
    return text if figure is None else f'{text[:-1]},"figure":{figure}}}'
