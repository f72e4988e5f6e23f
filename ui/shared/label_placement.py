"""Where a text label goes on a plot: beside its own segment and clear of the markers and of
the labels placed before it (issue 32: ξ labels over each other, the rings and the points).
Pure geometry in pixels; the decision figure's ξ labels use it (``slack_drawing``)."""

from __future__ import annotations

import functools
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


@functools.lru_cache(maxsize=256)
def _candidate_offsets(w: float, h: float) -> np.ndarray:
    """(c, 2) px offsets of a label's anchor from a point of its segment, nearest first
    (cached, read-only: a plot's labels share a few sizes)."""
    out = []
    for d in _FURTHER_PX:
        left = -w - 2 * GAP_PX - d
        out += [(d, 0), (left, 0), (-w / 2, h / 2 + 4 + d), (-w / 2, -h / 2 - 4 - d),
                (d, h / 2 + d), (d, -h / 2 - d), (left, h / 2 + d), (left, -h / 2 - d)]
    off = np.array(out, dtype=float)
    off.flags.writeable = False
    return off


@functools.lru_cache(maxsize=256)
def _offset_axes(w: float, h: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The distinct x and y offsets of ``_candidate_offsets(w, h)`` and each candidate's
    index into them (np.unique's values and inverse)."""
    off = _candidate_offsets(w, h)
    xs, xi = np.unique(off[:, 0], return_inverse=True)
    ys, yi = np.unique(off[:, 1], return_inverse=True)
    return xs, xi, ys, yi


def place_labels(segments, sizes, obstacles, unit: float) -> list[tuple[float, float]]:
    """Anchors (data) for text labels, each near its own segment and clear of the obstacles
    and of the labels placed before it as far as the candidates allow.

    ``segments``: [(p, q)] in data units (a label goes beside a point of p→q, the middle
    first); ``sizes``: [(w, h)] in px; ``obstacles``: boxes (x0, y0, x1, y1) in px (data
    times ``unit``, the plot's pixels per data unit, estimated); each label is drawn "middle
    right" of its anchor (its box starts GAP_PX right of it). Greedy, in the order given
    (the largest ξ first): the first candidate of the nearest ring of offsets that covers
    nothing, else the one that covers least."""
    obstacles = np.asarray(obstacles, dtype=float).reshape(-1, 4)
    placed = np.zeros((0, 4))
    t = np.asarray(_ALONG)[:, None]
    out = []
    for (p, q), (w, h) in zip(segments, sizes, strict=True):
        p, q = np.asarray(p, dtype=float) * unit, np.asarray(q, dtype=float) * unit
        spots = p + t * (q - p)
        off = _candidate_offsets(float(w), float(h))
        # every ring's candidates at once, (ring, spot, offset) order: a label costs a few
        # numpy calls, not a few per ring (most labels of a crowded plot try all four)
        anchors = (spots[None, :, None, :]
                   + off.reshape(len(_FURTHER_PX), 1, -1, 2)).reshape(-1, 2)
        boxes = np.column_stack([anchors[:, 0] + GAP_PX, anchors[:, 1] - h / 2,
                                 anchors[:, 0] + GAP_PX + w, anchors[:, 1] + h / 2])
        cost = _obstacle_cost(spots, off, w, h, obstacles)
        if len(placed):
            cost += 2 * _overlaps(boxes, placed)
        cost = cost.reshape(len(_FURTHER_PX), -1)
        best, best_cost = 0, math.inf
        for r, ring in enumerate(cost):  # the nearest ring first; the first free spot wins
            k = int(np.argmin(ring))  # the first of the least
            if ring[k] < best_cost - 1e-9:
                best, best_cost = r * cost.shape[1] + k, ring[k]
            if best_cost <= 1e-9:
                break
        placed = np.vstack([placed, boxes[best]])
        out.append((float(anchors[best][0] / unit), float(anchors[best][1] / unit)))
    return out


def _obstacle_cost(spots, off, w: float, h: float, obstacles) -> np.ndarray:
    """``_overlaps`` of every candidate box (``place_labels``' order) with the obstacles
    within reach. A box's overlap with an obstacle is its x overlap times its y overlap, and
    the candidates around a spot take few distinct x and y offsets: the overlaps of those
    (spot × x, spot × y) and one product per spot, not one row per candidate (a 200-point
    plot's 12–30 labels: 6–8 → ~2 ms a click)."""
    xs, xi, ys, yi = _offset_axes(float(w), float(h))
    x0 = spots[:, 0, None] + xs[None, :] + GAP_PX  # (spot, x): the boxes' left edges
    yc = spots[:, 1, None] + ys[None, :]  # (spot, y): the anchors' heights
    y0, y1 = yc - h / 2, yc + h / 2
    o = obstacles[(obstacles[:, 2] > x0.min()) & (obstacles[:, 0] < x0.max() + w)
                  & (obstacles[:, 3] > y0.min()) & (obstacles[:, 1] < y1.max())]
    if len(o) == 0:
        return np.zeros(len(spots) * len(off))
    ow = np.minimum(x0[:, :, None] + w, o[:, 2]) - np.maximum(x0[:, :, None], o[:, 0])
    oh = np.minimum(y1[:, :, None], o[:, 3]) - np.maximum(y0[:, :, None], o[:, 1])
    np.maximum(ow, 0, out=ow)
    np.maximum(oh, 0, out=oh)
    both = ow @ oh.transpose(0, 2, 1)  # (spot, x, y): the area shared, summed
    per_ring = len(off) // len(_FURTHER_PX)
    rings = both[:, xi, yi].reshape(len(spots), len(_FURTHER_PX), per_ring)
    return rings.transpose(1, 0, 2).ravel()
