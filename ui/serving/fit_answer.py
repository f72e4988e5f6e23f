"""The fit endpoint's answer (``fit_schema.FitAnswer``): everything the Playground shows of a
fit, for the canvas to draw at once. The draw data is read off
``figures.decision_figure_dict``'s traces, so the quick layer and the full figure cannot
disagree. The page puts the same answer in the canvas's payload after a change of data or
settings (ui/playground/panels.py).

Symbols: α (dual variables), h(x) = Σ αᵢyᵢK(xᵢ, x) + b, ξᵢ = max(0, 1 − yᵢh(xᵢ)), C (box),
SV = support vector (α > 0).
"""

from __future__ import annotations

import base64
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from ui.serving.fit_schema import Style, parse_style
from ui.shared import browser_data, fitting, tables
from ui.shared.figures import decision_figure_dict
from ui.shared.slack_drawing import MIN_SLACK
from ui.shared.sv_labels import point_labels
from ui.shared.theory import playground_sections

#: The models of recent answers, for warm starts (pure results keyed by points + settings).
RECENT = fitting.RecentModels()

#: What a teacher link's hidden parts take out of an answer (``fit_schema.Style.hide``), so
#: the browser never receives them: the numbers panel, and α with the points table's other
#: model columns (α also sits in the SV rings' hover: ``draw_data`` leaves it out there).
HIDDEN_FIELDS = {
    "numbers": ("alpha", "h", "xi", "category", "panel", "fit", "w_norm"),
    "table": ("alpha", "h", "xi", "category", "w_norm"),
}


def _floats(a: Any, digits: int | None = None) -> list:
    out = [float(v) for v in np.asarray(a, dtype=float).ravel()]
    return out if digits is None else [round(v, digits) for v in out]


def _grid(xs: np.ndarray, ys: np.ndarray, H: np.ndarray) -> dict:
    h = np.ascontiguousarray(H, dtype="<f4")
    return {
        "x": [float(xs[0]), float(xs[-1]), len(xs)],
        "y": [float(ys[0]), float(ys[-1]), len(ys)],
        "h": base64.b64encode(h.tobytes()).decode("ascii"),
    }


def _by_role(traces: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for t in traces:
        out.setdefault((t.get("meta") or {}).get("role", ""), []).append(t)
    return out


def _line(t: dict) -> dict:
    ln = t.get("line") or {}
    return {"color": ln.get("color"), "width": ln.get("width"), "dash": ln.get("dash", "solid")}


def draw_data(model, grid: tuple, x_range: tuple, y_range: tuple,
              style: Style | Mapping[str, Any] | None = None) -> tuple[dict, str]:  # fmt: skip
    """What the canvas paints of a fitted model, read off the Playground figure's own traces,
    and that figure as JSON text (its shading and contours refer to the answer's grid).
    ``style`` (``parse_style``) scales the figure and may leave out the SV rings and slack."""
    style = _style(style)
    fig = decision_figure_dict(
        model, grid=grid, x_range=x_range, y_range=y_range,
        max_slack_labels=browser_data.MAX_SLACK_LABELS, scale=style.scale,
        show_sv=style.show_sv, show_slack=style.show_sv,
    )  # fmt: skip
    if "numbers" in style.hide:  # the rings' hover names each SV's α
        for t in fig["data"]:
            if t.get("meta", {}).get("role") == "sv":
                t["customdata"] = [[row[0]] for row in np.asarray(t["customdata"]).tolist()]
                t["hovertemplate"] = t["hovertemplate"].split(":", 1)[0] + \
                    "<extra>" + t["name"] + "</extra>"
    roles = _by_role(fig["data"])
    regions = roles["regions"][0]
    rings = [
        {
            "x": _floats(t["x"]),
            "y": _floats(t["y"]),
            "size": _floats(t["marker"]["size"], 2),
            "color": t["marker"]["color"],
            "width": t["marker"]["line"]["width"],
        }
        for t in roles.get("sv", [])
    ]
    slack: dict[str, Any] = {"lines": [], "labels": [], "style": None, "font": None}
    for t in roles.get("slack", []):
        xs, ys = t["x"], t["y"]
        slack["lines"] = [
            [xs[k], ys[k], xs[k + 1], ys[k + 1]] for k in range(0, len(xs), 3)
        ]  # segments are separated by None (one per point with ξ > 0 whose foot was found)
        slack["style"] = _line(t)
    for t in roles.get("slack_labels", []):
        slack["labels"] = [[x, y, s] for x, y, s in zip(t["x"], t["y"], t["text"], strict=True)]
        slack["font"] = t["textfont"]
    miss = roles.get("misclassified", [])
    draw = {
        "grid": _grid(*grid),
        "regions": {
            "colorscale": regions["colorscale"],
            "zmin": regions["zmin"],
            "zmax": regions["zmax"],
        },
        "boundary": _line(roles["boundary"][0]),
        "margins": _line(roles["margins"][0]),
        "rings": rings,
        "slack": slack,
        "misclassified_mark": (
            {
                "size": miss[0]["marker"]["size"],
                "color": miss[0]["marker"]["color"],
                "width": miss[0]["marker"]["line"]["width"],
            }
            if miss
            else None
        ),  # fmt: skip
    }
    return draw, browser_data.canvas_figure_json(fig, grid_from="grid")


def answer(X: np.ndarray, y: np.ndarray, settings: dict, view: tuple, *, home=None,
           alpha0=None, warm_model=None, seq: int | None = None,
           style: Style | Mapping[str, Any] | None = None, theory: bool = False) -> dict:
    """Everything the Playground shows of the fit of (X, y) with ``settings`` in ``view``:
    the canvas's draw data, the numbers panel's rows (``panel``), the points table's columns
    (α, ``h``, ``xi``, ``category``) and the full Plotly figure (``figure``, JSON text whose
    heatmap and contours take their x, y, z from ``grid``). The endpoint sends it per click;
    the page puts it in the canvas's payload after a change of data or settings. h is
    sampled around ``view`` (the plot's zoom); the figure's axes span ``home`` (default:
    ``view``), the ranges "reset axes" returns to. ``theory``: add the "Why?" panel's texts
    written from this model (``ui.shared.theory``), [key, title, markdown] rows.
    """
    t0 = time.perf_counter()
    style = _style(style)
    out = fitting.fit_points(X, y, settings, alpha0, warm_start=warm_model)
    if out.ok:
        RECENT.put(fitting.fit_key(X, y, settings), out.model)
    ans: dict[str, Any] = {"seq": seq, "ok": out.ok}
    if not out.ok:  # the points alone, and why there is no model
        ans.update(kind=out.kind, message=out.error or "", figure=points_figure(X, y, home or view))
        ans["server_ms"] = round(1000 * (time.perf_counter() - t0), 2)
        return ans
    m = out.model
    grid = fitting.decision_grid(m, *browser_data.grid_ranges(view), browser_data.GRID_RESOLUTION)
    xi = np.asarray(m.xi, dtype=float)
    draw, figure = draw_data(m, grid, *(home or view), style)
    ans.update(
        kind="ok",
        message=out.warning or "",
        alpha=_floats(m.alpha),
        free=[int(i) for i in m.free_support],
        bound=[int(i) for i in m.bound_support],
        slack_idx=[int(i) for i in np.flatnonzero(xi > MIN_SLACK)],
        misclassified=[int(i) for i in np.flatnonzero(np.asarray(m.category) == "misclassified")],
        h=_floats(m.h_train),
        xi=_floats(xi),
        w_norm=float(m.w_norm),  # the table's δ = y·h(x)/‖w‖
        category=point_labels(m),  # the tables' one rule (ui/shared/sv_labels.py)
        panel=[list(r) for r in tables.model_summary(m, student=style.student)],
        fit={
            "solver_ms": round(1000 * float(m.time_s), 3),
            "n_iter": int(m.n_iter),
            "converged": bool(m.converged),
            "warm": m.alpha0 is not None,          # the start actually used
            "warm_gradient": m.alpha0 is not None and warm_model is not None,
        },
        **draw,
        figure=figure,
    )
    if theory:
        ans["theory"] = [[t.key, t.title, t.text] for t in playground_sections(m)]
    for part in style.hide:
        for k in HIDDEN_FIELDS[part]:
            ans.pop(k, None)
    ans["server_ms"] = round(1000 * (time.perf_counter() - t0), 2)
    return ans


def _style(style: Style | Mapping[str, Any] | None) -> Style:
    return style if isinstance(style, Style) else parse_style(style)


def points_figure(X: np.ndarray, y: np.ndarray, ranges: tuple) -> str:
    """The figure of the points alone (no model), as JSON text for the canvas."""
    fig = decision_figure_dict(None, X=X, y=y, x_range=ranges[0], y_range=ranges[1])
    return browser_data.canvas_figure_json(fig)


def to_json(ans: dict) -> str:
    """The answer as JSON text; the figure (already JSON text) is spliced in, not quoted."""
    return browser_data.json_with_figure(ans)
