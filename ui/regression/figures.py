"""The Regression page's figures (pure: an `compute.Answer` → a Plotly figure dict).

`fit_figure`: the points, the fitted y(x), the ε-tube y(x) ± ε (shaded), the true function
of generated data (dotted), ξ and ξ̂ as vertical segments from a point to the tube's edge
(in colours of their own; their values in the hover and in the page's table, not as text on
the plot, where labels hid points and each other), the support vectors ringed (on the edge:
black ring; outside: a thicker ring); the legend above the plot, clear of the x axis; seed
002's names a, â. The page draws it with `ui.shared.click_plot` (a click adds a point).
`progress_figure`: SMO's
m(α) − M(α) and L̃ per iteration.
"""

from __future__ import annotations

import numpy as np

from ui.shared import palette as P
from ui.shared.figures import FONT_SIZE, NEG_COLOR, POINT_SIZE, POS_COLOR
from ui.shared.numbers import fmt_num

TUBE_FILL = "rgba(0, 114, 178, 0.12)"  # P.BLUE at 0.12
FIT_COLOR = P.BLUE         # y(x) and its tube
XI_COLOR = P.VERMILLION    # ξ, above the tube
XI_HAT_COLOR = P.ORANGE    # ξ̂, below the tube (dotted as well)
OUTSIDE_COLOR = P.PURPLE
INSIDE_COLOR = P.GREY
MAX_CURVE = 2000      # iterations drawn of SMO's progress (evenly spaced, the last included)


#: The view while the student places points: fixed, so that a click lands where it was aimed
#: (a view fitted to the points shrank to them after the first click and the next clicks fell
#: outside it); it only grows, to show a point or the tube beyond it
PLACE_VIEW = ((-4.0, 4.0), (-3.0, 3.0))


def ranges(answer, pad: float = 0.15, view=None) -> tuple[tuple, tuple]:
    """The plot's x and y ranges: the points, the curve and the tube, padded (and the whole
    of ``view``, ((x0, x1), (y0, y1)), when given)."""
    m = answer.model
    x = m.X[:, 0]
    ys = np.concatenate([m.t, answer.fitted - m.epsilon, answer.fitted + m.epsilon])
    return data_view(x, ys, pad, view)


def data_view(x, y, pad: float = 0.15, view=None) -> tuple[tuple, tuple]:
    """The padded ranges of the values x and y, widened to hold ``view`` if given."""
    out = []
    for v, (lo, hi) in zip((x, y), view or ((np.inf, -np.inf),) * 2):
        v0, v1 = float(np.min(v)), float(np.max(v))
        d = max(v1 - v0, 1.0)
        out.append((min(v0 - pad * d, lo), max(v1 + pad * d, hi)))
    return out[0], out[1]


def _point_hover(m) -> list[str]:
    out = []
    for i in range(len(m.t)):
        out.append(f"x{i + 1} = {fmt_num(m.X[i, 0])}<br>t = {fmt_num(m.t[i])}<br>"
                   f"y(x) = {fmt_num(m.f_train[i])}<br>a = {fmt_num(m.a[i])}, "
                   f"â = {fmt_num(m.a_hat[i])}<br>ξ = {fmt_num(m.xi[i])}, "
                   f"ξ̂ = {fmt_num(m.xi_hat[i])}")
    return out


def _slack_traces(m) -> list[dict]:
    """ξᵢ: from tᵢ down to the upper edge y(xᵢ) + ε; ξ̂ᵢ: up to the lower edge. Hovering
    either end of a segment gives its value."""
    traces = []
    for name, sym, values, color, dash, edge in (
            ("ξ (above the tube)", "ξ", m.xi, XI_COLOR, "dash", +1),
            ("ξ̂ (below the tube)", "ξ̂", m.xi_hat, XI_HAT_COLOR, "dot", -1)):
        idx = np.flatnonzero(values > 0)
        if not len(idx):
            continue
        xs, ys, text = [], [], []
        for i in idx:
            xs += [m.X[i, 0], m.X[i, 0], None]
            ys += [m.t[i], m.f_train[i] + edge * m.epsilon, None]
            text += [f"{sym}{_sub(i + 1)} = {fmt_num(values[i])}"] * 2 + [None]
        traces.append({"type": "scatter", "mode": "lines", "x": xs, "y": ys, "name": name,
                       "line": {"color": color, "width": 3, "dash": dash}, "text": text,
                       "hovertemplate": "%{text}<extra></extra>", "meta": {"role": "slack"}})
    return traces


def _sub(i: int) -> str:
    return str(i).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def fit_figure(answer, view=None) -> dict:
    """The fit's figure; ``view``: ranges it shows at least (``PLACE_VIEW``)."""
    m = answer.model
    g, f, eps = answer.grid, answer.fitted, m.epsilon
    xr, yr = ranges(answer, view=view)
    data: list[dict] = [
        {"type": "scatter", "mode": "lines", "x": g.tolist(), "y": (f - eps).tolist(),
         "line": {"color": FIT_COLOR, "width": 1, "dash": "dash"}, "name": "tube y(x) ± ε",
         "hoverinfo": "skip", "meta": {"role": "tube_low"}},
        {"type": "scatter", "mode": "lines", "x": g.tolist(), "y": (f + eps).tolist(),
         "line": {"color": FIT_COLOR, "width": 1, "dash": "dash"}, "fill": "tonexty",
         "fillcolor": TUBE_FILL, "showlegend": False, "hoverinfo": "skip",
         "meta": {"role": "tube_high"}},
        {"type": "scatter", "mode": "lines", "x": g.tolist(), "y": f.tolist(),
         "line": {"color": FIT_COLOR, "width": 3}, "name": "fitted y(x)",
         "meta": {"role": "fit"}},
    ]
    if answer.truth is not None:
        data.append({"type": "scatter", "mode": "lines", "x": g.tolist(),
                     "y": answer.truth.tolist(), "name": "true function",
                     "line": {"color": P.GREEN, "width": 2, "dash": "dot"},
                     "hoverinfo": "skip", "meta": {"role": "truth"}})
    data += _slack_traces(m)
    cat = m.category
    hover = np.array(_point_hover(m), dtype=object)
    for kind, name, color, ring in (("inside", "inside the tube", INSIDE_COLOR, 0),
                                    ("edge", "SV on the edge", P.BLACK, 2),
                                    ("outside", "SV outside (a or â = C)", OUTSIDE_COLOR,
                                     4)):
        idx = np.flatnonzero(cat == kind)
        data.append({"type": "scatter", "mode": "markers", "x": m.X[idx, 0].tolist(),
                     "y": m.t[idx].tolist(), "name": f"{name} ({len(idx)})",
                     "text": hover[idx].tolist(), "hovertemplate": "%{text}<extra></extra>",
                     "marker": {"size": POINT_SIZE + ring, "color": "#FFFFFF" if ring else color,
                                "line": {"color": color, "width": 2 + ring}},
                     "meta": {"role": "points", "kind": kind, "index": idx.tolist()}})
    layout = {"xaxis": {"title": {"text": "x"}, "range": list(xr), "zeroline": False},
              "yaxis": {"title": {"text": "t"}, "range": list(yr), "zeroline": False},
              "font": {"size": FONT_SIZE - 4}, "height": 600, "hovermode": "closest",
              # above the plot: below it, it covered the x axis's title
              "legend": {"orientation": "h", "x": 0, "xanchor": "left", "y": 1.02,
                         "yanchor": "bottom", "traceorder": "normal"},
              "margin": {"l": 50, "r": 20, "t": 20, "b": 50},
              "plot_bgcolor": "#FFFFFF", "uirevision": "regression"}
    return {"data": data, "layout": layout}


def progress_figure(model) -> dict | None:
    """SMO's gap m(α) − M(α) before each step (log scale) and L̃ after it, at up to MAX_CURVE
    evenly spaced iterations; None for the QP."""
    tr = model.trace
    if tr is None or not len(tr.gap):
        return None
    n = len(tr.gap)
    keep = np.unique(np.linspace(0, n - 1, min(n, MAX_CURVE)).astype(int))  # first and last kept
    it = keep + 1
    return {"data": [
        {"type": "scatter", "mode": "lines", "x": it, "y": tr.gap[keep],
         "name": "m(α) − M(α)", "line": {"color": NEG_COLOR, "dash": "solid"}},
        {"type": "scatter", "mode": "lines", "x": it, "y": tr.dual[keep],
         "name": "L̃(a, â)", "yaxis": "y2",  # dashed: not told apart by colour alone
         "line": {"color": POS_COLOR, "dash": "dash"}}],
        "layout": {"xaxis": {"title": {"text": "SMO iteration"}},
                   "yaxis": {"title": {"text": "m(α) − M(α)"}, "type": "log"},
                   "yaxis2": {"title": {"text": "L̃"}, "overlaying": "y", "side": "right"},
                   "height": 320, "legend": {"orientation": "h", "y": -0.3},
                   "margin": {"l": 60, "r": 60, "t": 20}, "plot_bgcolor": "#FFFFFF"}}
