"""Where a text label goes on a plot: beside its own segment and clear of the markers and of
the labels placed before it (issue 32: ξ labels over each other, the rings and the points).
Pure geometry in pixels; the decision figure's ξ labels use it (``slack_drawing``)."""

from __future__ import annotations

import math

import numpy as np

GAP_PX = 3  # Plotly's "middle right" text starts this far right of its anchor
#: where a label may go, in order of preference: the points of its segment (fractions from
#: the point to its margin) and, around each, its offsets (right, left, above, below and the
#: corners, in the label's width w and height h and these px further out)
_ALONG = (0.5, 0.35, 0.65, 0.2, 0.8, 0.05, 0.95)
_FURTHER_PX = (0, 10, 20, 32)


def _overlaps(boxes, others) -> np.ndarray:
    """The area each of ``boxes`` (c, 4: x0, y0, x1, y1) shares with ``others`` (k, 4), summed
    over the others: (c,)."""
    b, o = np.asarray(boxes, dtype=float), np.asarray(others, dtype=float).reshape(-1, 4)
    if len(o) == 0:
        return np.zeros(len(b))
    w = np.minimum(b[:, None, 2], o[None, :, 2]) - np.maximum(b[:, None, 0], o[None, :, 0])
    h = np.minimum(b[:, None, 3], o[None, :, 3]) - np.maximum(b[:, None, 1], o[None, :, 1])
    np.maximum(w, 0, out=w)
    np.maximum(h, 0, out=h)
    return np.einsum("ij,ij->i", w, h)


def _candidate_offsets(w: float, h: float) -> np.ndarray:
    """(c, 2) px offsets of a label's anchor from a point of its segment, nearest first."""
    out = []
    for d in _FURTHER_PX:
        left = -w - 2 * GAP_PX - d
        out += [(d, 0), (left, 0), (-w / 2, h / 2 + 4 + d), (-w / 2, -h / 2 - 4 - d),
                (d, h / 2 + d), (d, -h / 2 - d), (left, h / 2 + d), (left, -h / 2 - d)]
    return np.array(out, dtype=float)


def place_labels(segments, sizes, obstacles, unit: float) -> list[tuple[float, float]]:
    """Anchors (data) for text labels, each near its own segment and clear of the obstacles
    and of the labels placed before it as far as the candidates allow.

    ``segments``: [(p, q)] in data units (a label goes beside a point of p→q, the middle
    first); ``sizes``: [(w, h)] in px; ``obstacles``: boxes (x0, y0, x1, y1) in px (data
    times ``unit``, the plot's pixels per data unit, estimated); each label is drawn "middle
    right" of its anchor (its box starts GAP_PX right of it). Greedy, in the order given
    (the largest ξ first): the first candidate that covers nothing, else the one that
    covers least."""
    obstacles = np.asarray(obstacles, dtype=float).reshape(-1, 4)
    placed = np.zeros((0, 4))
    t = np.asarray(_ALONG)[:, None]
    out = []
    for (p, q), (w, h) in zip(segments, sizes, strict=True):
        p, q = np.asarray(p, dtype=float) * unit, np.asarray(q, dtype=float) * unit
        spots = p + t * (q - p)
        off = _candidate_offsets(w, h).reshape(len(_FURTHER_PX), -1, 2)
        best, best_cost = None, math.inf
        for ring in off:  # the nearest ring of offsets first; the first free spot wins
            anchors = (spots[:, None, :] + ring[None, :, :]).reshape(-1, 2)
            boxes = np.column_stack([anchors[:, 0] + GAP_PX, anchors[:, 1] - h / 2,
                                     anchors[:, 0] + GAP_PX + w, anchors[:, 1] + h / 2])
            # only the obstacles within reach (thousands of points)
            lo, hi = boxes[:, :2].min(axis=0), boxes[:, 2:].max(axis=0)
            near = obstacles[(obstacles[:, 2] > lo[0]) & (obstacles[:, 0] < hi[0])
                             & (obstacles[:, 3] > lo[1]) & (obstacles[:, 1] < hi[1])]
            cost = _overlaps(boxes, near) + 2 * _overlaps(boxes, placed)
            k = int(np.argmin(cost))  # the first of the least
            if cost[k] < best_cost - 1e-9:
                best, best_cost = (anchors[k], boxes[k]), cost[k]
            if best_cost <= 1e-9:
                break
        placed = np.vstack([placed, best[1]])
        out.append((float(best[0][0] / unit), float(best[0][1] / unit)))
    return out
