"""Polish: from a solver's α, the exact optimum on its support vectors (every solver but psvm).

A solver stops near the optimum (SMO at m(α) − M(α) ≤ tol, SGA at ‖α_t − α_t−1‖ ≤ ε, ...):
its α is right to a few digits, but b, ξ and the objectives carry its tolerance, and two
solvers (or two pages at two tolerances) print different digits. Near the optimum the solver
has, as a rule, already found *which* points are support vectors and which of them are at C.
On that active set the KKT conditions are linear equations, solved here exactly:

    free SVs F (0 < αᵢ < C):  Σⱼ Qᵢⱼαⱼ + yᵢb = 1   (yᵢh(xᵢ) = 1; + αᵢ/(2C) for quadratic loss)
    Σᵢ αᵢyᵢ = 0 (free bias; the augmented bias has no b here: it is Σαᵢyᵢ, inside Q)
    αᵢ = C on the bound SVs B, αᵢ = 0 elsewhere.

Solved as a correction of the solver's α (least squares when the system is singular, e.g. more
points on the margin than the feature space has dimensions: D1, where α is not unique, keeps
the solver's α as far as it can). Then, as an active-set method: an αᵢ that left [0, C] goes
on the bound it crossed; a point at 0 inside its margin, or at C beyond it, joins F; solve
again (at most ROUNDS times). The answer is accepted only when it is feasible and every point
meets its KKT condition to rounding; otherwise the solver's α is kept (and the certificate,
`certify.py`, judges it as it is).

The products come from X (`certify.expansion`), never from a solver's gradient; an accepted
polish hands them on, so `finalize` and the certificate do not compute them again.
"""

from __future__ import annotations

import math

import numpy as np

from .certify import EPS, EQ_RTOL, TOL, Columns, Expansion, rounding
from .finalize import support_threshold

ROUNDS = 10
MAX_FREE = 400          # larger active sets: the solve would cost more than the fit
STRICT = 1e-3 * TOL     # a polished α meets every KKT condition this closely (plus rounding)
NEAR = 1e-3             # the second try: αᵢ ≤ NEAR·max α at 0, αᵢ ≥ (1 − NEAR)·C at C
LSTSQ_MAX = 64          # up to this size: tested for singularity (then least squares)


def polish(problem, alpha: np.ndarray, b: float, ex: Expansion, columns: Columns):
    """(α, b, Expansion) of the exact KKT point on the solver's active set, or None. Tried
    twice: with the active set α says, then (if that fails) with the αᵢ within NEAR of a
    bound put on it (a solver stopped at tol 1e-3 can leave an αᵢ of 1e-3·max α that belongs
    at 0, and the rounds can cycle on it)."""
    C = float(problem.C_box)
    at0 = alpha == 0.0
    atC = (alpha >= C * (1 - 1e-12)) if math.isfinite(C) else np.zeros(problem.n, dtype=bool)
    done = _rounds(problem, alpha, b, ex, columns, at0, atC)
    if done is None:
        top = float(alpha.max(initial=0.0))
        near0, nearC = alpha <= NEAR * top, (alpha >= C * (1 - NEAR)) & ~at0
        if (near0 & ~at0).any() or (nearC & ~atC).any():
            done = _rounds(problem, alpha, b, ex, columns, near0, nearC)
    return done


def _rounds(problem, alpha, b, ex, columns, at0, atC):
    y, n = problem.y, problem.n
    C = float(problem.C_box)
    finite = math.isfinite(C)
    aug, eq = problem.bias == "augmented", problem.equality
    diag = float(problem.spec.diag)
    a, g, mag = alpha.astype(float).copy(), ex.g.copy(), ex.mag.copy()
    bb = float(b) if eq else 0.0
    at0, atC = at0.copy(), atC.copy()
    free = ~at0 & ~atC
    for _ in range(ROUNDS):
        F = np.flatnonzero(free)
        if len(F) > MAX_FREE or (len(F) == 0 and not eq):
            return None
        # the known moves: αᵢ → 0 on at0, → C on atC
        known = np.zeros(n)
        known[at0] = -a[at0]
        if finite:
            known[atC] = C - a[atC]
        K_idx = np.flatnonzero(known)
        s = float(a @ y)
        r = y * (g + (s if aug else 0.0) + bb) + diag * a - 1.0      # current rᵢ
        rhs = -r[F]
        if len(K_idx):
            kc = known[K_idx] * y[K_idx]
            kF = columns.get(K_idx)[F] @ kc + (kc.sum() if aug else 0.0)
            rhs -= y[F] * kF
        KF = columns.get(F)
        M = (y[F, None] * y[None, F]) * (KF[F] + (1.0 if aug else 0.0))
        M[np.diag_indices_from(M)] += diag
        eq_rhs = -(s + float(known @ y)) if eq else None
        step = _solve(M, rhs, y[F], eq_rhs)
        if step is None:
            return None
        dF, db = step
        a_new = a + known
        a_new[F] += dF
        eps = 64 * EPS * float(np.abs(a_new).max(initial=0.0))
        low = a_new[F] < -eps
        high = (a_new[F] > C + eps) if finite else np.zeros(len(F), dtype=bool)
        if low.any() or high.any():      # a wrong guess: the αᵢ go on the bound they crossed
            at0[F[low]] = True
            atC[F[high]] = True
            free = ~at0 & ~atC
            continue
        a_new[F] = np.clip(a_new[F], 0.0, C)
        a_new[a_new <= support_threshold(a_new)] = 0.0    # as `finalize` reports it
        delta = a_new - a
        moved = np.flatnonzero(delta)
        if len(moved):
            cols = columns.get(moved)
            g = g + cols @ (delta[moved] * y[moved])
            mag = mag + np.abs(cols) @ np.abs(delta[moved])   # α ≥ 0: |α′| − |α| ≤ |Δα|
        a, bb = a_new, bb + db
        s = float(a @ y)
        r = y * (g + (s if aug else 0.0) + bb) + diag * a - 1.0
        rnd = rounding(problem, a, mag, bb if eq else s) + STRICT
        if (np.abs(r[F]) > rnd[F]).any():
            continue                     # refine: solve again for what is left (if the
                                         # equations have no solution here, rounds run out)
        inside = at0 & (r < -rnd)        # α = 0 but inside the margin: a support vector
        beyond = atC & (r > rnd)         # α = C but beyond the margin: not a bound one
        if not (inside.any() or beyond.any()):
            if eq and abs(s) > EQ_RTOL * max(float(a.sum()), 1e-300):
                return None
            return a, (bb if eq else s), Expansion(g, mag)
        at0 &= ~inside
        atC &= ~beyond
        free = ~at0 & ~atC
    return None


def _solve(M, rhs, yF, eq_rhs):
    """(ΔF, Δb) from [M y; yᵀ 0][ΔF; Δb] = [rhs; eq_rhs] (no Δb row or column when eq_rhs is
    None), scaled to a unit diagonal first (kernel values of 1e20 and b of 1 in one matrix
    would lose b to the solver's cut-off). The least-squares step is the smallest one, so a
    singular system keeps the solver's α where the equations do not fix it."""
    m = len(rhs)
    d = np.diag(M).copy()
    d[~(d > 0)] = 1.0
    D = 1.0 / np.sqrt(d)
    A = M * D[:, None] * D[None, :]
    z_rhs = rhs * D
    if eq_rhs is not None:
        t = 1.0 / float(D.max()) if m else 1.0       # the Δb column's largest entry: 1
        col = t * D * yF
        A = np.block([[A, col[:, None]], [col[None, :], np.zeros((1, 1))]])
        z_rhs = np.append(z_rhs, t * eq_rhs)
    if not np.isfinite(A).all() or not np.isfinite(z_rhs).all():
        return None
    # LU (partial pivoting) when A is not singular: it keeps the small components of z,
    # which a least-squares solve would only get to ε·‖z‖; least squares when it is
    singular = len(z_rhs) <= LSTSQ_MAX and _singular(A)
    z = None
    if not singular:
        try:
            z = np.linalg.solve(A, z_rhs)
        except np.linalg.LinAlgError:
            z = None
        if z is not None and not (np.isfinite(z).all() and np.abs(A @ z - z_rhs).max()
                                  <= 1e-9 * max(1.0, float(np.abs(z_rhs).max()))):
            z = None
    if z is None:
        z = np.linalg.lstsq(A, z_rhs, rcond=1e-12)[0]
    if not np.isfinite(z).all():
        return None
    dF = D * z[:m]
    db = t * float(z[m]) if eq_rhs is not None else 0.0
    return dF, db


def _singular(A) -> bool:
    """A's condition number beyond 1e12 (singular values, cheap at this size)."""
    sv = np.linalg.svd(A, compute_uv=False)
    return not (len(sv) == 0 or sv[-1] > 1e-12 * sv[0])
