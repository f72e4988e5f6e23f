"""Figures of the Kernel k-means & PCA page: pure functions returning plotly figure dicts.

- ``kmeans_figure``: one position of the kernel k-means stepper in the input plane — the
  nearest centre over the plane (pale cells), the points in their cluster's colour (the
  shape is their class, as on every page), the start's centre points, the points about to
  move ringed, the new points (stars) in the colour of their nearest final centroid;
- ``plain_figure``: plain k-means's clusters with its explicit centroids;
- ``pca_figure``: the points on two principal components, the new points projected;
- ``eigen_figure``: the eigenvalues of the centred Gram matrix, with their shares.
A cluster has a colour and a shape (ui.shared.palette: never colour alone); a point's class is
filled (+1) or open (−1); the hover text names both.
"""

from __future__ import annotations

import numpy as np

from ui.shared import palette as PAL
from ui.shared.figures import FONT_SIZE, POINT_SIZE, class_label

COLORS = PAL.CLASS_COLORS
SYMBOLS = PAL.CLASS_SYMBOLS
NEW_COLOR_LINE = PAL.BLACK
pale = PAL.class_tint


def _layout(title: str, xtitle: str, ytitle: str, height: int = 460, equal: bool = True) -> dict:
    axis = {"showline": True, "linecolor": PAL.AXIS_LINE, "mirror": True, "ticks": "outside",
            "zeroline": False, "gridcolor": PAL.GRID_LINE}
    lay = {"title": {"text": title, "x": 0.01}, "height": height,
           "margin": {"l": 55, "r": 10, "t": 60, "b": 50},
           "font": {"size": FONT_SIZE - 4, "family": "Source Sans Pro, Arial, sans-serif"},
           "plot_bgcolor": PAL.WHITE, "paper_bgcolor": PAL.WHITE, "hovermode": "closest",
           "xaxis": {**axis, "title": {"text": xtitle}},
           "yaxis": {**axis, "title": {"text": ytitle}},
           "legend": {"orientation": "h", "x": 0, "y": -0.18}}
    if equal:
        lay["yaxis"]["scaleanchor"] = "x"
    return lay


def _cluster_points(P, y, labels, name: str) -> list[dict]:
    """The points by cluster (colour and shape) and class (filled +1, open −1)."""
    out = []
    labels = np.asarray(labels)
    for c in np.unique(labels):
        shape = SYMBOLS[int(c) % len(SYMBOLS)]
        for cls, sym in ((1, shape), (-1, f"{shape}-open")):
            idx = np.flatnonzero((labels == c) & (np.asarray(y) == cls))
            if not len(idx):
                continue
            out.append({"type": "scatter", "mode": "markers", "x": P[idx, 0], "y": P[idx, 1],
                        "name": f"{name} C{c + 1}, class {class_label(cls)}".strip(),
                        "customdata": idx + 1,
                        "marker": {"color": COLORS[c % len(COLORS)], "symbol": sym,
                                   "size": POINT_SIZE - 3,
                                   "line": {"color": PAL.WHITE if cls > 0 else
                                            COLORS[c % len(COLORS)], "width": 1 if cls > 0
                                            else 2.5}},
                        "hovertemplate": f"x<sub>%{{customdata}}</sub>: cluster C{c + 1}, class "
                                         f"{class_label(cls)}<extra></extra>",
                        "meta": {"role": "points", "cluster": int(c)}})
    return out


def _new_points(Z, labels, name: str = "new point") -> list[dict]:
    if not len(Z):
        return []
    colors = [COLORS[int(c) % len(COLORS)] for c in labels] if len(labels) else PAL.WHITE
    return [{"type": "scatter", "mode": "markers", "x": Z[:, 0], "y": Z[:, 1],
             "name": f"{name}s (your clicks)", "customdata": np.arange(1, len(Z) + 1),
             "marker": {"color": colors, "symbol": "star", "size": POINT_SIZE + 6,
                        "line": {"color": NEW_COLOR_LINE, "width": 1.5}},
             "hovertemplate": f"{name} %{{customdata}}<extra></extra>",
             "meta": {"role": "new"}}]


def kmeans_figure(X, y, a, ph, Z, title: str) -> dict:
    """One position of the stepper (module docstring); a = compute.Answer, ph = its Phase."""
    X = np.asarray(X, dtype=float)
    k = a.kmeans.k
    xs, ys = a.grid
    scale = []
    for c in range(k):
        fill = pale(COLORS[c % len(COLORS)])
        scale += [[c / k, fill], [(c + 1) / k, fill]]
    data = [{"type": "heatmap", "x": xs, "y": ys, "z": ph.regions, "zmin": -0.5,
             "zmax": k - 0.5, "colorscale": scale, "showscale": False, "hoverinfo": "skip",
             "name": "nearest centre", "meta": {"role": "regions"}}]
    data += _cluster_points(X, y, ph.labels, "")
    if ph.kind == "assign" and ph.t == 0:
        s = a.kmeans.centres
        data.append({"type": "scatter", "mode": "markers", "x": X[s, 0], "y": X[s, 1],
                     "name": "start centres", "marker": {"symbol": "x-thin", "size": 22,
                                                        "line": {"width": 4, "color": PAL.BLACK}},
                     "hoverinfo": "skip", "meta": {"role": "centres"}})
    if len(ph.movers):
        m = ph.movers
        data.append({"type": "scatter", "mode": "markers", "x": X[m, 0], "y": X[m, 1],
                     "name": "moves at the next assignment",
                     "marker": {"symbol": "circle-open", "size": POINT_SIZE + 10,
                                "line": {"width": 3, "color": PAL.BLACK}},
                     "hoverinfo": "skip", "meta": {"role": "movers"}})
    data += _new_points(np.asarray(Z).reshape(-1, 2), a.new_labels)
    lay = _layout(title, "x1", "x2", height=520)
    lay["xaxis"]["range"] = [float(xs[0]), float(xs[-1])]
    lay["yaxis"]["range"] = [float(ys[0]), float(ys[-1])]
    lay["yaxis"].pop("scaleanchor")            # the click plot maps clicks on these ranges
    return {"data": data, "layout": lay}


def plain_figure(X, y, a, title: str) -> dict:
    X = np.asarray(X, dtype=float)
    data = _cluster_points(X, y, a.plain.labels, "")
    C = a.plain_centres
    data.append({"type": "scatter", "mode": "markers", "x": C[:, 0], "y": C[:, 1],
                 "name": "centroids μ_c", "marker": {"symbol": "x-thin", "size": 22,
                                                    "line": {"width": 4, "color": PAL.BLACK}},
                 "hoverinfo": "skip", "meta": {"role": "centroids"}})
    return {"data": data, "layout": _layout(title, "x1", "x2", height=520)}


def pca_figure(Y, y, labels, Ynew, new_labels, title: str, names=("y₁", "y₂")) -> dict:
    """The points on two components (colour: their final kernel k-means cluster; shape: their
    class) and the new points (stars)."""
    Y = np.asarray(Y, dtype=float)
    data = _cluster_points(Y, y, labels, "")
    data += _new_points(np.asarray(Ynew).reshape(-1, 2), new_labels, "new point")
    return {"data": data, "layout": _layout(title, names[0], names[1], equal=False)}


def eigen_figure(eigenvalues, explained, title: str, bars: int = 10) -> dict:
    lam = np.asarray(eigenvalues, dtype=float)[:bars]
    share = np.zeros(len(lam))
    share[: min(len(explained), len(lam))] = np.asarray(explained)[: len(lam)]
    data = [{"type": "bar", "x": [f"λ{i + 1}" for i in range(len(lam))], "y": lam,
             "customdata": 100 * share, "marker": {"color": COLORS[0]}, "name": "λᵢ of K̃",
             "hovertemplate": "%{x} = %{y:.4g} (%{customdata:.1f} % of the variance)"
                              "<extra></extra>", "meta": {"role": "eigenvalues"}}]
    lay = _layout(title, "component i", "eigenvalue λᵢ of K̃", height=360, equal=False)
    return {"data": data, "layout": lay}


def points_figure(X, y, Z, title: str) -> dict:
    """The points and the new points alone (no run to show), on ranges a click maps to."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    Z = np.asarray(Z, dtype=float).reshape(-1, 2)
    data = _cluster_points(X, y, np.zeros(len(X), dtype=int), "")
    data += _new_points(Z, [])
    P = np.vstack([X, Z]) if len(Z) else X
    lo, hi = (P.min(axis=0), P.max(axis=0)) if len(P) else (np.full(2, -1.0), np.ones(2))
    pad = 0.15 * np.maximum(hi - lo, 1.0)
    lay = _layout(title, "x1", "x2", height=520, equal=False)
    lay["xaxis"]["range"] = [float(lo[0] - pad[0]), float(hi[0] + pad[0])]
    lay["yaxis"]["range"] = [float(lo[1] - pad[1]), float(hi[1] + pad[1])]
    return {"data": data, "layout": lay}
