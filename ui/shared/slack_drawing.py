"""The decision figure's slack: a segment from each point with ξ > MIN_SLACK to its own margin
h(x) = yᵢ (any kernel), labelled with ξ, the labels placed clear of the points, rings and each
other (``label_placement``). Pure: model → plotly trace dicts."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ui.shared import palette as P
from ui.shared.label_placement import place_labels
from ui.shared.numbers import fmt_num

SLACK_COLOR = P.SLACK
#: slacks below this are solver round-off (tolerance 1e-3), not drawn
MIN_SLACK = 0.005
#: ξ labels: their font size (px, times the figure's scale) and its rough text metrics
SLACK_FONT = 14
CHAR_EM = 0.56  # the width of a label's character in em (digits, "ξ", "=" of Source Sans Pro)
LINE_EM = 1.25
#: more points than this: the ξ labels stay at their segments' middles (a plot that crowded
#: has no free spot to find, and the search grows with the points: ~40 ms at 2,000)
PLACE_LABELS_MAX_POINTS = 400



def slack_segments(model, idx: Sequence[int] | None = None, max_iter: int = 30):
    """For points with ξ > MIN_SLACK: the foot of each point on its own margin h(x) = yᵢ.

    Returns (idx, feet) where feet[k] is None when no foot was found. The linear kernel is
    exact in one Newton step (h is affine); other kernels use Newton steps along the
    numerical gradient of h.
    """
    X = np.asarray(model.X, dtype=float)
    y = np.asarray(model.y, dtype=float)
    if idx is None:
        idx = np.flatnonzero(np.asarray(model.xi) > MIN_SLACK)
    idx = np.asarray(idx, dtype=int)
    if len(idx) == 0:
        return idx, []
    P = X[idx].copy()
    target = y[idx]
    span = float(np.ptp(X, axis=0).max()) if len(X) > 1 else 1.0
    span = span if span > 0 else 1.0
    eps = 1e-5 * span
    ok = np.ones(len(idx), dtype=bool)
    m = len(idx)
    shifts = np.array([[0.0, 0.0], [eps, 0.0], [-eps, 0.0], [0.0, eps], [0.0, -eps]])
    h = None
    for _ in range(max_iter):
        # h at the points and at their four shifts in one call (each row is computed alone:
        # the same values as five calls, at a fifth of the calls' overhead)
        hq = model.decision_function((P[None, :, :] + shifts[:, None, :]).reshape(-1, 2))
        h, hq = hq[:m], hq[m:].reshape(4, m)
        r = target - h
        if np.all(np.abs(r) < 1e-6):
            break
        g = np.column_stack([(hq[0] - hq[1]) / (2 * eps), (hq[2] - hq[3]) / (2 * eps)])
        gg = np.einsum("ij,ij->i", g, g)
        safe = gg > 1e-18
        step = np.zeros_like(P)
        step[safe] = (r[safe] / gg[safe])[:, None] * g[safe]
        # never jump further than the data span in one step
        norm = np.linalg.norm(step, axis=1)
        big = norm > span
        step[big] *= (span / norm[big])[:, None]
        ok &= safe
        P = P + step
        h = None
    if h is None:  # P moved since h was computed (max_iter steps)
        h = model.decision_function(P)
    ok &= np.abs(target - h) < 1e-3 * max(1.0, float(np.max(np.abs(target))))
    ok &= np.linalg.norm(P - X[idx], axis=1) < 3 * span
    feet = [P[k] if ok[k] else None for k in range(len(idx))]
    return idx, feet

def slack_traces(model, max_labels: int, scale: float = 1.0, unit: float | None = None,
                 obstacles: Callable[[float], np.ndarray] | None = None) -> list[dict]:
    """The slack segments and their ξ labels (the largest ``max_labels`` ξ), the labels
    placed clear of ``obstacles(unit)`` (boxes in px: the figure's points, rings and crosses)
    and each other for ``unit`` px per data unit (None, or more than PLACE_LABELS_MAX_POINTS
    points: beside each segment's middle)."""
    xi = np.asarray(model.xi, dtype=float)
    idx, feet = slack_segments(model)
    if len(idx) == 0:
        return []
    X = np.asarray(model.X, dtype=float)
    lx: list[float | None] = []
    ly: list[float | None] = []
    segments = {}
    for k, (i, foot) in enumerate(zip(idx, feet, strict=True)):
        p = X[i]
        if foot is not None:
            lx += [float(p[0]), float(foot[0]), None]
            ly += [float(p[1]), float(foot[1]), None]
        segments[k] = (p, foot if foot is not None else p)
    labelled = np.argsort(-xi[idx], kind="stable")[:max_labels].tolist()
    text = [f"ξ={fmt_num(xi[idx[k]], 3)}" for k in labelled]
    font = SLACK_FONT * scale
    if unit is None or len(X) > PLACE_LABELS_MAX_POINTS:
        anchors = [tuple((segments[k][0] + segments[k][1]) / 2) for k in labelled]
    else:
        sizes = [(CHAR_EM * font * len(t), LINE_EM * font) for t in text]
        boxes = obstacles(unit) if obstacles is not None else np.zeros((0, 4))
        anchors = place_labels([segments[k] for k in labelled], sizes, boxes, unit)
    traces = [
        {
            "type": "scatter",
            "mode": "lines",
            "x": lx,
            "y": ly,
            "name": "slack ξ",
            "line": {"color": SLACK_COLOR, "width": 2 * scale, "dash": "dot"},
            "hoverinfo": "skip",
            "meta": {"role": "slack"},
        }
    ]
    if text:
        traces.append(
            {
                "type": "scatter",
                "mode": "text",
                "x": [float(a[0]) for a in anchors],
                "y": [float(a[1]) for a in anchors],
                "text": text,
                "textposition": "middle right",
                "textfont": {"size": font, "color": "#111111"},
                "showlegend": False,
                "hoverinfo": "skip",
                "name": "ξ labels",
                "meta": {"role": "slack_labels"},
            }
        )
    return traces
