"""The More classes page's figure (pure: an `compute.Answer` and the points → a figure dict).

The region of every class (the predicted class on a grid, pale colours), the points in
their class's colour and shape (Okabe–Ito, colour-blind safe; the shape tells the classes
apart without colour), misclassified points crossed, the h = 0 boundary of the machines the
student picks (dashed, one colour per machine). The page draws it with
`ui.shared.click_plot` (a click adds a point).
"""

from __future__ import annotations

import numpy as np

from ui.shared import palette as P
from ui.shared.figures import FONT_SIZE, POINT_SIZE
from ui.shared.tables import fmt_num

COLORS = P.CLASS_COLORS
SYMBOLS = P.CLASS_SYMBOLS
BOUNDARY_COLORS = ("#000000", "#555555", "#8B4513", "#4B0082", "#006400", "#8B0000")
BOUNDARY_DASHES = ("dash", "dot", "dashdot", "longdash", "longdashdot", "solid")  # one each


pale = P.class_tint


def region_fields(a) -> np.ndarray:
    """(k, ny, nx): a field per class, > 0 exactly where the page gives the place that class.
    One-vs-rest: h_c − max of the other h (continuous, so its 0 line is the true boundary,
    interpolated between grid places); one-vs-one (votes, which jump): the indicator 1 − ½
    inside, −½ outside, whose ½-crossings two neighbouring classes share."""
    k = len(a.classes)
    if a.strategy == "ovr" and a.machine_grid.shape[0] == k:
        h = a.machine_grid.astype(float)
        out = np.empty_like(h)
        for c in range(k):
            out[c] = h[c] - np.delete(h, c, axis=0).max(axis=0)
        return out
    return np.stack([(a.region == c) - 0.5 for c in range(k)])


def _region_cells(a) -> dict:
    """One-vs-one: the grid's cells under the smooth fills, where three regions meet and no
    fill reaches (a small gap the page's white showed through)."""
    k = len(a.classes)
    scale = []
    for i in range(k):
        c = pale(COLORS[i % len(COLORS)])
        scale += [[i / k, c], [(i + 1) / k, c]]
    return {"type": "heatmap", "x": a.xs.tolist(), "y": a.ys.tolist(),
            "z": a.region.tolist(), "zmin": -0.5, "zmax": k - 0.5, "colorscale": scale,
            "showscale": False, "hoverinfo": "skip", "meta": {"role": "region_cells"}}


def _region_traces(a) -> list[dict]:
    """Each class's region as a filled contour of its ``region_fields`` at 0: its edge is
    interpolated between grid places, so a boundary drawn on the 90 × 90 grid is a smooth
    line, not the staircase of a heatmap's cells; two classes' fills meet on the same line
    (one field falls where the other rises), so no third colour shows between them."""
    out = []
    for i, (c, z) in enumerate(zip(a.classes, region_fields(a), strict=True)):
        out.append({"type": "contour", "x": a.xs.tolist(), "y": a.ys.tolist(),
                    "z": np.round(z, 4).tolist(), "name": f"region {c}",
                    # Plotly shades the side a constraint rules out: "< 0" fills z > 0 (checked
                    # by the pixel colours of a screenshot: ">" filled every other region)
                    "contours": {"type": "constraint", "operation": "<", "value": 0},
                    "fillcolor": pale(COLORS[i % len(COLORS)]),
                    "line": {"width": 0, "smoothing": 1.3},  # rounds the cells' corners
                    "showscale": False, "showlegend": False, "hoverinfo": "skip",
                    "meta": {"role": "regions", "class": str(c)}})
    return out


def _boundary_trace(a, j: int) -> dict:
    color = BOUNDARY_COLORS[j % len(BOUNDARY_COLORS)]
    return {"type": "contour", "x": a.xs.tolist(), "y": a.ys.tolist(),
            "z": a.machine_grid[j].tolist(), "name": f"h = 0 of {a.machines[j]['machine']}",
            "contours": {"start": 0, "end": 0, "size": 1, "coloring": "lines"},
            "line": {"width": 3, "dash": BOUNDARY_DASHES[j % len(BOUNDARY_DASHES)]},
            "colorscale": [[0, color], [1, color]], "showscale": False, "showlegend": True,
            "hoverinfo": "skip", "meta": {"role": "boundary", "machine": j}}


def _hover(a, X, labels, i: int) -> str:
    lines = [f"x{i + 1} = ({fmt_num(X[i, 0])}, {fmt_num(X[i, 1])})", f"class {labels[i]}",
             f"predicted {a.classes[a.predicted[i]]}"]
    for j, m in enumerate(a.machines[:6]):
        lines.append(f"h[{m['machine']}] = {fmt_num(a.scores[i, j])}")
    if a.strategy == "ovo":
        lines.append("votes " + ", ".join(f"{c}: {v}" for c, v in zip(a.classes, a.votes[i])))
    return "<br>".join(lines)


def regions_figure(a, X: np.ndarray, labels: np.ndarray, names=("x1", "x2"),
                   boundaries=()) -> dict:
    """The figure dict: regions, the chosen machines' boundaries, the points."""
    under = [_region_cells(a)] if a.strategy == "ovo" else []
    data = under + _region_traces(a) + [_boundary_trace(a, j) for j in boundaries]
    labels = labels.astype(str)
    for ci, c in enumerate(a.classes):
        idx = np.flatnonzero(labels == c)
        data.append({"type": "scatter", "mode": "markers", "x": X[idx, 0].tolist(),
                     "y": X[idx, 1].tolist(), "name": f"{c} ({len(idx)})",
                     "text": [_hover(a, X, labels, i) for i in idx],
                     "hovertemplate": "%{text}<extra></extra>",
                     "marker": {"size": POINT_SIZE, "color": COLORS[ci % len(COLORS)],
                                "symbol": SYMBOLS[ci % len(SYMBOLS)],
                                "line": {"color": "#FFFFFF", "width": 1}},
                     "meta": {"role": "points", "class": c, "index": idx.tolist()}})
    wrong = np.flatnonzero(np.array(a.classes, dtype=object)[a.predicted] != labels)
    if len(wrong):
        data.append({"type": "scatter", "mode": "markers", "x": X[wrong, 0].tolist(),
                     "y": X[wrong, 1].tolist(), "name": f"misclassified ({len(wrong)})",
                     "hoverinfo": "skip", "marker": {"symbol": "x-thin", "size": POINT_SIZE + 6,
                                                     "line": {"color": "#000000", "width": 2}},
                     "meta": {"role": "misclassified"}})
    xr, yr = (float(a.xs[0]), float(a.xs[-1])), (float(a.ys[0]), float(a.ys[-1]))
    layout = {"xaxis": {"title": {"text": names[0]}, "range": list(xr), "zeroline": False},
              "yaxis": {"title": {"text": names[1]}, "range": list(yr), "zeroline": False},
              "font": {"size": FONT_SIZE - 4}, "height": 560, "hovermode": "closest",
              "legend": {"orientation": "h", "y": -0.15}, "margin": {"l": 50, "r": 20, "t": 30},
              "plot_bgcolor": "#FFFFFF", "uirevision": "multiclass"}
    return {"data": data, "layout": layout}
