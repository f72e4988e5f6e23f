"""The convergence panels: dual and primal objective, and the maximal KKT violation (log
scale), over the iterations with a marker at the current step."""

from __future__ import annotations

import math

import numpy as np

from ui.shared.figures import HIGHLIGHT_COLOR
from ui.step_through.figure_style import (
    DUAL_COLOR,
    EXTRA_COLOR,
    KKT_COLOR,
    MAX_CURVE_POINTS,
    PRIMAL_COLOR,
    axis,
    base_layout,
)


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
    layout = base_layout(height)
    layout["showlegend"] = True
    layout["legend"] = {
        "orientation": "h",
        "x": 0,
        "y": 1.02,
        "yanchor": "bottom",
        "font": {"size": 15},
    }
    layout["margin"]["t"] = 50
    layout["xaxis"] = axis(
        "", range=[0, max(T1 - 1, 1)], anchor="y", domain=[0, 1], showticklabels=False, matches="x2"
    )
    layout["yaxis"] = axis("objective", domain=[0.55, 1.0], range=[lo - 0.05 * span, y_top])
    layout["xaxis2"] = axis(step_name, range=[0, max(T1 - 1, 1)], anchor="y2", domain=[0, 1])
    layout["yaxis2"] = axis("log scale", type="log", domain=[0.0, 0.45], exponentformat="power")
    layout["margin"]["l"] = 90
    layout["shapes"] = shapes
    layout["meta"] = {"role": "curves", "k": kk if marker else None}
    return {"data": data, "layout": layout}
