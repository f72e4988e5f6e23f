"""Warm start: carry the previous α over to points that changed by one edit.

When the user adds, deletes or moves one point, the previous optimum is an excellent start for
SMO: every unchanged point keeps its αᵢ and the new (or moved) point starts at 0. The engine
(``feasible_start``) clips α to the box and restores Σαᵢyᵢ = 0, so this mapping only has to
match points.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np


def map_alpha(
    old_X: np.ndarray,
    old_y: np.ndarray,
    old_alpha: np.ndarray,
    new_X: np.ndarray,
    new_y: np.ndarray,
    max_changes: int = 1,
) -> np.ndarray | None:
    """α for ``new_X`` built from ``old_alpha``, or None when the points changed too much.

    Points are matched by exact (x1, x2, y) (duplicates are matched in order). Unmatched new
    points get α = 0. Returns None if more than ``max_changes`` points were added, removed
    or moved (then a cold start is better), if nothing matched, or if shapes disagree.
    """
    old_X = np.asarray(old_X, dtype=float)
    new_X = np.asarray(new_X, dtype=float)
    old_y = np.asarray(old_y)
    new_y = np.asarray(new_y)
    old_alpha = np.asarray(old_alpha, dtype=float)
    if (
        old_X.ndim != 2
        or new_X.ndim != 2
        or old_X.shape[1] != new_X.shape[1]
        or old_y.shape != (len(old_X),)
        or new_y.shape != (len(new_X),)
        or old_alpha.shape != (len(old_X),)
        or len(new_X) == 0
    ):
        return None
    slots: dict[tuple, list[int]] = defaultdict(list)
    for i, (row, label) in enumerate(zip(old_X, old_y, strict=True)):
        slots[(*row.tolist(), int(label))].append(i)
    for v in slots.values():
        v.reverse()  # pop() then takes duplicates in their original order
    alpha0 = np.zeros(len(new_X))
    unmatched_new = 0
    for i, (row, label) in enumerate(zip(new_X, new_y, strict=True)):
        bucket = slots.get((*row.tolist(), int(label)))
        if bucket:
            alpha0[i] = old_alpha[bucket.pop()]
        else:
            unmatched_new += 1
    unmatched_old = sum(len(v) for v in slots.values())
    matched = len(new_X) - unmatched_new
    if matched == 0 or max(unmatched_new, unmatched_old) > max_changes:
        return None
    return alpha0
