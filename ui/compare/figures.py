"""Figures of the Compare-solvers page: pure functions (comparison → plotly figure dict).

- ``boundaries_figure``: every row's h(x) = 0 over the points, one colour per row; free-bias
  rows solid, augmented rows dashed, in two legend groups. Lines are drawn widest first, so
  rows with the same answer show as nested strokes instead of hiding each other.
- ``convergence_figure``: the dual objective D(α_t) (top) and the duality gap P − D (bottom,
  log) against the iteration (log) for every traced row, with the cvxopt optimum dotted.
- ``kkt_figure``: the maximal KKT violation against the iteration (log–log).
- ``scaling_figure``: wall time against n (log–log) per solver with its fitted slope.

Never imports streamlit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ui.compare.comparison import BIAS_NAMES, Comparison
from ui.compare.scaling import ScalingResult
from ui.shared import palette as P
from ui.shared.describe import class_counts, with_description
from ui.shared.figures import FONT_SIZE, Overlay, decision_figure_dict
from ui.shared.numbers import fmt_fixed, fmt_num, hyperplane_equation

#: Okabe–Ito (without yellow) then Tol's muted colours, darkened to 3:1 on the shading
#: (ui.shared.palette): distinct for up to 10 rows.
ROW_COLORS = (P.BLACK, P.ORANGE, P.SKY, P.GREEN, P.PURPLE, P.BLUE, P.VERMILLION, P.WINE,
              P.MOSS, P.TEAL)  # fmt: skip
#: and a marker each, so that no two rows differ by colour alone (issue 28)
ROW_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "triangle-down", "cross",
               "pentagon", "star", "hexagon")  # fmt: skip
ROW_MARKERS_SHOWN = 12  # markers per curve (thousands of points: a few suffice)
BIAS_DASH = {"free": "solid", "augmented": "dash"}
#: the cvxopt optima, one per bias form: each its own dash (not the same grey dots)
REFERENCE_DASH = {"free": "dot", "augmented": "dashdot"}
BIAS_GROUP_TITLE = {
    "free": "free b (Σαᵢyᵢ = 0)",
    "augmented": "augmented b (x′ = (x, 1), slide 30)",
}
MAX_WIDTH, MIN_WIDTH = 9.0, 2.5


def row_colors(keys: Sequence[str]) -> dict[str, str]:
    """One colour per row key, in table order (the same on every chart of the page)."""
    return {k: ROW_COLORS[i % len(ROW_COLORS)] for i, k in enumerate(keys)}


def row_symbols(keys: Sequence[str]) -> dict[str, str]:
    """One marker symbol per row key, in table order (as ``row_colors``)."""
    return {k: ROW_SYMBOLS[i % len(ROW_SYMBOLS)] for i, k in enumerate(keys)}


def _row_marker(color: str, symbol: str) -> dict:
    return {"color": color, "symbol": symbol, "size": 8, "maxdisplayed": ROW_MARKERS_SHOWN}


def _widths(count: int) -> list[float]:
    if count <= 1:
        return [4.0] * count
    step = (MAX_WIDTH - MIN_WIDTH) / (count - 1)
    return [MAX_WIDTH - i * step for i in range(count)]


def _layout(title: str, height: int) -> dict:
    return {
        "title": {"text": title, "x": 0.01, "font": {"size": 18}},
        "height": height,
        "font": {"size": FONT_SIZE - 4, "family": "Source Sans Pro, Arial, sans-serif"},
        "plot_bgcolor": "#FFFFFF",
        "paper_bgcolor": "#FFFFFF",
        "margin": {"l": 70, "r": 10, "t": 60, "b": 40},
        "legend": {"orientation": "h", "x": 0, "xanchor": "left", "y": -0.2, "yanchor": "top",
                   "font": {"size": 13}},
        "hovermode": "closest",
    }


def _axis(title: str, log: bool = False, **extra) -> dict:
    ax = {"title": {"text": title}, "type": "log" if log else "linear", "showline": True,
          "linecolor": "#444444", "mirror": True, "ticks": "outside", "gridcolor": "#E5E5E5"}
    ax.update(extra)
    return ax


# ---------------------------------------------------------------------------- boundaries


def boundaries_figure(comp: Comparison, X: np.ndarray, y: np.ndarray, *,
                      resolution: int = 100, height: int = 600, **kwargs) -> dict:
    """The points and every row's boundary h(x) = 0 (rows without a model are left out)."""
    colors = row_colors([r.spec.key for r in comp.rows])
    rows = [r for r in comp.rows if r.run.model is not None]
    overlays = [
        Overlay(name=r.spec.label, model=r.run.model, color=colors[r.spec.key],
                dash=BIAS_DASH.get(r.spec.bias, "dot"), width=w)
        for r, w in zip(rows, _widths(len(rows)))
    ]
    fig = decision_figure_dict(None, X=X, y=y, overlays=overlays, resolution=resolution,
                               height=height, **kwargs)
    overlay_traces = [t for t in fig["data"] if t.get("meta", {}).get("role") == "overlay"]
    titled: set[str] = set()
    for r, tr in zip(rows, overlay_traces):
        tr["legendgroup"] = r.spec.bias
        tr["meta"] = {**tr["meta"], "key": r.spec.key, "bias": r.spec.bias}
        if r.spec.bias not in titled:
            tr["legendgrouptitle"] = {"text": BIAS_GROUP_TITLE.get(r.spec.bias, r.spec.bias)}
            titled.add(r.spec.bias)
    for tr in fig["data"]:
        if tr.get("meta", {}).get("role") == "points":
            tr["legendgroup"] = "points"
    fig["layout"]["legend"].update({"orientation": "v", "x": 1.02, "xanchor": "left", "y": 1,
                                    "yanchor": "top", "itemclick": "toggle",
                                    "groupclick": "toggleitem", "tracegroupgap": 12})
    fig["layout"]["margin"]["t"] = 20
    return with_description(fig, boundary_words(rows, y))


def boundary_words(rows, y) -> str:
    """The boundaries chart in words: the points, then each solver's h(x) = 0 as the numbers
    panel prints a hyperplane (a kernel's boundary is curved)."""
    lines = [f"{r.spec.label}: "
             + (hyperplane_equation(r.run.model.w, r.run.model.b) if r.run.model.w is not None
                else "a curved boundary") for r in rows]
    return (f"{class_counts(y)}; every solver's boundary h(x) = 0: " + "; ".join(lines) + "."
            if lines else f"{class_counts(y)}; no solver has a model.")


# ---------------------------------------------------------------------------- convergence


def _finite_or_none(values, positive: bool = False) -> list[float | None]:
    out: list[float | None] = []
    for v in values:
        v = float(v)
        if positive:
            v = abs(v)
        out.append(v if math.isfinite(v) and (v > 0 or not positive) else None)
    return out


def convergence_figure(comp: Comparison, height: int = 620) -> dict:
    """D(α_t) (top) and |P(α_t) − D(α_t)| (bottom, log) against the iteration (log)."""
    colors = row_colors([r.spec.key for r in comp.rows])
    symbols = row_symbols([r.spec.key for r in comp.rows])
    traces: list[dict] = []
    x_max = 1
    for r in comp.rows:
        c = r.curve
        if c is None:
            continue
        x_max = max(x_max, c.iterations[-1])
        name = r.spec.full_label + (" (trace cut)" if c.truncated else "")
        common = {"type": "scatter", "mode": "lines+markers", "x": list(c.iterations),
                  "marker": _row_marker(colors[r.spec.key], symbols[r.spec.key]),
                  "legendgroup": r.spec.key, "meta": {"key": r.spec.key, "unit": c.unit}}
        line = {"color": colors[r.spec.key], "width": 2.5,
                "dash": BIAS_DASH.get(r.spec.bias, "dot")}
        traces.append({**common, "y": _finite_or_none(c.dual), "name": name, "line": line,
                       "hovertemplate": f"{c.unit} %{{x}}: D = %{{y:.8g}}<extra>{name}</extra>",
                       "meta": {**common["meta"], "panel": "dual"}})
        traces.append({**common, "y": _finite_or_none(c.gap, positive=True), "name": name,
                       "line": line, "showlegend": False, "xaxis": "x2", "yaxis": "y2",
                       "hovertemplate": f"{c.unit} %{{x}}: |P − D| = %{{y:.3g}}"
                                        f"<extra>{name}</extra>",
                       "meta": {**common["meta"], "panel": "gap"}})
    for bias, ref in comp.references.items():
        if ref.model is None or not ref.model.converged:
            continue
        d = float(ref.model.dual_objective)
        traces.append({"type": "scatter", "mode": "lines", "x": [1, x_max], "y": [d, d],
                       "name": f"cvxopt optimum · {BIAS_NAMES.get(bias, bias)}",
                       "line": {"color": P.GREY, "width": 1.5,
                                "dash": REFERENCE_DASH.get(bias, "dot")},
                       "hovertemplate": f"optimum D* = {fmt_num(d, 8)}<extra></extra>",
                       "meta": {"role": "reference", "bias": bias, "panel": "dual"}})
    layout = _layout("Dual objective and duality gap", height)
    layout["xaxis"] = _axis("", log=True, anchor="y", matches="x2", showticklabels=False)
    layout["yaxis"] = _axis("dual objective D(α)", domain=[0.53, 1.0])
    layout["xaxis2"] = _axis("iteration", log=True, anchor="y2")
    layout["yaxis2"] = _axis("duality gap |P − D|", log=True, domain=[0.0, 0.45],
                             exponentformat="power")
    return {"data": traces, "layout": layout}


def kkt_figure(comp: Comparison, height: int = 620) -> dict:
    """The maximal KKT violation against the iteration, log–log: m(α) − M(α) for the free
    bias (LIBSVM's stopping quantity), the largest projected-gradient entry for the augmented
    one (no equality constraint)."""
    colors = row_colors([r.spec.key for r in comp.rows])
    symbols = row_symbols([r.spec.key for r in comp.rows])
    traces = []
    for r in comp.rows:
        c = r.curve
        if c is None:
            continue
        name = r.spec.full_label
        traces.append({
            "type": "scatter", "mode": "lines+markers", "x": list(c.iterations),
            "marker": _row_marker(colors[r.spec.key], symbols[r.spec.key]),
            "y": _finite_or_none(c.kkt, positive=True), "name": name,
            "line": {"color": colors[r.spec.key], "width": 2.5,
                     "dash": BIAS_DASH.get(r.spec.bias, "dot")},
            "hovertemplate": f"{c.unit} %{{x}}: KKT violation %{{y:.3g}}<extra>{name}</extra>",
            "meta": {"key": r.spec.key},
        })  # fmt: skip
    layout = _layout("Maximal KKT violation", height)
    layout["xaxis"] = _axis("iteration", log=True)
    layout["yaxis"] = _axis("max KKT violation", log=True, exponentformat="power")
    return {"data": traces, "layout": layout}


# -------------------------------------------------------------------------------- scaling


def scaling_figure(result: ScalingResult, height: int = 520) -> dict:
    """Wall time (ms) against n, log–log, one colour per solver, with the fitted slope p of
    t ≈ c·nᵖ in the legend and as a dashed line."""
    colors = row_colors(list(result.labels))
    symbols = row_symbols(list(result.labels))
    traces = []
    for key, label in result.labels.items():
        ns, ts = result.series(key)
        if not ns:
            continue
        conv = [m.converged for m in result.measurements if m.key == key and m.time_s is not None]
        p = result.slope(key)
        name = f"{label}: slope {fmt_fixed(p, 2)}" if p is not None else f"{label}: slope —"
        color = colors[key]
        traces.append({
            "type": "scatter", "mode": "lines+markers", "x": ns, "y": [1e3 * t for t in ts],
            "name": name, "legendgroup": key,
            "line": {"color": color, "width": 2},
            "marker": {"size": 9, "color": color,
                       "symbol": [symbols[key] + ("" if c else "-open") for c in conv]},
            "hovertemplate": f"n = %{{x}}: %{{y:.3g}} ms<extra>{label}</extra>",
            "meta": {"key": key, "slope": p},
        })  # fmt: skip
        if p is not None:
            ln, lt = np.log(ns), np.log(ts)
            c0 = float(np.mean(lt) - p * np.mean(ln))
            xs = [min(ns), max(ns)]
            traces.append({
                "type": "scatter", "mode": "lines", "x": xs,
                "y": [1e3 * math.exp(c0 + p * math.log(x)) for x in xs],
                "showlegend": False, "legendgroup": key, "hoverinfo": "skip",
                "line": {"color": color, "width": 1.5, "dash": "dash"},
                "meta": {"key": key, "role": "fit"},
            })  # fmt: skip
    what = ", ".join(filter(None, (result.generator, result.problem)))
    title = f"Time against n ({what}; open marker: did not converge)"
    layout = _layout(title, height)
    layout["xaxis"] = _axis("n (points)", log=True, tickvals=list(result.sizes))
    layout["yaxis"] = _axis("wall time of se.fit (ms)", log=True)
    return {"data": traces, "layout": layout}
