"""The Kernel perceptron & k-NN page's figures (pure: numbers → plotly figure dicts).

- ``perceptron_figure``: the SVM's picture (regions, h = 0 and ±1, support vectors ringed:
  the Playground's drawing) with the kernel perceptron's boundary after an update, the
  updated point highlighted and every αᵢ > 0 written beside its point;
- ``knn_figure``: the k-NN regions (the class of each place of a grid), for k = 1 the
  Voronoi edges (the edges between classes thick: the 1-NN boundary), the points in their
  class's colour and shape, the query point and its k nearest ringed.

Both are drawn by ``ui.shared.click_plot`` (a click adds a point or moves the query).
"""

from __future__ import annotations

import numpy as np

from ui.shared import figures as SF
from ui.shared import palette as P
from ui.shared.numbers import fmt_num

PERCEPTRON_COLOR = P.ORANGE  # long dashes, as on the Losses page: not told apart by colour
#: the More classes page's colours and shapes (ui.shared.palette): class "+1" is the
#: Playground's blue circle, "−1" its vermillion square
COLORS = P.CLASS_COLORS
SYMBOLS = P.CLASS_SYMBOLS
QUERY_COLOR = P.BLACK
pale = P.class_tint


def perceptron_figure(X, y, svm, step_model, k: int, point: int | None, alpha, ranges) -> dict:
    """The SVM (a model, or None) and the kernel perceptron after update k (``step_model``:
    its h; no line at k = 0, where h = 0 everywhere); ``point``: the updated point (0-based),
    ringed; ``alpha``: every point's αᵢ after update k, written beside it when > 0."""
    overlays = []
    if k > 0:
        overlays.append(SF.Overlay(name="kernel perceptron h(x) = 0", model=step_model,
                                   color=PERCEPTRON_COLOR, dash="longdash", width=4))
    fig = SF.decision_figure_dict(
        svm, X=np.asarray(X, dtype=float), y=np.asarray(y), overlays=overlays,
        highlight=() if point is None else (int(point),), show_slack=False,
        show_misclassified=False, x_range=ranges[0], y_range=ranges[1], height=560,
        uirevision="kernel_perceptron")
    for tr in fig["data"]:
        role = (tr.get("meta") or {}).get("role")
        if role == "boundary":
            tr["name"] = "SVM h(x) = 0"
        elif role == "margins":
            tr["name"] = "SVM h(x) = ±1"
        elif role == "highlight":
            tr["name"] = "the updated point"
    idx = np.flatnonzero(np.asarray(alpha) > 0)
    if len(idx):
        fig["data"].append({
            "type": "scatter", "mode": "text", "x": X[idx, 0], "y": X[idx, 1],
            "text": [f"α={int(alpha[i])}" for i in idx], "textposition": "top right",
            "textfont": {"size": 13, "color": P.INK}, "hoverinfo": "skip",
            "name": "perceptron αᵢ (mistakes on xᵢ)", "meta": {"role": "alpha"}})
    return fig


def _edges(segs: np.ndarray, name: str, color: str, width: float, role: str) -> dict:
    xs, ys = [], []
    for (a, b) in segs:
        xs += [float(a[0]), float(b[0]), None]
        ys += [float(a[1]), float(b[1]), None]
    return {"type": "scatter", "mode": "lines", "x": xs, "y": ys, "name": name,
            "line": {"color": color, "width": width}, "hoverinfo": "skip",
            "meta": {"role": role, "edges": len(segs)}}


def knn_figure(a, X, labels, names=("x1", "x2")) -> dict:
    """The k-NN answer ``a`` (``compute.KnnAnswer``) over the points ``X`` with ``labels``
    (text)."""
    X = np.asarray(X, dtype=float)
    labels = np.asarray(labels).astype(str)
    c = len(a.classes)
    scale = []
    for i in range(c):
        col = pale(COLORS[i % len(COLORS)])
        scale += [[i / c, col], [(i + 1) / c, col]]
    data = [{"type": "heatmap", "x": a.xs, "y": a.ys, "z": a.region.astype(float),
             "zmin": -0.5, "zmax": c - 0.5, "colorscale": scale, "showscale": False,
             "hoverinfo": "skip", "name": f"regions of {a.k}-NN", "meta": {"role": "regions"}}]
    if len(a.edges):
        differ = labels[a.edge_pairs[:, 0]] != labels[a.edge_pairs[:, 1]]
        data.append(_edges(a.edges[~differ], "Voronoi edges (same class)", P.GREY, 1,
                           "voronoi"))
        data.append(_edges(a.edges[differ], "1-NN boundary: edges between classes",
                           P.BLACK, 3, "boundary"))
    for ci, cl in enumerate(a.classes):
        idx = np.flatnonzero(labels == str(cl))
        data.append({"type": "scatter", "mode": "markers", "x": X[idx, 0], "y": X[idx, 1],
                     "name": f"{cl} ({len(idx)})", "customdata": idx + 1,
                     "hovertemplate": f"x%{{customdata}}: {cl}<extra></extra>",
                     "marker": {"size": SF.POINT_SIZE, "color": COLORS[ci % len(COLORS)],
                                "symbol": SYMBOLS[ci % len(SYMBOLS)],
                                "line": {"color": P.WHITE, "width": 1}},
                     "meta": {"role": "points", "class": str(cl)}})
    qx, qy = a.query
    nb = a.neighbours
    lx, ly = [], []
    for i in nb:
        lx += [qx, float(X[i, 0]), None]
        ly += [qy, float(X[i, 1]), None]
    data.append({"type": "scatter", "mode": "lines", "x": lx, "y": ly, "hoverinfo": "skip",
                 "line": {"color": QUERY_COLOR, "width": 1.5, "dash": "dot"},
                 "showlegend": False, "meta": {"role": "to_neighbours"}})
    data.append({"type": "scatter", "mode": "markers", "x": X[nb, 0], "y": X[nb, 1],
                 "name": f"the {a.k} nearest", "hoverinfo": "skip",
                 "marker": {"size": SF.POINT_SIZE + 12, "symbol": "circle-open",
                            "color": QUERY_COLOR, "line": {"width": 3}},
                 "meta": {"role": "neighbours", "index": nb.tolist()}})
    data.append({"type": "scatter", "mode": "markers", "x": [qx], "y": [qy],
                 "name": f"query point → {a.classes[a.winner]}",
                 "hovertemplate": f"query ({fmt_num(qx)}, {fmt_num(qy)})<extra></extra>",
                 "marker": {"size": SF.POINT_SIZE + 8, "symbol": "star",
                            "color": COLORS[a.winner % len(COLORS)],
                            "line": {"color": QUERY_COLOR, "width": 2}},
                 "meta": {"role": "query"}})
    layout = {"xaxis": {"title": {"text": names[0]}, "range": [a.xs[0], a.xs[-1]],
                        "zeroline": False, "constrain": "domain"},
              "yaxis": {"title": {"text": names[1]}, "range": [a.ys[0], a.ys[-1]],
                        "zeroline": False, "scaleanchor": "x", "constrain": "domain"},
              "font": {"size": SF.FONT_SIZE - 4}, "height": 560, "hovermode": "closest",
              "legend": {"orientation": "h", "y": -0.15}, "margin": {"l": 50, "r": 20, "t": 30},
              "plot_bgcolor": P.WHITE, "uirevision": "knn"}
    return {"data": data, "layout": layout}
