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

A status other than "optimal" is returned as converged = False with cvxopt's status.
"""

from __future__ import annotations

import math

import numpy as np


def _solve(P, q, G, h, A=None, b=None, tol=None, max_iter=None):
    from cvxopt import matrix, solvers  # imported here: cvxopt is slow to import

    opts = {"show_progress": False, "maxiters": int(max_iter or 200)}
    if tol is not None:
        opts.update(abstol=tol, reltol=tol, feastol=min(tol, 1e-7))
    args = [matrix(P), matrix(q), matrix(G), matrix(h)]
    if A is not None:
        args += [matrix(A), matrix(b)]
    sol = solvers.qp(*args, options=opts)
    return sol


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
    """Solve the dual; returns dict(alpha, n_iter, converged, status)."""
    P, q, G, h, A, b = dual_qp_matrices(Q, y, C, equality)
    sol = _solve(P, q, G, h, A, b, tol=tol, max_iter=max_iter)
    alpha = np.array(sol["x"]).ravel()
    alpha = np.clip(alpha, 0.0, C)  # interior point stays strictly inside; polish the ends
    return {"alpha": alpha, "n_iter": int(sol["iterations"]),
            "converged": sol["status"] == "optimal",
            "status": f"cvxopt status: {sol['status']}"}


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
    sol = _solve(P, q, G, h, tol=tol, max_iter=max_iter)
    alpha = np.array(sol["z"]).ravel()[:n]
    C_box = C if loss == "hinge" else math.inf
    alpha = np.clip(alpha, 0.0, C_box)
    u = np.array(sol["x"]).ravel()
    return {"alpha": alpha, "n_iter": int(sol["iterations"]),
            "converged": sol["status"] == "optimal",
            "status": f"cvxopt status: {sol['status']} (primal QP)",
            "w_primal": u[:X.shape[1]], "b_primal": float(u[X.shape[1]])}
