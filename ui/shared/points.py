"""The Playground's points: how many it takes, their check, and the axis ranges that show them."""

from __future__ import annotations

from typing import Any

import numpy as np

MAX_POINTS = 2000


def validate_points(X: Any, y: Any, max_points: int = MAX_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """(X float64 (n, 2), y int64 ±1) or ValueError. Zero points are allowed."""
    try:
        Xa = np.asarray(X, dtype=np.float64)
        ya = np.asarray(y)
    except (TypeError, ValueError):
        raise ValueError("points must be numbers: x1, x2 and a label ±1") from None
    if Xa.size == 0:
        Xa = Xa.reshape(0, 2)
    if Xa.ndim != 2 or Xa.shape[1] != 2:
        raise ValueError(f"points must have two coordinates (x1, x2); got shape {Xa.shape}")
    if ya.shape != (Xa.shape[0],):
        raise ValueError(f"need one label per point: {Xa.shape[0]} points, {ya.size} labels")
    if Xa.shape[0] > max_points:
        raise ValueError(f"too many points: {Xa.shape[0]} (at most {max_points})")
    if not np.isfinite(Xa).all():
        raise ValueError("coordinates must be finite numbers (no NaN or infinity)")
    try:
        yf = ya.astype(np.float64)
    except (TypeError, ValueError):
        raise ValueError("labels must be +1 or -1") from None
    if not np.all(np.isin(yf, (-1.0, 1.0))):
        raise ValueError("labels must be +1 or -1")
    return Xa.copy(), yf.astype(np.int64)


def default_range(X: np.ndarray, pad: float = 0.15, min_span: float = 1.0):
    """Axis ranges ((x0, x1), (y0, y1)) showing every point with some room around it."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    if len(X) == 0:
        return (0.0, 10.0), (0.0, 7.0)
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.maximum(hi - lo, min_span)
    mid = (lo + hi) / 2
    half = span * (0.5 + pad)
    # the plot is wider than tall: give x a bit more room so equal aspect fills it
    half[0] = max(half[0], half[1] * 1.3)
    return (
        (float(mid[0] - half[0]), float(mid[0] + half[0])),
        (float(mid[1] - half[1]), float(mid[1] + half[1])),
    )
