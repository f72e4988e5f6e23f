"""The cvxopt reference: the SVM as a quadratic program handed to `cvxopt.solvers.qp`.

cvxopt solves  min ½ uᵀPu + qᵀu  s.t.  Gu ≤ h,  Au = b  (interior point).

Dual form (slides 20, 27, 30; Q = (yyᵀ)∘K_eff from `problem.py`):
    P = Q, q = −1, G = [−I; I], h = [0; C]   (the upper rows only when C < ∞),
    A = yᵀ, b = 0                              (only with the free bias).

Primal form (seed 004, linear kernel, u = (w, b, ξ)):
    min ½‖w‖² + C Σξᵢ (hinge) or + C Σξᵢ² (quadratic)
    s.t. −yᵢ(wᵀxᵢ + b) − ξᵢ ≤ −1,  −ξᵢ ≤ 0          (no ξ for the hard margin);
    the augmented bias adds ½b² to the objective. The multipliers of the margin
    constraints are the dual αᵢ, so both forms go through the same `finalize`.

| symbol | meaning                                                       |
|--------|---------------------------------------------------------------|
| P, q   | quadratic and linear terms of the objective                   |
| G, h   | inequality constraints Gu ≤ h                                 |
| A, b   | equality constraint Au = b (Σαᵢyᵢ = 0)                        |

A status other than "optimal" is returned as converged = False with cvxopt's status; so is
a run that cvxopt could finish only at a looser tol than requested (see `_solve`).

Polishing (as OSQP's): an interior point never reaches a bound, so an αᵢ that is 0 or C at
the optimum comes back off it by a residue (≈ μ/slack, up to ~1e-7 for a point near its
margin). Counted as a free support vector, such a residue would pull b (the average over
free SVs) off by ~1e-3. So (1) each bound is decided by complementarity (a row is active when
its slack s is smaller than its multiplier z): in the dual, αᵢ = 0 (or C) when its row
−αᵢ ≤ 0 (or αᵢ ≤ C) is active; in the primal, where αᵢ is the multiplier of the margin row,
αᵢ = 0 when that row is inactive and αᵢ = C when the row −ξᵢ ≤ 0 (multiplier C − αᵢ) is;
(2) with the bounded αᵢ fixed there, the free ones F solve the dual's KKT equations
    Q_FF α_F + ν y_F = 1 − Q_FB α_B,   y_Fᵀ α_F = −y_Bᵀ α_B     (ν, the row y, with Σαᵢyᵢ = 0)
for the least-squares correction of the interior point's α_F; αᵢ that leave the box go on
the bound they crossed and (2) is solved again; (3) a bounded αᵢ whose reduced gradient
rᵢ = (Qα)ᵢ − 1 + νyᵢ has the wrong sign (rᵢ < 0 at 0, > 0 at C: a real but tiny SV, e.g.
αᵢ = 1e-5, that (1) took for a residue) is freed and (2) solved again. The polished α is
used when it is such a KKT point, feasible, with a dual objective not lower than the interior
point's. Otherwise (~1 % of random problems, near-degenerate ones: the rounds cycle) the
answer is the candidate with the smallest KKT violation m(α) − M(α) among: the interior
point's α, that α with residues within RESIDUE_REL·max α of a bound put there, that α with the
bounds of (1) imposed (Σαᵢyᵢ = 0 restored), and the feasible, as good α of the rounds.
"""

from __future__ import annotations

import math

import numpy as np

from ..bounds import support_threshold
from ..finalize import kkt_violation
from ..problem import box_bound
from .result import SolverResult, StopReason

#: The fallback's band (module docstring): an interior point's αᵢ within RESIDUE_REL · max α
#: of a bound is put on it. Not bounds.SUPPORT_REL (1e-12, a rounding): cvxopt's residues are
#: ≈ μ/slack, up to ~1e-7; this candidate is kept only if it violates the KKT conditions least.
RESIDUE_REL = 1e-8
#: cvxopt at its default tolerances, with no polish (precomputed.py's QP) is accurate to ~1e-7:
#: its αᵢ within DEFAULT_RESIDUE_REL · C of a bound go there, else such a residue counts as a
#: free SV and pulls b.
DEFAULT_RESIDUE_REL = 1e-6


def _solve(P, q, G, h, A=None, b=None, tol=None, max_iter=None):
    """cvxopt's qp; returns (solution, note). note is None, or says that cvxopt broke down at
    the requested tol and which looser tol the returned solution was computed at instead.

    On ill-conditioned problems a tight tol can make cvxopt divide by a duality gap of
    exactly 0 (ZeroDivisionError) or take the square root of a negative rounding residue
    (ValueError 'domain error'): we retry at 100× looser tols, up to cvxopt's defaults."""
    from cvxopt import matrix, solvers  # imported here: cvxopt is slow to import

    args = [matrix(P), matrix(q), matrix(G), matrix(h)]
    if A is not None:
        args += [matrix(A), matrix(b)]
    ladder = [tol]
    while ladder[-1] is not None and ladder[-1] < 1e-7:
        ladder.append(ladder[-1] * 100.0)
    if ladder[-1] is not None:
        ladder.append(None)
    first_error = None
    for t in ladder:
        opts = {"show_progress": False, "maxiters": int(max_iter or 200)}
        if t is not None:
            opts.update(abstol=t, reltol=t, feastol=min(t, 1e-7))
        try:
            sol = solvers.qp(*args, options=opts)
        except (ArithmeticError, ValueError) as exc:
            first_error = first_error or f"{type(exc).__name__}: {exc}"
            continue
        if first_error is None:
            return sol, None
        at = "cvxopt's default tolerances" if t is None else f"tol = {t:g}"
        return sol, f"cvxopt broke down at tol = {tol:g} ({first_error}); solved at {at}"
    raise ValueError(f"cvxopt could not solve this problem at any tolerance ({first_error}); "
                     "the kernel matrix is too ill-conditioned: scale the data or use "
                     "solver='smo'")


def _report(alpha, sol, note, max_iter, form="", **primal) -> SolverResult:
    """A cvxopt run as a `SolverResult`: converged only when cvxopt met the requested tol."""
    status = f"cvxopt status: {sol['status']}{form}"
    if note:
        status += f" — {note}"
    ok = sol["status"] == "optimal" and not note
    return SolverResult(alpha=alpha, n_iter=int(sol["iterations"]), max_iter=int(max_iter or 200),
                        stop=StopReason.CONVERGED if ok else StopReason.NOT_OPTIMAL,
                        status=status, **primal)


def _active(sol, rows):
    """Which inequality rows are active at the optimum: slack s < multiplier z."""
    s, z = np.array(sol["s"]).ravel()[rows], np.array(sol["z"]).ravel()[rows]
    return s < z


def _polish(Q, y, C, alpha, at_0, at_C, equality, rounds=10):
    """Steps (1)–(3) of the module docstring: a KKT point on the guessed active set, or else
    the candidate (the interior point's own α among them) that violates the KKT conditions
    least."""
    def dual(a):
        return float(a.sum() - 0.5 * a @ (Q @ a))

    floor = dual(alpha) - 1e-9 * abs(dual(alpha))    # relative: α may be ~1e-13 (scale)
    at_C = at_C & ~at_0
    candidates = _fallbacks(alpha, at_0, at_C, C, y, equality)
    at_0, at_C = at_0.copy(), at_C.copy()
    for _ in range(rounds):
        a = alpha.copy()
        a[at_0], a[at_C] = 0.0, C
        F, B = np.flatnonzero(~(at_0 | at_C)), np.flatnonzero(at_0 | at_C)
        M = Q[np.ix_(F, F)]
        rhs = 1.0 - Q[np.ix_(F, B)] @ a[B]
        if equality:
            M = np.block([[M, y[F, None]], [y[None, F], np.zeros((1, 1))]])
            rhs = np.append(rhs, -(y[B] @ a[B]))
        # the least correction of the interior point's α_F (α is not unique when Q_FF is
        # singular, e.g. the linear kernel with more than d + 1 free SVs: stay near it)
        start = np.append(a[F], 0.0) if equality else a[F]
        step = np.linalg.lstsq(M, rhs - M @ start, rcond=None)[0]
        a[F] += step[:len(F)]
        nu = float(step[-1]) if equality else 0.0
        eps = support_threshold(np.abs(a))                # relative to α, never absolute
        low, high = a < -eps, a > C + eps
        if low.any() or high.any():
            # a wrong guess: put the αᵢ that left the box on the bound they crossed
            at_0 |= low
            at_C |= high
            continue
        a = np.clip(a, 0.0, C)
        feasible = not equality or abs(float(y @ a)) <= eps * len(y)
        if feasible and dual(a) >= floor:
            candidates.append(a)
        # (3) the bounded αᵢ must not want to move: r = Qα − 1 + νy ≥ 0 at 0, ≤ 0 at C
        Qa = Q @ a
        r = Qa - 1.0 + nu * y
        tol = 1e-7 * max(1.0, float(np.abs(Qa).max(initial=0.0)))
        wrong_0, wrong_C = at_0 & (r < -tol), at_C & (r > tol)
        if not (wrong_0.any() or wrong_C.any()):
            if candidates[-1] is a:
                return a                                 # a KKT point, as good
            break
        at_0 &= ~wrong_0                                 # a real (if tiny) SV taken for 0
        at_C &= ~wrong_C                                 # or C: free it and solve again
    return min(candidates, key=lambda a: kkt_violation(Q @ a - 1.0, a, y, C, equality))


def _fallbacks(alpha, at_0, at_C, C, y, equality):
    """The interior point's α as it is, with its residues within RESIDUE_REL·max α of a bound put
    there, and with the bounds of step (1) imposed (Σαᵢyᵢ = 0 restored by scaling the free
    αᵢ of the heavier class, when they suffice)."""
    out = [alpha]
    out.append(on_bounds_within(alpha, C, RESIDUE_REL * float(np.max(alpha, initial=0.0))))
    a = alpha.copy()
    a[at_0], a[at_C] = 0.0, C
    if equality:
        excess = float(y @ a)
        side = ~(at_0 | at_C) & ((y > 0) if excess > 0 else (y < 0))
        total = float(a[side].sum())
        if total <= abs(excess):
            return out
        a[side] *= (total - abs(excess)) / total
    out.append(a)
    return out


def on_bounds_within(alpha, C, eps):
    """α with its αᵢ within eps of 0 or of C (when finite) put there: an interior point's
    residues (RESIDUE_REL, DEFAULT_RESIDUE_REL)."""
    a = np.array(alpha, dtype=float)
    a[a <= eps] = 0.0
    if math.isfinite(C):
        a[a >= C - eps] = C
    return a


def dual_qp_matrices(Q, y, C, equality):
    n = len(y)
    P = np.array(Q, dtype=float)
    q = -np.ones((n, 1))
    if math.isinf(C):
        G, h = -np.eye(n), np.zeros((n, 1))
    else:
        G = np.vstack([-np.eye(n), np.eye(n)])
        h = np.vstack([np.zeros((n, 1)), np.full((n, 1), C)])
    A, b = (y.reshape(1, -1).astype(float), np.zeros((1, 1))) if equality else (None, None)
    return P, q, G, h, A, b


def qp_dual(Q, y, C, *, equality=True, tol=None, max_iter=None):
    """Solve the dual; returns a `SolverResult`."""
    P, q, G, h, A, b = dual_qp_matrices(Q, y, C, equality)
    sol, note = _solve(P, q, G, h, A, b, tol=tol, max_iter=max_iter)
    alpha = np.clip(np.array(sol["x"]).ravel(), 0.0, C)
    n = len(y)
    at_0 = _active(sol, slice(0, n))                      # rows −αᵢ ≤ 0
    at_C = _active(sol, slice(n, 2 * n)) if math.isfinite(C) else np.zeros(n, dtype=bool)
    alpha = _polish(np.asarray(Q, dtype=float), y, C, alpha, at_0, at_C, equality)
    return _report(alpha, sol, note, max_iter)


def primal_qp_matrices(X, y, C, loss="hinge", bias="free"):
    """P, q, G, h of the primal QP in u = (w, b, ξ) — seed 004's construction."""
    n, d = X.shape
    soft = math.isfinite(C)
    m = d + 1 + (n if soft else 0)
    P = np.zeros((m, m))
    P[:d, :d] = np.eye(d)
    if bias == "augmented":
        P[d, d] = 1.0
    q = np.zeros((m, 1))
    rows_G = [np.hstack([-(y[:, None] * X), -y[:, None], -np.eye(n) if soft else np.zeros((n, 0))])]
    rows_h = [-np.ones((n, 1))]
    if soft:
        if loss == "hinge":
            q[d + 1:] = C
            rows_G.append(np.hstack([np.zeros((n, d + 1)), -np.eye(n)]))
            rows_h.append(np.zeros((n, 1)))
        else:  # C Σξ² = ½ ξᵀ(2C I)ξ; ξ ≥ 0 is implied at the optimum
            P[d + 1:, d + 1:] = 2.0 * C * np.eye(n)
    return P, q, np.vstack(rows_G), np.vstack(rows_h)


def qp_primal(X, y, C, *, loss="hinge", bias="free", tol=None, max_iter=None):
    """Solve the primal; α are the multipliers of the margin constraints."""
    n = len(y)
    P, q, G, h = primal_qp_matrices(X, y, C, loss, bias)
    sol, note = _solve(P, q, G, h, tol=tol, max_iter=max_iter)
    C_box = box_bound(C, loss)
    alpha = np.clip(np.array(sol["z"]).ravel()[:n], 0.0, C_box)
    at_0 = ~_active(sol, slice(0, n))                     # margin rows yᵢh(xᵢ) ≥ 1 − ξᵢ
    at_C = (~_active(sol, slice(n, 2 * n)) if math.isfinite(C_box)   # rows −ξᵢ ≤ 0
            else np.zeros(n, dtype=bool))
    K = X @ X.T + (1.0 if bias == "augmented" else 0.0)  # the dual's Q, for the polish
    if loss == "quadratic":
        K = K + np.eye(n) / (2.0 * C)
    Q = (y[:, None] * y[None, :]) * K
    alpha = _polish(Q, y, C_box, alpha, at_0, at_C, bias == "free")
    u = np.array(sol["x"]).ravel()
    return _report(alpha, sol, note, max_iter, " (primal QP)", w_primal=u[:X.shape[1]],
                   b_primal=float(u[X.shape[1]]))
