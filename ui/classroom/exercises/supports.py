"""Which sets of points are "the support vectors" of a fit, when the optimal α is not unique.

On D1 five points lie on the margin, more than the three that fix (w, b) in the plane, so
many optimal α exist (slide 16's, SMO's and the QP's differ) with the same w and b. A
student's set S is accepted when it is

- the support of some optimal α (slides 12–13: the support vectors are the points with
  αᵢ > 0), i.e. there is an α ≥ 0 (≤ C) that is > 0 exactly on S and gives the same
  hyperplane: Σ αᵢyᵢK(xᵢ, ·) unchanged (for the linear kernel: the same w) and, with the free
  bias, Σ αᵢyᵢ = 0; or
- every point on or inside its margin (slide 6: all the points at the minimum distance).

Points beyond their margin (y·h > 1) have α = 0 in every optimum; points inside it
(y·h < 1, hinge loss) have α = C in every optimum. Only the αᵢ of points on the margin can
move: those optimal α form a polytope P = {α_U : A α_U = A α*_U, 0 ≤ α_U ≤ C} over the
margin points U. A set T ⊆ U is the support of a point of P exactly when T is the union of
the supports of the vertices of P inside T (a convex combination of those vertices with
positive weights is > 0 on that union). The vertices are P's basic solutions, enumerated
(U holds a handful of points on a picture of ≤ 60).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from svm_engine.bounds import support_mask
from svm_engine.problem import build_problem

from .fits import ON_MARGIN

#: more margin points than this and the enumeration would be slow: then the accepted sets are
#: every set between the engine's support and all points on or inside their margin
MAX_MARGIN_POINTS = 10
_EPS = 1e-9


def point_classes(m) -> tuple[list[int], list[int], list[int]]:
    """(inside: α = C forced, on the margin: α free, beyond: α = 0 forced), 0-based."""
    yh = m.y * m.h_train
    on = np.abs(yh - 1.0) <= ON_MARGIN
    inside = (yh < 1.0 - ON_MARGIN)
    return (np.flatnonzero(inside).tolist(), np.flatnonzero(on).tolist(),
            np.flatnonzero(~on & ~inside).tolist())


def _vertices(A: np.ndarray, c: np.ndarray, ub: float) -> list[np.ndarray]:
    """The basic feasible solutions of {A α = c, 0 ≤ α ≤ ub}."""
    U, s, Vt = np.linalg.svd(A, full_matrices=False)
    r = int((s > s.max(initial=0.0) * 1e-10).sum()) if len(s) else 0
    m = A.shape[1]
    if r == 0:
        return [np.zeros(m)] if np.allclose(c, 0.0) else []
    Ar = s[:r, None] * Vt[:r]                       # r independent equations
    cr = U[:, :r].T @ c
    levels = (0.0,) if math.isinf(ub) else (0.0, ub)
    out: list[np.ndarray] = []
    scale = 1.0 + float(np.abs(cr).max())
    for basis in itertools.combinations(range(m), r):
        B = Ar[:, basis]
        if abs(np.linalg.det(B)) <= 1e-12 * scale ** r:
            continue
        rest = [k for k in range(m) if k not in basis]
        for fixed in itertools.product(levels, repeat=len(rest)):
            a = np.zeros(m)
            a[rest] = fixed
            a[list(basis)] = np.linalg.solve(B, cr - Ar[:, rest] @ a[rest])
            top = max(1.0, float(np.abs(a).max()))
            if (a >= -1e-9 * top).all() and (a <= ub + 1e-9 * top).all() and np.allclose(
                    Ar @ a, cr, atol=1e-9 * scale):
                out.append(np.clip(a, 0.0, ub))
    return out


def accepted_sets(m) -> tuple[list[list[int]], bool]:
    """(every accepted set of support vectors, sorted, 0-based; exact?). ``exact`` is False
    when there were too many margin points to enumerate: then the list holds the two ends
    and every set between them is accepted (``is_accepted``)."""
    inside, on, _ = point_classes(m)
    alpha = np.asarray(m.alpha, float)
    forced = inside if math.isfinite(m.C_box) else []
    full = sorted(set(forced) | set(on))
    support = sorted(set(np.flatnonzero(support_mask(alpha)).tolist()) | set(forced))
    if m.loss == "quadratic" or not on:  # α unique (K + δ/(2C) ≻ 0), or nothing to choose
        with_margin = tuple(sorted(set(support) | set(on)))
        return [list(t) for t in sorted({tuple(support), with_margin}, key=len)], True
    if len(on) > MAX_MARGIN_POINTS:
        return [support, full], False
    p = build_problem(m.X, m.y.astype(float), m.kernel, m.C, m.loss, m.bias)
    yU = m.y[on].astype(float)
    A = p.K[np.ix_(on, on)] * yU[None, :]
    if m.bias == "free":
        A = np.vstack([A, yU[None, :]])
    c = A @ alpha[on]
    verts = _vertices(A, c, float(m.C_box))
    supports = {frozenset(np.array(on)[v > _EPS * max(1.0, v.max(initial=0.0))].tolist())
                for v in verts}
    sets = {tuple(full)}
    for k in range(len(on) + 1):
        for T in itertools.combinations(on, k):
            inner = [s for s in supports if s <= set(T)]
            if inner and set().union(*inner) == set(T):
                sets.add(tuple(sorted(set(T) | set(forced))))
    return [list(t) for t in sorted(sets, key=lambda s: (len(s), s))], True


def is_accepted(S: list[int], sets: list[list[int]], exact: bool) -> bool:
    S = sorted(set(S))
    if exact:
        return any(S == list(t) for t in sets)
    lo, hi = set(sets[0]), set(sets[-1])
    return lo <= set(S) <= hi
