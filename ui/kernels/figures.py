"""The Kernels page's figures, as plain plotly dicts (pure functions of the compute results):
the points lifted into feature space with the plane, the plane's preimage in the input plane,
the Gram matrix, its eigenvalues, and one small panel per σ or degree."""

from __future__ import annotations

import numpy as np
from plotly.colors import get_colorscale

from ui.kernels.compute import FeatureView, GramStudy, Panel
from ui.shared import palette as P
from ui.shared.describe import describe_model, describe_points, with_description
from ui.shared.figures import NEG_COLOR, NEG_SYMBOL, POS_COLOR, POS_SYMBOL, decision_figure_dict

#: plotly.py's RdBu as its stops: Plotly.js has an "RdBu" of its own, with other colours
GRAM_COLORSCALE = get_colorscale("RdBu")

PLANE_COLOR = P.GREEN
CURVE_COLOR = P.ORANGE
PLANE_GRID = 25           # samples per side of the drawn plane
#: the curve's samples: small diamonds, so that neither class's marker (circle / square) is
#: told from it by colour alone (issue 28)
CURVE_SYMBOL = "diamond"


def _font() -> dict:
    return {"size": 14, "family": "Source Sans Pro, Arial, sans-serif"}


def _plane_surface(view, lo: np.ndarray, hi: np.ndarray) -> dict | None:
    """normalᵀu + b = 0 over the box [lo, hi]: solved for the coordinate the normal leans on
    most, over a grid of the other two; points outside the box are left out (NaN)."""
    n, b = np.asarray(view.normal, float), float(view.b)
    k = int(np.argmax(np.abs(n)))
    if n[k] == 0:
        return None
    i, j = [a for a in range(3) if a != k]
    ui, uj = np.meshgrid(np.linspace(lo[i], hi[i], PLANE_GRID), np.linspace(lo[j], hi[j],
                                                                             PLANE_GRID))
    uk = -(b + n[i] * ui + n[j] * uj) / n[k]
    uk = np.where((uk >= lo[k]) & (uk <= hi[k]), uk, np.nan)
    coords = [None, None, None]
    coords[i], coords[j], coords[k] = ui, uj, uk
    return {"type": "surface", "x": coords[0], "y": coords[1], "z": coords[2],
            "surfacecolor": np.zeros_like(ui), "colorscale": [[0, PLANE_COLOR], [1, PLANE_COLOR]],
            "cmin": 0, "cmax": 1, "opacity": P.SHADE, "showscale": False, "hoverinfo": "skip",
            "name": "plane w_φᵀφ + b = 0", "showlegend": True, "meta": {"role": "plane"}}


#: Farther than Plotly's (1.25, 1.25, 1.25): in the page's half-width column that view cut the
#: cube's left and bottom corners, and the third axis's title with them
CAMERA_EYE = {"x": 1.85, "y": 1.85, "z": 1.2}


def lift_figure(fv: FeatureView, height: int = 560) -> dict:
    """The points in feature space (Plotly 3-D scatter), the plane, and the lifted boundary."""
    P = fv.view.points
    y = np.asarray(fv.model.y)
    traces = []
    for label, color, symbol, name in ((1, POS_COLOR, POS_SYMBOL, "class +1"),
                                       (-1, NEG_COLOR, NEG_SYMBOL, "class −1")):
        idx = np.flatnonzero(y == label)
        traces.append({"type": "scatter3d", "mode": "markers", "x": P[idx, 0], "y": P[idx, 1],
                       "z": P[idx, 2], "customdata": idx + 1, "name": name,
                       "marker": {"color": color, "size": 4, "symbol": symbol},
                       "hovertemplate": "φ(x<sub>%{customdata}</sub>)<extra></extra>",
                       "meta": {"role": "points", "label": label}})
    lo, hi = P.min(axis=0), P.max(axis=0)
    pad = 0.1 * np.maximum(hi - lo, 1e-9)
    surface = _plane_surface(fv.view, lo - pad, hi + pad)
    if surface is not None:
        traces.insert(0, surface)
    if len(fv.curve_3d):
        C3 = fv.curve_3d
        traces.append({"type": "scatter3d", "mode": "markers", "x": C3[:, 0], "y": C3[:, 1],
                       "z": C3[:, 2], "name": "φ(boundary curve)",
                       "marker": {"color": CURVE_COLOR, "size": 2, "symbol": CURVE_SYMBOL},
                       "hoverinfo": "skip",
                       "meta": {"role": "curve"}})
    axes = {f"{a}axis": {"title": {"text": t}} for a, t in zip("xyz", fv.view.axes)}
    words = (f"{describe_model(fv.model.X, fv.model.y, fv.model)} Lifted by φ into 3-D (axes "
             f"{', '.join(fv.view.axes)}) the boundary is a plane; the curve on it is "
             "h(x) = 0 lifted.")
    return {"data": traces,
            "layout": {"height": height, "margin": {"l": 0, "r": 0, "t": 30, "b": 0},
                       "font": _font(), "scene": {**axes, "aspectmode": "cube",
                                                  "camera": {"eye": CAMERA_EYE}},
                       "legend": {"orientation": "h", "y": 1.02, "x": 0},
                       "paper_bgcolor": "#FFFFFF", "meta": {"description": words}}}


def preimage_figure(fv: FeatureView, height: int = 560) -> dict:
    """The Playground's picture of the same model, with the plane's preimage (the conic,
    solved exactly) drawn over its boundary h(x) = 0."""
    fig = decision_figure_dict(fv.model, x_range=fv.x_range, y_range=fv.y_range, height=height,
                               show_slack=False)
    if len(fv.curve):
        fig["data"].append({"type": "scatter", "mode": "markers", "x": fv.curve[:, 0],
                            "y": fv.curve[:, 1], "name": "preimage of the plane",
                            "marker": {"color": CURVE_COLOR, "size": 5,
                                       "symbol": CURVE_SYMBOL}, "hoverinfo": "skip",
                            "meta": {"role": "preimage"}})
    fig["layout"]["font"] = _font()
    return with_description(fig, describe_model(fv.model.X, fv.model.y, fv.model)
                            + " The plane's preimage, solved exactly, is drawn over h(x) = 0.")


def point_ticks(n: int, most: int = 20) -> dict:
    """An axis over the points 1…n: exactly their cells (0.5 to n + 0.5), ticks named x1…xn,
    every point's when there are at most ``most``, else 1 and every k-th (k = 2, 5, 10, …)."""
    step = next((k for k in (1, 2, 5, 10, 20, 50, 100) if n <= most * k), -(-n // most))
    vals = sorted({1, *range(step, n + 1, step)})
    return {"range": [0.5, n + 0.5], "tickmode": "array", "tickvals": vals,
            "ticktext": [f"x{v}" for v in vals], "showgrid": False, "zeroline": False}


def gram_heatmap(study: GramStudy, height: int = 460) -> dict:
    K = study.K
    n = len(K)
    idx = np.arange(1, n + 1)
    zmax = float(np.max(np.abs(K))) or 1.0
    ticks = point_ticks(n)
    return {"data": [{"type": "heatmap", "z": K, "x": idx, "y": idx,
                      "colorscale": GRAM_COLORSCALE, "zmid": 0.0, "zmin": -zmax, "zmax": zmax,
                      "hovertemplate": "K(x<sub>%{y}</sub>, x<sub>%{x}</sub>) = %{z:.4g}"
                                       "<extra></extra>",
                      "meta": {"role": "gram"}}],
            "layout": {"height": height, "font": _font(), "margin": {"l": 50, "r": 10,
                                                                      "t": 30, "b": 40},
                       "xaxis": {**ticks, "title": {"text": "xⱼ"}, "constrain": "domain"},
                       "yaxis": {**ticks, "range": ticks["range"][::-1],
                                 "title": {"text": "xᵢ"}, "scaleanchor": "x",
                                 "constrain": "domain"},
                       "title": {"text": "Kᵢⱼ = K(xᵢ, xⱼ)", "x": 0.01}}}


def eigen_figure(study: GramStudy, height: int = 460) -> dict:
    """The eigenvalues in ascending order; those below −tolerance in red."""
    lam = study.check.eigenvalues
    neg = lam < -study.check.tolerance
    colors = np.where(neg, NEG_COLOR, P.AXIS_LINE)
    return {"data": [{"type": "scatter", "mode": "markers", "x": np.arange(1, len(lam) + 1),
                      "y": lam, "marker": {"color": colors.tolist(), "size": 7},
                      "hovertemplate": "λ<sub>%{x}</sub> = %{y:.4g}<extra></extra>",
                      "name": "eigenvalues", "meta": {"role": "eigenvalues",
                                                     "negative": int(neg.sum())}}],
            "layout": {"height": height, "font": _font(), "margin": {"l": 60, "r": 10,
                                                                      "t": 30, "b": 40},
                       "xaxis": {"title": {"text": "k (ascending)"}},
                       "yaxis": {"title": {"text": "λₖ"}, "zeroline": True,
                                 "zerolinecolor": "#888888"},
                       "title": {"text": "eigenvalues of K (numpy.linalg.eigvalsh)", "x": 0.01}}}


def panel_figure(panel: Panel, X, y, title: str, height: int = 400) -> dict:
    """One small multiple: the model at one σ or degree, as the Playground draws it."""
    if panel.model is None:
        fig = with_description(decision_figure_dict(None, X=X, y=y, title=title, height=height),
                               describe_points(y, panel.error))
    else:
        fig = with_description(decision_figure_dict(panel.model, title=title, height=height,
                                                    show_slack=False, resolution=70),
                               describe_model(panel.model.X, panel.model.y, panel.model))
    fig["layout"]["font"] = {**_font(), "size": 13}
    fig["layout"]["showlegend"] = False
    fig["layout"]["margin"] = {"l": 50, "r": 10, "t": 40, "b": 45}
    return fig
